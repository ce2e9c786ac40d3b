// Image views through the renderer's texture cache: component swizzles on one- and two-channel
// formats (Zink's GL luminance / alpha textures), cube and 3D views, with exact pixels and no
// draw skipped.
#include <gtest/gtest.h>

#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;
using testing::TexturedVertex;
using Rgba8 = std::array<uint8_t, 4>;

constexpr uint32_t kW = 24, kH = 8;

class TextureViewsTest : public ::testing::Test {
 protected:
  // Two triangles over pixels [x0, x1) x [0, kH) whose colour attribute is `c` everywhere.
  frontend::Buffer* rect(float x0, float x1, std::array<float, 4> c) {
    const float l = testing::ndc(x0, kW), r = testing::ndc(x1, kW);
    const auto v = [&](float x, float y) { return ColorVertex{{x, y, 0.5f, 1}, {c[0], c[1], c[2], c[3]}}; };
    const std::vector<ColorVertex> verts = {v(l, -1), v(r, -1), v(r, 1), v(l, -1), v(r, 1), v(l, 1)};
    return scene.buffer(verts.data(), verts.size() * sizeof(ColorVertex), 0x10000 + 0x1000 * ++buffers);
  }
  frontend::Draw draw(const std::string& fs, frontend::Buffer* vertices, frontend::ImageView* view) {
    frontend::Draw d = testing::color_draw("color.vert", fs, vertices, 6, kW, kH);
    frontend::DescriptorBinding binding;
    binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.elements.push_back({view, scene.nearest_sampler(), nullptr, 0, 0});
    d.descriptors.push_back(binding);
    return d;
  }
  frontend::Draw textured(frontend::ImageView* view) {
    const auto v = [](float x, float y, float u, float w) { return TexturedVertex{{x, y, 0.5f, 1}, {u, w}}; };
    const std::vector<TexturedVertex> verts = {v(-1, -1, 0, 0), v(1, -1, 1, 0), v(1, 1, 1, 1),
                                               v(-1, -1, 0, 0), v(1, 1, 1, 1), v(-1, 1, 0, 1)};
    frontend::Draw d = testing::textured_draw(scene.buffer(verts.data(), verts.size() * sizeof(TexturedVertex),
                                                           0x20000 + 0x1000 * ++buffers), 6, kW, kH);
    frontend::DescriptorBinding binding;
    binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.elements.push_back({view, scene.nearest_sampler(), nullptr, 0, 0});
    d.descriptors.push_back(binding);
    return d;
  }
  frontend::Image* target() { return scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x100000 * ++images); }
  Rgba8 render_one(frontend::Draw d) {
    frontend::Image* img = target();
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    p.commands.push_back(std::move(d));
    renderer.render_pass(p, skipped);
    const Rgba8 first = testing::rgba8(*img, 0, 0);
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x) EXPECT_EQ(testing::rgba8(*img, x, y), first) << x << "," << y;
    return first;
  }

  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer};
  frontend::SkipCounts skipped;
  uint32_t buffers = 0, images = 0;
};

