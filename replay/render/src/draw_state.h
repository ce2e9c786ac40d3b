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
};

struct DrawState {
  const frontend::Draw* draw = nullptr;
  CompiledShader* vs = nullptr;
  CompiledShader* fs = nullptr;  // null: no fragment shader (depth-only draw)
  std::unique_ptr<StageBindings> vs_bind, fs_bind;
  std::deque<texture::SamplerState> samplers;  // stable addresses for the texture units

  // Geometry (coordinates relative to the render area's origin, the renderer's tile grid).
  pipeline::Topology topology = pipeline::Topology::TriangleList;
  bool primitive_restart = false;
  bool provoking_last = false;  // VK_EXT_provoking_vertex LAST_VERTEX
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
  bool failed = false;      // a batch failed to execute: the rest of the draw is dropped
};

// Resolves `draw` (rendered in a pass whose render area starts at (area_x, area_y) and has
// size width x height). Returns false with a SkipCounts reason when the draw cannot be rendered.
// Problems that leave the draw renderable (a texture the unit cannot build) are added to `notes`.
bool resolve_draw(const frontend::Draw& draw, int32_t area_x, int32_t area_y, uint32_t width,
                  uint32_t height, ShaderCache& shaders, TextureCache& textures, DrawState& out,
                  std::string& reason, frontend::SkipCounts& notes);

}  // namespace tessera::render
