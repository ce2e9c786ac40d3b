#include "tessera/pipeline/binning.h"

#include <algorithm>

#include "tessera/pipeline/edge.h"

namespace tessera::pipeline {
namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

}  // namespace

uint32_t attribute_count(uint32_t varying_count) { return 1 + (varying_count + 3) / 4; }

PixelRect tile_rect(const TilingConfig& config, uint32_t tile) {
  const uint32_t tx = tile % config.tiles_x(), ty = tile / config.tiles_x();
  PixelRect r;
  r.x0 = std::max(static_cast<int32_t>(tx * config.tile_width), config.scissor_x0);
  r.y0 = std::max(static_cast<int32_t>(ty * config.tile_height), config.scissor_y0);
  r.x1 = std::min(static_cast<int32_t>(std::min((tx + 1) * config.tile_width, config.width)),
                  config.scissor_x1);
  r.y1 = std::min(static_cast<int32_t>(std::min((ty + 1) * config.tile_height, config.height)),
                  config.scissor_y1);
  return r;
}

namespace {

// The bounding box of a primitive's coverage region and its edges (3 for a triangle, 4 for the
// quadrilateral of a line or point).
struct Region {
  int64_t minx, maxx, miny, maxy;
  RegionEdges edges;
};

Region region_of(const ScreenTriangle& t) {
  Region r;
  if (t.kind == PrimitiveKind::Triangle) {
    r.minx = std::min({t.fx[0], t.fx[1], t.fx[2]}), r.maxx = std::max({t.fx[0], t.fx[1], t.fx[2]});
    r.miny = std::min({t.fy[0], t.fy[1], t.fy[2]}), r.maxy = std::max({t.fy[0], t.fy[1], t.fy[2]});
    const EdgeFunctions ef = make_edges(t);
    r.edges.count = 3;
    for (int k = 0; k < 3; ++k) r.edges.e[k] = ef.e[k];
  } else {
    r.minx = std::min({t.qx[0], t.qx[1], t.qx[2], t.qx[3]}), r.maxx = std::max({t.qx[0], t.qx[1], t.qx[2], t.qx[3]});
    r.miny = std::min({t.qy[0], t.qy[1], t.qy[2], t.qy[3]}), r.maxy = std::max({t.qy[0], t.qy[1], t.qy[2], t.qy[3]});
    r.edges = make_region_edges(t.qx, t.qy, 4);
  }
  return r;
}

// overlaps() with the region's bounding box and edge functions computed once by the caller:
// bin() tests every tile of the bounding box against the same primitive.
bool overlaps_rect(const Region& g, const PixelRect& rect, const SampleExtent& s) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return false;
  const int64_t sx0 = int64_t{rect.x0} * kSubPixelOne + s.min_x, sx1 = int64_t{rect.x1 - 1} * kSubPixelOne + s.max_x;
  const int64_t sy0 = int64_t{rect.y0} * kSubPixelOne + s.min_y, sy1 = int64_t{rect.y1 - 1} * kSubPixelOne + s.max_y;
  if (g.minx > sx1 || g.maxx < sx0 || g.miny > sy1 || g.maxy < sy0) return false;
  for (int k = 0; k < g.edges.count; ++k) {
    const Edge& e = g.edges.e[k];
    const int64_t px = e.a > 0 ? sx1 : sx0;
    const int64_t py = e.b > 0 ? sy1 : sy0;
    if (e.eval(px, py) + e.bias() <= 0) return false;
  }
  return true;
}

}  // namespace

bool overlaps(const ScreenTriangle& t, const PixelRect& rect, const SampleExtent& samples) {
  return overlaps_rect(region_of(t), rect, samples);
}

PolygonListBuilder::PolygonListBuilder(TilingConfig config, ParameterBufferLayout layout)
    : config_(config), layout_(layout), lists_(config.tile_count()), overflow_blocks_(config.tile_count()) {
  // Keep each list's first PMD line aligned (the Tile Fetcher reads whole lines).
  const uint32_t per_line = std::max(1u, layout_.pmds_per_line());
  layout_.max_primitives_per_tile = std::max(per_line, layout_.max_primitives_per_tile / per_line * per_line);
  held_bytes_ = uint64_t{config.tile_count()} * (sizeof(lists_[0]) + sizeof(overflow_blocks_[0]));
}

void PolygonListBuilder::set_reserve(Reserve reserve) {
  reserve_ = std::move(reserve);
  granted_ = reserve_ ? held_bytes_ : UINT64_MAX;
}

uint64_t PolygonListBuilder::pmd_address(uint32_t tile, uint32_t index) const {
  const uint32_t max = layout_.max_primitives_per_tile;
  if (index < max) return layout_.lists_base + (uint64_t{tile} * max + index) * layout_.pmd_bytes;
  const uint32_t over = index - max;
  return overflow_blocks_[tile][over / layout_.pmds_per_line()] +
         uint64_t{over % layout_.pmds_per_line()} * layout_.pmd_bytes;
}

