// Compute dispatches through the renderer: a storage image written by compute (vkCmdDispatchBase
// included) and sampled by a later draw with exact pixels; image and buffer atomics; fragment
// shader stores run before a late depth test; nothing of it in the access stream.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;
using testing::TexturedVertex;
using Rgba8 = std::array<uint8_t, 4>;

frontend::DescriptorBinding storage(uint32_t binding, uint32_t type, frontend::DescriptorElement e) {
  frontend::DescriptorBinding b;
  b.binding = binding;
  b.type = type;
  b.elements.push_back(e);
  return b;
}

frontend::Dispatch dispatch(const std::string& shader, std::array<uint32_t, 3> base, std::array<uint32_t, 3> count) {
  frontend::Dispatch d;
  d.stage = testing::stage(shader);
  for (int k = 0; k < 3; ++k) d.base[k] = base[k], d.group_count[k] = count[k];
  return d;
}

class ComputeTest : public ::testing::Test {
 protected:
  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer};
  frontend::SkipCounts skipped;
};

TEST_F(ComputeTest, StorageImageWrittenByComputeIsSampledByALaterDraw) {
  frontend::Image* image = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, 0x7000000);
  image->usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  frontend::ImageView* view = scene.view(image);
  const auto texel = [&](uint32_t x, uint32_t y) { return testing::rgba8(*image, x, y); };
  // The right half first (vkCmdDispatchBase: workgroup x = 1), then the left half.
  frontend::Dispatch right = dispatch("write_image.comp", {1, 0, 0}, {1, 2, 1});
  right.descriptors.push_back(storage(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {view, nullptr, nullptr, 0, 0}));
  const uint64_t generation = image->generation;
  renderer.dispatch(right, skipped);
  ASSERT_EQ(skipped.total(), 0u) << skipped.reasons[0].first;
  EXPECT_GT(image->generation, generation);  // touched: sampled copies are rebuilt
  EXPECT_EQ(texel(3, 5), (Rgba8{0, 0, 0, 0}));
  EXPECT_EQ(texel(4, 5), (Rgba8{128, 160, 128, 255}));
  frontend::Dispatch left = right;
  left.base[0] = 0;
  renderer.dispatch(left, skipped);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x)
      ASSERT_EQ(texel(x, y), (Rgba8{static_cast<uint8_t>(32 * x), static_cast<uint8_t>(32 * y), 128, 255})) << x << "," << y;
  EXPECT_EQ(renderer.compute_stats().dispatches, 2u);
  EXPECT_EQ(renderer.compute_stats().workgroups, 4u);
  EXPECT_EQ(renderer.compute_stats().invocations, 64u);

  // A draw samples it: an 8x8 target, one texel per pixel, NEAREST.
  frontend::Image* target = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, 0x100000);
  auto p = testing::pass(8, 8, scene.view(target), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  const auto v = [](float x, float y, float u, float w) { return TexturedVertex{{x, y, 0.5f, 1}, {u, w}}; };
  const std::vector<TexturedVertex> verts = {v(-1, -1, 0, 0), v(1, -1, 1, 0), v(1, 1, 1, 1),
                                             v(-1, -1, 0, 0), v(1, 1, 1, 1), v(-1, 1, 0, 1)};
  frontend::Draw d = testing::textured_draw(scene.buffer(verts.data(), verts.size() * sizeof(TexturedVertex), 0x20000), 6, 8, 8);
  d.descriptors.push_back(storage(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {view, scene.nearest_sampler(), nullptr, 0, 0}));
  p.commands.push_back(d);
  writer.frame_begin(1, 8, 8);
  renderer.render_pass(p, skipped);
  writer.frame_end();
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x)
      ASSERT_EQ(testing::rgba8(*target, x, y), (Rgba8{static_cast<uint8_t>(32 * x), static_cast<uint8_t>(32 * y), 128, 255}))
          << x << "," << y;
  EXPECT_EQ(skipped.total(), 0u);
  // The stream holds the pass only: compute is not render pass work.
  const std::vector<uint8_t> bytes = writer.finish();
  stream::StreamReader reader(bytes);
  stream::Event e;
  while (reader.next(e)) {}
  EXPECT_EQ(reader.counts()[stream::EventKind::PassBegin], 1u);
  EXPECT_EQ(reader.counts()[stream::EventKind::Draw], 1u);
}

