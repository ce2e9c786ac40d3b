// The functional tile-based renderer ("shade once", docs/architecture.md, "Data flow"): renders each render
// pass instance the replay front end hands it the way a tile-based GPU does, and records what the
// GPU model needs into an access stream (tessera/stream/access_stream.h).
//
// Per pass (and per subpass), in the order of the stream's header comment:
//   geometry phase: every draw of the (sub)pass is processed before any tile: index fetch,
//     vertex fetch, vertex shading in 64-lane batches with post-transform reuse by index,
//     primitive assembly, clipping, viewport transform and culling, binning into one Parameter
//     Buffer (one PolygonListBuilder) for the whole (sub)pass (paper 003 section II-A);
//   raster phase: tiles in tile order; per tile the load ops fill tile-sized colour / depth /
//     stencil buffers, each binned primitive is rasterized into 2x2 quads, tested (early or
//     late depth/stencil), shaded in batches of up to 16 quads, blended, and the store ops
//     write the tile back into the attachment images.
// Frame framing (StreamWriter::frame_begin / frame_end) belongs to whoever drives the frame.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tessera/frontend/frame.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/tile_fetch.h"
#include "tessera/render/thread_budget.h"
#include "tessera/stream/access_stream.h"

namespace tessera::render {

struct RenderConfig {
  uint32_t tile_width = 32, tile_height = 32;  // docs/model.md, "Presets": both presets use 32x32
  // Order the tiles are processed (and recorded) in; scanline when null. Must outlive the renderer.
  const pipeline::TileOrder* tile_order = nullptr;
  pipeline::ParameterBufferLayout parameter_buffer;
  // Threads the tiles of a render pass are shaded on (the calling thread included); 1 renders
  // them one after the other on the calling thread. The stream, the images and every count are
  // the same for any value: each tile records into its own buffer, appended in tile order.
  uint32_t threads = 1;
  // Null: the raster phase of a pass starts its threads - 1 helpers at once. Otherwise helpers
  // come from this budget, of which the calling thread holds one while it renders: the calling
  // thread starts a helper (up to threads - 1 at once) between two of its tiles whenever it can
  // take one, and a helper gives its thread back between two tiles when other work waits for
  // it. Which thread renders which tile never changes the result. Must outlive the renderer.
  ThreadBudget* thread_budget = nullptr;
  // What the renderer holds in proportion to what the capture declares (a draw's vertex stage
  // arrays, the primitives binned for a pass, the render area a pass of several subpasses keeps,
  // the copy of the stored images the parallel raster phase makes, the texture cache's copies)
  // is taken from this budget, shared with the replay front end; a draw or pass that would pass
  // it throws frontend::ReplayLimitError. Null: a budget of the renderer's own,
  // frontend::MemoryBudget::default_limit(). Must outlive the renderer.
  frontend::MemoryBudget* budget = nullptr;
  // Block executions a shader batch may run before the watchdog stops the replay (a shader that
  // never ends, or one too long to replay): ShaderExecutor::kDefaultBlockBudget, 2^24. Lowered
  // by tests that make it fire.
  uint64_t shader_block_budget = uint64_t{1} << 24;
};

// Counters of the work done. Every field is what a consumer recounts from the stream the
// renderer wrote (stream::StreamReader), so the two can be reconciled:
struct RenderStats {
  uint64_t passes = 0;                // PassBegin events
  uint64_t tiles = 0;                 // TileBegin events
  uint64_t draws = 0;                 // Draw events (draws rendered)
  uint64_t draws_skipped = 0;         // draws not rendered (reason in SkipCounts); no events
  uint64_t vertices_shaded = 0;       // sum of VertexShade u[0]
  uint64_t vertex_instructions = 0;   // sum of VertexShade wide
  stream::OpMixTotals vertex_mix;     // sums of VertexShade mix
  uint64_t vertex_fetches = 0;        // VertexFetch events (attributes and indices)
  uint64_t vertex_texture_samples = 0;  // VertexTexture events (vertex lanes that sampled or fetched)
  uint64_t vertex_texture_lines = 0;    // sum of VertexTexture line counts
  uint64_t primitives_binned = 0;     // distinct PbWrite u[1] (triangles stored in the PB)
  uint64_t tile_primitives = 0;       // Primitive events (a primitive once per tile it is listed in)
  uint64_t quads = 0;                 // Quad events
  uint64_t quads_shaded = 0;          // Quad events with kQuadShaded
  uint64_t fragments = 0;             // popcount of Quad coverage (covered pixels)
  // Non-helper lanes the fragment shader ran: popcount of coverage (late tests) or of
  // coverage & depth/stencil pass mask (early tests) of shaded quads.
  uint64_t fragments_shaded = 0;
  uint64_t fragment_instructions = 0; // sum of Quad wide (helper lanes included)
  stream::OpMixTotals fragment_mix;   // sums of Quad mix (helper lanes included)
  uint64_t pixels_written = 0;        // popcount of Quad u[4]
  uint64_t texture_samples = 0;       // Texture events (fragment lanes that sampled or fetched)
  uint64_t texture_lines = 0;         // sum of Texture line counts
  uint64_t pb_writes = 0, pb_reads = 0;  // PbWrite / PbRead events
  uint64_t attachment_loads = 0, attachment_stores = 0;  // AttachmentLoad / Store events

  void add(const RenderStats& other);
  bool operator==(const RenderStats&) const = default;
};

// Compute work the renderer executed (Renderer::dispatch). Not in the access stream: compute is
// not tile-based render pass work; it is run so later draws see its results.
struct ComputeStats {
  uint64_t dispatches = 0;     // dispatches run to completion
  uint64_t workgroups = 0;
  uint64_t invocations = 0;
  uint64_t instructions = 0;   // dynamic SPIR-V instructions of every invocation
  bool operator==(const ComputeStats&) const = default;
};

struct PassStats {
  uint32_t pass = 0;  // RenderPassInstance::index
  RenderStats stats;
};

class Renderer final : public frontend::PassRenderer {
 public:
  // `stream` receives the pass's events; it may be null (image only). It must outlive the renderer.
  explicit Renderer(stream::StreamWriter* stream, RenderConfig config = {});
  ~Renderer() override;
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void render_pass(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped) override;
  // Both throw frontend::ReplayLimitError naming the draw or dispatch (and the shader) for work
  // beyond what the replay runs: more than 2^26 vertex shader invocations for one draw or 2^27
  // compute shader invocations for one dispatch, a shader stopped by the executor's watchdog
  // (2^24 block executions in one batch), the memory budget.
  // Runs a compute dispatch (replay/render/src/compute_stage.h); nothing goes to the stream.
  void dispatch(const frontend::Dispatch& dispatch, frontend::SkipCounts& skipped) override;

  // Totals since the last reset_stats(), and one entry per pass rendered since then.
  const RenderStats& frame_stats() const;
  const std::vector<PassStats>& pass_stats() const;
  const ComputeStats& compute_stats() const;
  void reset_stats();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::render
