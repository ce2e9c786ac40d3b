// tessera replay FILE [--db DB] [--png DIR] [--frames A-B] [--config SPEC]... [--schemes all|A,B]
//                     [--set K=V]... [--config-file F] [--no-model] [--quiet]
//
// Shade once, simulate many (docs/architecture.md, "Data flow"): each captured frame is rendered once per tile
// size the configurations ask for by the functional tile-based renderer, which records the
// frame's access stream; the stream is indexed once and every configuration (a preset plus
// schemes, model/configuration.h) replays it. Each configuration's model keeps its caches warm
// from frame to frame. The replayed image is compared with the image the application presented
// (PSNR), and everything lands in the results database, one transaction per run (a run = one
// configuration on one capture).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "commands.h"
#include "tessera/capture/frame_range.h"
#include "image_compare.h"
#include "png_writer.h"
#include "replay_configs.h"
#include "results_db.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/frontend/replay.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/params.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/access_stream.h"
#include "tessera/stream/workload_profile.h"

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
};

// A configuration with its model, which simulates the run's frames in order.
struct ConfigRun {
  model::Configuration config;
  std::unique_ptr<model::GpuModel> model;
  // Results of every replayed frame, written in one transaction at the end of the run.
  std::vector<std::pair<size_t, model::FrameResults>> frames;
};

// One rendering of the capture per tile size (gpu.tile_width x gpu.tile_height): the renderer
// tiles the frame and records the stream with it. Each pass replays the capture from its start
// (its own objects and images), so any number of tile sizes serve one run.
struct ShadingPass {
  uint32_t tile_width = 32, tile_height = 32;
  std::unique_ptr<frontend::CaptureReplay> replay;
  stream::StreamWriter writer;
  std::unique_ptr<render::Renderer> renderer;
  std::vector<size_t> configs;  // indices into the run's configurations
};

