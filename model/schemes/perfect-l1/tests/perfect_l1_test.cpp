// Paper 002 section 3's upper bound: perfect texture caches on constructed frames.
#include <gtest/gtest.h>

#include <string>

#include "frame_builder.h"
#include "tessera/model/configuration.h"

namespace tessera::model {
namespace {

using namespace testing;

// Perfect caches: every texture access hits L1, nothing goes below.
TEST(PerfectL1, EveryTextureAccessHits) {
  const auto bytes = buildFrame(mixedFrame());
  Configuration c = parse_configuration("mobile4+perfect-l1");
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  ASSERT_TRUE(model->run(bytes, r, &error)) << error;
  EXPECT_GT(m(r, "l1tex.accesses"), 0);
  EXPECT_EQ(m(r, "l1tex.hits"), m(r, "l1tex.accesses"));
  EXPECT_EQ(m(r, "l2.texture_accesses"), 0);
}

// Perfect caches install a missing line without reading it from below: no L1 fetch, no prefetch,
// no L2 texture access; each of 1024 distinct lines, sampled twice by its quad, is installed once
// and every one of the 2048 demand accesses hits.
TEST(PerfectL1, InstallsFetchNothing) {
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    const uint64_t line = 0x2000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 64;
    q.samples[0] = {{line}, {line}};
    return q;
  };
  Configuration c = parse_configuration("tegra2+perfect-l1");
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  ASSERT_TRUE(model->run(buildFrame(f), r, &error)) << error;
  EXPECT_EQ(m(r, "l1tex.accesses"), 2048);
  EXPECT_EQ(m(r, "l1tex.hits"), 2048);
  EXPECT_EQ(m(r, "l1tex.installs"), 1024);
  EXPECT_EQ(m(r, "l1tex.fetches"), 0);
  EXPECT_EQ(m(r, "l1tex.prefetches"), 0);
  EXPECT_EQ(m(r, "l1tex.prefetch_fills"), 0);
  EXPECT_EQ(m(r, "l1tex.prefetch_hits"), 0);
  EXPECT_EQ(m(r, "l2.texture_accesses"), 0);
}

}  // namespace
}  // namespace tessera::model
