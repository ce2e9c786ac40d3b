#include "draw_state.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>

namespace tessera::render {

bool resolve_draw(const frontend::Draw& draw, int32_t area_x, int32_t area_y, uint32_t width,
                  uint32_t height, ShaderCache& shaders, TextureCache& textures, DrawState& out,
                  std::string& reason, frontend::SkipCounts& notes) {
  const capture::GraphicsPipelineRecord& s = draw.state;
  out.draw = &draw;
  const frontend::ShaderStageCode* vs_code = nullptr;
  const frontend::ShaderStageCode* fs_code = nullptr;
  for (const frontend::ShaderStageCode& st : draw.stages) {
    if (st.stage == VK_SHADER_STAGE_VERTEX_BIT) vs_code = &st;
    else if (st.stage == VK_SHADER_STAGE_FRAGMENT_BIT) fs_code = &st;
    else {
      reason = "draw: tessellation, geometry or mesh shader stage";
      return false;
    }
  }
  if (vs_code == nullptr) {
    reason = "draw: no vertex shader";
    return false;
  }
  switch (s.topology) {
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: out.topology = pipeline::Topology::TriangleList; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: out.topology = pipeline::Topology::TriangleStrip; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: out.topology = pipeline::Topology::TriangleFan; break;
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: reason = "draw: point topology"; return false;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: reason = "draw: line topology"; return false;
    default: reason = "draw: adjacency or patch topology"; return false;
  }
  if (s.polygon_mode != VK_POLYGON_MODE_FILL) {
    reason = "draw: polygon mode LINE or POINT";
    return false;
  }
  if (s.viewports.empty() || s.viewports[0].width == 0 || s.viewports[0].height == 0) {
    reason = "draw: no viewport";
    return false;
  }
  const bool index_type_ok = draw.index_type == VK_INDEX_TYPE_UINT16 ||
                             draw.index_type == VK_INDEX_TYPE_UINT32 ||
                             draw.index_type == VK_INDEX_TYPE_UINT8_EXT;
  if (draw.indexed && (draw.index_buffer == nullptr || !index_type_ok)) {
    reason = "draw: indexed draw without a usable index buffer";
    return false;
  }
  // A damaged capture can carry absurd counts; real draws stay far below this (64 M vertices).
  if (uint64_t{draw.vertex_count} * std::max(draw.instance_count, 1u) > (uint64_t{1} << 26)) {
    reason = "draw: more than 2^26 vertices x instances";
    return false;
  }
  CompiledShader& vs = shaders.get(*vs_code, shader::Stage::Vertex);
  if (!vs.module) {
    reason = "draw: " + vs.error;
    return false;
  }
  out.vs = &vs;
  if (fs_code != nullptr) {
    CompiledShader& fs = shaders.get(*fs_code, shader::Stage::Fragment);
    if (!fs.module) {
      reason = "draw: " + fs.error;
      return false;
    }
    out.fs = &fs;
  }
  out.primitive_restart = s.primitive_restart != 0;
  out.provoking_last = s.provoking_vertex == 1;

  // Everything below is in render-area coordinates: the tile grid starts at the area's origin.
  const capture::Viewport& v = s.viewports[0];
  out.viewport = {v.x - static_cast<float>(area_x), v.y - static_cast<float>(area_y), v.width,
                  v.height, v.min_depth, v.max_depth};
  out.depth_clamp = s.depth_clamp != 0;
  out.clip.depth_clip = s.depth_clip == 2 ? !out.depth_clamp : s.depth_clip != 0;
  // Vulkan spec "Depth Clamping and Range": clamped to [min(minDepth, maxDepth), max(...)].
  out.depth_clamp_min = std::min(v.min_depth, v.max_depth);
  out.depth_clamp_max = std::max(v.min_depth, v.max_depth);
  out.cull_mode = s.cull_mode;
  out.front_face = s.front_face == VK_FRONT_FACE_CLOCKWISE ? pipeline::FrontFace::Clockwise
                                                           : pipeline::FrontFace::CounterClockwise;
  int64_t x0 = area_x, y0 = area_y, x1 = int64_t{area_x} + width, y1 = int64_t{area_y} + height;
  if (!s.scissors.empty()) {
    const capture::Rect2D& sc = s.scissors[0];
    x0 = std::max<int64_t>(x0, sc.x);
    y0 = std::max<int64_t>(y0, sc.y);
    x1 = std::min<int64_t>(x1, int64_t{sc.x} + sc.width);
    y1 = std::min<int64_t>(y1, int64_t{sc.y} + sc.height);
  }
  out.scissor = {static_cast<int32_t>(x0 - area_x), static_cast<int32_t>(y0 - area_y),
                 static_cast<int32_t>(std::max(x0, x1) - area_x), static_cast<int32_t>(std::max(y0, y1) - area_y)};

  // Fragment inputs, component by component, in slot order.
  if (out.fs) {
    const shader::ShaderInfo& info = out.fs->module->info();
    for (const shader::InterfaceVariable& var : info.inputs)
      for (uint32_t l = 0; l < var.location_count; ++l)
        for (uint32_t c = 0; c < var.vector_size; ++c) {
          Varying vr;
          vr.slot = 4 * (var.location + l) + var.component + c;
          // Integer inputs must be Flat (spec "Interpolation Decorations"); treat them so anyway.
          vr.interp = var.flat || var.scalar != shader::ScalarType::Float32 ? Interp::Flat
                      : var.noperspective                                  ? Interp::Linear
                                                                           : Interp::Perspective;
          out.has_flat = out.has_flat || vr.interp == Interp::Flat;
          out.varyings.push_back(vr);
        }
    if (out.varyings.size() > pipeline::kMaxVaryingFloats) {
      reason = "draw: more than 64 fragment input components";
      return false;
    }
    std::sort(out.varyings.begin(), out.varyings.end(),
              [](const Varying& a, const Varying& b) { return a.slot < b.slot; });
    for (const shader::InterfaceVariable& var : info.outputs)
      for (uint32_t l = 0; l < var.location_count; ++l)
        if (var.location + l < 8) {
          out.output_mask |= 1u << (var.location + l);
          out.output_type[var.location + l] = var.scalar;
        }
    // Vulkan spec "Early Fragment Test Mode": without EarlyFragmentTests the tests come after the
    // shader; running them first is invisible only when the shader neither writes depth nor
    // discards nor stores (a fragment that fails the depth test still runs its stores).
    out.late_tests = (info.writes_frag_depth || info.has_discard || info.has_side_effects) && !info.early_fragment_tests;
  }

  if (s.logic_op_enable) notes.add("draw: logic op ignored (blending used)");
  if (s.alpha_to_coverage) notes.add("draw: alpha to coverage ignored");
  out.vs_bind = std::make_unique<StageBindings>();
  bind_stage(draw.descriptors, draw.push_constants, *out.vs->module, textures, out.samplers, *out.vs_bind, notes);
  if (out.fs) {
    out.fs_bind = std::make_unique<StageBindings>();
    bind_stage(draw.descriptors, draw.push_constants, *out.fs->module, textures, out.samplers, *out.fs_bind, notes);
  }
  return true;
}

}  // namespace tessera::render
