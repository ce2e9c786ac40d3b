// Fragment stage of the Raster Pipeline, per tile and per primitive (paper 003 section II-A):
// rasterization into 2x2 quads, early depth/stencil tests (late ones when the shader writes
// depth or discards and does not declare EarlyFragmentTests, Vulkan spec "Early Fragment Test
// Mode"), fragment shading of the primitive's quads in batches of up to 16 quads (64 lanes),
// late tests, blending into the tile buffers. Records Primitive, Quad and Texture events.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "draw_state.h"
#include "footprint_sample.h"
#include "tessera/pipeline/raster.h"
#include "tessera/pipeline/vertex.h"
#include "tessera/render/renderer.h"
#include "tessera/shader/lanes.h"
#include "tessera/stream/access_stream.h"
#include "tile_buffer.h"

namespace tessera::render {

// Attachments of the current subpass.
struct SubpassTargets {
  std::vector<AttachmentBuffer*> colors;  // by location; null for a hole or an unusable one
  AttachmentBuffer* depth_stencil = nullptr;
};

class FragmentStage {
 public:
  FragmentStage();
  ~FragmentStage();
  // Routes the texture footprints of the draw's fragment shader to this stage.
  void attach(DrawState& ds);
  // Rasterizes, tests, shades and blends one primitive inside the current tile of `tiles`.
  void process(const pipeline::ScreenTriangle& tri, DrawState& ds, const SubpassTargets& targets,
               TileBuffers& tiles, int32_t area_x, int32_t area_y, stream::StreamWriter* out,
               RenderStats& stats, frontend::SkipCounts& skipped);

 private:
  using Sample = FootprintSample;
  void record(uint32_t lane, const texture::Footprint& fp);

  std::unique_ptr<shader::LaneBatch> batch_;
  std::vector<pipeline::Quad> quads_;
  std::vector<Sample> samples_;
  std::vector<uint64_t> lines_;
};

}  // namespace tessera::render
