// DatabaseSink: a study's results into the results database (study.h; schema/sqlite).
#include <cmath>
#include <initializer_list>
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "tessera/study/configurations.h"
#include "tessera/study/study.h"

namespace tessera::study {

std::vector<std::pair<std::string, double>> replay_metrics(const FrameOutcome& f) {
  std::vector<std::pair<std::string, double>> m = {
      // "draws" itself comes from the model (Draw events of the stream: draws rendered).
      {"replay.draws_submitted", static_cast<double>(f.draws)},
      {"replay.passes", static_cast<double>(f.passes)},
      {"replay.skipped", static_cast<double>(f.skipped)},
      {"replay.approximated", static_cast<double>(f.approximated)},
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
  // match is stored as 999 dB.
  if (f.psnr_db) m.emplace_back("replay.psnr_db", std::isinf(*f.psnr_db) ? 999.0 : *f.psnr_db);
  for (auto& metric : stream::workload_metrics(f.workload)) m.push_back(std::move(metric));
  return m;
}

namespace {

// One frame of one run: the replay's metrics, then the model's.
void put_frame(results::ResultsDb& db, int64_t run_id, int64_t frame_id, const FrameOutcome& f,
               const model::FrameResults& results) {
  db.clear_frame(run_id, frame_id);
  for (const auto& [name, value] : replay_metrics(f)) db.put_frame_metric(run_id, frame_id, name, value);
  for (const auto& [name, value] : results.frame_metrics) db.put_frame_metric(run_id, frame_id, name, value);
  // The database keys tiles by screen position: a frame's passes add up per tile (the per-tile
  // metrics are sums; deviations are averaged below). Each metric is one grid over the frame's
  // extent (every tile any pass touched); a tile the metric has no value for stays empty.
  std::map<std::string, std::map<std::pair<uint32_t, uint32_t>, std::pair<double, uint32_t>>> tiles;
  uint32_t tiles_x = 0, tiles_y = 0;
  for (const auto& t : results.tile_metrics) {
    auto& [sum, n] = tiles[t.metric][{t.tile_y, t.tile_x}];
    sum += t.value;
    ++n;
    tiles_x = std::max(tiles_x, t.tile_x + 1);
    tiles_y = std::max(tiles_y, t.tile_y + 1);
  }
  for (const auto& [metric, cells] : tiles) {
    const bool mean = metric.find("deviation") != std::string::npos;
    results::TileGrid grid{tiles_x, std::vector<std::optional<double>>(static_cast<size_t>(tiles_x) * tiles_y)};
    for (const auto& [yx, value] : cells) {
      const auto& [sum, n] = value;
      grid.values[static_cast<size_t>(yx.first) * tiles_x + yx.second] = mean ? sum / n : sum;
    }
    db.put_tile_grid(run_id, frame_id, metric, grid);
  }
  for (const auto& c : results.core_metrics) db.put_core_metric(run_id, frame_id, c.core, c.metric, c.value);
}

}  // namespace

void DatabaseSink::finished(const StudyResults& r) {
  for (const ConfigurationRun& run : r.runs) {
    db_.begin();
    try {
      results::CaptureRow row;
      row.fingerprint = r.fingerprint;
      row.name = r.capture;
      row.frame_count = static_cast<int64_t>(r.capture_frames);
      row.file_bytes = static_cast<int64_t>(r.capture_bytes);
      const int64_t capture_id = db_.put_capture(row);
      const int64_t config_id = db_.put_config(run.configuration.name, stored_params(run.configuration.params));
      const int64_t run_id = db_.put_run(capture_id, config_id);
      db_.replace_runs_named(capture_id, run.configuration.name, config_id);
      for (const auto& [index, results] : run.frames) {
        const FrameOutcome& f = r.frames[index];
        put_frame(db_, run_id, db_.put_frame(capture_id, f.present, f.width, f.height), f, results);
      }
      db_.commit();
    } catch (...) {
      db_.rollback();
      throw;
    }
  }
}

}  // namespace tessera::study
