// Throughput of the renderer on a constructed 1280x720 frame (not run by ctest):
// `render_bench [layers [samples [threads]]]` draws `layers` (default 3) full-screen layers of a 20x12 grid
// of quads (480 triangles each), textured from a 256x256 RGBA8 texture with trilinear filtering,
// depth tested (every layer nearer than the last, so nothing is rejected: overdraw = layers),
// every second layer alpha blended, into B8G8R8A8 colour + D24S8, recording the access stream.
// With `samples` (default 1) above 1 both targets are multisampled and the colour is resolved
// into a single-sample image at the end of the pass (shaded once per pixel).
// With `threads` (default 1) above 1 the tiles are shaded on that many threads.
// Prints CPU and wall time and fragments shaded per CPU second for three runs.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

using namespace tessera;
using render::testing::TexturedVertex;

int main(int argc, char** argv) {
  const int layers = argc > 1 ? std::atoi(argv[1]) : 3;
  const auto samples = static_cast<uint32_t>(argc > 2 ? std::atoi(argv[2]) : 1);
  constexpr uint32_t W = 1280, H = 720;
  render::testing::Scene scene;
  stream::StreamWriter writer;
  render::RenderConfig config;
  config.threads = static_cast<uint32_t>(argc > 3 ? std::atoi(argv[3]) : 1);
  render::Renderer renderer(&writer, config);
  frontend::SkipCounts skipped;
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 4, 0x7000000);
  for (size_t i = 0; i < tex->planes[0].size(); ++i) tex->planes[0][i] = static_cast<uint8_t>(i * 13);
  frontend::Image* color = scene.image(VK_FORMAT_B8G8R8A8_UNORM, W, H, 4, 0x10000000);
  frontend::Image* depth = scene.image(VK_FORMAT_D24_UNORM_S8_UINT, W, H, 4, 0x20000000, true);
  auto pass = render::testing::pass(W, H, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                                    scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  if (samples > 1) {
    for (frontend::Image* img : {color, depth}) {
      img->samples = samples;
      for (auto& plane : img->planes) plane.resize(plane.size() * samples);
    }
    // The tiler's way: samples stay on chip, only the resolved image is written back.
    pass.attachments[0].store_op = pass.attachments[1].store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    pass.attachments[1].stencil_store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    pass.attachments[0].resolve = scene.view(scene.image(VK_FORMAT_B8G8R8A8_UNORM, W, H, 4, 0x30000000));
  }
  auto* trilinear = const_cast<capture::SamplerRecord*>(scene.nearest_sampler());
  trilinear->mag_filter = trilinear->min_filter = VK_FILTER_LINEAR;
  trilinear->mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  trilinear->address_u = trilinear->address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  for (int layer = 0; layer < layers; ++layer) {
    std::vector<TexturedVertex> v;
    constexpr int nx = 20, ny = 12;
    const float z = 0.9f - 0.1f * static_cast<float>(layer);
    const auto mk = [&](float x, float y) { return TexturedVertex{{x, y, z, 1}, {x * 3 + static_cast<float>(layer) * 0.1f, y * 2}}; };
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const float x0 = -1 + 2.0f * i / nx, x1 = -1 + 2.0f * (i + 1) / nx;
        const float y0 = -1 + 2.0f * j / ny, y1 = -1 + 2.0f * (j + 1) / ny;
        v.insert(v.end(), {mk(x0, y0), mk(x1, y0), mk(x1, y1), mk(x0, y0), mk(x1, y1), mk(x0, y1)});
      }
    frontend::Draw d = render::testing::textured_draw(
        scene.buffer(v.data(), v.size() * sizeof(TexturedVertex), 0x100000 * static_cast<uint64_t>(layer + 1)),
        static_cast<uint32_t>(v.size()), W, H);
    d.state.depth_test = d.state.depth_write = 1;
    d.state.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
    if (layer % 2)
      d.state.blend_attachments[0] = {1, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                                      VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf};
    frontend::DescriptorBinding b;
    b.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    b.elements.push_back({scene.view(tex), trilinear, nullptr, 0, 0});
    d.descriptors.push_back(b);
    pass.commands.push_back(d);
  }
  for (int run = 0; run < 3; ++run) {
    renderer.reset_stats();
    writer.frame_begin(1, W, H);
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    renderer.render_pass(pass, skipped);
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    writer.frame_end();
    const size_t bytes = writer.finish().size();
    const render::RenderStats& s = renderer.frame_stats();
    std::printf("cpu %.3f s, wall %.3f s: %llu fragments shaded (%.2f M/s CPU), %llu quads, %llu texture samples, "
                "stream %zu bytes, %llu skipped\n",
                cpu, wall, static_cast<unsigned long long>(s.fragments_shaded), static_cast<double>(s.fragments_shaded) / cpu / 1e6,
                static_cast<unsigned long long>(s.quads), static_cast<unsigned long long>(s.texture_samples), bytes,
                static_cast<unsigned long long>(skipped.total()));
  }
  return skipped.total() == 0 ? 0 : 1;
}
