// DTexL (paper 001): the groupings of Fig. 6 on a tile, the subtile assignments of Fig. 8 along
// the tile orders of Fig. 7, and the decoupled barriers of section III-E on a known frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "frame_builder.h"
#include "hook_doubles.h"
#include "dtexl/dtexl_scheduler.h"
#include "dtexl/quad_grouping.h"
#include "dtexl/subtile_assignment.h"
#include "tessera/model/configuration.h"
#include "tessera/pipeline/tile_order.h"

namespace tessera::model {
namespace {

using dtexl::Assignment;
using dtexl::Grouping;
using namespace testing;

// One frame of `bytes` through the configuration's model (its scheme installed).
FrameResults run_configuration(const std::vector<uint8_t>& bytes, const Configuration& c) {
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  EXPECT_TRUE(model->run(bytes, r, &error)) << error;
  return r;
}

// The core of every quad of a 16x16-quad tile, as a grid of digits (row by row).
std::vector<std::string> layout(Grouping g) {
  std::vector<std::string> rows;
  for (uint32_t qy = 0; qy < 16; ++qy) {
    std::string row;
    for (uint32_t qx = 0; qx < 16; ++qx) row += static_cast<char>('0' + dtexl::subtile(g, qx, qy, 16, 16, 4));
    rows.push_back(row);
  }
  return rows;
}

TEST(DtexlGrouping, FineGrainedNeighbourhoods) {
  // Fig. 6(a)/(b): no 4-neighbour of a quad is on its core; (c)/(d): exactly two diagonal
  // neighbours are; (e)/(f): two vertical or two horizontal neighbours are.
  struct Expect {
    Grouping g;
    int same_horizontal, same_vertical, same_diagonal;
  };
  for (const Expect& e : {Expect{Grouping::FgXshift2, 0, 0, 0}, Expect{Grouping::FgYshift2, 0, 0, 0},
                          Expect{Grouping::FgXshift1, 0, 0, 2}, Expect{Grouping::FgYshift1, 0, 0, 2},
                          Expect{Grouping::FgXstripe, 0, 2, 0}, Expect{Grouping::FgYstripe, 2, 0, 0}}) {
    // An inner quad and its eight neighbours.
    const uint32_t x = 8, y = 8;
    const uint32_t c = dtexl::subtile(e.g, x, y, 16, 16, 4);
    auto same = [&](int dx, int dy) { return dtexl::subtile(e.g, x + dx, y + dy, 16, 16, 4) == c ? 1 : 0; };
    EXPECT_EQ(same(-1, 0) + same(1, 0), e.same_horizontal) << dtexl::grouping_name(e.g);
    EXPECT_EQ(same(0, -1) + same(0, 1), e.same_vertical) << dtexl::grouping_name(e.g);
    EXPECT_EQ(same(-1, -1) + same(1, 1) + same(-1, 1) + same(1, -1), e.same_diagonal) << dtexl::grouping_name(e.g);
  }
  // FG-xshift2 on the first two quad rows: 0123..., then shifted by two.
  const auto rows = layout(Grouping::FgXshift2);
  EXPECT_EQ(rows[0], "0123012301230123");
  EXPECT_EQ(rows[1], "2301230123012301");
}

TEST(DtexlGrouping, CoarseGrainedRegions) {
  // CG-square: quadrants; CG-xrect: four 4-quad-wide columns; CG-yrect: four 4-quad-tall bands.
  EXPECT_EQ(layout(Grouping::CgSquare)[0], "0000000011111111");
  EXPECT_EQ(layout(Grouping::CgSquare)[15], "2222222233333333");
  EXPECT_EQ(layout(Grouping::CgXrect)[7], "0000111122223333");
  EXPECT_EQ(layout(Grouping::CgYrect)[3], "0000000000000000");
  EXPECT_EQ(layout(Grouping::CgYrect)[4], "1111111111111111");
  EXPECT_EQ(layout(Grouping::CgYrect)[15], "3333333333333333");
  // CG-triangle: top 0, right 1, bottom 2, left 3, meeting at the centre; quads on the main
  // diagonal go left/right, those on the other diagonal top/bottom.
  const auto tri = layout(Grouping::CgTriangle);
  EXPECT_EQ(tri[0], "3000000000000000");
  EXPECT_EQ(tri[7], "3333333301111111");
  EXPECT_EQ(tri[8], "3333333211111111");
  EXPECT_EQ(tri[15], "2222222222222221");
  // Every coarse grouping gives each core 64 of the 256 quads.
  for (Grouping g : {Grouping::CgXrect, Grouping::CgYrect, Grouping::CgSquare, Grouping::CgTriangle}) {
    std::array<int, 4> count{};
    for (const auto& row : layout(g)) {
      for (char c : row) ++count[c - '0'];
    }
    EXPECT_EQ(count, (std::array<int, 4>{64, 64, 64, 64})) << dtexl::grouping_name(g);
  }
}

// The cores of a tile's four CG-square subtiles along the 16 tiles of a 4x4 frame (Fig. 8).
std::vector<std::vector<uint32_t>> assignments(Assignment a, pipeline::TileOrderKind order, Grouping g = Grouping::CgSquare,
                                               uint32_t n = 4) {
  dtexl::SubtileAssigner assigner(a, dtexl::subtile_grid(g, 4));
  std::vector<std::vector<uint32_t>> maps;
  const auto tiles = pipeline::tile_order(order, n, n);
  for (uint32_t seq = 0; seq < tiles.size(); ++seq) {
    assigner.next_tile(seq, tiles[seq] % n, tiles[seq] / n);
    maps.push_back(assigner.map());
  }
  return maps;
}

// Consecutive tiles sharing an edge: do the subtiles on both sides of it run on the same cores?
uint32_t edges_kept(Assignment a, pipeline::TileOrderKind order, Grouping g = Grouping::CgSquare, uint32_t n = 4) {
  dtexl::SubtileAssigner assigner(a, dtexl::subtile_grid(g, 4));
  const auto tiles = pipeline::tile_order(order, n, n);
  for (uint32_t seq = 0; seq < tiles.size(); ++seq) assigner.next_tile(seq, tiles[seq] % n, tiles[seq] / n);
  return static_cast<uint32_t>(assigner.edge_kept());
}

// Fig. 8 by geometry, written apart from SubtileAssigner's index arithmetic: a subtile is a cell
// of the frame (its tile's cell (c, r) of cols x rows, at frame cell (tx * cols + c, ty * rows +
// r)); a flip gives each cell of the new tile the core of its mirror image across the shared
// edge line, which lies in the previous tile; flip2's inner flip and flip3's turn reflect cells
// through lines of the new tile. Coordinates are doubled so cell centres and edges are integers.
class Figure8Oracle {
 public:
  Figure8Oracle(Assignment a, uint32_t cols, uint32_t rows) : a_(a), cols_(static_cast<int>(cols)), rows_(static_cast<int>(rows)) {}
  std::vector<uint32_t> next(uint32_t seq, int tx, int ty) {
    const int n = cols_ * rows_;
    if (seq == 0) {
      cores_.resize(static_cast<size_t>(n));
      std::iota(cores_.begin(), cores_.end(), 0u);
    } else {
      const int dx = tx - tx_, dy = ty - ty_;
      if (a_ != Assignment::Const && std::abs(dx) + std::abs(dy) == 1) {
        const std::vector<uint32_t> before = cores_;
        // The shared edge line, doubled: x = 2 * cols * (the new tile's left or right side).
        const int edge = dx > 0 ? 2 * cols_ * tx : dx < 0 ? 2 * cols_ * (tx + 1) : dy > 0 ? 2 * rows_ * ty : 2 * rows_ * (ty + 1);
        for (int cell = 0; cell < n; ++cell) {
          int X = 2 * (tx * cols_ + cell % cols_) + 1, Y = 2 * (ty * rows_ + cell / cols_) + 1;
          if (dx != 0) X = 2 * edge - X; else Y = 2 * edge - Y;
          cores_[static_cast<size_t>(cell)] = before[static_cast<size_t>(((Y - 1) / 2 - ty_ * rows_) * cols_ + (X - 1) / 2 - tx_ * cols_)];
        }
        if (a_ == Assignment::Flip2 && seq % 2 == 0) inner_flip(tx, ty, dx, edge);
      }
      if (a_ == Assignment::Flip3 && seq % 16 == 0) {
        // Through the tile's centre: every cell to the diametrically opposite one.
        const std::vector<uint32_t> now = cores_;
        for (int cell = 0; cell < n; ++cell) cores_[static_cast<size_t>(cell)] = now[static_cast<size_t>(n - 1 - cell)];
      }
    }
    tx_ = tx;
    ty_ = ty;
    return cores_;
  }

