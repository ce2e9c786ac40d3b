// Primitive assembly: turns a vertex (or index) stream into points, line segments or triangles,
// Vulkan spec section "Primitive Topologies" (lists, strips, fans, and the adjacency topologies
// drawn without a geometry shader: their adjacent vertices are skipped) and "Primitive Restart".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::pipeline {

enum class Topology {
  PointList,
  LineList,
  LineStrip,
  TriangleList,
  TriangleStrip,
  TriangleFan,
  LineListWithAdjacency,   // segment i: vertices 4i+1, 4i+2 (4i and 4i+3 are adjacency)
  LineStripWithAdjacency,  // segment i: vertices i+1, i+2 (the first and last are adjacency)
};

// Vertices of one primitive of the topology: 1 (points), 2 (lines) or 3 (triangles).
uint32_t vertices_per_primitive(Topology topology);

// A primitive as indices into the post-vertex-shader vertex array, in the vertex order the spec
// defines for its topology (for triangles that order decides the winding seen by face culling).
struct AssembledPrimitive {
  uint32_t v[3] = {0, 0, 0};  // the first vertices_per_primitive() are used
  // Provoking vertex (spec "Primitive Topologies" and VK_EXT_provoking_vertex): v[0] in the
  // Vulkan default mode, v[last] with VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT.
  uint8_t last = 0;
  // First primitive of a strip (or of the draw, or after a restart): line stipple starts over.
  bool strip_start = true;
};

// The restart value is all ones of the index type (VK_INDEX_TYPE_UINT16: 0xFFFF, UINT32:
// 0xFFFFFFFF, UINT8: 0xFF), spec "primitiveRestartEnable".
enum class IndexType { Uint8, Uint16, Uint32 };
uint32_t restart_index(IndexType type);

// Non-indexed draw: vertices first_vertex .. first_vertex + vertex_count - 1.
std::vector<AssembledPrimitive> assemble(Topology topology, uint32_t first_vertex,
                                         uint32_t vertex_count);

// Indexed draw. When `primitive_restart` is set, an index equal to restart_index(type) ends the
// current strip/fan (an incomplete list primitive is dropped, as with
// primitiveTopologyListRestart) and assembly starts afresh after it.
std::vector<AssembledPrimitive> assemble_indexed(Topology topology, std::span<const uint32_t> indices,
                                                 IndexType type, bool primitive_restart);

}  // namespace tessera::pipeline
