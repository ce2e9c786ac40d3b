// Geometry stage of the Tiling Engine: primitive assembly output -> clipping -> perspective
// divide, viewport transform and face culling -> binning into the pass's Parameter Buffer
// (paper 003 section II-A). Records the PbWrite events of the Polygon List Builder.
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
  // Bins the triangles of one draw instance; `prim_draw` receives `draw_slot` for each binned
  // primitive (index = primitive index in the Parameter Buffer).
  void run(const DrawState& ds, uint32_t draw_slot, const VertexOutput& in,
           std::vector<uint32_t>& prim_draw, stream::StreamWriter* out, RenderStats& stats);

 private:
  pipeline::PolygonListBuilder* pb_ = nullptr;
  uint32_t primitive_base_ = 0;
  size_t writes_emitted_ = 0;
  std::vector<pipeline::ClipTriangle> clipped_;
};

}  // namespace tessera::render
