// Binning into the Parameter Buffer (paper 003 section II-B) and tile fetch.
#include "tessera/pipeline/binning.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "tessera/pipeline/tile_fetch.h"
#include "test_util.h"

namespace tessera::pipeline {
namespace {

using test::screen_triangle;

TilingConfig nine_tiles() {
  TilingConfig c;
  c.width = 96;
  c.height = 96;
  return c;  // 3 x 3 tiles of 32 x 32
}

// Right triangle with legs of 60 pixels from (2, 2): its bounding box touches tiles 0, 1, 3 and 4,
// but the hypotenuse x + y = 64 passes above every sample of tile 4 (whose first pixel centre is
// at 32.5 + 32.5 = 65), so the exact test bins it in exactly tiles 0, 1 and 3.
TEST(Binning, TriangleLandsInExactlyTheTilesItOverlaps) {
  PolygonListBuilder pb(nine_tiles());
  EXPECT_EQ(pb.bin(screen_triangle(2, 2, 62, 2, 2, 62, 8)), 3u);
  for (uint32_t tile = 0; tile < 9; ++tile) {
    const bool expected = tile == 0 || tile == 1 || tile == 3;
    EXPECT_EQ(pb.tile_list(tile).size(), expected ? 1u : 0u) << "tile " << tile;
  }
  // Writes: one PMD per tile (4 B, entry 0 of each list, lists 1024 PMDs = 4 KiB apart), then the
  // attributes once: position + 8 varyings = 3 attributes of 48 B on consecutive 64 B lines.
  const ParameterBufferLayout& l = pb.layout();
  const std::vector<PbAccess>& w = pb.writes();
  ASSERT_EQ(w.size(), 6u);
  EXPECT_EQ(w[0].address, l.lists_base + 0 * 4096);
  EXPECT_EQ(w[1].address, l.lists_base + 1 * 4096);
  EXPECT_EQ(w[2].address, l.lists_base + 3 * 4096);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(w[static_cast<size_t>(i)].size, 4u);
    EXPECT_EQ(w[static_cast<size_t>(i)].section, PbSection::Lists);
    EXPECT_EQ(w[static_cast<size_t>(3 + i)].address, l.attributes_base + 64u * static_cast<unsigned>(i));
    EXPECT_EQ(w[static_cast<size_t>(3 + i)].size, 48u);
    EXPECT_EQ(w[static_cast<size_t>(3 + i)].section, PbSection::Attributes);
  }
  EXPECT_EQ(pb.metadata(0).primitive_id, l.attributes_base);
  EXPECT_EQ(pb.metadata(0).attribute_count, 3u);

