#include "geometry.h"

namespace tessera::render {

void GeometryStage::begin(pipeline::PolygonListBuilder& pb, uint32_t primitive_base) {
  pb_ = &pb;
  primitive_base_ = primitive_base;
  writes_emitted_ = pb.writes().size();
}

void GeometryStage::run(const DrawState& ds, uint32_t draw_slot, const VertexOutput& in,
                        std::vector<uint32_t>& prim_draw, stream::StreamWriter* out,
                        RenderStats& stats) {
  const auto varying_count = static_cast<uint32_t>(ds.varyings.size());
  float flat[pipeline::kMaxVaryingFloats];
  for (size_t t = 0; t < in.triangles.size(); ++t) {
    const pipeline::AssembledTriangle& at = in.triangles[t];
    const pipeline::ClipTriangle tri = {in.vertices[at.v[0]], in.vertices[at.v[1]], in.vertices[at.v[2]]};
    // Flat inputs take the provoking vertex's value (spec "Flat Interpolation"); kept aside so
    // clipping, which interpolates every varying, cannot alter them (integer bit patterns).
    if (ds.has_flat) {
      const pipeline::ClipVertex& pv = tri[in.provoking[t]];
      for (uint32_t i = 0; i < varying_count; ++i) flat[i] = pv.varyings[i];
    }
    clipped_.clear();
    if (pipeline::clip_triangle(tri, varying_count, ds.clip, clipped_) == pipeline::ClipOutcome::Discarded)
      continue;
    for (const pipeline::ClipTriangle& c : clipped_) {
      pipeline::ScreenTriangle st;
      if (pipeline::setup_triangle(c, varying_count, ds.viewport, ds.cull_mode, ds.front_face, st) !=
          pipeline::SetupOutcome::Kept)
        continue;
      // The binner sees the draw's scissor: a triangle wholly outside it reaches no tile.
      if (!pipeline::overlaps(st, ds.scissor)) continue;
      if (ds.has_flat)
        for (uint32_t i = 0; i < varying_count; ++i)
          if (ds.varyings[i].interp == Interp::Flat)
            st.v[0].varyings[i] = st.v[1].varyings[i] = st.v[2].varyings[i] = flat[i];
      if (pb_->bin(st) == 0) continue;
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
