// tessera replay FILE [--db DB] [--png DIR] [--frames A-B] [--config SPEC]... [--schemes all|A,B]
//                     [--set K=V]... [--config-file F] [--no-model] [--quiet] [--threads N]
//                     [--max-memory SIZE] [--stage-times]
//
// The options of a study (shade once, simulate many: study/include/tessera/study/study.h) and its
// output: a progress bar, PNGs of the replayed and presented frames, the results database
// (study::DatabaseSink) and a summary per frame and configuration.
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "commands.h"
#include "png_writer.h"
#include "results_db.h"
#include "tessera/capture/frame_range.h"
#include "tessera/capture/warnings.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/model/configuration.h"
#include "tessera/model/timeline.h"
#include "tessera/study/configurations.h"
#include "tessera/study/study.h"

namespace tessera::cli {
namespace {

struct ReplayOptions {
  std::string file;
  std::string db;
  std::string png_dir;
  std::string frames;
  std::vector<std::string> configs;
  std::string schemes;
  std::vector<std::string> overrides;
  std::string config_file;
  bool no_model = false;
  bool quiet = false;
  unsigned threads = 0;  // tiles shaded and model runs of a frame at once; 0: one per core
  std::string trace;      // --trace: the frame's timeline as trace-event JSON
  uint64_t trace_bin = 1000;
  std::string max_memory;  // --max-memory: empty for the default (frontend::MemoryBudget)
  bool stage_times = false;  // --stage-times: one line of seconds per stage on stderr
};

// All frames when --frames is not given.
bool parse_frames(const std::string& text, uint32_t* first, uint32_t* last) {
  if (!text.empty()) return capture::parse_frame_range(text, first, last);
  *first = 0;
  *last = UINT32_MAX;
  return true;
}

std::string read_text_file(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot read the configuration file";
    return {};
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Progress on stderr for long runs, rewritten in place; silent when stderr is not a terminal.
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  void show(size_t done, size_t total, const std::string& what) {
    if (!enabled_ || total == 0) return;
    const int width = 30;
    const int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * width);
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-40.40s", filled, "##############################",
                 width - filled, "", done, total, what.c_str());
    std::fflush(stderr);
  }
  void finish() {
    if (enabled_) std::fprintf(stderr, "\r%*s\r", 90, "");
  }

 private:
  bool enabled_;
};

std::string psnr_text(const study::FrameOutcome& f) {
  if (!f.psnr_db) return "n/a (" + f.compare_note + ")";
  if (std::isinf(*f.psnr_db)) return "exact";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f dB", *f.psnr_db);
  return buf;
}