 private:
  // The cells away from the edge line swap by reflection: across the tile's centre line
  // perpendicular to the edge when several cells sit along the edge, else across the middle of
  // the band of cells away from it.
  void inner_flip(int tx, int ty, int dx, int edge) {
    const std::vector<uint32_t> now = cores_;
    const int n = cols_ * rows_;
    const bool vertical_edge = dx != 0;
    const int along = vertical_edge ? rows_ : cols_, depth = vertical_edge ? cols_ : rows_;
    for (int cell = 0; cell < n; ++cell) {
      int X = 2 * (tx * cols_ + cell % cols_) + 1, Y = 2 * (ty * rows_ + cell / cols_) + 1;
      const int distance = std::abs((vertical_edge ? X : Y) - edge);  // 1 for the cells on the edge
      if (distance == 1) continue;
      if (along > 1) {
        const int centre = vertical_edge ? 2 * ty * rows_ + rows_ : 2 * tx * cols_ + cols_;
        if (vertical_edge) Y = 2 * centre - Y; else X = 2 * centre - X;
      } else {
        // The band from distance 3 to 2 * depth - 1: reflect the distance through its middle.
        const int reflected = 2 + 2 * depth - distance;
        const int sign = (vertical_edge ? X : Y) > edge ? 1 : -1;
        (vertical_edge ? X : Y) = edge + sign * reflected;
      }
      cores_[static_cast<size_t>(cell)] = now[static_cast<size_t>(((Y - 1) / 2 - ty * rows_) * cols_ + (X - 1) / 2 - tx * cols_)];
    }
  }

