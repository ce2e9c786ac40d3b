// Results databases built row by row for the report's tests: runs of named configurations on
// named captures with exact metric values, written through the same ResultsDb calls tessera
// replay uses. Scheme configurations that the GPU model does not run yet can be fed this way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results_db.h"

namespace tessera::report::fixture {

using Metrics = std::map<std::string, double>;

struct Tile {
  uint32_t x, y;
  std::string metric;
  double value;
};

class FixtureDb {
 public:
  explicit FixtureDb(const std::string& path) : db_(results::ResultsDb::open(path)) {}
  results::ResultsDb& db() { return *db_; }

  // One run: frames by present number, each with its frame metrics; params are config_param rows.
  void run(const std::string& capture, const std::string& config, const std::map<uint32_t, Metrics>& frames,
           const results::Params& params = {}, const std::map<uint32_t, std::vector<Tile>>& tiles = {}) {
    db_->begin();
    results::CaptureRow row;
    row.fingerprint = fingerprint(capture);
    row.name = capture;
    row.frame_count = static_cast<int64_t>(frames.size());
    row.file_bytes = 1000;
    const int64_t cap = db_->put_capture(row);
    const int64_t cfg = db_->put_config(config, params);
    const int64_t run = db_->put_run(cap, cfg);
    for (const auto& [present, metrics] : frames) {
      const int64_t frame = db_->put_frame(cap, present, 64, 32);
      db_->clear_frame(run, frame);
      for (const auto& [name, value] : metrics) db_->put_frame_metric(run, frame, name, value);
      auto t = tiles.find(present);
      if (t != tiles.end()) put_tiles(run, frame, t->second);
    }
    db_->commit();
  }

  // The same metric on frames 1 (cold: sim.warm = 0) and 2, 3 (warm).
  void warm_run(const std::string& capture, const std::string& config, const std::string& metric, double cold,
                double f2, double f3, const results::Params& params = {}) {
    run(capture, config,
        {{1, {{metric, cold}, {"sim.warm", 0}}}, {2, {{metric, f2}, {"sim.warm", 1}}}, {3, {{metric, f3}, {"sim.warm", 1}}}},
        params);
  }

 private:
  // One grid per metric over the frame's extent (the tiles any metric names), as tessera replay.
  void put_tiles(int64_t run, int64_t frame, const std::vector<Tile>& tiles) {
    uint32_t w = 0, h = 0;
    for (const Tile& t : tiles) {
      w = std::max(w, t.x + 1);
      h = std::max(h, t.y + 1);
    }
    std::map<std::string, results::TileGrid> grids;
    for (const Tile& t : tiles) {
      auto& g = grids[t.metric];
      if (g.values.empty()) g = {w, std::vector<std::optional<double>>(static_cast<size_t>(w) * h)};
      g.values[static_cast<size_t>(t.y) * w + t.x] = t.value;
    }
    for (const auto& [metric, grid] : grids) db_->put_tile_grid(run, frame, metric, grid);
  }

  static std::string fingerprint(const std::string& name) {
    // 32 hex digits from the name (FNV-1a twice): a distinct capture per name.
    uint64_t h1 = 1469598103934665603ull, h2 = 1099511628211ull;
    for (unsigned char c : name) {
      h1 = (h1 ^ c) * 1099511628211ull;
      h2 = (h2 ^ c) * 1469598103934665603ull + 7;
    }
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(h1),
                  static_cast<unsigned long long>(h2));
    return buf;
  }
  std::unique_ptr<results::ResultsDb> db_;
};

}  // namespace tessera::report::fixture
