// What the stages of the renderer need of one draw, resolved once before its vertices are shaded
// and kept until the pass's tiles are done (fragments of a draw are shaded after every draw of
// the pass has been binned, as on a tile-based GPU).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "shader_cache.h"
#include "stage_bindings.h"
#include "texture_cache.h"
#include "tessera/frontend/frame.h"
#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/clip.h"
#include "tessera/pipeline/line_point_setup.h"
#include "tessera/pipeline/primitive_assembly.h"
#include "tessera/pipeline/viewport_cull.h"
#include "tessera/shader/shader_module.h"
#include "tessera/texture/shader_texture_unit.h"

namespace tessera::render {

// Interpolation of one fragment input component (Vulkan spec "Interpolation Decorations").
enum class Interp : uint8_t { Perspective, Linear, Flat };

// Varying i of a post-transform vertex feeds fragment input slot `slot` (4 * location +
// component), taken from vertex shader output slot `slot` (interfaces match by location).
struct Varying {
  uint32_t slot = 0;
  Interp interp = Interp::Perspective;
  bool centroid = false;  // Centroid decoration: inside the primitive when the pixel is partly covered
};

struct DrawState {
  const frontend::Draw* draw = nullptr;
  // "draw 5 (pass 2, 3 vertices x 1 instances)": how the replay's errors name the draw.
  std::string name;
  CompiledShader* vs = nullptr;
  CompiledShader* fs = nullptr;  // null: no fragment shader (depth-only draw)
  std::unique_ptr<StageBindings> vs_bind, fs_bind;
  std::deque<texture::SamplerState> samplers;  // stable addresses for the texture units

  // Geometry (coordinates relative to the render area's origin, the renderer's tile grid).
  pipeline::Topology topology = pipeline::Topology::TriangleList;
  bool primitive_restart = false;
  bool provoking_last = false;  // VK_EXT_provoking_vertex LAST_VERTEX
  uint32_t polygon_mode = 0;    // VkPolygonMode: FILL, LINE or POINT
  pipeline::LineState line;     // line topologies and polygon mode LINE
  float point_size_min = 1, point_size_max = 1;  // the device's pointSizeRange
  bool points_clip_to_view_volume = true;        // pointClippingBehavior ALL_CLIP_PLANES
  pipeline::Viewport viewport;
  pipeline::ClipConfig clip;
  uint32_t cull_mode = 0;
  pipeline::FrontFace front_face = pipeline::FrontFace::CounterClockwise;
  pipeline::PixelRect scissor;  // scissor intersected with the render area

  // Fragment.
  std::vector<Varying> varyings;  // at most pipeline::kMaxVaryingFloats
  bool has_flat = false;
  bool late_tests = false;  // shader writes depth or discards without EarlyFragmentTests
  bool depth_clamp = false;
  float depth_clamp_min = 0, depth_clamp_max = 1;
  // Fragment shader outputs by location (colour attachment of the subpass): declared?, type.
  uint32_t output_mask = 0;
  shader::ScalarType output_type[8] = {};
  // Colour attachment stage: logic op (spec "Logical Operations") and colour write enable
  // (VK_EXT_color_write_enable; bit l for location l).
  bool logic_op_enable = false;
  uint32_t logic_op = 0;
  uint32_t color_write_enable = ~0u;
  // Multisampling (spec "Multisampling", "Sample Shading", "Multisample Coverage").
  uint32_t samples = 1;          // the pass's sample count (its attachments')
  bool sample_shading = false;   // the fragment shader runs once per covered sample
  uint32_t sample_mask = ~0u;    // pSampleMask word 0
  bool alpha_to_coverage = false, alpha_to_one = false;
  bool failed = false;      // a batch failed to execute: the rest of the draw is dropped
};

// What the pass tells every draw: the device's rasterization limits and the sample count of
// its attachments.
struct PassRaster {
  frontend::RasterLimits limits;
  uint32_t samples = 1;
};

// Resolves `draw` (rendered in a pass whose render area starts at (area_x, area_y) and has
// size width x height). Returns false with a SkipCounts reason when the draw cannot be rendered.
// Problems that leave the draw renderable (a texture the unit cannot build) are added to `notes`.
bool resolve_draw(const frontend::Draw& draw, int32_t area_x, int32_t area_y, uint32_t width,
                  uint32_t height, const PassRaster& raster, ShaderCache& shaders, TextureCache& textures,
                  DrawState& out, std::string& reason, frontend::SkipCounts& notes);

}  // namespace tessera::render
