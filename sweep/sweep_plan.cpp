#include "sweep_plan.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "tessera/capture/frame_range.h"
#include "tessera/study/configurations.h"
#include "tessera/capture/bytes.h"
#include "tessera/capture/hash.h"
#include "tessera/capture/reader.h"
#include "tessera/model/configuration.h"

namespace tessera::sweep {
namespace {

// Every combination of the grid's values, keys in the grid's order.
std::vector<std::vector<std::pair<std::string, std::string>>> grid_points(const SweepFile& file) {
  std::vector<std::vector<std::pair<std::string, std::string>>> points{{}};
  for (const auto& [key, values] : file.set) {
    std::vector<std::vector<std::pair<std::string, std::string>>> next;
    for (const auto& point : points) {
      for (const std::string& v : values) {
        next.push_back(point);
        next.back().emplace_back(key, v);
      }
    }
    points = std::move(next);
  }
  return points;
}

std::string file_stem(const std::string& capture) {
  std::string stem = std::filesystem::path(capture).stem().string();
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  }
  return stem.empty() ? "capture" : stem;
}

}  // namespace

std::string frames_label(const std::string& frames) { return frames.empty() ? "all" : frames; }

std::vector<SweepConfig> sweep_configs(const SweepFile& file) {
  std::vector<std::string> base_specs;
  try {
    base_specs = study::run_specs(file.configs, file.schemes);
  } catch (const model::ParamError& e) {
    std::string what = e.what();
    if (what.rfind("--schemes: ", 0) == 0) what.erase(0, 11);
    throw SweepError(file.path + ": schemes: " + what);
  }
  std::vector<model::Configuration> bases;
  try {
    bases = model::build_configurations(base_specs, "", "", {});
  } catch (const model::ParamError& e) {
    throw SweepError(file.path + ": configs: " + e.what());
  }
  // A grid key applies to the configurations that have it (replay's --set); one none has is refused.
  for (const auto& entry : file.set) {
    // Named, not a structured binding: clang 14 (the fuzz build's compiler) cannot capture one.
    const std::string& key = entry.first;
    const std::vector<std::string>& values = entry.second;
    const bool used = std::any_of(bases.begin(), bases.end(),
                                  [&](const model::Configuration& c) { return c.params.registry().find(key) != nullptr; });
    if (used) continue;
    for (const model::SchemeInfo& s : model::SchemeRegistry::global().schemes()) {
      if (model::registry_for({&s}).find(key)) {
        throw SweepError(file.path + ": set: no configuration of this sweep has the parameter '" + key +
                         "' (a parameter of scheme " + s.name + ")");
      }
    }
    try {
      model::ParamSet probe(model::registry_for({}));
      probe.apply(key + "=" + values.front());  // names the nearest parameter
    } catch (const model::ParamError& e) {
      throw SweepError(file.path + ": set: " + e.what());
    }
    throw SweepError(file.path + ": set: no configuration of this sweep has the parameter '" + key + "'");
  }
  std::vector<std::string> specs;
  for (const model::Configuration& c : bases) {
    for (const auto& point : grid_points(file)) {
      std::string spec = c.name;
      for (const auto& [key, value] : point) {
        if (c.params.registry().find(key)) spec += "+" + key + "=" + value;
      }
      specs.push_back(spec);
    }
  }
  std::vector<model::Configuration> configs;
  try {
    configs = model::build_configurations(specs, "", "", {});
  } catch (const model::ParamError& e) {
    throw SweepError(file.path + ": set: " + e.what());
  }
  std::vector<SweepConfig> out;
  for (const model::Configuration& c : configs) {
    // A scheme checks its parameters against the GPU's when its model is made (replay refuses
    // such a configuration before shading; a sweep refuses it before running anything).
    try {
      c.make_model();
    } catch (const model::ParamError& e) {
      throw SweepError(file.path + ": configuration '" + c.name + "': " + e.what());
    }
    out.push_back({c.name, results::params_hash(study::stored_params(c.params))});
  }
  return out;
}

Plan plan_sweep(const SweepFile& file) {
  Plan plan;
  plan.configs = sweep_configs(file);
  plan.captures = file.captures.size();
  const std::vector<std::string> ranges = file.frames.empty() ? std::vector<std::string>{""} : file.frames;
  plan.ranges = ranges.size();
  std::map<std::string, std::string> seen;  // fingerprint -> capture
  for (size_t ci = 0; ci < file.captures.size(); ++ci) {
    const std::string& capture = file.captures[ci];
    const std::string where = file.path + ": captures[" + std::to_string(ci) + "]: ";
    const std::filesystem::path path = std::filesystem::path(file.dir) / capture;
    std::string error;
    const auto reader = capture::CaptureReader::open(path.lexically_normal().string(), &error);
    if (!reader) throw SweepError(where + error);
    if (reader->frames().empty()) throw SweepError(where + capture + ": the capture holds no complete frame");
    const std::string fingerprint = reader->fingerprint().hex();
    if (auto [it, fresh] = seen.emplace(fingerprint, capture); !fresh) {
      throw SweepError(where + capture + " is the same capture as " + it->second);
    }
    for (const std::string& frames : ranges) {
      uint32_t first = 1, last = UINT32_MAX;
      if (!frames.empty()) capture::parse_frame_range(frames, &first, &last);
      Job job;
      uint64_t selected = 0;
      for (const capture::FrameInfo& f : reader->frames()) {
        if (f.present <= last) ++job.frames_shaded;
        if (f.present >= first && f.present <= last) ++selected;
      }
      if (selected == 0) {
        throw SweepError(file.path + ": frames '" + frames + "': " + capture + " holds presents " +
                         std::to_string(reader->frames().front().present) + "-" +
                         std::to_string(reader->frames().back().present) + ", none in the range");
      }
      job.dir = file.dir;
      job.capture = capture;
      job.fingerprint = fingerprint;
      job.frames = frames;
      plan.jobs.push_back(std::move(job));
    }
  }
  leave_out_merged(plan, {});
  return plan;
}

void leave_out_merged(Plan& plan, const std::set<results::MergedRun>& merged) {
  std::vector<Job> jobs;
  for (Job& job : plan.jobs) {
    const std::string frames = frames_label(job.frames);
    job.configs.clear();
    std::vector<std::string> lines;
    for (const SweepConfig& c : plan.configs) {
      if (merged.count({job.fingerprint, c.name, c.params_hash, frames})) continue;
      job.configs.push_back(c.name);
      lines.push_back(c.name + "\t" + c.params_hash + "\n");
    }
    // The configurations as a set: the order they are planned in (the registry's order of
    // schemes) does not rename a job's files.
    std::sort(lines.begin(), lines.end());
    std::string identity = job.fingerprint + "\n" + frames + "\n";
    for (const std::string& l : lines) identity += l;
    if (job.configs.empty()) {
      ++plan.complete_jobs;
      continue;
    }
    // The key names what the job runs: the same work has the same files across reruns.
    job.key = file_stem(job.capture) + "-" + frames + "-" +
              capture::hash128(capture::as_bytes_view(identity)).hex().substr(0, 16);
    job.weight = job.frames_shaded * (job.configs.size() + 1);
    jobs.push_back(std::move(job));
  }
  plan.jobs = std::move(jobs);
}

}  // namespace tessera::sweep