TEST_F(TextureViewsTest, LuminanceAlphaAndIntensitySwizzlesOnR8AndR8G8) {
  // 1x1 textures: R8 = 51, R8G8 = (51, 204).
  frontend::Image* r8 = scene.image(VK_FORMAT_R8_UNORM, 1, 1, 1, 0x7000000);
  r8->planes[0][0] = 51;
  frontend::Image* rg8 = scene.image(VK_FORMAT_R8G8_UNORM, 1, 1, 2, 0x7100000);
  rg8->planes[0][0] = 51;
  rg8->planes[0][1] = 204;
  const auto view = [&](frontend::Image* img, std::array<uint32_t, 4> s) {
    frontend::ImageView* v = scene.view(img);
    std::copy(s.begin(), s.end(), v->swizzle);
    return v;
  };
  constexpr uint32_t Z = VK_COMPONENT_SWIZZLE_ZERO, O = VK_COMPONENT_SWIZZLE_ONE, R = VK_COMPONENT_SWIZZLE_R,
                     G = VK_COMPONENT_SWIZZLE_G;
  EXPECT_EQ(render_one(textured(view(r8, {R, R, R, O}))), (Rgba8{51, 51, 51, 255}));    // GL_LUMINANCE
  EXPECT_EQ(render_one(textured(view(r8, {Z, Z, Z, R}))), (Rgba8{0, 0, 0, 51}));        // GL_ALPHA
  EXPECT_EQ(render_one(textured(view(r8, {R, R, R, R}))), (Rgba8{51, 51, 51, 51}));     // GL_INTENSITY
  EXPECT_EQ(render_one(textured(view(r8, {0, 0, 0, 0}))), (Rgba8{51, 0, 0, 255}));      // identity
  EXPECT_EQ(render_one(textured(view(rg8, {R, R, R, G}))), (Rgba8{51, 51, 51, 204}));   // GL_LUMINANCE_ALPHA
  EXPECT_EQ(skipped.total(), 0u);
}

// A MIN/MAX reduction the texture unit does not model is rendered as a weighted average and
// counted as an approximation, once per draw stage that binds it, and only where a linear filter
// makes the two differ; nothing is skipped.
TEST_F(TextureViewsTest, MinMaxReductionOfALinearSamplerIsCountedAsApproximated) {
  frontend::Image* r8 = scene.image(VK_FORMAT_R8_UNORM, 1, 1, 1, 0x7000000);
  r8->planes[0][0] = 51;
  const auto with_sampler = [&](uint32_t filter, uint32_t reduction) {
    frontend::Draw d = textured(scene.view(r8));
    auto* s = const_cast<capture::SamplerRecord*>(scene.nearest_sampler());
    s->mag_filter = s->min_filter = filter;
    s->reduction_mode = reduction;
    d.descriptors[0].elements[0].sampler = s;
    return d;
  };
  EXPECT_EQ(render_one(with_sampler(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE))[0], 51);
  EXPECT_EQ(render_one(with_sampler(VK_FILTER_NEAREST, VK_SAMPLER_REDUCTION_MODE_MIN))[0], 51);
  EXPECT_EQ(skipped.approximated(), 0u);
  EXPECT_EQ(render_one(with_sampler(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MAX))[0], 51);
  EXPECT_EQ(render_one(with_sampler(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MIN))[0], 51);
  EXPECT_EQ(render_one(with_sampler(VK_FILTER_LINEAR, VK_SAMPLER_REDUCTION_MODE_MIN))[0], 51);
  using Counts = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(skipped.approximations, (Counts{{"texture: sampler reduction mode MAX filtered as a weighted average", 1},
                                            {"texture: sampler reduction mode MIN filtered as a weighted average", 2}}));
  EXPECT_EQ(skipped.approximated(), 3u);
  EXPECT_EQ(skipped.total(), 0u);
}

// An image neither captured nor written before a draw samples it (the layer could not read it
// back) reads as zeros: counted as approximated once for the draw's fragment stage, however many
// lanes read it; not when the image is only bound, or once a pass or transfer has written it.
TEST_F(TextureViewsTest, SamplingAnImageWithoutContentsIsCountedAsApproximated) {
  frontend::Image* r8 = scene.image(VK_FORMAT_R8_UNORM, 1, 1, 1, 0x7000000);
  r8->planes[0][0] = 51;
  r8->defined = false;
  // Bound to a draw whose shader never samples it: nothing read, nothing counted.
  frontend::Draw unsampled = draw("color.frag", rect(0, kW, {1, 1, 1, 1}), scene.view(r8));
  EXPECT_EQ(render_one(std::move(unsampled)), (Rgba8{255, 255, 255, 255}));
  EXPECT_EQ(skipped.approximated(), 0u);
  render_one(textured(scene.view(r8)));
  using Counts = std::vector<std::pair<std::string, uint64_t>>;
  EXPECT_EQ(skipped.approximations,
            (Counts{{"texture: fragment shader read an image whose contents the capture does not hold (zeros)", 1}}));
  r8->touch();  // what a pass or transfer writing it does
  EXPECT_EQ(render_one(textured(scene.view(r8))), (Rgba8{51, 0, 0, 255}));
  EXPECT_EQ(skipped.approximated(), 1u);
  EXPECT_EQ(skipped.total(), 0u);
}

