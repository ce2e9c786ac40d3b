// Where the shader cores' cycles go (core.cycles.*, frame.bound): the parts sum to the frame's
// cycles on every core, and a texture-bound frame is told from an ALU-bound one by what a perfect
// L1 gains it.
#include <gtest/gtest.h>

#include <string>

#include "frame_builder.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"

namespace tessera::model {
namespace {

using namespace testing;

void expectCyclesAddUp(const FrameResults& r, const std::string& what) {
  ASSERT_FALSE(r.cores.empty()) << what;
  double mean = 0;
  for (uint32_t c = 0; c < r.cores.size(); ++c) {
    EXPECT_EQ(r.cores[c].cycles.total(), r.cycles) << what << " core " << c;
    double from_rows = 0;
    for (const CoreMetric& m : r.core_metrics) {
      if (m.core == c && m.metric.rfind("cycles.", 0) == 0) from_rows += m.value;
    }
    EXPECT_EQ(from_rows, static_cast<double>(r.cycles)) << what << " core " << c;
  }
  for (uint32_t s = 0; s < kCoreStates; ++s) {
    mean += r.metric(std::string("core.cycles.") + core_state_name(static_cast<CoreState>(s)));
  }
  EXPECT_NEAR(mean, static_cast<double>(r.cycles), 1e-6 * static_cast<double>(r.cycles)) << what;
  // Busy cycles are cycles an engine issued: at least an engine's share of the issue cycles.
  for (const CoreStats& c : r.cores) {
    EXPECT_LE(c.cycles[CoreState::Busy], c.busy_cycles) << what;
  }
}

TEST(WhereTimeGoes, EveryCoresCyclesAddUpToTheFrame) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const auto bytes = buildFrame(randomFrame(seed));
    for (const char* spec : {"mobile4", "mobile4+gpu.barrier=subtile", "mobile32", "mobile4+queue.scope=shared"}) {
      Configuration c = parse_configuration(spec);
      auto model = c.make_model();
      FrameResults r;
      std::string error;
      ASSERT_TRUE(model->run(bytes, r, &error)) << error;
      expectCyclesAddUp(r, std::string(spec) + " seed " + std::to_string(seed));
    }
  }
}

// Each quad: one sample of a line nobody read before (a DRAM fill) and two ALU operations, or
// 4000 of them.
FrameSpec textureFrame(uint32_t alu) {
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = [alu](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.mix = stream::OpMix{alu, 0, 2, 1, 0};
    q.samples[0].push_back({0x2000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 64});
    return q;
  };
  return f;
}

FrameResults run(const std::vector<uint8_t>& bytes, const char* spec) {
  Configuration c = parse_configuration(spec);
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  EXPECT_TRUE(model->run(bytes, r, &error)) << error;
  return r;
}

TEST(WhereTimeGoes, ATextureBoundFrameIsMemoryBoundAndGainsFromAPerfectL1) {
  const auto texture = buildFrame(textureFrame(2));
  const auto alu = buildFrame(textureFrame(4000));
  const FrameResults t = run(texture, "mobile4");
  const FrameResults a = run(alu, "mobile4");
  // The cores of the texture-bound frame wait for texture data most of the time; those of the
  // ALU-bound one issue.
  EXPECT_EQ(t.metric("frame.bound"), 1 + static_cast<double>(CoreState::TextureWait));
  EXPECT_EQ(a.metric("frame.bound"), 1 + static_cast<double>(CoreState::Busy));
  EXPECT_GT(t.metric("core.cycles.texture_wait"), 0.5 * static_cast<double>(t.cycles));
  EXPECT_GT(a.metric("core.cycles.busy"), 0.5 * static_cast<double>(a.cycles));
  const FrameResults tp = run(texture, "mobile4+perfect-l1");
  const FrameResults ap = run(alu, "mobile4+perfect-l1");
  const double texture_gain = static_cast<double>(t.cycles) / static_cast<double>(tp.cycles);
  const double alu_gain = static_cast<double>(a.cycles) / static_cast<double>(ap.cycles);
  EXPECT_GT(texture_gain, 3.0);
  EXPECT_LT(alu_gain, 1.25);
  EXPECT_GT(texture_gain, 2.5 * alu_gain);
}

}  // namespace
}  // namespace tessera::model