  // Tile fetch in scanline order: per non-empty tile one 64 B PB-Lists line and 3 attributes.
  std::vector<uint32_t> visited;
  std::vector<PbAccess> reads;
  EXPECT_EQ(fetch_tiles(pb, ScanlineOrder{}, [&](uint32_t t, std::span<const uint32_t>) { visited.push_back(t); },
                        reads),
            9u);
  EXPECT_EQ(visited, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  ASSERT_EQ(reads.size(), 12u);
  EXPECT_EQ(reads[0].address, l.lists_base);
  EXPECT_EQ(reads[0].size, 64u);
  EXPECT_EQ(reads[1].address, l.attributes_base);
  EXPECT_EQ(reads[4].address, l.lists_base + 4096);
  EXPECT_EQ(reads[8].address, l.lists_base + 3 * 4096);
  EXPECT_EQ(reads[8].tile, 3u);
}

TEST(Binning, TouchingOnlyANonTopLeftEdgeIsNotOverlap) {
  PolygonListBuilder pb(nine_tiles());
  // Right edge exactly on the pixel centres x = 32.5 (first column of tile 1): a right edge does
  // not own samples on it, so tile 1 is not overlapped.
  EXPECT_EQ(pb.bin(screen_triangle(10.5f, 2.5f, 32.5f, 2.5f, 32.5f, 20.5f)), 1u);
  EXPECT_EQ(pb.tile_list(0).size(), 1u);
  EXPECT_EQ(pb.tile_list(1).size(), 0u);
  // Mirrored, the same line is a left edge and owns those samples: the triangle lands in tile 1
  // and, having no sample left of x = 32.5, not in tile 0.
  EXPECT_EQ(pb.bin(screen_triangle(32.5f, 2.5f, 50.5f, 2.5f, 32.5f, 20.5f)), 1u);
  EXPECT_EQ(pb.tile_list(1).size(), 1u);
  // Off-screen and scissored-away triangles bin nowhere and use no Parameter Buffer space.
  EXPECT_EQ(pb.bin(screen_triangle(-50, -50, -10, -50, -50, -10)), 0u);
  EXPECT_EQ(pb.primitives().size(), 2u);
  TilingConfig scissored = nine_tiles();
  scissored.scissor_x0 = 40;
  PolygonListBuilder pb2(scissored);
  EXPECT_EQ(pb2.bin(screen_triangle(2, 2, 30, 2, 2, 30)), 0u);
  EXPECT_EQ(pb2.bin(screen_triangle(2, 2, 90, 2, 2, 30)), 2u);
  EXPECT_EQ(pb2.tile_list(0).size(), 0u);
}

// Paper 003 section III-A: the Polygon List Builder writes, per primitive, one PMD per
// overlapped tile plus its attributes once; the Tile Fetcher reads, per tile, ceil(n_t / 16)
// PB-Lists lines and, per listed primitive, all its attributes:
//   writes = sum_p (T_p + A_p)       reads = sum_t ceil(n_t / 16) + sum_p T_p * A_p
TEST(Binning, WriteAndReadCountsMatchTheParameterBufferFormulas) {
  TilingConfig c;
  c.width = 320;
  c.height = 200;
  c.tile_width = 32;
  c.tile_height = 16;
  PolygonListBuilder pb(c);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-40, 360), size(-60, 60);
  std::uniform_int_distribution<uint32_t> varyings(0, 16);
  uint64_t expected_writes = 0, expected_attr_reads = 0, expected_entries = 0;
  for (int i = 0; i < 400; ++i) {
    const float x = pos(rng), y = pos(rng) * 0.6f;
    const uint32_t vc = varyings(rng);
    const ScreenTriangle t = screen_triangle(x, y, x + size(rng), y + size(rng), x + size(rng), y + size(rng), vc);
    const uint32_t tiles = pb.bin(t);
    if (tiles) {
      expected_writes += tiles + attribute_count(vc);
      expected_attr_reads += uint64_t{tiles} * attribute_count(vc);
      expected_entries += tiles;
    }
  }
  EXPECT_EQ(pb.writes().size(), expected_writes);
  uint64_t expected_line_reads = 0;
  for (uint32_t t = 0; t < c.tile_count(); ++t) expected_line_reads += (pb.tile_list(t).size() + 15) / 16;
  std::vector<PbAccess> reads;
  uint32_t primitives_seen = 0;
  fetch_tiles(pb, ScanlineOrder{}, [&](uint32_t, std::span<const uint32_t> p) {
    primitives_seen += static_cast<uint32_t>(p.size());
    for (size_t i = 1; i < p.size(); ++i) EXPECT_LT(p[i - 1], p[i]);  // submission order
  }, reads);
  uint64_t line_reads = 0, attr_reads = 0;
  for (const PbAccess& r : reads) (r.section == PbSection::Lists ? line_reads : attr_reads)++;
  EXPECT_EQ(line_reads, expected_line_reads);
  EXPECT_EQ(attr_reads, expected_attr_reads);
  EXPECT_GT(expected_line_reads, c.tile_count() / 2);  // the scene really populates the lists
  // Every attribute read hits an address that was written, every PMD line read covers written PMDs.
  std::set<uint64_t> written_lines;
  for (const PbAccess& w : pb.writes()) written_lines.insert(w.address / 64);
  for (const PbAccess& r : reads) EXPECT_TRUE(written_lines.count(r.address / 64)) << r.address;
  EXPECT_EQ(primitives_seen, expected_entries);
}

TEST(Binning, SeventeenthPrimitiveStartsASecondListLineAndOverflowChains) {
  ParameterBufferLayout small;
  small.max_primitives_per_tile = 32;
  PolygonListBuilder pb(nine_tiles(), small);
  for (int i = 0; i < 40; ++i) pb.bin(screen_triangle(1, 1, 20, 1, 1, 20));
  ASSERT_EQ(pb.tile_list(0).size(), 40u);
  EXPECT_EQ(pb.pmd_address(0, 15), small.lists_base + 60);
  EXPECT_EQ(pb.pmd_address(0, 16), small.lists_base + 64);
  EXPECT_EQ(pb.pmd_address(1, 0), small.lists_base + 32 * 4);
  // Entries 32.. go to chained overflow blocks instead of running into tile 1's list.
  EXPECT_EQ(pb.pmd_address(0, 32), small.overflow_base);
  EXPECT_EQ(pb.pmd_address(0, 39), small.overflow_base + 28);
  EXPECT_EQ(pb.overflowed_tiles(), 1u);
  std::vector<PbAccess> reads;
  pb.tile_reads(0, reads);
  EXPECT_EQ(reads.size(), 3u + 40u);  // lines for PMDs 0-15, 16-31, 32-39; one attribute each
}

class ReverseOrder final : public TileOrder {
 public:
  std::vector<uint32_t> order(uint32_t tx, uint32_t ty) const override {
    std::vector<uint32_t> o;
    for (uint32_t i = tx * ty; i-- > 0;) o.push_back(i);
    return o;
  }
};
class BrokenOrder final : public TileOrder {
 public:
  std::vector<uint32_t> order(uint32_t tx, uint32_t ty) const override {
    return std::vector<uint32_t>(size_t{tx} * ty, 0);
  }
};

// held_bytes() grows with each list entry (the dominant term: one per tile a primitive joins),
// and the caller's reserve is asked before a primitive is stored: one that throws leaves the
// builder as it was.
TEST(Binning, HeldBytesCountEveryListEntryAndTheReserveIsAskedFirst) {
  PolygonListBuilder pb(nine_tiles());
  const uint64_t per_tile = 2 * sizeof(std::vector<uint32_t>);
  EXPECT_EQ(pb.held_bytes(), 9 * per_tile);
  std::vector<uint64_t> asked;
  uint64_t room = 9 * per_tile + 2000;
  pb.set_reserve([&](uint64_t needed) {
    asked.push_back(needed);
    if (needed > room) throw std::runtime_error("beyond");
    return needed;  // no slack: asked again for every primitive
  });
  // Covers all 9 tiles with position + 8 varyings (3 attributes).
  const ScreenTriangle full = screen_triangle(-10, -10, 300, -10, -10, 300, 8);
  const uint64_t one = sizeof(ScreenTriangle) + sizeof(PrimitiveMetadata) + 3 * sizeof(PbAccess) +
                       9 * (sizeof(uint32_t) + sizeof(PbAccess) + 1);
  ASSERT_LT(9 * per_tile + one, room);
  EXPECT_EQ(pb.bin(full), 9u);
  EXPECT_EQ(pb.held_bytes(), 9 * per_tile + one);
  ASSERT_GT(9 * per_tile + 2 * one, room);
  EXPECT_THROW(pb.bin(full), std::runtime_error);
  EXPECT_EQ(asked, (std::vector<uint64_t>{9 * per_tile + one, 9 * per_tile + 2 * one}));
  EXPECT_EQ(pb.held_bytes(), 9 * per_tile + one);
  EXPECT_EQ(pb.primitives().size(), 1u);
  EXPECT_EQ(pb.writes().size(), 9u + 3u);
  for (uint32_t tile = 0; tile < 9; ++tile) EXPECT_EQ(pb.tile_list(tile).size(), 1u);
}

TEST(TileFetch, OrderIsPluggableAndMustBeAPermutation) {
  PolygonListBuilder pb(nine_tiles());
  pb.bin(screen_triangle(1, 1, 90, 1, 1, 90));
  std::vector<uint32_t> visited;
  std::vector<PbAccess> reads;
  auto visit = [&](uint32_t t, std::span<const uint32_t>) { visited.push_back(t); };
  EXPECT_EQ(fetch_tiles(pb, ReverseOrder{}, visit, reads), 9u);
  EXPECT_EQ(visited, (std::vector<uint32_t>{8, 7, 6, 5, 4, 3, 2, 1, 0}));
  ASSERT_FALSE(reads.empty());
  // The hypotenuse x + y = 91 keeps the triangle out of tiles 8, 7 and 5 (their first sample
  // centres sum to 129, 97 and 97), so the first list read is tile 6's.
  EXPECT_EQ(reads.front().tile, 6u);
  visited.clear();
  reads.clear();
  EXPECT_EQ(fetch_tiles(pb, BrokenOrder{}, visit, reads), 0u);
  EXPECT_TRUE(visited.empty());
  EXPECT_TRUE(reads.empty());
}

// Three primitives over 3 x 3 tiles, as in the setting of paper 003's example (section III-C.7:
// 3 primitives, 9 tiles, scanline order). The paper gives the figure's layout only as an image,
// so the overlaps here are our own: P0 lies in tile 2 only, P1 in tiles 0, 1 and 4 (its bounding
// box also spans tile 3, which the diagonal keeps it out of), P2 in tiles 3, 4 and 6. (The OPT
// Numbers of such a binning are the GPU model's, tessera/model/next_use.h.)
TEST(TileFetch, ParameterBufferOfAThreePrimitiveNineTileFrame) {
  PolygonListBuilder pb(nine_tiles());
  ASSERT_EQ(pb.bin(screen_triangle(70, 5, 90, 5, 70, 25)), 1u);
  ASSERT_EQ(pb.bin(screen_triangle(2, 2, 62, 2, 62, 62)), 3u);
  ASSERT_EQ(pb.bin(screen_triangle(5, 40, 50, 40, 5, 90)), 3u);
  const std::vector<std::vector<uint32_t>> lists = {{1}, {1}, {0}, {2}, {1, 2}, {}, {2}, {}, {}};
  for (uint32_t t = 0; t < 9; ++t) EXPECT_EQ(pb.tile_list(t), lists[t]) << "tile " << t;
  // PB traffic: writes = sum (T_p + A_p) = (1+1) + (3+1) + (3+1); reads = one PB-Lists line per
  // non-empty tile (6) + one attribute per list entry (7).
  EXPECT_EQ(pb.writes().size(), 10u);
  std::vector<PbAccess> reads;
  fetch_tiles(pb, ScanlineOrder{}, [](uint32_t, std::span<const uint32_t>) {}, reads);
  EXPECT_EQ(reads.size(), 13u);
}

}  // namespace
}  // namespace tessera::pipeline
