#include "sweep_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tessera/capture/frame_range.h"

namespace tessera::sweep {
namespace {

using nlohmann::json;

constexpr std::string_view kExample = R"({
  "captures": ["vkcube.tcap", "glmark2-texture.tcap", "vkscene.tcap"],
  "frames": "3-4",
  "configs": ["mobile4", "mobile4-64k"],
  "schemes": "dtexl",
  "set": {"l1tex.size": ["16KiB", "32KiB"], "l2.size": "2MiB"},
  "slurm": {"partition": "batch", "time": "00:30:00", "mem": "4G", "cpus-per-task": 1,
            "max-running": 50, "extra": ["--nice=10"]}
}
)";

// Keys of the file and of its "slurm" object; Slurm keys are sbatch's long option names.
const std::vector<std::string> kKeys = {"captures", "frames", "configs", "schemes", "set", "slurm"};
const std::vector<std::string> kSlurmOptions = {"partition", "account", "qos", "time", "mem", "mem-per-cpu",
                                                "cpus-per-task", "constraint", "gres"};

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw SweepError(path_ + ": " + (where.empty() ? "" : where + ": ") + problem);
  }

  json parse(std::string_view text) const {
    // nlohmann keeps the last of two equal keys; a sweep file naming a key twice is a mistake.
    std::vector<std::set<std::string>> keys;
    std::string duplicate;
    const json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
      if (event == json::parse_event_t::object_start) keys.emplace_back();
      if (event == json::parse_event_t::object_end) keys.pop_back();
      if (event == json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second &&
          duplicate.empty()) {
        duplicate = parsed.get<std::string>();
      }
      return true;
    };
    json root;
    try {
      root = json::parse(text.begin(), text.end(), callback);
    } catch (const json::exception& e) {
      // parse_error for bad syntax, out_of_range for a number beyond what a double or a 64-bit
      // integer holds (1e400): both are the file's fault.
      std::string what = e.what();
      const size_t bracket = what.find("] ");
      fail("", "not valid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2)));
    }
    if (!duplicate.empty()) fail("", "key '" + duplicate + "' appears twice in one object");
    if (!root.is_object()) fail("", "expected a JSON object with \"captures\" (tessera sweep --example prints one)");
    return root;
  }

  std::string text(const json& value, const std::string& where) const {
    if (value.is_string()) {
      const auto& s = value.get_ref<const std::string&>();
      if (s.empty()) fail(where, "empty string");
      if (s.find_first_of("\r\n") != std::string::npos) fail(where, "a line break inside a value");
      return s;
    }
    if (value.is_number() || value.is_boolean()) return value.dump();
    fail(where, std::string("expected a string or a number, found ") + value.type_name());
  }

  // A string, or a non-empty array of strings.
  std::vector<std::string> texts(const json& value, const std::string& where, bool strings_only = true) const {
    if (!value.is_array()) return {scalar(value, where, strings_only)};
    if (value.empty()) fail(where, "empty list");
    std::vector<std::string> out;
    for (size_t i = 0; i < value.size(); ++i) out.push_back(scalar(value[i], where + "[" + std::to_string(i) + "]", strings_only));
    return out;
  }

  std::string scalar(const json& value, const std::string& where, bool strings_only) const {
    if (strings_only && !value.is_string()) fail(where, std::string("expected a string, found ") + value.type_name());
    return text(value, where);
  }

  void unknown_keys(const json& object, const std::vector<std::string>& known, const std::string& where) const {
    for (const auto& [key, value] : object.items()) {
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        fail(where, "unknown key '" + key + "' (known: " + join(known) + ")");
      }
    }
  }

  std::vector<std::string> frames(const json& value) const {
    std::vector<std::string> ranges = texts(value, "frames");
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (size_t i = 0; i < ranges.size(); ++i) {
      uint32_t first = 0, last = 0;
      if (!capture::parse_frame_range(ranges[i], &first, &last)) {
        fail(value.is_array() ? "frames[" + std::to_string(i) + "]" : "frames",
             "'" + ranges[i] + "' is not a frame range (A-B or A, presents counted from 1)");
      }
      spans.emplace_back(first, last);
    }
    // A frame in two ranges would be written by two jobs with different cache warm-up.
    for (size_t i = 0; i < spans.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (spans[i].first <= spans[j].second && spans[j].first <= spans[i].second) {
          fail("frames", "ranges '" + ranges[j] + "' and '" + ranges[i] + "' overlap");
        }
      }
    }
    return ranges;
  }

  SlurmResources slurm(const json& value) const {
    if (!value.is_object()) fail("slurm", std::string("expected an object, found ") + value.type_name());
    std::vector<std::string> known = kSlurmOptions;
    known.insert(known.end(), {"max-running", "extra"});
    unknown_keys(value, known, "slurm");
    SlurmResources r;
    for (const auto& [key, v] : value.items()) {
      const std::string where = "slurm." + key;
      if (key == "extra") {
        r.extra = texts(v, where);
      } else if (key == "max-running") {
        if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 1000000) {
          fail(where, "expected a whole number of tasks from 1");
        }
        r.max_running = v.get<int>();
      } else {
        if (key == "cpus-per-task" && (!v.is_number_integer() || v.get<int64_t>() < 1)) {
          fail(where, "expected a whole number of CPUs from 1");
        }
        r.options.emplace_back(key, text(v, where));
      }
    }
    return r;
  }

  std::vector<std::pair<std::string, std::vector<std::string>>> grid(const json& value) const {
    if (!value.is_object()) fail("set", std::string("expected an object of parameter values, found ") + value.type_name());
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto& [key, v] : value.items()) {
      if (key.empty() || key.find_first_of("=+ \t") != std::string::npos) fail("set", "'" + key + "' is not a parameter name");
      std::vector<std::string> values = texts(v, "set." + key, false);
      std::set<std::string> seen;
      for (const auto& x : values) {
        if (!seen.insert(x).second) fail("set." + key, "value '" + x + "' listed twice");
        if (x.find('+') != std::string::npos) fail("set." + key, "'" + x + "': a value cannot hold '+' (it separates a configuration's parts)");
      }
      out.emplace_back(key, std::move(values));
    }
    return out;
  }

  SweepFile sweep(std::string_view text_in) const {
    const json root = parse(text_in);
    unknown_keys(root, kKeys, "");
    SweepFile f;
    f.path = path_;
    f.dir = std::filesystem::absolute(std::filesystem::path(path_)).parent_path().lexically_normal().string();
    if (!root.contains("captures")) fail("", "no \"captures\" (a list of .tcap files, relative to the sweep file)");
    f.captures = texts(root["captures"], "captures");
    if (root.contains("frames")) f.frames = frames(root["frames"]);
    if (root.contains("configs")) f.configs = texts(root["configs"], "configs");
    if (root.contains("schemes")) {
      std::string list;
      for (const auto& s : texts(root["schemes"], "schemes")) list += (list.empty() ? "" : ",") + s;
      f.schemes = list;
    }
    if (root.contains("set")) f.set = grid(root["set"]);
    if (root.contains("slurm")) f.slurm = slurm(root["slurm"]);
    return f;
  }

 private:
  std::string path_;
};

}  // namespace

SweepFile parse_sweep_file(std::string_view text, const std::string& path) { return Parser(path).sweep(text); }

SweepFile read_sweep_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SweepError(path + ": cannot read the sweep file: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_sweep_file(text.str(), path);
}

std::string_view example_sweep_file() { return kExample; }

}  // namespace tessera::sweep
