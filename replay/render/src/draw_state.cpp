#include "draw_state.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>

namespace tessera::render {

namespace {

using Pipeline = capture::GraphicsPipelineRecord;

// The draw's vertex and fragment shaders; the replayer has no tessellation, geometry or mesh
// shading.
bool find_stages(const frontend::Draw& draw, const frontend::ShaderStageCode*& vs_code,
                 const frontend::ShaderStageCode*& fs_code, std::string& reason) {
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
  return true;
}

// Vulkan spec "Primitive Topologies".
bool resolve_topology(const Pipeline& s, DrawState& out, std::string& reason) {
  switch (s.topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: out.topology = pipeline::Topology::PointList; break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: out.topology = pipeline::Topology::LineList; break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: out.topology = pipeline::Topology::LineStrip; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: out.topology = pipeline::Topology::TriangleList; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP: out.topology = pipeline::Topology::TriangleStrip; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: out.topology = pipeline::Topology::TriangleFan; break;
    // Without a geometry shader the adjacent vertices are only skipped.
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: out.topology = pipeline::Topology::LineListWithAdjacency; break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: out.topology = pipeline::Topology::LineStripWithAdjacency; break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
      reason = "draw: triangle topology with adjacency";
      return false;
    default: reason = "draw: patch topology"; return false;
  }
  return true;
}

// Vulkan spec "Rasterization": polygon mode, lines and points within the device's limits.
bool resolve_rasterization(const Pipeline& s, const frontend::RasterLimits& lim, DrawState& out, std::string& reason) {
  if (s.polygon_mode != VK_POLYGON_MODE_FILL && s.polygon_mode != VK_POLYGON_MODE_LINE &&
      s.polygon_mode != VK_POLYGON_MODE_POINT) {
    reason = "draw: polygon mode " + std::to_string(s.polygon_mode);
    return false;
  }
  out.polygon_mode = s.polygon_mode;
  // Line rasterization: VK_EXT_line_rasterization mode (DEFAULT follows strictLines: spec
  // "Basic Line Segment Rasterization"), width clamped to lineWidthRange (Bresenham: rounded,
  // the range rounded too, at least 1), stipple with a factor in [1, 256].
  switch (s.line_mode) {
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT: out.line.mode = pipeline::LineMode::Rectangle; break;
    case VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT: out.line.mode = pipeline::LineMode::Bresenham; break;
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT: out.line.mode = pipeline::LineMode::Smooth; break;
    default:
      out.line.mode = lim.strict_lines ? pipeline::LineMode::Rectangle : pipeline::LineMode::Parallelogram;
      break;
  }
  const float line_width = std::isfinite(s.line_width) ? s.line_width : 1.0f;
  if (out.line.mode == pipeline::LineMode::Bresenham) {
    out.line.width = std::max(1.0f, std::clamp(std::round(line_width), std::round(lim.line_width_range[0]),
                                               std::round(lim.line_width_range[1])));
  } else {
    out.line.width = std::clamp(line_width, lim.line_width_range[0], lim.line_width_range[1]);
  }
  if (s.line_stipple_enable != 0 && s.line_stipple_factor >= 1 && s.line_stipple_factor <= 256) {
    out.line.stipple_factor = static_cast<uint16_t>(s.line_stipple_factor);
    out.line.stipple_pattern = static_cast<uint16_t>(s.line_stipple_pattern);
  }
  out.point_size_min = lim.point_size_range[0];
  out.point_size_max = lim.point_size_range[1];
  out.points_clip_to_view_volume = lim.points_clip_to_view_volume;
  return true;
}

// What makes a draw impossible to replay before any shader is compiled: no viewport, no usable
// index buffer. (Counts beyond what the replay can shade stop the replay: Renderer.)
bool check_draw(const frontend::Draw& draw, const Pipeline& s, std::string& reason) {
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
  return true;
}

// The viewport transform, depth clamp and clip (spec "Controlling the Viewport", "Primitive
// Clipping", "Depth Clamping and Range"), culling and the scissor, in render-area coordinates.
void resolve_viewport(const Pipeline& s, int32_t area_x, int32_t area_y, uint32_t width, uint32_t height,
                      DrawState& out) {
  // Everything below is in render-area coordinates: the tile grid starts at the area's origin.
  const capture::Viewport& v = s.viewports[0];
  out.viewport = {v.x - static_cast<float>(area_x), v.y - static_cast<float>(area_y), v.width,
                  v.height, v.min_depth, v.max_depth, s.depth_clip_negative_one_to_one != 0};
  out.depth_clamp = s.depth_clamp != 0;
  out.clip.depth_clip = s.depth_clip == 2 ? !out.depth_clamp : s.depth_clip != 0;
  out.clip.negative_one_to_one = s.depth_clip_negative_one_to_one != 0;
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
}

// The fragment shader's interface: its inputs as varyings, component by component in slot
// order, its outputs by location, and whether its tests come after it.
bool resolve_fragment_interface(DrawState& out, std::string& reason) {
  // Fragment inputs, component by component, in slot order.
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
        vr.centroid = var.centroid;
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
  return true;
}

// Logic op, colour write enables and multisampling (spec "Multisampling", "Sample Shading").
void resolve_colour_and_samples(const Pipeline& s, const PassRaster& raster, DrawState& out) {
  out.logic_op_enable = s.logic_op_enable != 0;
  out.logic_op = s.logic_op;
  for (size_t l = 0; l < s.color_write_enables.size() && l < 32; ++l)
    if (s.color_write_enables[l] == 0) out.color_write_enable &= ~(1u << l);
  // The subpass decides the sample count (its attachments', which the pipeline's
  // rasterizationSamples must equal; without attachments, its first draw's).
  out.samples = raster.samples;
  out.sample_mask = s.sample_mask;
  out.alpha_to_coverage = s.alpha_to_coverage != 0;
  out.alpha_to_one = s.alpha_to_one != 0;
  if (out.fs) {
    // Spec "Sample Shading": at least max(ceil(minSampleShading * samples), 1) shadings per
    // pixel; more than one means once per sample here (the spec allows shading more often). A
    // shader reading SampleId or SamplePosition, or interpolating at samples, is shaded per
    // sample whatever the pipeline says.
    const shader::ShaderInfo& info = out.fs->module->info();
    const bool rate = s.sample_shading != 0 && std::ceil(s.min_sample_shading * static_cast<float>(out.samples)) > 1.0f;
    out.sample_shading = out.samples > 1 &&
                         (rate || info.reads_sample_id || info.reads_sample_position || info.sample_interpolation);
  }
}

}  // namespace

bool resolve_draw(const frontend::Draw& draw, int32_t area_x, int32_t area_y, uint32_t width,
                  uint32_t height, const PassRaster& raster, ShaderCache& shaders, TextureCache& textures,
                  DrawState& out, std::string& reason, frontend::SkipCounts& notes) {
  const capture::GraphicsPipelineRecord& s = draw.state;
  out.draw = &draw;
  const frontend::ShaderStageCode* vs_code = nullptr;
  const frontend::ShaderStageCode* fs_code = nullptr;
  if (!find_stages(draw, vs_code, fs_code, reason) || !resolve_topology(s, out, reason) ||
      !resolve_rasterization(s, raster.limits, out, reason) || !check_draw(draw, s, reason))
    return false;
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
  resolve_viewport(s, area_x, area_y, width, height, out);
  // The vertex shader's ClipDistance and CullDistance outputs clip and cull its primitives.
  out.clip.clip_distances = out.vs->module->info().clip_distances;
  out.clip.cull_distances = out.vs->module->info().cull_distances;
  if (out.fs && !resolve_fragment_interface(out, reason)) return false;
  resolve_colour_and_samples(s, raster, out);
  out.vs_bind = std::make_unique<StageBindings>();
  bind_stage(draw.descriptors, draw.push_constants, *out.vs->module, textures, out.samplers, *out.vs_bind, notes);
  if (out.fs) {
    out.fs_bind = std::make_unique<StageBindings>();
    bind_stage(draw.descriptors, draw.push_constants, *out.fs->module, textures, out.samplers, *out.fs_bind, notes);
  }
  return true;
}

}  // namespace tessera::render