  Assignment a_;
  int cols_, rows_;
  std::vector<uint32_t> cores_;
  int tx_ = 0, ty_ = 0;
};

struct Figure8Case {
  const char* subfigure;
  Grouping grouping;
  pipeline::TileOrderKind order;
  Assignment assignment;
};

constexpr Figure8Case kFigure8[] = {
    {"8(a) Zorder-const", Grouping::CgSquare, pipeline::TileOrderKind::Z, Assignment::Const},
    {"8(b) Zorder-flp", Grouping::CgSquare, pipeline::TileOrderKind::Z, Assignment::Flip},
    {"8(c) HLB-const", Grouping::CgSquare, pipeline::TileOrderKind::Hilbert, Assignment::Const},
    {"8(d) HLB-flp1", Grouping::CgSquare, pipeline::TileOrderKind::Hilbert, Assignment::Flip},
    {"8(e) HLB-flp2", Grouping::CgSquare, pipeline::TileOrderKind::Hilbert, Assignment::Flip2},
    {"8(f) HLB-flp3", Grouping::CgSquare, pipeline::TileOrderKind::Hilbert, Assignment::Flip3},
    {"8(g) Sorder-const", Grouping::CgYrect, pipeline::TileOrderKind::SHilbert, Assignment::Const},
    {"8(h) Sorder-flp", Grouping::CgYrect, pipeline::TileOrderKind::SHilbert, Assignment::Flip2},
};

// Every tile's core map of every subfigure, on the figure's 4x4 frame, an 8x8 one (flip3's turn
// at tiles 16, 32 and 48), a rectangular 12x7 one (partial S-order sub-frames, Z and Hilbert
// over the enclosing square) and with 8 cores (CG-square 4x2, CG-yrect 1x8).
TEST(DtexlAssignment, Figure8CoreMapOfEveryTile) {
  for (const Figure8Case& f : kFigure8) {
    for (uint32_t cores : {4u, 8u}) {
      for (const auto& [w, h] : {std::pair{4u, 4u}, std::pair{8u, 8u}, std::pair{12u, 7u}}) {
        const dtexl::SubtileGrid grid = dtexl::subtile_grid(f.grouping, cores);
        dtexl::SubtileAssigner assigner(f.assignment, grid);
        Figure8Oracle oracle(f.assignment, grid.cols, grid.rows);
        const auto tiles = pipeline::tile_order(f.order, w, h);
        for (uint32_t seq = 0; seq < tiles.size(); ++seq) {
          const uint32_t tx = tiles[seq] % w, ty = tiles[seq] / w;
          assigner.next_tile(seq, tx, ty);
          ASSERT_EQ(assigner.map(), oracle.next(seq, static_cast<int>(tx), static_cast<int>(ty)))
              << f.subfigure << ", " << cores << " cores, " << w << "x" << h << " tiles, tile " << seq << " at (" << tx
              << "," << ty << ")";
        }
      }
    }
  }
}

// How many consecutive-tile transitions keep the shared edge's subtiles on one core, counted
// from the order alone: CG-square under const keeps none (a 2x2 grid mirrored is never itself);
// CG-yrect's strips span the tile, so on a step left or right each strip meets its own core
// across the edge under any assignment, and on a step up or down only a flip keeps it; every
// flip keeps every transition but flip3's turns (tiles 16, 32, 48).
TEST(DtexlAssignment, Figure8EdgesKeptFollowFromTheOrder) {
  const uint32_t n = 8;
  for (const Figure8Case& f : kFigure8) {
    const auto tiles = pipeline::tile_order(f.order, n, n);
    uint32_t horizontal = 0, vertical = 0, turns = 0;
    for (uint32_t seq = 1; seq < tiles.size(); ++seq) {
      const int dx = std::abs(static_cast<int>(tiles[seq] % n) - static_cast<int>(tiles[seq - 1] % n));
      const int dy = std::abs(static_cast<int>(tiles[seq] / n) - static_cast<int>(tiles[seq - 1] / n));
      if (dx + dy != 1) continue;
      (dx == 1 ? horizontal : vertical) += 1;
      if (seq % 16 == 0) ++turns;
    }
    uint32_t want = 0;
    if (f.assignment == Assignment::Const) want = f.grouping == Grouping::CgYrect ? horizontal : 0;
    else want = horizontal + vertical - (f.assignment == Assignment::Flip3 ? turns : 0);
    EXPECT_EQ(edges_kept(f.assignment, f.order, f.grouping, n), want) << f.subfigure;
  }
  // The orders themselves: Hilbert and S-order step to a neighbour every time on 8x8 (63 steps);
  // Z-order's jumps between 2x2 blocks share no edge.
  EXPECT_EQ(edges_kept(Assignment::Flip, pipeline::TileOrderKind::Hilbert, Grouping::CgSquare, n), 63u);
  EXPECT_EQ(edges_kept(Assignment::Flip, pipeline::TileOrderKind::SHilbert, Grouping::CgYrect, n), 63u);
  // flip3 on 8x8 Hilbert: the turns at tiles 16, 32 and 48 are the three edges not kept.
  EXPECT_EQ(edges_kept(Assignment::Flip3, pipeline::TileOrderKind::Hilbert, Grouping::CgSquare, n), 60u);
}

// Sorder-flp differs from Sorder-const on the S-order's vertical steps, and flip2 from flip:
// into an odd tile below, the strips mirror (the edge strip takes the core of the strip above
// the edge) and the second and fourth from the edge swap.
TEST(DtexlAssignment, Figure8SorderFlp2ReversesTheStripsAwayFromTheEdge) {
  dtexl::SubtileAssigner flp2(Assignment::Flip2, dtexl::subtile_grid(Grouping::CgYrect, 4));
  dtexl::SubtileAssigner flp(Assignment::Flip, dtexl::subtile_grid(Grouping::CgYrect, 4));
  for (auto* a : {&flp2, &flp}) {
    a->next_tile(0, 0, 0);
    a->next_tile(1, 0, 1);  // down: even tile 2 (1-based), plain mirror
    a->next_tile(2, 0, 2);  // down again, into odd tile 3
  }
  // Tile 2: strips 0..3 take cores 3, 2, 1, 0 (the mirror of 0, 1, 2, 3 across the top edge).
  // Tile 3 by flip: the mirror again, 0, 1, 2, 3; by flip2, strips 1 and 3 then swap.
  EXPECT_EQ(flp.map(), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(flp2.map(), (std::vector<uint32_t>{0, 3, 2, 1}));
}

TEST(DtexlAssignment, Figure8FlipsKeepSharedEdgesOnOneCore) {
  // The 4x4 Hilbert order steps to a neighbour every time: 15 transitions share an edge. With
  // flips, the two subtiles on each side of every shared edge run on the same cores; constant
  // assignments keep none (a 2x2 grid mirrored is never itself).
  using pipeline::TileOrderKind;
  EXPECT_EQ(edges_kept(Assignment::Flip, TileOrderKind::Hilbert), 15u);
  EXPECT_EQ(edges_kept(Assignment::Flip2, TileOrderKind::Hilbert), 15u);
  EXPECT_EQ(edges_kept(Assignment::Const, TileOrderKind::Hilbert), 0u);
  // flip3 turns the assignment at tile 16 only: all 15 transitions of a 4x4 frame keep it.
  EXPECT_EQ(edges_kept(Assignment::Flip3, TileOrderKind::Hilbert), 15u);
  // Z-order shares an edge on 8 of its 15 transitions (the jumps between 2x2 blocks do not).
  EXPECT_EQ(edges_kept(Assignment::Flip, TileOrderKind::Z), 8u);
  // The first HLB-flp1 steps by hand: tile 0 at (0,0), tile 1 at (1,0) to its right: mirrored
  // left-right; tile 2 at (1,1) below: mirrored top-bottom.
  const auto flp1 = assignments(Assignment::Flip, TileOrderKind::Hilbert);
  EXPECT_EQ(flp1[0], (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(flp1[1], (std::vector<uint32_t>{1, 0, 3, 2}));
  EXPECT_EQ(flp1[2], (std::vector<uint32_t>{3, 2, 1, 0}));
  // HLB-flp2 at the same tile 2 (entering the figure's odd tile 3): flip, then the two subtiles
  // away from the shared (top) edge swap.
  const auto flp2 = assignments(Assignment::Flip2, TileOrderKind::Hilbert);
  EXPECT_EQ(flp2[1], (std::vector<uint32_t>{1, 0, 3, 2}));
  EXPECT_EQ(flp2[2], (std::vector<uint32_t>{3, 2, 0, 1}));
}

// Over a frame, how often each core's subtile lies on a shared edge (the advantage section
// III-D says HLB-flp1 gives one core and flp2 / flp3 spread).
std::array<uint32_t, 4> edge_share(Assignment a, uint32_t n) {
  dtexl::SubtileAssigner assigner(a, dtexl::subtile_grid(Grouping::CgSquare, 4));
  const auto tiles = pipeline::tile_order(pipeline::TileOrderKind::Hilbert, n, n);
  std::array<uint32_t, 4> share{};
  uint32_t px = 0, py = 0;
  for (uint32_t seq = 0; seq < tiles.size(); ++seq) {
    const uint32_t tx = tiles[seq] % n, ty = tiles[seq] / n;
    assigner.next_tile(seq, tx, ty);
    if (seq > 0) {
      const int dx = static_cast<int>(tx) - static_cast<int>(px), dy = static_cast<int>(ty) - static_cast<int>(py);
      for (uint32_t s = 0; s < 4; ++s) {
        const uint32_t col = s % 2, row = s / 2;
        const bool edge = dx > 0 ? col == 0 : dx < 0 ? col == 1 : dy > 0 ? row == 0 : row == 1;
        if (edge) ++share[assigner.core(s)];
      }
    }
    px = tx;
    py = ty;
  }
  return share;
}

TEST(DtexlAssignment, Flp1FavoursOneCore) {
  // Section III-D: with HLB-flp1 "SC4 is favoured to always have a shared edge. Whereas, SC1
  // never gets shared edges" -- here core 3 is at the edge three times as often as core 0.
  const auto share = edge_share(Assignment::Flip, 64);
  EXPECT_EQ(std::max_element(share.begin(), share.end()) - share.begin(), 3);
  EXPECT_EQ(std::min_element(share.begin(), share.end()) - share.begin(), 0);
  EXPECT_GT(share[3], 2 * share[0]);
}

TEST(DtexlAssignment, Flp2AndFlp3FavourNoCore) {
  for (Assignment a : {Assignment::Flip2, Assignment::Flip3}) {
    const auto share = edge_share(a, 64);
    const uint32_t lo = *std::min_element(share.begin(), share.end()), hi = *std::max_element(share.begin(), share.end());
    // 4095 transitions x 2 edge subtiles: each core near a quarter, within 10 %.
    EXPECT_LT(hi - lo, (lo + hi) / 2 / 10) << dtexl::assignment_name(a) << " " << share[0] << " " << share[1] << " "
                                           << share[2] << " " << share[3];
  }
}

// The scheduler on a real tile: CG-square puts each quadrant on one core and the next tile's
// subtiles follow the flip.
TEST(DtexlScheduler, QuadrantsOfConsecutiveTilesFollowTheAssignment) {
  dtexl::DtexlScheduler s(Grouping::CgSquare, Assignment::Flip);
  PassInfo pass;
  pass.tile_width = pass.tile_height = 32;
  pass.tiles_x = 2;
  pass.tiles_y = 1;
  TileRef t0;  // (0,0)
  TileRef t1;
  t1.tx = 1;
  t1.x0 = 32;
  s.frame_begin();
  EXPECT_EQ(s.core(pass, t0, 0, 0, 0, 4), 0u);    // top-left quadrant
  EXPECT_EQ(s.core(pass, t0, 0, 30, 0, 4), 1u);   // top-right
  EXPECT_EQ(s.core(pass, t0, 0, 0, 30, 4), 2u);   // bottom-left
  EXPECT_EQ(s.core(pass, t1, 1, 32, 0, 4), 1u);   // tile 1's top-left faces tile 0's top-right
  EXPECT_EQ(s.core(pass, t1, 1, 62, 30, 4), 2u);  // bottom-right mirrors bottom-left
  EXPECT_EQ(s.transitions(), 1u);
  EXPECT_EQ(s.edge_kept(), 1u);
}

// Four tiles in a row; in tile k the quads of quadrant k (k-th 8x8-quad corner, row-major) are
// heavy (4000 lane-instructions: 1000 issue cycles on one engine and ALU), the others light (1).
FrameSpec heavyQuadrantPerTile() {
  FrameSpec f;
  f.tiles_x = 4;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    const uint32_t quadrant = (qy / 8) * 2 + qx / 8;
    q.instructions = quadrant == seq % 4 ? 4000 : 4;
    return q;
  };
  return f;
}

// `spec` with one engine issuing one operation a cycle per core (frame_builder.h's classic()), so
// a heavy quad's 1000 legacy issue slots take 1000 cycles.
Configuration oneEngineAndAlu(const char* spec) {
  Configuration c = parse_configuration(spec);
  for (const char* o : {"core.engines=1", "core.alu_rate=1"}) c.params.apply(o);
  return c;
}

// Section III-E on a known frame: four tiles whose quads all go to core (tile mod 4) under
// CG-square with a constant assignment... the heavy subtile of tile k is quadrant k. Per tile
// barriers make every tile wait for its heavy core: 4 x (64 quads x 1000 cycles); decoupled
// barriers let each core run its heavy subtile while the others run theirs: about 64 x 1000.
TEST(DtexlBarriers, DecoupledBarriersOverlapTheHeavySubtiles) {
  const auto bytes = buildFrame(heavyQuadrantPerTile());
  auto run = [&](const char* spec) {
    Configuration c = oneEngineAndAlu(spec);
    c.params.set("queue.fragment", "256");  // room for a core to run a tile ahead
    return run_configuration(bytes, c);
  };
  // Constant assignment in scanline order keeps quadrant k on core k in every tile.
  const FrameResults tile = run("mobile4+dtexl-group-cg-square+gpu.tile_order=scanline");
  const FrameResults sub = run("mobile4+dtexl-hlb-const+gpu.tile_order=scanline");
  EXPECT_EQ(m(tile, "stage.fragment.busy_cycles"), m(sub, "stage.fragment.busy_cycles"));
  EXPECT_EQ(m(tile, "stage.fragment.busy_cycles"), 4.0 * (64 * 1000 + 192 * 1));
  // Per tile: the heavy core's 64 x 1000 cycles, four times over.
  EXPECT_GE(tile.raster_cycles, 4u * 64000);
  EXPECT_LT(tile.raster_cycles, 4u * 64000 + 2000);
  // Decoupled: each core's heavy subtile overlaps the others'; the frame takes one of them plus
  // the light quads around it (3 x 64 one-cycle quads of the other tiles on that core).
  EXPECT_GE(sub.raster_cycles, 64000u);
  EXPECT_LT(sub.raster_cycles, 64000u + 3 * 64 + 2000);
  EXPECT_GT(m(tile, "cores.imbalance"), 1.0);
}

// Paper 001 Fig. 10: with decoupled barriers a unit runs ahead ("two tiles ahead of the third
// parallel unit"). Four tiles in scanline order, the heavy quadrant on core k in tile k: core 0
// spends 64 x 1000 cycles in tile 0 while the in-order rasterizer must put its quads of later
// tiles in its fragment queue (64 entries, 24 of its tile-0 quads being past early-Z) before the
// other cores may open those tiles, and its quads come first in each tile. raster.runahead_tiles=R
// lets that queue take every quad of the R tiles after its head's: the rasterizer passes them
// and the other cores reach tile R; only with R=3 does core 3's heavy subtile overlap core 0's.
TEST(DtexlBarriers, RunAheadLetsACoreLeadBySoManyTiles) {
  const auto bytes = buildFrame(heavyQuadrantPerTile());
  auto run = [&](uint32_t runahead) {
    Configuration c = oneEngineAndAlu("mobile4+dtexl-hlb-const+gpu.tile_order=scanline");
    c.params.set("raster.runahead_tiles", std::to_string(runahead));
    return run_configuration(bytes, c);
  };
  const FrameResults none = run(0), one = run(1), two = run(2), three = run(3);
  // Without a window a queue of 64 holds one subtile: the others get one tile ahead.
  EXPECT_EQ(m(none, "cores.tile_lead_max"), 1);
  EXPECT_EQ(m(one, "cores.tile_lead_max"), 1);
  EXPECT_EQ(m(two, "cores.tile_lead_max"), 2);  // the default: Fig. 10's two tiles
  EXPECT_EQ(m(three, "cores.tile_lead_max"), 3);
  EXPECT_GT(m(three, "cores.tile_lead_mean"), m(two, "cores.tile_lead_mean"));
  EXPECT_GT(m(two, "cores.tile_lead_mean"), m(none, "cores.tile_lead_mean"));
  // Each heavy subtile is 64000 cycles: with R=3 all four overlap, as with a 256-entry queue
  // (DecoupledBarriersOverlapTheHeavySubtiles); with less, core 3 waits for core 0's queue.
  EXPECT_LT(three.raster_cycles, 64000u + 3 * 64 + 2000);
  // With one tile the rasterizer gets through tile 1, so core 1's heavy subtile starts at once.
  EXPECT_LT(one.raster_cycles, none.raster_cycles);
  EXPECT_LT(two.raster_cycles, one.raster_cycles);
  EXPECT_GT(two.raster_cycles, three.raster_cycles + 30000);
  // The per-tile barrier keeps every core on one tile: no lead, no metric.
  Configuration tile = parse_configuration("mobile4+dtexl-group-cg-square+gpu.tile_order=scanline");
  EXPECT_TRUE(std::isnan(run_configuration(bytes, tile).metric("cores.tile_lead_max")));
}

// Per subtile a CG-square quadrant's colour lines (16 pixels of one quadrant's rows) belong to its
// core alone: each core's bank writes its own 16 of the tile's 64 lines, whichever finishes last.
TEST(DtexlBarriers, EachQuadrantsColourLinesGoWithItsCore) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = qx < 8 && qy < 8 ? 400 : 4;  // the top-left quadrant is heavy
    return q;
  };
  f.store_lines = 32;  // 32 rows of 32 RGBA8 pixels: two 64-byte lines a row
  f.store_row_lines = 2;
  const FrameResults r = run_configuration(buildFrame(f), parse_configuration("mobile4+dtexl-hlb-const"));
  EXPECT_EQ(per_core(r, "color_flush_lines"), (std::vector<double>{16, 16, 16, 16}));
}

// Combining: DTexL takes the quad scheduler; a scheme on another hook runs beside it.
class LastLineScheme final : public SchemeInstance {
 public:
  void install(Hooks& hooks) override { hooks.front_buffer = buffer; }
  void frame_end(const MemoryHierarchy&, FrameResults& r) override { r.frame_metrics.emplace_back("lastline.frames", 1); }
  std::shared_ptr<LastLineBuffer> buffer = std::make_shared<LastLineBuffer>();
};

SchemeRegistry& test_registry() {
  static SchemeRegistry* r = [] {
    auto* reg = new SchemeRegistry(SchemeRegistry::global());
    SchemeInfo s;
    s.name = "lastline";
    s.paper = "test";
    s.description = "one register per core in front of L1";
    s.preset = "mobile4";
    s.hooks = {HookKind::FrontBuffer};
    SchemeVariant v;
    v.name = "lastline";
    s.variants.push_back(v);
    s.make = [](const ParamSet&) { return std::make_unique<LastLineScheme>(); };
    reg->add(s);
    SchemeInfo clash = s;
    clash.name = "otherscheduler";
    clash.hooks = {HookKind::QuadScheduler};
    clash.variants[0].name = "otherscheduler";
    clash.make = nullptr;
    reg->add(clash);
    return reg;
  }();
  return *r;
}

TEST(SchemeCombination, DtexlRunsBesideASchemeOnAnotherHook) {
  const Configuration c = parse_configuration("mobile4+lastline+dtexl", test_registry());
  EXPECT_EQ(c.name, "mobile4+dtexl+lastline");  // variants in name order
  EXPECT_EQ(c.params.get_string("gpu.barrier"), "subtile");
  FrameSpec f = mixedFrame();
  f.tiles_x = 4;
  const FrameResults r = run_configuration(buildFrame(f), c);
  EXPECT_EQ(m(r, "lastline.frames"), 1);
  EXPECT_GT(m(r, "tfm.hits"), 0);
  EXPECT_GT(m(r, "dtexl.transitions"), 0);
  EXPECT_EQ(m(r, "l1tex.accesses") + m(r, "tfm.hits"), m(r, "texture.lines"));
}

TEST(SchemeCombination, TwoSchemesOnOneHookAreRefusedNamingBoth) {
  try {
    parse_configuration("mobile4+dtexl+otherscheduler", test_registry());
    FAIL() << "accepted";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()),
              "configuration 'mobile4+dtexl+otherscheduler': dtexl and otherscheduler both take the quad scheduler hook");
  }
  try {
    parse_configuration("mobile4+dtexl+dtexl-hlb-const");
    FAIL() << "accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("both variants of dtexl"), std::string::npos) << e.what();
  }
}

