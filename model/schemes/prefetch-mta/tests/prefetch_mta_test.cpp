// The MTA prefetcher in the timing model: texture instructions as PCs, thread slots as warps,
// a prediction moving the whole footprint of an access; and its combinations.
#include <gtest/gtest.h>

#include <string>

#include "frame_builder.h"
#include "refusal.h"
#include "tessera/model/configuration.h"

namespace tessera::model {
namespace {

using namespace testing;

FrameResults run_spec(const std::vector<uint8_t>& bytes, const char* spec,
                      std::initializer_list<const char*> overrides) {
  Configuration c = parse_configuration(spec);
  for (const char* o : overrides) c.params.apply(o);
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  EXPECT_TRUE(model->run(bytes, r, &error)) << error;
  return r;
}

// One core, one warp (every quad runs in thread slot 0), 256 quads in stream order. Each quad's
// first texture instruction reads two lines side by side, 4 lines further on than the previous
// quad's; its second reads one line 3 lines before the previous quad's. Per instruction (PC) the
// warp's accesses have one stride: PWS trains on the third quad and predicts every later quad's
// lines, the first instruction's two lines moved by 4, the second's one line moved by -3. Of
// those predicted for quads 3 .. 256, only quad 256's (there is none) go unused.
TEST(PrefetchMta, OneWarpPrefetchesEachInstructionsStride) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    const uint64_t i = qy * 16 + qx;
    QuadSpec q;
    q.instructions = 200;
    q.samples[0].push_back({0x2000'0000 + 4 * i * 64});
    q.samples[1].push_back({0x2000'0000 + (4 * i + 1) * 64});
    q.samples[0].push_back({0x3000'0000 + (1000 - 3 * i) * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  const std::initializer_list<const char*> one_warp = {"gpu.shader_cores=1", "core.max_quads=1", "mta.throttle=false"};
  const FrameResults r = run_spec(bytes, "tegra2+prefetch-mta", one_warp);
  EXPECT_EQ(m(r, "mta.trained"), 512);
  EXPECT_EQ(m(r, "mta.predicted_pws"), 2 * 254);
  EXPECT_EQ(m(r, "mta.predicted_ip"), 0);
  EXPECT_EQ(m(r, "mta.predicted_gs"), 0);
  EXPECT_EQ(m(r, "mta.promotions"), 0);
  EXPECT_EQ(m(r, "mta.predictions"), 3 * 254);
  EXPECT_EQ(m(r, "mta.prefetches"), 3 * 254);
  EXPECT_EQ(m(r, "l1tex.prefetches"), 3 * 254);
  EXPECT_EQ(m(r, "mta.useful"), 3 * 253);
  EXPECT_EQ(m(r, "l1tex.misses"), 3 * 256 - 3 * 253);
  EXPECT_EQ(m(r, "mta.throttled"), 0);
  EXPECT_TRUE(std::isnan(r.metric("mta.degree")));
  // The same frame without the prefetcher misses every line; with it, the quads wait less.
  const FrameResults base = run_spec(bytes, "tegra2", {"gpu.shader_cores=1", "core.max_quads=1"});
  EXPECT_EQ(m(base, "l1tex.misses"), 3 * 256);
  EXPECT_LT(m(r, "cycles"), m(base, "cycles"));
  // With the throttle at its initial degree 2 and a period longer than the frame, the first 3 of
  // every 5 predictions are sent: 762 predictions are 152 rounds of 5 and 2 more, both sent.
  const FrameResults throttled =
      run_spec(bytes, "tegra2+prefetch-mta", {"gpu.shader_cores=1", "core.max_quads=1", "mta.period=1000000000"});
  EXPECT_EQ(m(throttled, "mta.predictions"), 3 * 254);
  EXPECT_EQ(m(throttled, "mta.throttled"), 152 * 2);
  EXPECT_EQ(m(throttled, "mta.degree"), 2);
  EXPECT_EQ(m(throttled, "mta.periods"), 0);
}

// The throttle's periods run on the run's clock across frames: a warm frame does not end a period
// at its first request (it would with nothing counted, and shut prefetching off). With a period
// P of three quarters of the first frame, each frame ends the periods whose boundaries k x P fall
// in it: the first frame one, the warm second (shorter: its lines are in L2) none.
TEST(PrefetchMta, ThrottlePeriodsCarryOverFrames) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 200;
    q.samples[0].push_back({0x2000'0000 + 4 * uint64_t{qy * 16 + qx} * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  const uint64_t first = run_spec(bytes, "tegra2+prefetch-mta", {"gpu.shader_cores=1", "core.max_quads=1"}).cycles;
  Configuration c = parse_configuration("tegra2+prefetch-mta");
  for (const char* o : {"gpu.shader_cores=1", "core.max_quads=1"}) c.params.apply(o);
  c.params.apply("mta.period=" + std::to_string(first * 3 / 4));
  auto model = c.make_model();
  FrameResults r1, r2;
  std::string error;
  ASSERT_TRUE(model->run(bytes, r1, &error)) << error;
  ASSERT_TRUE(model->run(bytes, r2, &error)) << error;
  const uint64_t period = first * 3 / 4;
  const auto boundaries = [&](uint64_t from, uint64_t to) { return static_cast<double>(to / period - from / period); };
  EXPECT_EQ(m(r1, "mta.periods"), boundaries(0, r1.cycles));
  EXPECT_EQ(m(r2, "mta.periods"), boundaries(r1.cycles, r1.cycles + r2.cycles));
  EXPECT_EQ(m(r1, "mta.periods"), 1);
}

// A prefetcher that watches the L1s through the texture organisation: every other texture
// organisation and the DAE prefetcher are refused beside it, in one line.
TEST(PrefetchMta, CombinationsLikeTheGhbPrefetcher) {
  const struct {
    const char* spec;
    const char* message;
  } refused[] = {
      {"tegra2+prefetch-mta+dae", "prefetch-mta cannot run with dae (the texture prefetcher): two prefetchers would "
                                  "fill the same L1s"},
      {"tegra2+prefetch-mta+prefetch-ghb", "prefetch-ghb and prefetch-mta both take the"},
      {"tegra2+prefetch-mta+perfect-l1", "perfect-l1 and prefetch-mta both take the"},
      {"tegra2+prefetch-mta+perfect-memory", "perfect-memory and prefetch-mta both take the"},
      {"mobile32+prefetch-mta+dtm-nuca", "dtm-nuca and prefetch-mta both take the"},
  };
  for (const auto& r : refused) {
    SCOPED_TRACE(r.spec);
    const std::string what = testing::refusal(r.spec);
    EXPECT_NE(what.find(r.message), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_NO_THROW(parse_configuration("tegra2+prefetch-mta+dtexl").make_model());
  EXPECT_THROW(parse_configuration("tegra2+prefetch-mta+mta.throttle_initial=6"), ParamError);
  // The throttle's parameters do nothing without it.
  for (const char* p : {"mta.period=50", "mta.throttle_initial=0"}) {
    SCOPED_TRACE(p);
    EXPECT_THROW(parse_configuration(std::string("tegra2+prefetch-mta+mta.throttle=false+") + p).make_model(), ParamError);
    EXPECT_NO_THROW(parse_configuration(std::string("tegra2+prefetch-mta+") + p).make_model());
  }
}

}  // namespace
}  // namespace tessera::model
