// Geometry stage of the Tiling Engine: primitive assembly output -> clipping -> perspective
// divide, viewport transform and face culling (triangles; polygon mode LINE and POINT turn a
// kept polygon into its edges or vertices), line and point setup -> binning into the pass's
// Parameter Buffer (paper 003 section II-A). Records the PbWrite events of the Polygon List
// Builder.
#pragma once

#include <cstdint>
#include <vector>

#include "draw_state.h"
#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/clip.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/access_stream.h"
#include "vertex_stage.h"

namespace tessera::render {

class GeometryStage {
 public:
  // Starts a new Parameter Buffer. `primitive_base` numbers its primitives within the pass
  // (subpasses after the first continue the numbering).
  void begin(pipeline::PolygonListBuilder& pb, uint32_t primitive_base);
  // Bins the primitives of one draw instance; `prim_draw` receives `draw_slot` for each binned
  // primitive (index = primitive index in the Parameter Buffer).
  void run(const DrawState& ds, uint32_t draw_slot, const VertexOutput& in,
           std::vector<uint32_t>& prim_draw, stream::StreamWriter* out, RenderStats& stats);

 private:
  // Scissor test, flat varyings pinned to the provoking vertex's `flat`, binning; false when
  // the primitive reaches no tile.
  bool bin(const DrawState& ds, pipeline::ScreenTriangle& st, const float* flat);
  // Polygon mode LINE / POINT of the clipped polygon in clipped_.
  void polygon(const DrawState& ds, const float* flat, uint32_t draw_slot, std::vector<uint32_t>& prim_draw,
               RenderStats& stats);
  static float point_size(const DrawState& ds, const pipeline::ClipVertex& v);

  pipeline::PolygonListBuilder* pb_ = nullptr;
  uint32_t primitive_base_ = 0;
  size_t writes_emitted_ = 0;
  std::vector<pipeline::ClipTriangle> clipped_;
  std::vector<pipeline::ClipVertex> polygon_;
  std::vector<pipeline::ScreenVertex> screen_;
};

}  // namespace tessera::render