struct FrameOutcome {
  uint32_t present = 0;
  uint32_t width = 0, height = 0;
  std::optional<double> psnr_db;
  std::string compare_note;  // why there is no PSNR
  uint64_t draws = 0, passes = 0, skipped = 0;
  render::RenderStats stats;
  render::ComputeStats compute;
  frontend::SkipCounts skips;
  uint64_t stream_bytes = 0;
  double render_seconds = 0;
  stream::WorkloadProfile workload;  // workload.* metrics, from the frame's access stream
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

// Size of the image the frame presented (the FrameBegin event carries it), read from the frame's
// PresentedImage record before the frame is replayed; 0 x 0 when the capture has none.
std::pair<uint32_t, uint32_t> presented_size(const capture::CaptureReader& reader, size_t frame) {
  std::pair<uint32_t, uint32_t> size{0, 0};
  std::string error;
  reader.read_frame(
      frame,
      [&](uint32_t kind, std::span<const std::byte> body) {
        if (kind != static_cast<uint32_t>(capture::RecordKind::kPresentedImage)) return true;
        if (auto p = capture::decode_record<capture::PresentedImageRecord>(body)) size = {p->width, p->height};
        return false;
      },
      &error);
  return size;
}

// Compares the replayed swapchain image with the presented pixels; writes PNGs when asked.
void compare_presented(const ReplayOptions& opt, frontend::CaptureReplay& replay,
                       const frontend::PresentedImage& presented, FrameOutcome* out) {
  const frontend::Image* image = replay.find_image(presented.swapchain_image);
  if (image == nullptr || !image->defined || image->planes.empty()) {
    out->compare_note = "presented image was not rendered by the replay";
    return;
  }
  std::string error;
  std::vector<uint8_t> replayed, reference;
  const auto& plane = image->subresource(frontend::Aspect::ColorOrDepth, 0, 0);
  if (!image::to_rgba8(image->format, image->width, image->height, plane, &replayed, &error) ||
      !image::to_rgba8(presented.format, presented.width, presented.height, presented.pixels,
                          &reference, &error)) {
    out->compare_note = error;
    return;
  }
  if (image->width != presented.width || image->height != presented.height) {
    out->compare_note = "replayed image is " + std::to_string(image->width) + "x" +
                        std::to_string(image->height) + ", presented " +
                        std::to_string(presented.width) + "x" + std::to_string(presented.height);
    return;
  }
  out->psnr_db = image::psnr_rgb(replayed.data(), reference.data(),
                                    static_cast<size_t>(presented.width) * presented.height)
                     .psnr_db;
  if (!opt.png_dir.empty()) {
    const std::string stem = opt.png_dir + "/frame" + std::to_string(presented.present);
    if (!image::write_png(stem + ".png", presented.width, presented.height, replayed.data(), &error) ||
        !image::write_png(stem + "-presented.png", presented.width, presented.height,
                             reference.data(), &error)) {
      std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
    }
  }
}

// Frame metrics of the functional pass, stored with every configuration's run so one SQL query
// over frame_metrics sees them next to the model's figures (docs/contracts.md names).
std::vector<std::pair<std::string, double>> replay_metrics(const FrameOutcome& f) {
  std::vector<std::pair<std::string, double>> m = {
      // "draws" itself comes from the model (Draw events of the stream: draws rendered).
      {"replay.draws_submitted", static_cast<double>(f.draws)},
      {"replay.passes", static_cast<double>(f.passes)},
      {"replay.skipped", static_cast<double>(f.skipped)},
      {"replay.stream_bytes", static_cast<double>(f.stream_bytes)},
      {"replay.render_seconds", f.render_seconds},
  };
  // The renderer's own counts of what it wrote into the stream, so SQL can reconcile the model's
  // counters with them (a frame's texture accesses equal the stream's count).
  const render::RenderStats& r = f.stats;
  for (const auto& [name, value] : std::initializer_list<std::pair<const char*, uint64_t>>{
           {"replay.quads", r.quads},
           {"replay.fragments", r.fragments},
           {"replay.fragments_shaded", r.fragments_shaded},
           {"replay.fragment_instructions", r.fragment_instructions},
           {"replay.vertices_shaded", r.vertices_shaded},
           {"replay.vertex_instructions", r.vertex_instructions},
           {"replay.primitives_binned", r.primitives_binned},
           {"replay.texture_samples", r.texture_samples},
           {"replay.texture_lines", r.texture_lines},
           {"replay.vertex_texture_samples", r.vertex_texture_samples},
           {"replay.vertex_texture_lines", r.vertex_texture_lines},
           {"replay.pb_writes", r.pb_writes},
           {"replay.pb_reads", r.pb_reads},
           {"replay.vertex_fetches", r.vertex_fetches},
           {"replay.attachment_loads", r.attachment_loads},
           {"replay.attachment_stores", r.attachment_stores},
           // Compute work run for its results; not in the stream (not render pass work).
           {"replay.dispatches", f.compute.dispatches},
           {"replay.compute_invocations", f.compute.invocations},
           {"replay.compute_instructions", f.compute.instructions}}) {
    m.emplace_back(name, static_cast<double>(value));
  }
  // Identical images have infinite PSNR; SQLite REAL cannot hold infinity portably, so an exact
  // match is stored as 999 dB (and printed as "exact").
  if (f.psnr_db) m.emplace_back("replay.psnr_db", std::isinf(*f.psnr_db) ? 999.0 : *f.psnr_db);
  for (auto& metric : stream::workload_metrics(f.workload)) m.push_back(std::move(metric));
  return m;
}

std::string psnr_text(const FrameOutcome& f) {
  if (!f.psnr_db) return "n/a (" + f.compare_note + ")";
  if (std::isinf(*f.psnr_db)) return "exact";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f dB", *f.psnr_db);
  return buf;
}

void write_database(const ReplayOptions& opt, const capture::CaptureReader& reader,
                    const std::vector<FrameOutcome>& outcomes, std::vector<ConfigRun>& runs) {
  auto db = results::ResultsDb::open(opt.db);
  for (ConfigRun& run : runs) {
    db->begin();
    try {
      results::CaptureRow row;
      row.fingerprint = reader.fingerprint().hex();
      row.name = opt.file;
      row.frame_count = static_cast<int64_t>(reader.frames().size());
      row.file_bytes = static_cast<int64_t>(reader.summary().file_bytes);
      const int64_t capture_id = db->put_capture(row);
      const int64_t config_id = db->put_config(run.config.name, stored_params(run.config.params));
      const int64_t run_id = db->put_run(capture_id, config_id);
      db->replace_runs_named(capture_id, run.config.name, config_id);
      for (auto& [index, results] : run.frames) {
        const FrameOutcome& f = outcomes[index];
        const int64_t frame_id = db->put_frame(capture_id, f.present, f.width, f.height);
        db->clear_frame(run_id, frame_id);
        for (const auto& [name, value] : replay_metrics(f)) db->put_frame_metric(run_id, frame_id, name, value);
        for (const auto& [name, value] : results.frame_metrics) db->put_frame_metric(run_id, frame_id, name, value);
        // The database keys tiles by screen position: a frame's passes add up per tile (the
        // per-tile metrics are sums; deviations are averaged below).
        std::map<std::tuple<uint32_t, uint32_t, std::string>, std::pair<double, uint32_t>> tiles;
        for (const auto& t : results.tile_metrics) {
          auto& [sum, n] = tiles[{t.tile_x, t.tile_y, t.metric}];
          sum += t.value;
          ++n;
        }
        for (const auto& [key, value] : tiles) {
          const auto& [sum, n] = value;
          const bool mean = std::get<2>(key).find("deviation") != std::string::npos;
          db->put_tile_metric(run_id, frame_id, std::get<0>(key), std::get<1>(key), std::get<2>(key), mean ? sum / n : sum);
        }
        for (const auto& c : results.core_metrics) db->put_core_metric(run_id, frame_id, c.core, c.metric, c.value);
      }
      db->commit();
    } catch (...) {
      db->rollback();
      throw;
    }
  }
}

// Calls work(k) for every k < n on up to `threads` threads (this one included), each k once.
// The configurations of a frame are independent models over one read-only IndexedFrame, so
// running them at once changes no result.
template <typename Work>
void for_each_parallel(size_t n, unsigned threads, Work work) {
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t k = next++; k < n; k = next++) work(k);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads && t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
}