TEST_F(TextureViewsTest, CubeAnd3DViews) {
  // A cube of 2x2 RGBA8 faces, face f coloured (40 f, 255 - 40 f, 7, 255).
  frontend::Image* cube = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 4, 0x7000000);
  cube->array_layers = 6;
  cube->planes.assign(6, std::vector<uint8_t>(16));
  for (uint32_t f = 0; f < 6; ++f)
    for (uint32_t t = 0; t < 4; ++t) {
      uint8_t* p = cube->planes[f].data() + 4 * t;
      p[0] = static_cast<uint8_t>(40 * f), p[1] = static_cast<uint8_t>(255 - 40 * f), p[2] = 7, p[3] = 255;
    }
  frontend::ImageView* cube_view = scene.view(cube);
  cube_view->view_type = VK_IMAGE_VIEW_TYPE_CUBE;
  cube_view->range.layer_count = 6;
  const float dirs[6][3] = {{1, 0.1f, 0.2f}, {-1, 0.3f, 0}, {0.2f, 1, 0}, {0, -1, 0.4f}, {0, 0.5f, 1}, {0.1f, 0, -1}};
  for (uint32_t f = 0; f < 6; ++f)
    EXPECT_EQ(render_one(draw("cube.frag", rect(0, kW, {dirs[f][0], dirs[f][1], dirs[f][2], 1}), cube_view)),
              (Rgba8{static_cast<uint8_t>(40 * f), static_cast<uint8_t>(255 - 40 * f), 7, 255}))
        << "face " << f;

  // A 2x2x2 RGBA8 volume, texel (i, j, k) = (100 i, 100 j, 100 k, 255), sampled NEAREST.
  frontend::Image* volume = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 4, 0x7100000);
  volume->image_type = VK_IMAGE_TYPE_3D;
  volume->depth = 2;
  volume->planes[0].resize(32);
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t i = 0; i < 2; ++i) {
        uint8_t* p = volume->planes[0].data() + 4 * (k * 4 + j * 2 + i);
        p[0] = static_cast<uint8_t>(100 * i), p[1] = static_cast<uint8_t>(100 * j), p[2] = static_cast<uint8_t>(100 * k), p[3] = 255;
      }
  frontend::ImageView* volume_view = scene.view(volume);
  volume_view->view_type = VK_IMAGE_VIEW_TYPE_3D;
  EXPECT_EQ(render_one(draw("volume.frag", rect(0, kW, {0.75f, 0.25f, 0.75f, 1}), volume_view)), (Rgba8{100, 0, 100, 255}));
  EXPECT_EQ(render_one(draw("volume.frag", rect(0, kW, {0.25f, 0.75f, 0.25f, 1}), volume_view)), (Rgba8{0, 100, 0, 255}));
  // A 2D view of slice 1 of the volume (VK_EXT_image_2d_view_of_3d): a full-screen textured draw
  // reads texel (x * 2 / 24, y * 2 / 8) of slice 1.
  frontend::ImageView* slice = scene.view(volume);
  slice->range.base_layer = 1;
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.commands.push_back(textured(slice));
  renderer.render_pass(p, skipped);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      ASSERT_EQ(testing::rgba8(*img, x, y),
                (Rgba8{static_cast<uint8_t>(x < kW / 2 ? 0 : 100), static_cast<uint8_t>(y < kH / 2 ? 0 : 100), 100, 255}))
          << x << "," << y;
  EXPECT_EQ(skipped.total(), 0u);
}

}  // namespace
}  // namespace tessera::render
