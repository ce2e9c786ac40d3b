// Fragment stage of the Raster Pipeline, per tile and per primitive (paper 003 section II-A):
// rasterization into 2x2 quads, early depth/stencil tests (late ones when the shader writes
// depth or discards and does not declare EarlyFragmentTests, Vulkan spec "Early Fragment Test
// Mode"), fragment shading of the primitive's quads in batches of up to 16 quads (64 lanes),
// multisample coverage (sample mask, SampleMask output, alpha to coverage), late tests, logic
// op or blending into the tile buffers. Records Primitive, Quad and Texture events.
//
// With more than one sample per pixel (spec "Multisampling") coverage, depth/stencil tests and
// colour writes are per sample; the shader runs once per pixel at its centre (Centroid inputs
// inside the primitive), or once per covered sample with sample shading (its quads' lanes at
// that sample's location). The stream's Quad keeps per-pixel masks: a pixel counts when any of
// its samples does.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
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
  // A stage of the parallel raster phase (renderer.cpp) runs the draw's fragment shader on an
  // executor and bindings of its own, built here on the calling thread before the tiles: an
  // executor holds registers, a texture unit counts requests and feeds one stage's footprints,
  // and a failed draw is marked failed for this stage only. Nothing a draw owns is then written
  // by the tiles. `notes` takes what binding reports (already reported by resolve_draw).
  void attach_private(const DrawState& ds, TextureCache& textures, frontend::SkipCounts& notes);
  // This stage's bindings of `ds` (null when it has none), and whether any of its draws failed.
  const StageBindings* private_bindings(const DrawState& ds) const;
  bool private_failed() const;
  void clear_private();
  // Rasterizes, tests, shades and blends one primitive inside the current tile of `tiles`.
  void process(const pipeline::ScreenTriangle& tri, DrawState& ds, const SubpassTargets& targets,
               TileBuffers& tiles, int32_t area_x, int32_t area_y, stream::StreamWriter* out,
               RenderStats& stats, frontend::SkipCounts& skipped);

  // The colour targets a draw writes, with their blend / logic op state (fragment_stage.cpp).
  struct Target;
  // What process() and process_samples() share of one primitive.
  struct Context;

 private:
  using Sample = FootprintSample;
  void record(uint32_t lane, const texture::Footprint& fp);
  // One batch of quads of each path, between its steps (fragment_stage.cpp).
  struct PixelBatch;
  struct SampleBatch;
  // The single-sample path: per-pixel coverage, tests and writes, the shader at the pixel centres.
  void process_pixels(Context& cx, TileBuffers& tiles, stream::StreamWriter* out, RenderStats& stats,
                      frontend::SkipCounts& skipped);
  // Its steps per batch: early tests, the shader's inputs, and per quad what follows shading.
  uint32_t pixel_early_tests(const Context& cx, TileBuffers& tiles, size_t first, uint32_t count, PixelBatch& pb);
  void pixel_shader_inputs(const Context& cx, size_t first, uint32_t shaded, const PixelBatch& pb);
  void pixel_quad_outputs(const Context& cx, TileBuffers& tiles, const pipeline::Quad& q, uint32_t k,
                          const PixelBatch& pb, size_t& next_sample, stream::StreamWriter* out, RenderStats& stats);
  // The multisampled path: per-sample coverage, tests and writes; per-pixel or per-sample shading.
  void process_samples(Context& cx, TileBuffers& tiles, stream::StreamWriter* out, RenderStats& stats,
                       frontend::SkipCounts& skipped);
  // Its steps per batch, and per pixel of a quad its late tests and colour writes.
  uint32_t sample_early_tests(const Context& cx, TileBuffers& tiles, size_t first, uint32_t count, SampleBatch& sb);
  void sample_shader_inputs(const Context& cx, size_t first, uint32_t units, const SampleBatch& sb);
  void sample_quad_outputs(const Context& cx, TileBuffers& tiles, const pipeline::Quad& q, uint32_t k,
                           const SampleBatch& sb, size_t& next_sample, stream::StreamWriter* out, RenderStats& stats);
  uint32_t sample_late_tests(const Context& cx, TileBuffers& tiles, const pipeline::Quad& q, uint32_t k, uint32_t i,
                             uint32_t alive, const SampleBatch& sb) const;
  void sample_colour_writes(const Context& cx, const TileBuffers& tiles, const pipeline::Quad& q, uint32_t k,
                            uint32_t i, uint32_t alive, const SampleBatch& sb) const;
  // Runs the batch; false (the draw's remaining fragments dropped, counted) when it fails.
  bool execute(Context& cx, frontend::SkipCounts& skipped);
  // The Quad event of a quad (with `mix`, the operations of its shading units) and its counters,
  // then the Texture events of its shading units:
  // the units (groups of four lanes) before `units_end` not yet emitted (a quad's units are
  // consecutive, quads come in order).
  void finish_quad(const pipeline::Quad& q, uint8_t ds_pass, uint8_t written, uint32_t flags, uint64_t instructions,
                   const stream::OpMix& mix, bool shaded, uint8_t shaded_pixels, uint32_t units_end, size_t& next_sample,
                   stream::StreamWriter* out, RenderStats& stats);
  void emit_texture_events(uint32_t units_end, size_t& next, stream::StreamWriter* out, RenderStats& stats);
  // Quad flags marking its dependent texture instructions, from the samples of the units before
  // `units_end` starting at `next`.
  uint32_t dependent_flags(uint32_t units_end, size_t next) const;

  std::unique_ptr<shader::LaneBatch> batch_;
  std::vector<pipeline::Quad> quads_;
  std::vector<pipeline::QuadSamples> quad_samples_;
  std::vector<Sample> samples_;
  FootprintStore store_;  // the samples' lines, probes and blocks
  struct Private {
    std::deque<texture::SamplerState> samplers;
    StageBindings bind;
    std::unique_ptr<shader::ShaderExecutor> executor;
    bool failed = false;
  };
  std::unordered_map<const DrawState*, std::unique_ptr<Private>> private_;
};

}  // namespace tessera::render
