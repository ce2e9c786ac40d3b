// The geometry phase of a subpass (paper 003 section II-A, paper 000 Fig. 2): the vertex
// fetcher reads each 64-vertex batch's attribute and index lines through the vertex cache of the
// vertex processor that will shade it, one line per cycle, up to queue.vertex vertices ahead of
// the processors; each vertex processor takes its batches in order once fetched and shades them
// for ceil(instructions / vp.issue_lanes) cycles (a batch's vertex shader texture samples are
// read through the same vertex cache after its attributes, before it is shaded); the Polygon List Builder writes the Parameter
// Buffer through the tile cache, one line per cycle, once the draw's vertices are shaded.
// Geometry and raster of a subpass do not overlap (a tile-based GPU rasterises only what is
// binned); a subpass runs after the previous one.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "frame_index.h"
#include "model_config.h"
#include "stage_meter.h"
#include "tessera/model/energy.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {

class RasterPipeline;

class GeometryPhase {
 public:
  explicit GeometryPhase(RasterPipeline& p) : p_(p) {}
  void begin_frame() {
    vertex_meter.reset(0);
    binning_meter.reset(0);
  }
  // Runs the phase's geometry from t0; returns the cycle its last Parameter Buffer write lands.
  uint64_t run(std::span<const uint8_t> bytes, const PassIndex& pass, const PhaseIndex& phase, uint64_t t0);

  StageMeter vertex_meter;   // vertex processors: busy shading, stalled waiting for a fetched batch
  StageMeter binning_meter;  // the Polygon List Builder: busy writing lines

 private:
  struct Batch {
    uint32_t vp = 0;
    uint64_t fetched = 0;   // its lines have arrived
    uint64_t vertices = 0;
  };
  // Fetches the pending batch's lines (fetches_) for the vertex processor that will shade it.
  Batch fetch_batch(uint64_t vertices);
  void shade(uint64_t vertices, uint64_t instructions, const stream::OpMix& mix);
  // Lines read for a batch whose VertexShade has not come (fetched alone at a draw's end).
  bool pending() const { return !fetches_.empty() || !texture_lines_.empty(); }

  RasterPipeline& p_;
  std::vector<std::pair<uint64_t, uint32_t>> fetches_;  // VertexFetch events of the next batch
  std::vector<uint64_t> texture_lines_;                  // VertexTexture lines of the next batch
  std::vector<uint64_t> vp_free_;
  // Batches fetched and not yet taken by their processor: (taken at, vertices).
  std::vector<std::pair<uint64_t, uint64_t>> queued_;
  uint64_t fetch_free_ = 0, draw_done_ = 0, end_ = 0, t0_ = 0;
};

}  // namespace tessera::model
