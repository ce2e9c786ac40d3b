// Vertex stage: index fetch (with primitive restart), vertex attribute fetch, vertex shading in
// 64-lane batches with post-transform reuse by index, and primitive assembly of one instance of
// a draw. Records VertexFetch (every index and attribute read, at Buffer::address + offset), and
// per batch the VertexTexture events of its invocations' texture samples followed by its
// VertexShade event.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "draw_state.h"
#include "footprint_sample.h"
#include "tessera/pipeline/primitive_assembly.h"
#include "tessera/pipeline/vertex.h"
#include "tessera/render/renderer.h"
#include "tessera/render/thread_budget.h"
#include "tessera/shader/lanes.h"
#include "tessera/stream/access_stream.h"

namespace tessera::render {

struct VertexOutput {
  // One post-transform vertex per distinct index (or vertex) of the instance; varyings follow
  // DrawState::varyings.
  std::vector<pipeline::ClipVertex> vertices;
  // Points, lines or triangles in the topology's vertex order, as indices into `vertices`, with
  // their provoking vertex (Vulkan spec "Primitive Topologies": the first vertex, or the last
  // with VK_EXT_provoking_vertex).
  std::vector<pipeline::AssembledPrimitive> primitives;
};

class VertexStage {
 public:
  VertexStage();
  ~VertexStage();
  // The threads a draw's batches may be shaded on (RenderConfig::threads and thread_budget):
  // with a budget, helpers join only while it has a thread free and leave between two batches
  // when other work waits for theirs.
  void set_threads(unsigned threads, ThreadBudget* budget);
  // Gives the helper threads their own executor and bindings for `ds`, built here on the calling
  // thread (an executor holds registers; a texture unit counts requests and feeds one stage's
  // footprints), when the draw can be shaded on several threads: threads > 1, at least
  // kMinParallelVertices vertices, and a vertex shader without side effects or storage images
  // (spec "Shader Memory Access Ordering": the order of those accesses would be the threads').
  // `notes` takes what binding reports (already reported by resolve_draw).
  void attach_private(const DrawState& ds, TextureCache& textures, frontend::SkipCounts& notes);
  // The helpers' bindings of `ds` (their image requests the texture units could not serve).
  std::vector<const StageBindings*> private_bindings(const DrawState& ds) const;
  void clear_private();
  // Shades instance `instance` (0-based) of the draw. Returns false with `reason` (a SkipCounts
  // reason) when the draw cannot be shaded; events already written stay in the stream. On
  // several threads the result, the events (in the same order) and `stats` are those of one.
  bool run(const DrawState& ds, uint32_t instance, stream::StreamWriter* out, RenderStats& stats,
           VertexOutput& result, std::string& reason);
  // Frees the arrays of the draw just shaded (here and in `result`) when they hold more than
  // kKeptBytes. The renderer holds them within the memory budget only while the draw runs: a
  // huge draw's capacity kept for the next one would be memory the budget no longer counts.
  // Smaller arrays are kept, so ordinary draws do not reallocate them every time.
  void release_large(VertexOutput& result);
  static constexpr size_t kKeptBytes = size_t{16} << 20;
  // Below this a draw instance is shaded on the calling thread alone: starting a helper thread
  // costs about as much as shading a few batches of an ordinary vertex shader.
  static constexpr uint32_t kMinParallelVertices = 16 * shader::kMaxLanes;

  // What one thread shades a batch with. Its batch and samples are its own; the executor and
  // bindings are the draw's (calling thread) or the helper's (attach_private).
  struct Lanes {
    std::unique_ptr<shader::LaneBatch> batch = std::make_unique<shader::LaneBatch>();
    std::vector<FootprintSample> samples;
    FootprintStore store;
  };
  // One batch shaded on some thread, kept until its events are written in batch order.
  struct Shaded;
  // One vertex shader input location fed by a vertex attribute (vertex_stage.cpp).
  struct AttributeFetch;
  // A helper's executor and bindings for one draw.
  struct Private;

 private:
  // Fills indices_, shade_ and slot_of_ for the draw.
  void fetch_indices(const DrawState& ds, stream::StreamWriter* out, RenderStats& stats);
  void assemble_primitives(const DrawState& ds, VertexOutput& result);
  // The batches of the instance on this thread and helpers; false with `reason` as run().
  bool run_parallel(const DrawState& ds, uint32_t instance, const std::vector<AttributeFetch>& fetches,
                    stream::StreamWriter* out, RenderStats& stats, VertexOutput& result, std::string& reason);

  unsigned threads_ = 1;
  ThreadBudget* budget_ = nullptr;
  Lanes lanes_;  // the calling thread's
  std::vector<std::unique_ptr<Lanes>> helper_lanes_;  // helper w's at w - 1
  std::unordered_map<const DrawState*, std::vector<std::unique_ptr<Private>>> private_;
  std::vector<std::unique_ptr<Shaded>> shaded_;  // per batch of the instance shaded on several threads
  std::vector<uint32_t> indices_;   // index values of the draw (indexed draws)
  std::vector<uint32_t> shade_;     // vertex numbers to shade, in first-use order
  std::unordered_map<uint32_t, uint32_t> slot_of_;  // index value -> position in shade_
};

}  // namespace tessera::render
