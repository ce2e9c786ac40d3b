#include "heatmaps.h"

#include "report_queries.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace tessera::report {

bool is_difference_view(const std::string& view) { return view.find("\u2212") != std::string::npos; }

bool metric_before(const std::string& a, const std::string& b) {
  auto rank = [](const std::string& m) -> std::pair<int, long> {
    if (m == "cycles") return {0, 0};
    if (m == "quads") return {1, 0};
    if (m.rfind("core.", 0) == 0) return {2, std::strtol(m.c_str() + 5, nullptr, 10)};
    return {3, 0};
  };
  const auto ra = rank(a), rb = rank(b);
  return ra != rb ? ra < rb : a < b;
}

uint8_t heat_map_level(double value, double lo, double hi, int steps) {
  if (!(hi > lo) || !std::isfinite(value)) return 0;
  const double t = std::round((value - lo) / (hi - lo) * steps);
  return static_cast<uint8_t>(std::clamp(t, 0.0, double(steps)));
}

namespace {

std::string deflate_levels(const std::string& levels) {
  uLongf size = compressBound(static_cast<uLong>(levels.size()));
  std::string out(size, '\0');
  const int rc = compress2(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(levels.data()),
                           static_cast<uLong>(levels.size()), 9);
  if (rc != Z_OK) throw std::runtime_error("heat maps: zlib compress2 failed (" + std::to_string(rc) + ")");
  out.resize(size);
  return out;
}

}  // namespace

std::vector<PackedCapture> pack_heat_maps(const HeatMaps& h) {
  std::vector<PackedCapture> out;
  for (const auto& [capture, views] : h.captures) {
    PackedCapture p;
    p.capture = capture;
    std::set<std::string, decltype(&metric_before)> metrics(&metric_before);
    for (const auto& [view, ms] : views)
      for (const auto& [m, g] : ms) {
        metrics.insert(m);
        p.width = std::max(p.width, g.width);
        p.height = std::max(p.height, g.height);
        for (const auto& [xy, v] : g.cells) {  // a grid that lost its size still fits
          p.width = std::max(p.width, xy.first + 1);
          p.height = std::max(p.height, xy.second + 1);
        }
      }
    p.metrics.assign(metrics.begin(), metrics.end());
    // Plain configurations first, then the differences.
    for (int diff = 0; diff < 2; ++diff)
      for (const auto& [view, ms] : views)
        if (is_difference_view(view) == (diff == 1)) p.views.push_back({view, diff == 1, {}});

    const size_t tiles = size_t(p.width) * p.height;
    std::string levels;
    std::unordered_map<std::string, uint32_t> stored;  // a grid's levels -> its offset
    std::vector<double> values(tiles);
    std::string grid_levels(tiles, '\0');
    for (const std::string& metric : p.metrics) {
      for (PackedView& pv : p.views) {
        const auto& ms = views.at(pv.name);
        const auto g = ms.find(metric);
        if (g == ms.end()) continue;  // not measured in this view (fewer cores)
        std::fill(values.begin(), values.end(), 0.0);
        for (const auto& [xy, v] : g->second.cells) values[size_t(xy.second) * p.width + xy.first] = v;
        double lo = INFINITY, hi = -INFINITY;
        for (double v : values)
          if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
          }
        if (!(lo <= hi)) lo = hi = 0;  // no finite value
        if (pv.diff) {
          const double span = std::max(std::fabs(lo), std::fabs(hi));
          lo = span > 0 ? -span : 0.0;  // no change anywhere: [0, 0], not [-0, 0]
          hi = span;
        }
        const int steps = pv.diff ? kHeatMapDifferenceSteps : kHeatMapSteps;
        for (size_t i = 0; i < tiles; ++i) grid_levels[i] = static_cast<char>(heat_map_level(values[i], lo, hi, steps));
        auto [it, added] = stored.try_emplace(grid_levels, static_cast<uint32_t>(levels.size()));
        if (added) {
          if (levels.size() + tiles > UINT32_MAX)
            throw std::runtime_error("heat maps: " + capture + ": over 4 GiB of tiles");
          levels += grid_levels;
        }
        pv.grids[metric] = {it->second, lo, hi};
      }
    }
    p.levels_bytes = levels.size();
    p.deflated = deflate_levels(levels);
    out.push_back(std::move(p));
  }
  return out;
}

HeatMaps load_heat_maps(results::ResultsDb& db, const std::map<std::string, std::string>& bases) {
  HeatMaps h;
  const Table t = run(db, figure_sql("tiles"));
  const size_t c_capture = t.column("capture"), c_config = t.column("config"), c_metric = t.column("metric"),
               c_frames = t.column("frames"), c_tiles_x = t.column("tiles_x"), c_grid = t.column("grid");
  std::map<Grid*, double> frames_of;  // sums first, divided once: the mean as SQL's total() / n
  for (const auto& r : t.rows) {
    if (!r[c_grid] || !r[c_tiles_x] || !r[c_frames]) continue;
    const double frames = std::stod(*r[c_frames]);
    const auto tiles_x = static_cast<uint32_t>(std::stoul(*r[c_tiles_x]));
    if (tiles_x == 0 || frames <= 0) continue;
    const auto values = results::decode_tile_grid(*r[c_grid]);
    // A grid without a value measured nothing: no map (the page says so), not one of zeros.
    if (std::none_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); })) continue;
    Grid& g = h.captures[*r[c_capture]][*r[c_config]][*r[c_metric]];
    frames_of[&g] = frames;
    for (size_t i = 0; i < values.size(); ++i) {
      if (!values[i]) continue;
      const auto x = static_cast<uint32_t>(i % tiles_x), y = static_cast<uint32_t>(i / tiles_x);
      g.cells[{x, y}] += *values[i];
    }
  }
  for (auto& [grid, frames] : frames_of)
    for (auto& [xy, v] : grid->cells) v /= frames;
  // The difference against the base, tile by tile (a tile without a value did no work: 0).
  for (auto& [capture, views] : h.captures) {
    std::map<std::string, std::map<std::string, Grid>> diffs;
    for (const auto& [config, metrics] : views) {
      auto b = bases.find(config);
      if (b == bases.end() || b->second == config) continue;
      auto base_views = views.find(b->second);
      if (base_views == views.end()) continue;
      for (const auto& [metric, grid] : metrics) {
        auto bg = base_views->second.find(metric);
        if (bg == base_views->second.end()) continue;
        Grid d;
        for (const auto& [xy, v] : grid.cells) d.cells[xy] += v;
        for (const auto& [xy, v] : bg->second.cells) d.cells[xy] -= v;
        diffs[config + " \u2212 " + b->second][metric] = std::move(d);
      }
    }
    for (auto& [name, metrics] : diffs) views[name] = std::move(metrics);
    uint32_t w = 0, hgt = 0;
    for (const auto& [view, metrics] : views)
      for (const auto& [metric, grid] : metrics)
        for (const auto& [xy, v] : grid.cells) {
          w = std::max(w, xy.first + 1);
          hgt = std::max(hgt, xy.second + 1);
        }
    for (auto& [view, metrics] : views)
      for (auto& [metric, grid] : metrics) {
        grid.width = w;
        grid.height = hgt;
      }
  }
  return h;
}

}  // namespace tessera::report