TEST(Configurations, SpecsOverridesAndRefusals) {
  // An unknown preset or scheme: one line naming it.
  EXPECT_THROW(parse_configuration("mobile8+dtexl"), ParamError);
  try {
    parse_configuration("mobile4+dtxl");
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()), "configuration 'mobile4+dtxl': unknown scheme 'dtxl' (tessera schemes --list names every one)");
  }
  // --set reaches every configuration that has the key, and only those; a key none has is refused.
  auto configs = build_configurations({"mobile4", "mobile4+dtexl"}, "", "", {"dtexl.grouping=CG-xrect", "l1tex.size=32KiB"});
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].name, "mobile4+l1tex.size=32KiB");
  EXPECT_EQ(configs[1].name, "mobile4+dtexl+dtexl.grouping=CG-xrect+l1tex.size=32KiB");
  EXPECT_EQ(configs[1].params.get_string("dtexl.grouping"), "CG-xrect");
  EXPECT_EQ(configs[0].params.get_int("l1tex.size"), 32 * 1024);
  EXPECT_THROW(build_configurations({"mobile4"}, "", "", {"dtexl.grouping=CG-xrect"}), ParamError);
  // The parameters of the upper bound: one core with the four L1s' capacity.
  const Configuration bound = parse_configuration("mobile4+dtexl-one-core-bound");
  EXPECT_EQ(bound.params.get_int("gpu.shader_cores"), 1);
  EXPECT_EQ(bound.params.get_int("l1tex.size"), 64 * 1024);
  // --schemes dtexl: the baseline, then every variant, on the paper's preset.
  const auto specs = scheme_specs({"dtexl"}, {});
  EXPECT_EQ(specs.front(), "mobile4");
  EXPECT_NE(std::find(specs.begin(), specs.end(), "mobile4+dtexl"), specs.end());
  EXPECT_NE(std::find(specs.begin(), specs.end(), "mobile4+dtexl-one-core-bound"), specs.end());
  EXPECT_EQ(scheme_specs({"dtexl"}, {"mobile32"}).front(), "mobile32");
}

}  // namespace
}  // namespace tessera::model
