// The per-tile heat maps of `tessera report`, packed small for the page: per capture, every grid
// (one per view and metric) quantised to one byte per tile over its own range, the grids laid one
// after the other in one buffer and the buffer deflated (zlib). The page inflates it with the
// browser's DecompressionStream and draws the chosen grid on a canvas (report_page.js); exact
// values stay in the database (tile_metrics).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "results_db.h"

namespace tessera::report {

// One heat map: the tile grid's values by (x, y); a tile without a value is 0.
struct Grid {
  uint32_t width = 0, height = 0;
  std::map<std::pair<uint32_t, uint32_t>, double> cells;  // (x, y) -> value
};
// Per capture, per view (a configuration, or a configuration minus its base: its name holds
// " \u2212 "), per metric, the grid.
struct HeatMaps {
  // capture -> view -> metric -> grid
  std::map<std::string, std::map<std::string, std::map<std::string, Grid>>> captures;
};

// Every run's heat maps from the database (report/figures/tiles.sql): per tile the mean over the
// run's measured frames (a tile without a value in a frame counts as 0), and for each
// configuration whose base (bases: configuration -> its base) has runs on the capture, the
// difference tile by tile. Every grid of a capture spans the capture's largest extent.
// Throws results::Error (SQL) or std::runtime_error (a grid that does not parse).
HeatMaps load_heat_maps(results::ResultsDb& db, const std::map<std::string, std::string>& bases);

// A view that is a configuration minus its base (the name holds U+2212, MINUS SIGN).
bool is_difference_view(const std::string& view);
// The metrics' order in the menu: cycles, quads, then the per-core metrics by core number.
bool metric_before(const std::string& a, const std::string& b);

// Levels per tile: one byte. Level q of a grid stands for the value lo + q (hi - lo) / steps, the
// nearest to each tile's value: steps is 255 for a configuration's grid, so that its lo and hi
// are levels 0 and 255 exactly, and 254 for a difference, so that its middle level (127) is
// exactly 0 (an unchanged tile reads 0, not half a level off).
inline constexpr int kHeatMapSteps = 255;
inline constexpr int kHeatMapDifferenceSteps = 254;

// Where one grid's levels are in its capture's buffer, and the range they quantise (above). A
// plain configuration's range is its grid's [min, max]; a difference's is [-span, span], span the
// largest |value|, as its colour scale is symmetric about 0. A constant grid (hi == lo) is level 0
// on every tile.
struct PackedGrid {
  uint32_t offset = 0;  // byte offset of the grid's width x height levels, row by row
  double lo = 0, hi = 0;
};
struct PackedView {
  std::string name;
  bool diff = false;
  std::map<std::string, PackedGrid> grids;  // by metric; a metric the view does not measure is absent
};
struct PackedCapture {
  std::string capture;
  uint32_t width = 0, height = 0;
  std::vector<std::string> metrics;  // every metric of any view, in metric_before order
  std::vector<PackedView> views;     // the plain configurations, then the differences, each by name
  size_t levels_bytes = 0;           // the buffer before deflate
  std::string deflated;              // the buffer as a zlib stream (deflate, level 9)
};

// The level nearest to value among lo + q (hi - lo) / steps, q = 0..steps (steps <= 255).
uint8_t heat_map_level(double value, double lo, double hi, int steps);

// Packs every capture of h. The buffer holds the grids metric by metric and, within a metric, view
// by view in the views' order, so that a metric's grids in similar configurations sit next to each
// other for deflate; grids whose levels are byte for byte the same are stored once and share an
// offset. Throws std::runtime_error when zlib fails.
std::vector<PackedCapture> pack_heat_maps(const HeatMaps& h);

}  // namespace tessera::report
