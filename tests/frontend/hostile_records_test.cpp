// Records that decode but hold hostile values (handles that collide or dangle, counts, extents,
// offsets and sizes at extremes, missing blobs): the front end must count them, or refuse the
// replay with one line, never crash, overflow or allocate without bound. Runs under ASan and UBSan with the unit suite.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <tuple>

#include "scene.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::frontend::testing {
namespace {

class Filler {
 public:
  explicit Filler(uint64_t seed, std::vector<cap::Hash128> blobs) : rng_(seed), blobs_(std::move(blobs)) {}

  template <typename T>
  void fill(T& v) {
    if constexpr (std::is_floating_point_v<T>) {
      constexpr T values[] = {0, 1, -1, 0.5, 4, 1e30f, std::numeric_limits<T>::infinity(),
                              std::numeric_limits<T>::quiet_NaN()};
      v = values[pick(std::size(values))];
    } else if constexpr (std::is_same_v<T, uint64_t>) {
      // Handles and sizes: often one of the scene's objects, so commands reach the draw path.
      constexpr uint64_t handles[] = {Scene::kMemory, Scene::kBuffer, Scene::kBuffer2,
                                      Scene::kTarget, Scene::kTargetView, Scene::kRenderPass,
                                      Scene::kFramebuffer, Scene::kSetLayout, Scene::kLayout,
                                      Scene::kPipeline};
      switch (pick(4)) {
        case 0: v = handles[pick(std::size(handles))]; break;
        case 1: v = std::numeric_limits<uint64_t>::max(); break;
        default: v = pick(17); break;
      }
    } else if constexpr (std::is_integral_v<T>) {
      // Small values make handles collide and references resolve; all-ones and the sign bit
      // probe the bounds checks. Enum and flag fields get the same treatment.
      const uint64_t small = pick(10);
      switch (pick(8)) {
        case 0: v = std::numeric_limits<T>::max(); break;
        case 1: v = std::numeric_limits<T>::min(); break;
        case 2: v = static_cast<T>(16); break;
        default: v = static_cast<T>(small); break;
      }
    } else if constexpr (std::is_same_v<T, cap::Hash128>) {
      const size_t i = pick(blobs_.size() + 2);
      v = i < blobs_.size() ? blobs_[i] : (i == blobs_.size() ? cap::Hash128{} : cap::Hash128{7, 7});
    } else if constexpr (std::is_same_v<T, std::string>) {
      v = "main";
    } else if constexpr (cap::field_codec::is_vector<T>::value) {
      v.resize(pick(4));
      for (auto& e : v) fill(e);
    } else {
      std::apply([this](auto&... f) { (fill(f), ...); }, v.fields());
    }
  }

  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

 private:
  std::mt19937_64 rng_;
  std::vector<cap::Hash128> blobs_;
};

template <typename R>
void random_record(CaptureBuilder& b, Filler& f) {
  R r;
  f.fill(r);
  b.object(r);
}

void random_image(CaptureBuilder& b, Filler& f) {
  cap::ImageRecord r;
  const uint32_t formats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D24_UNORM_S8_UINT,
                              VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_R16G16B16A16_SFLOAT,
                              VK_FORMAT_S8_UINT, 12345};
  f.fill(r.image);
  r.format = formats[f.pick(std::size(formats))];
  r.image_type = VK_IMAGE_TYPE_2D;
  f.fill(r.width), f.fill(r.height), f.fill(r.depth);
  f.fill(r.mip_levels), f.fill(r.array_layers), f.fill(r.samples);
  // A shape no device accepts stops the replay (resources.cpp): most images get a valid one, so
  // most seeds go on to exercise the commands that use them.
  if (f.pick(32) != 0) {
    r.width = r.width % 64 + 1, r.height = r.height % 64 + 1, r.depth = 1;
    uint32_t full_chain = 0;
    for (uint32_t d = std::max(r.width, r.height); d != 0; d >>= 1) ++full_chain;
    r.mip_levels = r.mip_levels % full_chain + 1, r.array_layers = r.array_layers % 4 + 1;
  }
  f.fill(r.contents);
  r.subresources.resize(f.pick(4));
  for (auto& s : r.subresources) {
    f.fill(s.mip), f.fill(s.layer), f.fill(s.offset), f.fill(s.size);
    if (s.offset + s.size < s.offset) s.size = 0;  // the decoder refuses wrap-around
    s.aspect = f.pick(2) != 0 ? VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
  }
  b.object(r);
}

