// Workload profile: exact figures of a constructed two-pass frame, distinct texture lines across a
// table that grows, damage reported, and the metric names `tessera replay` stores.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/stream/access_stream.h"
#include "tessera/stream/workload_profile.h"

namespace tessera::stream {
namespace {

// Pass 0: 64x32 render area, two 32x32 tiles, draws 0 and 1; pass 1: 16x16, draw 2.
std::vector<uint8_t> two_pass_frame() {
  StreamWriter w;
  w.frame_begin(3, 1280, 720);
  w.pass_begin(0, 64, 32, 32, 32, 2, 1);
  w.draw(0);
  w.vertex_fetch(0x100, 12);
  w.vertex_shade(3, 30);
  w.pb_write(0x4000, 4, 0, 0, 0);   // primitive 0: list entries in tiles 0 and 1, attributes
  w.pb_write(0x5000, 48, 0, 0, 1);
  w.pb_write(0x4040, 4, 0, 1, 0);
  w.draw(1);
  w.vertex_shade(3, 36);
  w.pb_write(0x4044, 4, 1, 1, 0);   // primitive 1: tile 1 only
  w.tile_begin(0, 0, 0, 0);
  w.primitive(0, 0);
  // Early-tested, all four pass: 4 fragments, 4 shaded.
  w.quad(0, 0, 0xf, 0xf, 0xf, kQuadShaded, 40, OpMix{10, 1, 6, 2, 0});
  const uint64_t a[] = {0x1000, 0x1040};
  const uint64_t b[] = {0x1040, 0x0};
  w.texture(0, 0, 1, 1, a);
  w.texture(1, 0, 1, 1, b);
  // Early-tested, 3 covered of which 2 pass: the shader ran for those 2 (and 2 helper lanes).
  w.quad(2, 0, 0x7, 0x3, 0x3, kQuadShaded, 44, OpMix{11, 1, 6, 1, 0});
  const uint64_t c[] = {0x1000};
  w.texture(0, 0, 1, 1, c);
  w.tile_end(0);
  w.tile_begin(1, 32, 0, 1);
  w.primitive(0, 0);
  // Late-tested (the shader discards or writes depth): every covered lane ran, 1 passed.
  w.quad(32, 0, 0x3, 0x1, 0x1, kQuadShaded | kQuadLateDepth, 20, OpMix{5, 0, 2, 1, 4});
  const uint64_t d[] = {0xffff'ffff'ffff'ffc0};
  w.texture(0, 3, 2, 4, d);
  w.primitive(1, 1);
  // Killed by the early depth test: covered, never shaded.
  w.quad(34, 2, 0x1, 0x0, 0x0, 0, 0, OpMix{});
  w.tile_end(1);
  w.pass_end(0);
  w.pass_begin(1, 16, 16, 16, 16, 1, 1);
  w.draw(2);
  w.vertex_shade(4, 14);
  w.pb_write(0x4000, 4, 0, 0, 0);  // primitive 0 of pass 1: another primitive than pass 0's
  w.tile_begin(0, 0, 0, 0);
  w.primitive(0, 2);
  w.quad(0, 0, 0xf, 0xf, 0xf, kQuadShaded | kQuadFrontFacing, 16);  // OpMix::legacy: 4 alu
  const uint64_t e[] = {0x1040, 0x2000};
  w.texture(2, 0, 1, 1, e);
  w.tile_end(0);
  w.pass_end(1);
  w.frame_end();
  return w.finish();
}

TEST(WorkloadProfile, TwoPassFrameExactFigures) {
  const std::vector<uint8_t> bytes = two_pass_frame();
  WorkloadProfile p;
  std::string error;
  ASSERT_TRUE(profile_frame(bytes, &p, &error)) << error;
  EXPECT_EQ(p.passes, 2u);
  EXPECT_EQ(p.draws, 3u);
  EXPECT_EQ(p.primitives, 3u);  // {0, 1} in pass 0, {0} in pass 1
  EXPECT_EQ(p.quads, 5u);
  EXPECT_EQ(p.fragments, 4u + 3u + 2u + 1u + 4u);
  EXPECT_EQ(p.shaded_fragments, 4u + 2u + 2u + 0u + 4u);
  EXPECT_EQ(p.fragment_instructions, 120u);
  EXPECT_EQ(p.render_area_pixels, 64u * 32u + 16u * 16u);
  EXPECT_EQ(p.vertices, 10u);
  EXPECT_EQ(p.vertex_instructions, 80u);
  // Lines 0x0, 0x1000, 0x1040, 0x2000 and the top one, each counted once across lanes, quads,
  // tiles and passes.
  EXPECT_EQ(p.texture_lines, 5u);
  EXPECT_EQ(p.texture_bytes, 5u * 64u);
  EXPECT_DOUBLE_EQ(p.overdraw, 14.0 / 2304.0);
  EXPECT_DOUBLE_EQ(p.instructions_per_fragment, 10.0);
  EXPECT_DOUBLE_EQ(p.instructions_per_vertex, 8.0);
  EXPECT_EQ(p.fragment_mix, (OpMixTotals{10 + 11 + 5 + 4, 2, 14, 4, 4}));
  // Four lanes per quad: 4 x 30 alu over 12 shaded fragments.
  EXPECT_DOUBLE_EQ(p.alu_per_fragment, 10.0);
  EXPECT_DOUBLE_EQ(p.sfu_per_fragment, 8.0 / 12.0);
  EXPECT_DOUBLE_EQ(p.varying_per_fragment, 56.0 / 12.0);
  EXPECT_DOUBLE_EQ(p.texture_per_fragment, 16.0 / 12.0);
  EXPECT_DOUBLE_EQ(p.memory_per_fragment, 16.0 / 12.0);
}

TEST(WorkloadProfile, DistinctLinesAcrossAGrowingTable) {
  StreamWriter w;
  w.frame_begin(1, 8, 8);
  w.pass_begin(0, 8, 8, 8, 8, 1, 1);
  w.tile_begin(0, 0, 0, 0);
  w.quad(0, 0, 0xf, 0xf, 0xf, kQuadShaded, 4);
  // 100000 distinct lines, each read three times in different orders and batches.
  std::vector<uint64_t> batch;
  for (int round = 0; round < 3; ++round) {
    for (uint64_t i = 0; i < 100000; ++i) {
      const uint64_t line = ((i * 7919 + static_cast<uint64_t>(round) * 13) % 100000) * 64 + (uint64_t{1} << 40);
      batch.push_back(line);
      if (batch.size() == 1000) {
        w.texture(0, 0, 1, 1, batch);
        batch.clear();
      }
    }
  }
  w.tile_end(0);
  w.pass_end(0);
  w.frame_end();
  WorkloadProfile p;
  std::string error;
  ASSERT_TRUE(profile_frame(w.finish(), &p, &error)) << error;
  EXPECT_EQ(p.texture_lines, 100000u);
  EXPECT_EQ(p.texture_bytes, 6400000u);
  EXPECT_DOUBLE_EQ(p.overdraw, 4.0 / 64.0);
}

TEST(WorkloadProfile, EmptyFrameHasZeroRatios) {
  StreamWriter w;
  w.frame_begin(1, 8, 8);
  w.frame_end();
  WorkloadProfile p;
  std::string error;
  ASSERT_TRUE(profile_frame(w.finish(), &p, &error)) << error;
  EXPECT_EQ(p.passes, 0u);
  EXPECT_EQ(p.overdraw, 0.0);
  EXPECT_EQ(p.instructions_per_fragment, 0.0);
  EXPECT_EQ(p.instructions_per_vertex, 0.0);
  EXPECT_EQ(p.alu_per_fragment, 0.0);
  EXPECT_EQ(p.memory_per_fragment, 0.0);
}

TEST(WorkloadProfile, DamageIsReported) {
  std::vector<uint8_t> bytes = two_pass_frame();
  bytes[5] = 0x7f;  // the first event's tag
  WorkloadProfile p;
  std::string error;
  EXPECT_FALSE(profile_frame(bytes, &p, &error));
  EXPECT_EQ(error, "byte 5: unknown event tag 127");
}

TEST(WorkloadProfile, MetricNames) {
  const std::vector<uint8_t> bytes = two_pass_frame();
  WorkloadProfile p;
  std::string error;
  ASSERT_TRUE(profile_frame(bytes, &p, &error));
  const auto m = workload_metrics(p);
  std::vector<std::string> names;
  for (const auto& [name, value] : m) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "workload.texture_lines", "workload.texture_bytes", "workload.draws",
                       "workload.primitives", "workload.quads", "workload.fragments",
                       "workload.overdraw", "workload.instructions_per_fragment",
                       "workload.instructions_per_vertex", "workload.passes", "workload.alu_per_fragment",
                       "workload.sfu_per_fragment", "workload.varying_per_fragment",
                       "workload.texture_per_fragment", "workload.memory_per_fragment"}));
  EXPECT_EQ(m[0].second, 5.0);
  EXPECT_EQ(m[1].second, 320.0);
  EXPECT_EQ(m[3].second, 3.0);
  EXPECT_EQ(m[9].second, 2.0);
  EXPECT_EQ(m[10].second, 10.0);
}

}  // namespace
}  // namespace tessera::stream
