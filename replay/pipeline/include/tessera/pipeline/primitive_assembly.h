// Primitive assembly: turns a vertex (or index) stream into triangles, Vulkan spec section
// "Primitive Topologies" (triangle lists, strips, fans) and "Primitive Restart".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::pipeline {

enum class Topology { TriangleList, TriangleStrip, TriangleFan };

// A triangle as three indices into the post-vertex-shader vertex array, in the vertex order the
// spec defines for its topology (that order decides the winding seen by face culling).
struct AssembledTriangle {
  uint32_t v[3];
};

// The restart value is all ones of the index type (VK_INDEX_TYPE_UINT16: 0xFFFF, UINT32:
// 0xFFFFFFFF, UINT8: 0xFF), spec "primitiveRestartEnable".
enum class IndexType { Uint8, Uint16, Uint32 };
uint32_t restart_index(IndexType type);

// Non-indexed draw: vertices first_vertex .. first_vertex + vertex_count - 1.
std::vector<AssembledTriangle> assemble(Topology topology, uint32_t first_vertex,
                                        uint32_t vertex_count);

// Indexed draw. When `primitive_restart` is set, an index equal to restart_index(type) ends the
// current strip/fan (an incomplete list triangle is dropped, as with
// primitiveTopologyListRestart) and assembly starts afresh after it.
std::vector<AssembledTriangle> assemble_indexed(Topology topology, std::span<const uint32_t> indices,
                                                IndexType type, bool primitive_restart);

}  // namespace tessera::pipeline
