// Quad groupings of paper 001 section III-B1, Fig. 6: which subtile (= which shader core, Z and
// colour buffer bank) each quad of a tile belongs to. Quad (qx, qy) is the quad's position in
// the tile, in quads (0 .. 15 for 32x32-pixel tiles).
//
// Fine-grained (the text fixes their neighbourhood property, Fig. 6 their shapes; names ours
// except FG-xshift2, the paper's baseline):
//   FG-xshift2  (qx + 2 qy) mod N   each row shifted by two: no 4-neighbour on the same core (6(a/b))
//   FG-yshift2  (2 qx + qy) mod N   each column shifted by two: likewise
//   FG-xshift1  (qx + qy) mod N     two of the four diagonal neighbours on the same core (6(c/d))
//   FG-yshift1  (3 qx + qy) mod N   the other two diagonal neighbours
//   FG-xstripe  qx mod N            the two vertical neighbours on the same core (6(e/f))
//   FG-ystripe  qy mod N            the two horizontal neighbours
// Coarse-grained (6(g)-(j)): the tile cut into N regions of adjacent quads:
//   CG-xrect     N rectangles side by side along x (each as tall as the tile)
//   CG-yrect     N rectangles stacked along y (each as wide as the tile)
//   CG-square    a grid of cols x rows rectangles, as square as N allows (2x2 for 4 cores)
//   CG-triangle  4 triangles meeting at the tile's centre: top, right, bottom, left (4 cores only)
// Each coarse region holds the same number of quads when the tile divides evenly (the triangles:
// 64 of 256 quads each, diagonal quads to left/right on the main diagonal, top/bottom on the other).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::model::dtexl {

enum class Grouping : uint8_t {
  FgXshift2, FgYshift2, FgXshift1, FgYshift1, FgXstripe, FgYstripe, CgXrect, CgYrect, CgTriangle, CgSquare,
};

std::string_view grouping_name(Grouping g);
bool parse_grouping(std::string_view name, Grouping* g);
std::vector<std::string> grouping_names();
bool coarse(Grouping g);

// Subtile layout of a coarse grouping: a grid of cols x rows regions (CG-triangle: none).
struct SubtileGrid {
  uint32_t cols = 1, rows = 1;
};
SubtileGrid subtile_grid(Grouping g, uint32_t subtiles);

// The subtile of quad (qx, qy) in a tile of qw x qh quads, with `subtiles` subtiles (= cores).
// Subtiles of a grid are numbered row by row; CG-triangle's are top 0, right 1, bottom 2, left 3.
uint32_t subtile(Grouping g, uint32_t qx, uint32_t qy, uint32_t qw, uint32_t qh, uint32_t subtiles);

}  // namespace tessera::model::dtexl
