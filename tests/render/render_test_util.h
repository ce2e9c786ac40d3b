// Builders of constructed render pass instances for the renderer tests: buffers, images, views,
// draws with the pipeline state a test needs, and pixel readback.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "tessera/frontend/frame.h"

namespace tessera::render::testing {

// One vertex of the colour shaders (color.vert, flat.vert): clip-space position, RGBA colour.
struct ColorVertex {
  float position[4];
  float color[4];
};
// One vertex of textured.vert: clip-space position, texture coordinates.
struct TexturedVertex {
  float position[4];
  float uv[2];
};

// NDC coordinate of framebuffer position p (pixels) in a viewport of `size` pixels at 0.
inline float ndc(float p, float size) { return 2.0f * p / size - 1.0f; }

// Owns every object a test pass points to (addresses stay stable).
class Scene {
 public:
  frontend::Buffer* buffer(const void* data, size_t bytes, uint64_t address);
  frontend::Image* image(uint32_t format, uint32_t width, uint32_t height, uint32_t pixel_bytes,
                         uint64_t address, bool stencil_plane = false);
  frontend::ImageView* view(frontend::Image* image, uint32_t format = 0,
                            uint32_t aspect = VK_IMAGE_ASPECT_COLOR_BIT);
  const capture::SamplerRecord* nearest_sampler();

 private:
  std::deque<frontend::MemoryObject> memories_;
  std::deque<frontend::Buffer> buffers_;
  std::deque<frontend::Image> images_;
  std::deque<frontend::ImageView> views_;
  std::deque<capture::SamplerRecord> samplers_;
};

// The SPIR-V of tests/render/glsl/<name> (compiled by glslang at build time).
frontend::ShaderStageCode stage(const std::string& name);

// A triangle-list draw of `vertex_count` vertices from `vertices` with the colour layout
// (two vec4 attributes) or the textured layout, full viewport and scissor of width x height,
// no depth test, blending off, write mask RGBA.
frontend::Draw color_draw(const std::string& vs, const std::string& fs, const frontend::Buffer* vertices,
                          uint32_t vertex_count, uint32_t width, uint32_t height);
frontend::Draw textured_draw(const frontend::Buffer* vertices, uint32_t vertex_count, uint32_t width,
                             uint32_t height);

// A one-subpass pass over width x height: colour attachment 0 and, when given, depth attachment 1.
frontend::RenderPassInstance pass(uint32_t width, uint32_t height, frontend::ImageView* color,
                                  uint32_t load_op, uint32_t store_op,
                                  frontend::ImageView* depth = nullptr);
capture::ClearValue clear_color(float r, float g, float b, float a);
capture::ClearValue clear_depth(float depth, uint32_t stencil = 0);

// Pixel (x, y) of an RGBA8 image's level 0.
std::array<uint8_t, 4> rgba8(const frontend::Image& image, uint32_t x, uint32_t y);

}  // namespace tessera::render::testing