int run_replay(const ReplayOptions& opt) {
  uint32_t first = 0, last = 0;
  if (!parse_frames(opt.frames, &first, &last)) {
    std::fprintf(stderr, "tessera replay: --frames '%s': expected A-B or A, presents counted from 1\n",
                 opt.frames.c_str());
    return 2;
  }
  if (opt.no_model && !opt.db.empty()) {
    std::fprintf(stderr, "tessera replay: --db stores GPU model runs; it cannot be used with --no-model\n");
    return 2;
  }
  const unsigned threads = opt.threads != 0 ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  std::string error;
  auto reader = capture::CaptureReader::open(opt.file, &error);
  if (!reader) {
    std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
    return 1;
  }
  if (reader->frames().empty()) {
    std::fprintf(stderr, "tessera replay: %s: the capture holds no complete frame\n", opt.file.c_str());
    return 1;
  }

  std::vector<ConfigRun> runs;
  if (!opt.no_model) {
    std::string config_text;
    if (!opt.config_file.empty()) {
      config_text = read_text_file(opt.config_file, &error);
      if (!error.empty()) {
        std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
        return 1;
      }
    }
    try {
      for (model::Configuration& c : model::build_configurations(run_specs(opt.configs, opt.schemes), config_text, opt.config_file, opt.overrides)) {
        std::unique_ptr<model::GpuModel> m = c.make_model();
        runs.push_back(ConfigRun{std::move(c), std::move(m), {}});
      }
    } catch (const model::ParamError& e) {
      std::fprintf(stderr, "tessera replay: %s\n", e.what());
      return 2;
    }
  }
  // One shading pass per tile size (the first one also gives the frames' PSNR and PNGs).
  std::vector<std::unique_ptr<ShadingPass>> shading;
  auto pass_for = [&](uint32_t w, uint32_t h) -> ShadingPass& {
    for (auto& s : shading) {
      if (s->tile_width == w && s->tile_height == h) return *s;
    }
    auto s = std::make_unique<ShadingPass>();
    s->tile_width = w;
    s->tile_height = h;
    shading.push_back(std::move(s));
    return *shading.back();
  };
  if (runs.empty()) pass_for(32, 32);
  for (size_t i = 0; i < runs.size(); ++i) {
    const model::ParamSet& p = runs[i].config.params;
    pass_for(p.get_u32("gpu.tile_width"), p.get_u32("gpu.tile_height")).configs.push_back(i);
  }
  for (auto& s : shading) {
    s->replay = frontend::CaptureReplay::open(*reader, &error);
    if (!s->replay) {
      std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
      return 1;
    }
    render::RenderConfig rc;
    rc.tile_width = s->tile_width;
    rc.tile_height = s->tile_height;
    rc.threads = threads;  // the tiles of each render pass; the model runs after shading use the same threads
    s->renderer = std::make_unique<render::Renderer>(&s->writer, rc);
  }
  if (!opt.png_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(opt.png_dir, ec);
    if (ec) {
      std::fprintf(stderr, "tessera replay: %s: %s\n", opt.png_dir.c_str(), ec.message().c_str());
      return 1;
    }
  }

  // Frames replay in capture order from the first: each frame's resources are what the previous
  // frames left (render targets sampled later, buffers written by transfers).
  const auto& frames = reader->frames();
  size_t end = 0;
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i].present <= last) end = i + 1;
  std::vector<FrameOutcome> outcomes;
  Progress progress(!opt.quiet && isatty(fileno(stderr)));
  for (size_t i = 0; i < end; ++i) {
    const bool selected = frames[i].present >= first && frames[i].present <= last;
    const auto [width, height] = presented_size(*reader, i);
    FrameOutcome f;
    f.present = frames[i].present;
    for (size_t pi = 0; pi < shading.size(); ++pi) {
      ShadingPass& s = *shading[pi];
      progress.show(i, end, "frame " + std::to_string(f.present) + ": shading " + std::to_string(s.tile_width) + "x" +
                                std::to_string(s.tile_height));
      frontend::FrameResult result;
      const auto t0 = std::chrono::steady_clock::now();
      s.renderer->reset_stats();
      s.writer.frame_begin(f.present, width, height);
      if (!s.replay->replay_frame(i, *s.renderer, &result, &error)) {
        progress.finish();
        std::fprintf(stderr, "tessera replay: %s\n", error.c_str());
        return 1;
      }
      s.writer.frame_end();
      std::vector<uint8_t> stream = s.writer.finish();
      if (pi == 0) {
        f.stats = s.renderer->frame_stats();
        f.compute = s.renderer->compute_stats();
        f.render_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        f.draws = result.draws;
        f.passes = result.passes;
        f.skips = result.skipped;
        f.skipped = result.skipped.total();
        f.stream_bytes = stream.size();
        if (result.presented) {
          f.width = result.presented->width;
          f.height = result.presented->height;
          // Frames before --frames only carry state forward: no comparison, no PNG.
          if (selected) compare_presented(opt, *s.replay, *result.presented, &f);
        } else {
          f.compare_note = "the capture holds no presented image for this frame";
        }
        // The workload is what was drawn, the same for every tile size: profile one stream.
        if (selected && !stream::profile_frame(stream, &f.workload, &error)) {
          progress.finish();
          std::fprintf(stderr, "tessera replay: %s: frame %u: access stream %s\n", opt.file.c_str(), f.present,
                       error.c_str());
          return 1;
        }
      }
      if (!selected || s.configs.empty()) continue;
      // Index the frame once for every configuration of this tile size.
      const std::unique_ptr<model::IndexedFrame> indexed = model::IndexedFrame::build(stream, &error);
      if (!indexed) {
        progress.finish();
        std::fprintf(stderr, "tessera replay: %s: frame %u: %s\n", opt.file.c_str(), f.present, error.c_str());
        return 1;
      }
      const size_t n = s.configs.size();
      progress.show(i, end, "frame " + std::to_string(f.present) + ": " + std::to_string(n) + " configuration" +
                                (n == 1 ? "" : "s") + " on " + std::to_string(std::min<size_t>(threads, n)) + " thread" +
                                (std::min<size_t>(threads, n) == 1 ? "" : "s"));
      std::vector<model::FrameResults> results(n);
      std::vector<std::string> errors(n);
      std::vector<char> ran(n, 0);
      for_each_parallel(n, threads, [&](size_t k) {
        try {
          ran[k] = runs[s.configs[k]].model->run(*indexed, results[k], &errors[k]) ? 1 : 0;
        } catch (const std::exception& e) {
          errors[k] = e.what();
        }
      });
      for (size_t k = 0; k < n; ++k) {
        ConfigRun& run = runs[s.configs[k]];
        if (!ran[k]) {
          progress.finish();
          std::fprintf(stderr, "tessera replay: %s: frame %u, config %s: %s\n", opt.file.c_str(), f.present,
                       run.config.name.c_str(), errors[k].c_str());
          return 1;
        }
        run.frames.emplace_back(outcomes.size(), std::move(results[k]));
      }
    }
    if (selected) outcomes.push_back(std::move(f));
  }
  progress.finish();
  if (outcomes.empty()) {
    std::fprintf(stderr, "tessera replay: %s: no captured frame in --frames %s\n", opt.file.c_str(),
                 opt.frames.c_str());
    return 1;
  }

  if (!opt.db.empty()) {
    try {
      write_database(opt, *reader, outcomes, runs);
    } catch (const results::Error& e) {
      std::fprintf(stderr, "tessera replay: %s\n", e.what());
      return 1;
    }
  }

  // Summary: one line per frame, then one per configuration and frame.
  std::printf("%-7s %6s %6s %8s %10s %10s %8s  %s\n", "present", "passes", "draws", "skipped",
              "quads", "fragments", "time s", "PSNR vs presented");
  for (const FrameOutcome& f : outcomes) {
    std::printf("%-7u %6llu %6llu %8llu %10llu %10llu %8.2f  %s\n", f.present,
                static_cast<unsigned long long>(f.passes), static_cast<unsigned long long>(f.draws),
                static_cast<unsigned long long>(f.skipped), static_cast<unsigned long long>(f.stats.quads),
                static_cast<unsigned long long>(f.stats.fragments), f.render_seconds,
                psnr_text(f).c_str());
    for (const auto& [reason, count] : f.skips.reasons)
      std::printf("        skipped %llu: %s\n", static_cast<unsigned long long>(count), reason.c_str());
  }
  for (const ConfigRun& run : runs) {
    for (const auto& [index, results] : run.frames) {
      std::printf("%-28s frame %-5u", run.config.name.c_str(), outcomes[index].present);
      for (const char* name : {"cycles", "l1tex.hits", "l1tex.accesses", "l2.accesses", "dram.accesses", "energy.total_nj"}) {
        const double v = results.metric(name);
        if (!std::isnan(v)) std::printf("  %s %.0f", name, v);
      }
      std::printf("\n");
    }
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
  cmd->add_option("--threads", opt->threads,
                  "Threads a frame is shaded on (the tiles of each render pass) and configurations of a frame simulated "
                  "at once (default 0: one thread per core); results do not depend on it");
  cmd->callback([opt, exit_code] { *exit_code = run_replay(*opt); });
}

}  // namespace tessera::cli
