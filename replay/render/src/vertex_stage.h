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
  // Shades instance `instance` (0-based) of the draw. Returns false with `reason` (a SkipCounts
  // reason) when the draw cannot be shaded; events already written stay in the stream.
  bool run(const DrawState& ds, uint32_t instance, stream::StreamWriter* out, RenderStats& stats,
           VertexOutput& result, std::string& reason);
  // Frees the arrays of the draw just shaded (here and in `result`) when they hold more than
  // kKeptBytes. The renderer holds them within the memory budget only while the draw runs: a
  // huge draw's capacity kept for the next one would be memory the budget no longer counts.
  // Smaller arrays are kept, so ordinary draws do not reallocate them every time.
  void release_large(VertexOutput& result);
  static constexpr size_t kKeptBytes = size_t{16} << 20;

 private:
  // Fills indices_, shade_ and slot_of_ for the draw.
  void fetch_indices(const DrawState& ds, stream::StreamWriter* out, RenderStats& stats);
  void assemble_primitives(const DrawState& ds, VertexOutput& result);

  std::unique_ptr<shader::LaneBatch> batch_;
  std::vector<FootprintSample> samples_;  // the current batch's texture samples
  FootprintStore store_;  // the samples' lines, probes and blocks
  std::vector<uint32_t> indices_;   // index values of the draw (indexed draws)
  std::vector<uint32_t> shade_;     // vertex numbers to shade, in first-use order
  std::unordered_map<uint32_t, uint32_t> slot_of_;  // index value -> position in shade_
};

}  // namespace tessera::render