// The CLI's sink: progress on the terminal, PNGs when asked, and the database when asked, opened
// once every frame has replayed (a failed run leaves no database behind).
class ReplaySink final : public study::Sink {
 public:
  explicit ReplaySink(const ReplayOptions& opt) : opt_(opt), progress_(!opt.quiet && isatty(fileno(stderr))) {}
  void begin() override {
    if (opt_.png_dir.empty()) return;
    std::error_code ec;
    std::filesystem::create_directories(opt_.png_dir, ec);
    if (ec) throw study::StudyError(opt_.png_dir + ": " + ec.message());
  }
  void progress(size_t done, size_t total, std::string_view what) override {
    progress_.show(done, total, std::string(what));
  }
  void images(uint32_t present, uint32_t width, uint32_t height, std::span<const uint8_t> replayed,
              std::span<const uint8_t> presented) override {
    if (opt_.png_dir.empty()) return;
    std::string error;
    const std::string stem = opt_.png_dir + "/frame" + std::to_string(present);
    if (!image::write_png(stem + ".png", width, height, replayed.data(), &error) ||
        !image::write_png(stem + "-presented.png", width, height, presented.data(), &error)) {
      std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
    }
  }
  void finished(const study::StudyResults& r) override {
    progress_.finish();
    if (opt_.db.empty()) return;
    const auto t0 = std::chrono::steady_clock::now();
    auto db = results::ResultsDb::open(opt_.db);
    study::DatabaseSink(*db).finished(r);
    database_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double database_seconds = 0;
  void stop() { progress_.finish(); }

 private:
  const ReplayOptions& opt_;
  Progress progress_;
};

// Below this PSNR against the presented image a frame is wrong enough that a reader of its
// metrics must be told: the access stream the model saw is not the frame the driver drew. The
// suite's frames are at 41-88 dB; real differences in a frame (a missing object, text, a
// reflection) measured 14-22 dB, and sub-pixel differences in sampling 32-40 dB.
constexpr double kWarnBelowDb = 30.0;

void warn_low_psnr(const std::string& file, const study::StudyResults& r) {
  for (const study::FrameOutcome& f : r.frames) {
    if (!f.psnr_db || *f.psnr_db >= kWarnBelowDb) continue;
    std::fprintf(stderr,
                 "tessera replay: warning: %s: frame %u is %.2f dB from the presented image (below %.0f dB); the "
                 "first render pass that differs: tessera diff %s --frame %u (on a capture made with tessera "
                 "capture --readback passes)\n",
                 file.c_str(), f.present, *f.psnr_db, kWarnBelowDb, file.c_str(), f.present);
  }
}

void print_summary(const study::StudyResults& r) {
  std::printf("%-7s %6s %6s %8s %10s %10s %8s  %s\n", "present", "passes", "draws", "skipped",
              "quads", "fragments", "time s", "PSNR vs presented");
  for (const study::FrameOutcome& f : r.frames) {
    std::printf("%-7u %6llu %6llu %8llu %10llu %10llu %8.2f  %s\n", f.present,
                static_cast<unsigned long long>(f.passes), static_cast<unsigned long long>(f.draws),
                static_cast<unsigned long long>(f.skipped), static_cast<unsigned long long>(f.stats.quads),
                static_cast<unsigned long long>(f.stats.fragments), f.render_seconds,
                psnr_text(f).c_str());
    for (const auto& [reason, count] : f.skips.reasons)
      std::printf("        skipped %llu: %s\n", static_cast<unsigned long long>(count), reason.c_str());
    for (const auto& [reason, count] : f.skips.approximations)
      std::printf("        approximated %llu: %s\n", static_cast<unsigned long long>(count), reason.c_str());
  }
  for (const study::ConfigurationRun& run : r.runs) {
    for (const auto& [index, results] : run.frames) {
      std::printf("%-28s frame %-5u", run.configuration.name.c_str(), r.frames[index].present);
      for (const char* name : {"cycles", "l1tex.hits", "l1tex.accesses", "l2.accesses", "dram.accesses", "energy.total_nj"}) {
        const double v = results.metric(name);
        if (!std::isnan(v)) std::printf("  %s %.0f", name, v);
      }
      std::printf("\n");
      // On stderr, so scripts reading the summary see the same lines as before.
      for (const std::string& w : results.warnings)
        std::fprintf(stderr, "tessera replay: warning: %s frame %u: %s\n", run.configuration.name.c_str(),
                     r.frames[index].present, w.c_str());
    }
  }
}

int run_replay(const ReplayOptions& opt) {
  study::StudySpec spec;
  spec.threads = opt.threads;
  if (!opt.max_memory.empty()) {
    std::string error;
    if (!frontend::parse_memory_size(opt.max_memory, &spec.max_memory, &error)) {
      std::fprintf(stderr, "tessera replay: --max-memory %s\n", error.c_str());
      return 2;
    }
  }
  if (!parse_frames(opt.frames, &spec.first, &spec.last)) {
    std::fprintf(stderr, "tessera replay: --frames '%s': expected A-B or A, presents counted from 1\n",
                 opt.frames.c_str());
    return 2;
  }
  if (opt.no_model && !opt.db.empty()) {
    std::fprintf(stderr, "tessera replay: --db stores GPU model runs; it cannot be used with --no-model\n");
    return 2;
  }
  std::unique_ptr<study::Session> session;
  try {
    session = study::Session::open(opt.file);
  } catch (const study::StudyError& e) {
    std::fprintf(stderr, "tessera replay: %s\n", e.what());
    return 1;
  }
  if (!opt.no_model) {
    std::string error, config_text;
    if (!opt.config_file.empty()) {
      config_text = read_text_file(opt.config_file, &error);
      if (!error.empty()) {
        std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
        return 1;
      }
    }
    try {
      spec.configurations = model::build_configurations(study::run_specs(opt.configs, opt.schemes), config_text,
                                                        opt.config_file, opt.overrides);
    } catch (const model::ParamError& e) {
      std::fprintf(stderr, "tessera replay: %s\n", e.what());
      return 2;
    }
  }
  // --trace: one configuration on one frame, its timeline written once the frame has run.
  std::unique_ptr<model::Timeline> timeline;
  if (!opt.trace.empty()) {
    if (opt.no_model || spec.configurations.size() != 1 || opt.frames.empty() || spec.first != spec.last) {
      std::fprintf(stderr, "tessera replay: --trace records one configuration on one frame: give one --config and "
                           "--frames N (%zu configurations, frames '%s')\n",
                   spec.configurations.size(), opt.frames.c_str());
      return 2;
    }
    timeline = std::make_unique<model::Timeline>(opt.trace_bin);
    spec.timeline = timeline.get();
  }
  {
    // What the layer could not record faithfully, in the frames this replay reads (every frame up
    // to the last reported one replays): before the results, which it may explain.
    std::vector<capture::CaptureWarning> warnings;
    std::string error;
    if (!capture::read_warnings(session->reader(), 0, spec.last, &warnings, &error)) {
      std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
      return 1;
    }
    for (const capture::CaptureWarning& w : warnings) {
      if (w.present != 0)
        std::fprintf(stderr, "tessera replay: %s: capture warning, frame %u: %s\n", opt.file.c_str(), w.present,
                     w.text.c_str());
      else
        std::fprintf(stderr, "tessera replay: %s: capture warning: %s\n", opt.file.c_str(), w.text.c_str());
    }
  }
  ReplaySink sink(opt);
  const auto started = std::chrono::steady_clock::now();
  try {
    const study::StudyResults results = session->run(spec, sink);
    print_summary(results);
    warn_low_psnr(opt.file, results);
    if (opt.stage_times) {
      // On stderr, so the summary on stdout stays the same; bench/replay_scaling.sh reads it.
      const study::StageSeconds& t = results.seconds;
      std::fprintf(stderr,
                   "stage seconds: shading %.3f index %.3f model %.3f profile %.3f compare %.3f images %.3f "
                   "database %.3f study %.3f total %.3f\n",
                   t.shading, t.index, t.model, t.profile, t.compare, t.images, sink.database_seconds, t.wall,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    if (timeline) {
      const model::Configuration& c = spec.configurations[0];
      std::ofstream out(opt.trace, std::ios::binary);
      timeline->write_json(out, static_cast<double>(c.params.get_u32("gpu.freq_mhz")),
                           std::filesystem::path(opt.file).filename().string() + ", frame " + opt.frames + ", " + c.name);
      out.close();
      if (!out) throw study::StudyError(opt.trace + ": cannot write (" + std::strerror(errno) + ")");
      std::printf("trace in %s (%llu-cycle bins)\n", opt.trace.c_str(), static_cast<unsigned long long>(opt.trace_bin));
    }
  } catch (const model::ParamError& e) {
    // A configuration the model refuses when it is made (parameters that contradict each other).
    std::fprintf(stderr, "tessera replay: %s\n", e.what());
    return 2;
  } catch (const study::NoFrameInRange&) {
    sink.stop();
    std::fprintf(stderr, "tessera replay: %s: no captured frame in --frames %s\n", opt.file.c_str(), opt.frames.c_str());
    return 1;
  } catch (const study::ReplayRefused& e) {
    // Its own status (docs/contracts.md): a sweep does not retry what is refused every time.
    sink.stop();
    std::fprintf(stderr, "tessera replay: %s\n", e.what());
    return study::kExitReplayRefused;
  } catch (const std::exception& e) {
    // study::StudyError and results::Error: one line naming the file.
    sink.stop();
    std::fprintf(stderr, "tessera replay: %s\n", e.what());
    return 1;
  }
  if (!opt.db.empty()) std::printf("results in %s\n", opt.db.c_str());
  return 0;
}

}  // namespace

void setup_replay(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<ReplayOptions>();
  auto* cmd = app.add_subcommand("replay", "Replay captured frames through the tile-based GPU model");
  cmd->add_option("file", opt->file, "Capture file (.tcap)")->required();
  cmd->add_option("--db", opt->db, "Results database (SQLite), created or updated");
  cmd->add_option("--png", opt->png_dir, "Write each replayed frame (and the presented one) as PNG here");
  cmd->add_option("--frames", opt->frames, "Presents to report, A-B or A (earlier frames still replay)");
  cmd->add_option("--config", opt->configs,
                  "Configuration PRESET[+SCHEME...] to simulate (repeatable; default mobile4 and mobile32; "
                  "with --schemes, plain presets are where the schemes run)");
  cmd->add_option("--schemes", opt->schemes,
                  "all, or a comma list: run the baseline and every variant of these schemes (tessera schemes)");
  cmd->add_option("--set", opt->overrides,
                  "KEY=VALUE for every configuration that has the parameter (repeatable; refused if none has it)");
  cmd->add_option("--config-file", opt->config_file, "File of KEY=VALUE lines applied before --set");
  cmd->add_flag("--no-model", opt->no_model, "Only render and compare; run no GPU model");
  cmd->add_flag("--quiet", opt->quiet, "No progress bar");
  cmd->add_option("--trace", opt->trace,
                  "With one --config and --frames N: write the frame's model timeline as trace-event JSON "
                  "(Perfetto, chrome://tracing): per shader core its cycles by state, per rasterizer, flush unit, "
                  "L2 and DRAM bank its busy and stall cycles, per core its fragment queue, in bins");
  cmd->add_option("--trace-bin", opt->trace_bin, "Cycles per bin of --trace (default 1000)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--threads", opt->threads,
                  "Threads of the replay (default 0: one per core): the tiles of each render pass, and a frame's "
                  "comparison, profile and configurations, which run while the next frame is shaded; results do not "
                  "depend on it");
  cmd->add_flag("--stage-times", opt->stage_times,
                "Print on stderr one line of seconds per stage: shading (the study's thread), index and model "
                "(summed over threads), profile, compare (PSNR and PNGs, of which images), database, study and "
                "total wall time (bench/replay_scaling.sh)");
  cmd->add_option("--max-memory", opt->max_memory,
                  "Host memory the replay may hold for the capture's memory objects, images and draws, as bytes or "
                  "with K, M, G or T (512M, 12G; default half the machine's memory); a capture needing more stops "
                  "with an error naming the frame and the object");
  cmd->callback([opt, exit_code] { *exit_code = run_replay(*opt); });
}

}  // namespace tessera::cli
