// The MTA prefetcher (Lee et al., MICRO 2010; paper 002's [LLKV10]) on access streams whose
// strides are known: each table's training and predictions, worked by hand from the mechanism.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "prefetch-mta/many_thread_aware.h"

namespace tessera::model {
namespace {

using mta::Source;

struct Step {
  uint32_t warp;
  uint64_t addr;
  Source source;
  std::vector<uint64_t> predicted;
};

void run(mta::ManyThreadAware& p, uint64_t pc, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    SCOPED_TRACE("access " + std::to_string(i) + " (warp " + std::to_string(steps[i].warp) + ", address " +
                 std::to_string(steps[i].addr) + ")");
    std::vector<uint64_t> out;
    EXPECT_EQ(p.access(pc, steps[i].warp, steps[i].addr, out), steps[i].source);
    EXPECT_EQ(out, steps[i].predicted);
  }
}

// Scalable training and stride promotion: three warps run one after another, each reading
// base + 4i at one PC. Each warp's PWS entry trains on its own third access (two deltas of 4) and
// predicts its next address; the warp bases are 92 then 292 past the previous warp's last access,
// so the inter-warp table never sees one delta twice. When the third warp's entry trains, three
// warps agree on stride 4: it is promoted to GS and a fourth warp predicts from its first access.
TEST(ManyThreadAware, PerWarpStridesArePromotedToTheGlobalTable) {
  mta::ManyThreadAware p(mta::Config{});
  run(p, 7,
      {{0, 100, Source::None, {}},
       {0, 104, Source::None, {}},
       {0, 108, Source::PerWarp, {112}},
       {1, 200, Source::None, {}},
       {1, 204, Source::None, {}},
       {1, 208, Source::PerWarp, {212}},
       {2, 500, Source::None, {}},
       {2, 504, Source::None, {}},
       {2, 508, Source::PerWarp, {512}},
       {3, 900, Source::GlobalStride, {904}},
       {3, 904, Source::GlobalStride, {908}},
       {0, 112, Source::GlobalStride, {116}}});
  EXPECT_EQ(p.promotions(), 1u);
  // Another PC is not promoted.
  run(p, 8, {{3, 900, Source::None, {}}});
}

// Why per warp: two warps interleaved at one PC. A table trained on the PC alone would see deltas
// 100, -96, 100, ... and never a stride; each warp's own entry trains on its third access.
TEST(ManyThreadAware, InterleavedWarpsTrainTheirOwnEntries) {
  mta::ManyThreadAware p(mta::Config{});
  run(p, 1,
      {{0, 100, Source::None, {}},
       {1, 200, Source::None, {}},
       {0, 104, Source::None, {}},
       {1, 204, Source::None, {}},
       {0, 108, Source::PerWarp, {112}},
       {1, 208, Source::PerWarp, {212}}});
  EXPECT_EQ(p.promotions(), 0u);  // two warps agree; three are needed
}

// Inter-warp prefetching: warps 0, 1, 2, ... each execute the PC once, 16 apart. Two equal deltas
// between consecutive warps train the entry and it prefetches for the next warp; a delta that
// breaks the pattern untrains it; distance and degree move and repeat the prediction.
TEST(ManyThreadAware, InterWarpStridesPrefetchForTheNextWarp) {
  mta::ManyThreadAware p(mta::Config{});
  run(p, 3,
      {{0, 1000, Source::None, {}},
       {1, 1016, Source::None, {}},
       {2, 1032, Source::InterWarp, {1048}},
       {3, 1048, Source::InterWarp, {1064}},
       {4, 2000, Source::None, {}},
       {5, 2016, Source::None, {}},
       {6, 2032, Source::InterWarp, {2048}}});
  mta::Config far;
  far.distance = 2;
  far.degree = 3;
  mta::ManyThreadAware q(far);
  run(q, 3, {{0, 1000, Source::None, {}}, {1, 1016, Source::None, {}}, {2, 1032, Source::InterWarp, {1064, 1080, 1096}}});
  // A stride of 0 (every warp on the same line) trains but predicts nothing.
  mta::ManyThreadAware z(mta::Config{});
  run(z, 3, {{0, 50, Source::None, {}}, {1, 50, Source::None, {}}, {2, 50, Source::None, {}}});
}

// One warp per core (paper 002's baseline, tegra2): the single thread slot's successive quads are
// the warp's successive accesses, so PWS alone predicts, per PC; IP never sees two warps.
TEST(ManyThreadAware, OneWarpTrainsPerPc) {
  mta::Config c;
  c.pws_entries = 2;
  mta::ManyThreadAware p(c);
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < 3; ++i) {
    p.access(10, 0, 100 + 2 * i, out);
    p.access(11, 0, 900 - 8 * i, out);
  }
  EXPECT_EQ(out, (std::vector<uint64_t>{106, 876}));
  // A third PC evicts the least recently used entry (PC 10's): PC 10 trains again from scratch.
  out.clear();
  p.access(12, 0, 5, out);
  p.access(11, 0, 876, out);
  EXPECT_EQ(out, (std::vector<uint64_t>{868}));
  out.clear();
  p.access(10, 0, 106, out);
  p.access(10, 0, 108, out);
  EXPECT_TRUE(out.empty());
}

// The throttle: at degree d, the first 5 - d of every 5 predictions pass. Each period's end moves
// the degree by the MTA paper's rules: early eviction rate (early / useful) above 2 % stops
// prefetching, 1-2 % raises the degree; below 1 %, the merge ratio averaged with the previous
// period's above 15 % lowers it, else prefetching stops.
TEST(ManyThreadAware, ThrottleFollowsEarlyEvictionsAndMerges) {
  mta::Throttle t(mta::ThrottleConfig{});
  auto pattern = [&t] {
    std::string s;
    for (int i = 0; i < 10; ++i) s += t.allow() ? 'x' : '.';
    return s;
  };
  EXPECT_EQ(t.degree(), 2u);
  EXPECT_EQ(pattern(), "xxx..xxx..");
  t.period_end(0, 100, 40, 100);  // merge ratio (0 + 0.4) / 2 = 0.2
  EXPECT_EQ(t.degree(), 1u);
  EXPECT_DOUBLE_EQ(t.merge_ratio(), 0.2);
  EXPECT_EQ(pattern(), "xxxx.xxxx.");
  t.period_end(1, 100, 50, 100);  // early eviction rate 1 %: up
  EXPECT_EQ(t.degree(), 2u);
  EXPECT_DOUBLE_EQ(t.merge_ratio(), 0.35);
  t.period_end(0, 100, 50, 100);  // merge ratio 0.425
  EXPECT_EQ(t.degree(), 1u);
  t.period_end(0, 100, 0, 100);  // merge ratio 0.2125
  EXPECT_EQ(t.degree(), 0u);
  EXPECT_EQ(pattern(), "xxxxxxxxxx");
  t.period_end(3, 100, 0, 100);  // early eviction rate 3 %: stop
  EXPECT_EQ(t.degree(), 5u);
  EXPECT_EQ(pattern(), "..........");
  t.period_end(0, 0, 0, 0);  // merge ratio 0.10625: stays stopped
  EXPECT_EQ(t.degree(), 5u);
  t.period_end(0, 0, 30, 100);  // merge ratio 0.203: down again
  EXPECT_EQ(t.degree(), 4u);
  EXPECT_EQ(pattern(), "x....x....");
  EXPECT_THROW(mta::Throttle(mta::ThrottleConfig{5, 6}), std::invalid_argument);
  EXPECT_THROW(mta::ManyThreadAware(mta::Config{0}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model
