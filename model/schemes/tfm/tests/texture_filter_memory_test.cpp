// The TFM controller (paper 004 section IV) on sample sequences with exactly known TBA hits and
// misses: bilinear probes along a texture, a trilinear sample switching sets between levels, and
// the replacement choice.
#include <gtest/gtest.h>

#include "tfm/texture_filter_memory.h"

namespace tessera::model::tfm {
namespace {

// A level of 4 blocks per row of 4x4 texels, 64 B blocks in row-major block order (the layout of
// replay/texture), at `base`.
uint64_t block_address(uint64_t base, const Texel& t) { return base + (uint64_t{t.by} * 4 + t.bx) * 64; }
std::array<uint64_t, 4> blocks(const BilinearFootprint& f, uint64_t base = 0x10000) {
  return {block_address(base, f.texels[0]), block_address(base, f.texels[1]), block_address(base, f.texels[2]),
          block_address(base, f.texels[3])};
}
ProbeResult probe(TextureFilterMemory& tfm, uint32_t level, uint32_t tu, uint32_t tv, uint64_t base = 0x10000) {
  const BilinearFootprint f = algorithm2(tu, tv);
  return tfm.bilinear(level, f, blocks(f, base));
}
uint64_t B(uint32_t bx, uint32_t by, uint64_t base = 0x10000) { return base + (uint64_t{by} * 4 + bx) * 64; }

TEST(TextureFilterMemory, BilinearSequence) {
  TextureFilterMemory tfm;
  // s1 (1,1): case 1 in block (0,0): lookup miss, 3 direct.
  ProbeResult r = probe(tfm, 0, 1, 1);
  EXPECT_EQ(r.lookups, 1u);
  EXPECT_EQ(r.fills, 1u);
  EXPECT_EQ(r.l1_blocks[0], B(0, 0));
  // s2 (3,1): case 3, blocks (0,0) hit and (1,0) miss.
  r = probe(tfm, 0, 3, 1);
  EXPECT_EQ(r.lookups, 2u);
  EXPECT_EQ(r.fills, 1u);
  EXPECT_EQ(r.l1_blocks[0], B(1, 0));
  // s3 (5,3): case 2, blocks (1,0) hit and (1,1) miss.
  r = probe(tfm, 0, 5, 3);
  EXPECT_EQ(r.fills, 1u);
  EXPECT_EQ(r.l1_blocks[0], B(1, 1));
  // s4 (7,7): case 4, (1,1) hit, (2,1) miss into the last free buffer, then (1,2) and (2,2) miss
  // and evict the least recently used (0,0) and (1,0).
  r = probe(tfm, 0, 7, 7);
  EXPECT_EQ(r.lookups, 4u);
  EXPECT_EQ(r.fills, 3u);
  EXPECT_EQ(r.l1_blocks[0], B(2, 1));
  EXPECT_EQ(r.l1_blocks[1], B(1, 2));
  EXPECT_EQ(r.l1_blocks[2], B(2, 2));
  EXPECT_FALSE(tfm.tba().holds(0, B(0, 0)));
  EXPECT_FALSE(tfm.tba().holds(0, B(1, 0)));
  // s5 (5,5): case 1 in block (1,1): a hit.
  r = probe(tfm, 0, 5, 5);
  EXPECT_EQ(r.fills, 0u);

  const TfmCounters& c = tfm.counters();
  EXPECT_EQ(c.probes, 5u);
  EXPECT_EQ(c.accesses, 20u);
  EXPECT_EQ(c.lookups, 1u + 2 + 2 + 4 + 1);
  EXPECT_EQ(c.fills, 1u + 1 + 1 + 3 + 0);
  EXPECT_EQ(c.lookup_hits, 4u);
  EXPECT_EQ(c.direct, 3u + 2 + 2 + 0 + 3);
  EXPECT_EQ(c.hits, 14u);
  EXPECT_EQ(c.cases, (std::array<uint64_t, 5>{0, 2, 1, 1, 1}));
  EXPECT_EQ(c.lookup_hits, 4u);
  EXPECT_EQ(c.set_switches, 0u);
  EXPECT_EQ(tfm.current_set(), 0u);  // bilinear filtering stays in one set
}

// Trilinear: each sample filters level 2 then level 3; the controller toggles the set whenever
// the level changes, so each level keeps its four blocks. Case-4 footprints on both levels need 8
// buffers: the first sample fills 8, the second (same footprints) hits all 8.
TEST(TextureFilterMemory, TrilinearSwitchesSets) {
  TextureFilterMemory tfm;
  for (int sample = 0; sample < 2; ++sample) {
    tfm.begin_sample(true);
    EXPECT_EQ(probe(tfm, 2, 3, 3, 0x10000).fills, sample == 0 ? 4u : 0u);
    EXPECT_EQ(tfm.current_set(), 0u);
    EXPECT_EQ(probe(tfm, 3, 3, 3, 0x20000).fills, sample == 0 ? 4u : 0u);
    EXPECT_EQ(tfm.current_set(), 1u);
  }
  EXPECT_TRUE(tfm.tba().holds(0, B(1, 1, 0x10000)));
  EXPECT_TRUE(tfm.tba().holds(1, B(1, 1, 0x20000)));
  EXPECT_FALSE(tfm.tba().holds(0, B(1, 1, 0x20000)));
  EXPECT_EQ(tfm.counters().set_switches, 3u);
  EXPECT_EQ(tfm.counters().lookup_hits, 8u);
}

// Section IV: bilinear filtering uses one set. A shader sampling two textures bilinearly at
// different levels (level 0 of one, level 3 of another) stays in set 0: the blocks compete for
// its four buffers and the other set is never used. Then a trilinear sample toggles.
TEST(TextureFilterMemory, BilinearSamplesAtDifferentLevelsStayInSetZero) {
  TextureFilterMemory tfm;
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(probe(tfm, 0, 1, 1, 0x10000).fills, round == 0 ? 1u : 0u);
    EXPECT_EQ(tfm.current_set(), 0u);
    EXPECT_EQ(probe(tfm, 3, 1, 1, 0x20000).fills, round == 0 ? 1u : 0u);
    EXPECT_EQ(tfm.current_set(), 0u);
  }
  EXPECT_TRUE(tfm.tba().holds(0, B(0, 0, 0x10000)));
  EXPECT_TRUE(tfm.tba().holds(0, B(0, 0, 0x20000)));
  EXPECT_FALSE(tfm.tba().holds(1, B(0, 0, 0x20000)));
  EXPECT_EQ(tfm.counters().set_switches, 0u);
  tfm.begin_sample(true);
  probe(tfm, 3, 1, 1, 0x20000);
  EXPECT_EQ(tfm.current_set(), 0u);  // the level of the previous access: no change
  probe(tfm, 4, 1, 1, 0x30000);
  EXPECT_EQ(tfm.current_set(), 1u);
  tfm.begin_sample(false);
  probe(tfm, 4, 1, 1, 0x30000);
  EXPECT_EQ(tfm.current_set(), 0u);  // back to bilinear: set 0 (a miss there)
  EXPECT_EQ(tfm.counters().set_switches, 2u);
}

// Blocks A, B, C, D are filled by four case-1 probes, A is probed again, then E: LRU evicts B and
// the next probe of A hits; FIFO evicts A and that probe misses.
TEST(TextureFilterMemory, ReplacementChoice) {
  for (const TbaReplacement repl : {TbaReplacement::Lru, TbaReplacement::Fifo}) {
    TextureFilterMemory tfm(repl);
    for (uint32_t bx : {0u, 1u, 2u, 3u}) probe(tfm, 0, bx * 4 + 1, 1);
    EXPECT_EQ(probe(tfm, 0, 1, 1).fills, 0u);
    EXPECT_EQ(probe(tfm, 0, 1, 5).fills, 1u);  // block (0,1)
    EXPECT_EQ(probe(tfm, 0, 1, 1).fills, repl == TbaReplacement::Lru ? 0u : 1u);
  }
}

// Border texels or a cube corner: each distinct block looked up, none read directly.
TEST(TextureFilterMemory, IrregularProbeLooksUpEveryBlock) {
  TextureFilterMemory tfm;
  const uint64_t blocks[3] = {64, 128, 64 * 9};
  ProbeResult r = tfm.irregular(0, blocks);
  EXPECT_EQ(r.lookups, 3u);
  EXPECT_EQ(r.fills, 3u);
  r = tfm.irregular(0, std::span<const uint64_t>(blocks, 2));
  EXPECT_EQ(r.fills, 0u);
  EXPECT_EQ(tfm.counters().accesses, 5u);
  EXPECT_EQ(tfm.counters().direct, 0u);
  EXPECT_EQ(tfm.counters().hits, 2u);
}

TEST(TextureFilterMemory, NearestAndBadInput) {
  TextureFilterMemory tfm;
  EXPECT_EQ(tfm.nearest(0, 64).fills, 1u);
  EXPECT_EQ(tfm.nearest(0, 64).fills, 0u);
  EXPECT_EQ(tfm.counters().accesses, 2u);
  EXPECT_EQ(tfm.counters().lookups, 2u);
  // A case-1 footprint whose texel 2 is given another block cannot be read directly.
  EXPECT_THROW(tfm.bilinear(0, algorithm2(1, 1), {64, 128, 64, 64}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::tfm