// One random object or command record.
void random_any(CaptureBuilder& b, Filler& f) {
  switch (f.pick(42)) {
    case 0: {
      cap::SwapchainRecord r;
      f.fill(r);
      if (f.pick(32) != 0) r.width = r.width % 64 + 1, r.height = r.height % 64 + 1, r.array_layers %= 4;
      b.object(r);
      break;
    }
    case 1: random_record<cap::SamplerRecord>(b, f); break;
    case 2: random_record<cap::ImageViewRecord>(b, f); break;
    case 3: random_record<cap::DescriptorSetLayoutRecord>(b, f); break;
    case 4: random_record<cap::PipelineLayoutRecord>(b, f); break;
    case 5: random_record<cap::RenderPassRecord>(b, f); break;
    case 6: random_record<cap::FramebufferRecord>(b, f); break;
    case 7: random_record<cap::GraphicsPipelineRecord>(b, f); break;
    case 8: random_record<cap::DescriptorSetAllocRecord>(b, f); break;
    case 9: random_record<cap::DescriptorUpdateRecord>(b, f); break;
    case 10: {
      // Sizes beyond the memory budget stop the replay; most stay within it.
      cap::MemoryAllocRecord r;
      f.fill(r);
      if (f.pick(32) != 0) r.size %= uint64_t{1} << 20;
      b.object(r);
      break;
    }
    case 11: random_record<cap::MemoryBindRecord>(b, f); break;
    case 12: random_record<cap::MemoryContentsRecord>(b, f); break;
    case 13: random_record<cap::BufferViewRecord>(b, f); break;
    case 14: random_image(b, f); break;
    case 15: {
      cap::BufferRecord r;
      f.fill(r.buffer), f.fill(r.size), f.fill(r.usage);
      b.object(r);
      break;
    }
    case 16: random_record<cap::CmdBeginRenderPassRecord>(b, f); break;
    case 17: random_record<cap::CmdNextSubpassRecord>(b, f); break;
    case 18: random_record<cap::CmdEndRenderPassRecord>(b, f); break;
    case 19: random_record<cap::CmdBeginRenderingRecord>(b, f); break;
    case 20: random_record<cap::CmdEndRenderingRecord>(b, f); break;
    case 21: random_record<cap::CmdBindPipelineRecord>(b, f); break;
    case 22: random_record<cap::CmdBindDescriptorSetsRecord>(b, f); break;
    case 23: random_record<cap::CmdPushDescriptorSetRecord>(b, f); break;
    case 24: random_record<cap::CmdPushConstantsRecord>(b, f); break;
    case 25: random_record<cap::CmdBindVertexBuffersRecord>(b, f); break;
    case 26: random_record<cap::CmdBindIndexBufferRecord>(b, f); break;
    case 27: random_record<cap::CmdDrawRecord>(b, f); break;
    case 28: random_record<cap::CmdDrawIndexedRecord>(b, f); break;
    case 29: random_record<cap::CmdDrawIndirectRecord>(b, f); break;
    case 30: random_record<cap::CmdSetViewportRecord>(b, f); break;
    case 31: random_record<cap::CmdSetScissorRecord>(b, f); break;
    case 32: random_record<cap::CmdSetDynamicStateRecord>(b, f); break;
    case 33: random_record<cap::CmdClearAttachmentsRecord>(b, f); break;
    case 34: random_record<cap::CmdClearImageRecord>(b, f); break;
    case 35: random_record<cap::CmdCopyRecord>(b, f); break;
    case 36: random_record<cap::CmdUpdateBufferRecord>(b, f); break;
    case 37: random_record<cap::CmdFillBufferRecord>(b, f); break;
    case 38: random_record<cap::CommandBufferRecord>(b, f); break;
    case 39: random_record<cap::CmdSetVertexInputRecord>(b, f); break;
    case 40: {
      // The dynamic states of capture format 1.1, with random words.
      constexpr uint32_t states[] = {VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
                                     VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
                                     VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, VK_DYNAMIC_STATE_POLYGON_MODE_EXT,
                                     VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT};
      cap::CmdSetDynamicStateRecord r;
      f.fill(r.words);
      r.state = states[f.pick(std::size(states))];
      b.object(r);
      break;
    }
    default: {
      cap::PresentedImageRecord r;
      f.fill(r.swapchain), f.fill(r.image_index), f.fill(r.width), f.fill(r.pixels);
      b.object(r);
      break;
    }
  }
}