TEST_F(ComputeTest, ImageAndBufferAtomicsAndImageLoad) {
  frontend::Image* hist = scene.image(VK_FORMAT_R32_UINT, 4, 1, 4, 0x7000000);
  frontend::Image* source = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 4, 0x7100000);
  const uint8_t texel11[4] = {1, 2, 3, 4};
  std::memcpy(source->planes[0].data() + 12, texel11, 4);
  std::vector<uint32_t> data(2 + 128);
  uint32_t total = 0, bins[4] = {};
  for (uint32_t i = 0; i < 128; ++i) {
    data[2 + i] = i * 7 + 3;
    total += data[2 + i];
    ++bins[data[2 + i] % 4];
  }
  frontend::Buffer* buffer = scene.buffer(data.data(), data.size() * 4, 0x30000);
  frontend::Dispatch d = dispatch("histogram.comp", {0, 0, 0}, {2, 1, 1});
  d.descriptors.push_back(storage(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {scene.view(hist), nullptr, nullptr, 0, 0}));
  d.descriptors.push_back(storage(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {nullptr, nullptr, buffer, 0, buffer->size}));
  d.descriptors.push_back(storage(2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {scene.view(source), nullptr, nullptr, 0, 0}));
  renderer.dispatch(d, skipped);
  ASSERT_EQ(skipped.total(), 0u) << skipped.reasons[0].first;
  uint32_t got[4];
  std::memcpy(got, hist->planes[0].data(), 16);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got[k], bins[k]) << k;
  uint32_t words[2];
  std::memcpy(words, buffer->bytes().data(), 8);
  EXPECT_EQ(words[0], total);
  EXPECT_EQ(words[1], 0x04030201u);  // packUnorm4x8 of imageLoad (1, 2, 3, 4) / 255

  // The same buffer bound as a uniform-buffer-typed descriptor is read-only: nothing changes.
  d.descriptors[1].type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  renderer.dispatch(d, skipped);
  std::memcpy(words, buffer->bytes().data(), 8);
  EXPECT_EQ(words[0], total);
}

TEST_F(ComputeTest, FragmentStoresRunBeforeTheLateDepthTest) {
  constexpr uint32_t W = 16, H = 8;
  frontend::Image* color = scene.image(VK_FORMAT_R8G8B8A8_UNORM, W, H, 4, 0x100000);
  frontend::Image* depth = scene.image(VK_FORMAT_D32_SFLOAT, W, H, 4, 0x200000);
  auto p = testing::pass(W, H, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                         scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
  const auto rect = [&](float z, std::array<float, 4> c, uint64_t address) {
    const auto v = [&](float x, float y) { return ColorVertex{{x, y, z, 1}, {c[0], c[1], c[2], c[3]}}; };
    const std::vector<ColorVertex> verts = {v(-1, -1), v(1, -1), v(1, 1), v(-1, -1), v(1, 1), v(-1, 1)};
    return scene.buffer(verts.data(), verts.size() * sizeof(ColorVertex), address);
  };
  frontend::Draw near = testing::color_draw("color.vert", "color.frag", rect(0.3f, {1, 0, 0, 1}, 0x10000), 6, W, H);
  frontend::Draw far = testing::color_draw("color.vert", "count.frag", rect(0.6f, {0, 1, 0, 1}, 0x11000), 6, W, H);
  for (frontend::Draw* d : {&near, &far}) {
    d->state.depth_test = 1;
    d->state.depth_write = 1;
    d->state.depth_compare = VK_COMPARE_OP_LESS;
  }
  uint32_t shaded = 0;
  frontend::Buffer* counter = scene.buffer(&shaded, 4, 0x40000);
  far.descriptors.push_back(storage(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {nullptr, nullptr, counter, 0, 4}));
  p.commands.push_back(near);
  p.commands.push_back(far);
  renderer.render_pass(p, skipped);
  ASSERT_EQ(skipped.total(), 0u);
  // Every covered pixel ran the counting shader (helpers did not count), none passed the depth
  // test: the near red stays.
  std::memcpy(&shaded, counter->bytes().data(), 4);
  EXPECT_EQ(shaded, W * H);
  EXPECT_EQ(testing::rgba8(*color, 5, 5), (Rgba8{255, 0, 0, 255}));
  EXPECT_EQ(renderer.frame_stats().pixels_written, uint64_t{W} * H);  // the near draw's only
}

// A shader that does not compile is counted; grids too large to run stop the replay instead
// (shader_bounds_test.cpp).
TEST_F(ComputeTest, UnrunnableDispatchesAreCountedWithAReason) {
  frontend::Dispatch broken = dispatch("write_image.comp", {0, 0, 0}, {1, 1, 1});
  broken.stage.spirv = std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{0x07230203u, 0, 0});
  renderer.dispatch(broken, skipped);
  ASSERT_EQ(skipped.reasons.size(), 1u);
  EXPECT_EQ(skipped.reasons[0].first.rfind("dispatch: shader ", 0), 0u) << skipped.reasons[0].first;
  // The storage image is unbound here: the writes are dropped and counted, not silent.
  frontend::Dispatch unbound = dispatch("write_image.comp", {0, 0, 0}, {1, 1, 1});
  renderer.dispatch(unbound, skipped);
  EXPECT_EQ(skipped.reasons.back().first, "storage image: compute shader access to an unbound image (zeros, writes dropped)");
  EXPECT_EQ(skipped.reasons.back().second, 1u);  // one 16-lane request
  EXPECT_EQ(renderer.compute_stats().dispatches, 1u);
}

}  // namespace
}  // namespace tessera::render
