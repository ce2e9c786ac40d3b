#include "geometry.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>

#include "tessera/pipeline/raster.h"

namespace tessera::render {

void GeometryStage::begin(pipeline::PolygonListBuilder& pb, uint32_t primitive_base) {
  pb_ = &pb;
  primitive_base_ = primitive_base;
  writes_emitted_ = pb.writes().size();
}

bool GeometryStage::bin(const DrawState& ds, pipeline::ScreenTriangle& st, const float* flat) {
  const auto varying_count = static_cast<uint32_t>(ds.varyings.size());
  // The binner sees the draw's scissor: a primitive wholly outside it reaches no tile.
  if (!pipeline::overlaps(st, ds.scissor, pb_->config().samples)) return false;
  if (ds.has_flat)
    for (uint32_t i = 0; i < varying_count; ++i)
      if (ds.varyings[i].interp == Interp::Flat) st.v[0].varyings[i] = st.v[1].varyings[i] = st.v[2].varyings[i] = flat[i];
  return pb_->bin(st) != 0;
}

void GeometryStage::polygon(const DrawState& ds, const float* flat, uint32_t draw_slot,
                            std::vector<uint32_t>& prim_draw, RenderStats& stats) {
  // Spec "Polygon Mode": the polygon is clipped and possibly culled before the mode applies;
  // LINE draws its edges, POINT its vertices. The clipped polygon is the fan's outline
  // (fan triangle i is (p0, p_i, p_i+1)), so no edge the clipper added inside it is drawn.
  const auto varying_count = static_cast<uint32_t>(ds.varyings.size());
  polygon_.clear();
  polygon_.push_back(clipped_.front()[0]);
  for (const pipeline::ClipTriangle& c : clipped_) polygon_.push_back(c[1]);
  polygon_.push_back(clipped_.back()[2]);
  screen_.resize(polygon_.size());
  for (size_t i = 0; i < polygon_.size(); ++i)
    if (!pipeline::to_screen(polygon_[i], varying_count, ds.viewport, screen_[i])) return;
  // Facing from the polygon's signed area (spec "Basic Polygon Rasterization": zero-area
  // polygons are back-facing), then culling.
  const int64_t area2 = pipeline::polygon_area2(screen_.data(), screen_.size());
  const bool front = ds.front_face == pipeline::FrontFace::CounterClockwise ? area2 > 0 : area2 < 0;
  if ((ds.cull_mode & pipeline::kCullFront) && front) return;
  if ((ds.cull_mode & pipeline::kCullBack) && !front) return;
  // Depth bias applies to the polygon whatever its mode (spec "Depth Bias"): its slope goes with
  // each line or point drawn for it.
  pipeline::ScreenTriangle face;
  face.v[0] = screen_[0], face.v[1] = screen_[1], face.v[2] = screen_[2];
  const float slope = pipeline::max_depth_slope(face);
  pipeline::ScreenTriangle st;
  if (ds.polygon_mode == VK_POLYGON_MODE_LINE) {
    float stipple = 0;
    for (size_t i = 0; i < screen_.size(); ++i) {
      if (!pipeline::setup_line(screen_[i], screen_[(i + 1) % screen_.size()], varying_count, ds.line, st)) continue;
      st.front_facing = front;
      st.depth_slope = slope;
      st.stipple_start = stipple;
      stipple += static_cast<float>(pipeline::line_stipple_advance(st));
      if (!bin(ds, st, flat)) continue;
      prim_draw.push_back(draw_slot);
      ++stats.primitives_binned;
    }
    return;
  }
  for (size_t i = 0; i < screen_.size(); ++i) {
    if (!pipeline::setup_point(screen_[i], varying_count, point_size(ds, polygon_[i]), st)) continue;
    st.front_facing = front;
    st.depth_slope = slope;
    if (!bin(ds, st, flat)) continue;
    prim_draw.push_back(draw_slot);
    ++stats.primitives_binned;
  }
}

float GeometryStage::point_size(const DrawState& ds, const pipeline::ClipVertex& v) {
  // Spec "Points": PointSize clamped to pointSizeRange.
  return std::clamp(v.point_size, ds.point_size_min, ds.point_size_max);
}

void GeometryStage::run(const DrawState& ds, uint32_t draw_slot, const VertexOutput& in,
                        std::vector<uint32_t>& prim_draw, stream::StreamWriter* out,
                        RenderStats& stats) {
  const auto varying_count = static_cast<uint32_t>(ds.varyings.size());
  const uint32_t per_primitive = pipeline::vertices_per_primitive(ds.topology);
  float flat[pipeline::kMaxVaryingFloats];
  float stipple = 0;  // line stipple counter, carried along a strip (spec "Line Stipple")
  for (const pipeline::AssembledPrimitive& ap : in.primitives) {
    // Flat inputs take the provoking vertex's value (spec "Flat Interpolation"); kept aside so
    // clipping, which interpolates every varying, cannot alter them (integer bit patterns).
    if (ds.has_flat) {
      const pipeline::ClipVertex& pv = in.vertices[ap.v[ds.provoking_last ? ap.last : 0]];
      for (uint32_t i = 0; i < varying_count; ++i) flat[i] = pv.varyings[i];
    }
    pipeline::ScreenTriangle st;
    if (per_primitive == 1) {
      const pipeline::ClipVertex& v = in.vertices[ap.v[0]];
      pipeline::ScreenVertex sv;
      if (!pipeline::point_kept(v, ds.clip, ds.points_clip_to_view_volume) ||
          !pipeline::to_screen(v, varying_count, ds.viewport, sv) ||
          !pipeline::setup_point(sv, varying_count, point_size(ds, v), st) || !bin(ds, st, flat))
        continue;
      prim_draw.push_back(draw_slot);
      ++stats.primitives_binned;
      continue;
    }
    if (per_primitive == 2) {
      if (ap.strip_start) stipple = 0;
      pipeline::ClipVertex a = in.vertices[ap.v[0]], b = in.vertices[ap.v[1]];
      pipeline::ScreenVertex sa, sb;
      if (pipeline::clip_line(a, b, varying_count, ds.clip) == pipeline::ClipOutcome::Discarded ||
          !pipeline::to_screen(a, varying_count, ds.viewport, sa) ||
          !pipeline::to_screen(b, varying_count, ds.viewport, sb) ||
          !pipeline::setup_line(sa, sb, varying_count, ds.line, st))
        continue;
      st.stipple_start = stipple;
      stipple += static_cast<float>(pipeline::line_stipple_advance(st));
      if (!bin(ds, st, flat)) continue;
      prim_draw.push_back(draw_slot);
      ++stats.primitives_binned;
      continue;
    }
    const pipeline::ClipTriangle tri = {in.vertices[ap.v[0]], in.vertices[ap.v[1]], in.vertices[ap.v[2]]};
    clipped_.clear();
    if (pipeline::clip_triangle(tri, varying_count, ds.clip, clipped_) == pipeline::ClipOutcome::Discarded)
      continue;
    if (ds.polygon_mode != VK_POLYGON_MODE_FILL) {
      polygon(ds, flat, draw_slot, prim_draw, stats);
      continue;
    }
    for (const pipeline::ClipTriangle& c : clipped_) {
      if (pipeline::setup_triangle(c, varying_count, ds.viewport, ds.cull_mode, ds.front_face, st) !=
          pipeline::SetupOutcome::Kept)
        continue;
      if (!bin(ds, st, flat)) continue;
      prim_draw.push_back(draw_slot);
      ++stats.primitives_binned;
    }
  }
  const std::vector<pipeline::PbAccess>& writes = pb_->writes();
  for (; writes_emitted_ < writes.size(); ++writes_emitted_) {
    const pipeline::PbAccess& w = writes[writes_emitted_];
    if (out)
      out->pb_write(w.address, w.size, primitive_base_ + w.primitive, w.tile,
                    w.section == pipeline::PbSection::Lists ? 0 : 1);
    ++stats.pb_writes;
  }
}

}  // namespace tessera::render