TEST(FrontendHostile, RandomValuedRecordsAreCountedOrRefusedNeverACrash) {
  uint64_t replayed = 0, refusals = 0, draws = 0, skips = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    CaptureBuilder b;
    std::vector<cap::Hash128> blobs;
    for (size_t n : {size_t{16}, size_t{64}, size_t{256}, size_t{4096}}) {
      std::vector<uint8_t> bytes(n);
      for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + seed);
      blobs.push_back(b.blob(bytes));
    }
    Filler f(seed, blobs);
    Scene scene;
    scene.write(b, {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                    VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE,
                    VK_DYNAMIC_STATE_VERTEX_INPUT_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT,
                    VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
                    VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,
                    VK_DYNAMIC_STATE_POLYGON_MODE_EXT, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT});
    for (int i = 0; i < 40; ++i) random_any(b, f);
    b.begin_frame(1);
    // A valid start (a pass with the scene's pipeline bound), then anything.
    b.object(cap::CommandBufferRecord{0xc0, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1000});
    b.object(Scene::begin_pass());
    b.object(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
    for (int i = 0; i < 120; ++i) {
      random_any(b, f);
      if (f.pick(4) == 0) random_record<cap::CmdDrawRecord>(b, f);
    }
    b.end_frame();
    auto reader = b.finish();
    std::string error;
    // Every record here is well formed: a replay may stop only on what the replay refuses (an
    // image no device can create, memory beyond the budget), with one line naming the file,
    // where it stopped and the object.
    const auto refused = [&](const std::string& where) {
      const bool named = error.rfind(b.path() + where + "image 0x", 0) == 0 ||
                         error.rfind(b.path() + where + "memory 0x", 0) == 0;
      const bool why = error.find(": refused: ") != std::string::npos ||
                       error.find(", beyond the replay's memory budget of ") != std::string::npos;
      EXPECT_TRUE(named && why && error.find('\n') == std::string::npos) << "seed " << seed << ": " << error;
      ++refusals;
    };
    // An explicit budget: the default (half the machine) could let a shape through that
    // allocates gigabytes; after the replay goes, all it took is given back.
    MemoryBudget budget(uint64_t{1} << 30);
    [&] {
      auto replay = CaptureReplay::open(*reader, budget, &error);
      if (!replay) {
        refused(": global records: ");
        return;
      }
      RecordingRenderer renderer;
      FrameResult result;
      if (!replay->replay_frame(0, renderer, &result, &error)) {
        refused(": frame 1: ");
        return;
      }
      ++replayed;
      draws += result.draws;
      skips += result.skipped.total();
    }();
    EXPECT_EQ(budget.held(), 0u) << "seed " << seed;
    EXPECT_FALSE(budget.over_released()) << "seed " << seed;
  }
  EXPECT_EQ(replayed + refusals, 150u);
  // The generator reaches every outcome: replays refused, draws resolved and things counted as
  // skipped.
  EXPECT_GT(refusals, 0u);
  EXPECT_GT(replayed, 75u);
  EXPECT_GT(draws, 150u);
  EXPECT_GT(skips, 0u);
  std::printf("hostile records: %lu replays refused, %lu draws resolved, %lu skips counted\n",
              static_cast<unsigned long>(refusals), static_cast<unsigned long>(draws),
              static_cast<unsigned long>(skips));
}

}  // namespace
}  // namespace tessera::frontend::testing