uint32_t PolygonListBuilder::bin(const ScreenTriangle& triangle) {
  if (config_.tile_count() == 0) return 0;
  // Pixels with a sample inside the bounding box, clipped to framebuffer and scissor.
  const Region region = region_of(triangle);
  const SampleExtent& s = config_.samples;
  const int64_t px0 = std::max<int64_t>({ceil_div(region.minx - s.max_x, kSubPixelOne), 0, config_.scissor_x0});
  const int64_t py0 = std::max<int64_t>({ceil_div(region.miny - s.max_y, kSubPixelOne), 0, config_.scissor_y0});
  const int64_t px1 = std::min<int64_t>({floor_div(region.maxx - s.min_x, kSubPixelOne), int64_t{config_.width} - 1,
                                         int64_t{config_.scissor_x1} - 1});
  const int64_t py1 = std::min<int64_t>({floor_div(region.maxy - s.min_y, kSubPixelOne), int64_t{config_.height} - 1,
                                         int64_t{config_.scissor_y1} - 1});
  if (px0 > px1 || py0 > py1) return 0;

  // The candidate tiles go to a member vector reused across calls (no allocation per triangle);
  // the edge functions are computed once for all of them.
  std::vector<uint32_t>& tiles = candidate_tiles_;
  tiles.clear();
  const uint32_t tiles_x = config_.tiles_x();
  for (int64_t ty = py0 / config_.tile_height; ty <= py1 / config_.tile_height; ++ty)
    for (int64_t tx = px0 / config_.tile_width; tx <= px1 / config_.tile_width; ++tx) {
      const auto tile = static_cast<uint32_t>(ty * tiles_x + tx);
      if (overlaps_rect(region, tile_rect(config_, tile), s)) tiles.push_back(tile);
    }
  if (tiles.empty()) return 0;

  const uint32_t attributes = attribute_count(triangle.varying_count);
  // An overflow block (one address) serves pmds_per_line() entries: at most 8 / 16 B an entry.
  const uint64_t bytes = sizeof(ScreenTriangle) + sizeof(PrimitiveMetadata) + uint64_t{attributes} * sizeof(PbAccess) +
                         uint64_t{tiles.size()} * (sizeof(uint32_t) + sizeof(PbAccess) + 1);
  if (held_bytes_ + bytes > granted_) granted_ = reserve_(held_bytes_ + bytes);
  held_bytes_ += bytes;

  const auto index = static_cast<uint32_t>(primitives_.size());
  primitives_.push_back(triangle);
  primitives_.back().primitive_id = index;
  const uint64_t first_attribute = layout_.attributes_base + next_attribute_line_ * layout_.line_bytes;
  metadata_.push_back({first_attribute, attributes});
  next_attribute_line_ += attributes;

  // Paper 003 section III-A.4: for each tile the primitive overlaps, a PMD write to that tile's
  // list; then the attribute writes, each attribute written exactly once.
  for (uint32_t tile : tiles) {
    std::vector<uint32_t>& list = lists_[tile];
    const auto entry = static_cast<uint32_t>(list.size());
    if (entry >= layout_.max_primitives_per_tile) {
      const uint32_t over = entry - layout_.max_primitives_per_tile;
      if (over == 0) ++overflowed_tiles_;
      if (over % layout_.pmds_per_line() == 0)
        overflow_blocks_[tile].push_back(layout_.overflow_base + next_overflow_block_++ * layout_.line_bytes);
    }
    list.push_back(index);
    writes_.push_back({pmd_address(tile, entry), layout_.pmd_bytes, PbSection::Lists, tile, index});
  }
  for (uint32_t a = 0; a < attributes; ++a)
    writes_.push_back({first_attribute + uint64_t{a} * layout_.line_bytes, layout_.attribute_bytes,
                       PbSection::Attributes, tiles.front(), index});
  return static_cast<uint32_t>(tiles.size());
}

void PolygonListBuilder::tile_reads(uint32_t tile, std::vector<PbAccess>& out) const {
  const std::vector<uint32_t>& list = lists_[tile];
  const uint32_t per_line = layout_.pmds_per_line();
  for (uint32_t first = 0; first < list.size(); first += per_line) {
    out.push_back({pmd_address(tile, first), layout_.line_bytes, PbSection::Lists, tile, list[first]});
    const uint32_t last = std::min<uint32_t>(first + per_line, static_cast<uint32_t>(list.size()));
    for (uint32_t i = first; i < last; ++i) {
      const PrimitiveMetadata& md = metadata_[list[i]];
      for (uint32_t a = 0; a < md.attribute_count; ++a)
        out.push_back({md.primitive_id + uint64_t{a} * layout_.line_bytes, layout_.attribute_bytes,
                       PbSection::Attributes, tile, list[i]});
    }
  }
}

}  // namespace tessera::pipeline
