#include "tessera/pipeline/primitive_assembly.h"

namespace tessera::pipeline {

uint32_t restart_index(IndexType type) {
  switch (type) {
    case IndexType::Uint8: return 0xFFu;
    case IndexType::Uint16: return 0xFFFFu;
    case IndexType::Uint32: return 0xFFFFFFFFu;
  }
  return 0xFFFFFFFFu;
}

uint32_t vertices_per_primitive(Topology topology) {
  switch (topology) {
    case Topology::PointList: return 1;
    case Topology::LineList:
    case Topology::LineStrip:
    case Topology::LineListWithAdjacency:
    case Topology::LineStripWithAdjacency: return 2;
    case Topology::TriangleList:
    case Topology::TriangleStrip:
    case Topology::TriangleFan: return 3;
  }
  return 3;
}

namespace {

// Appends the primitives of one run of vertices (no restart inside) following the vertex
// numbering of the Vulkan spec, "Primitive Topologies":
//   point list: (v[i])
//   line list : (v[2i], v[2i+1]);  line strip: (v[i], v[i+1])
//   line list with adjacency: (v[4i+1], v[4i+2]); strip with adjacency: (v[i+1], v[i+2])
//   triangle list : (v[3i], v[3i+1], v[3i+2])
//   triangle strip: (v[i], v[i + (1 + i%2)], v[i + (2 - i%2)]) -- odd triangles swap their last
//          two vertices so that every triangle of the strip has the same winding
//   triangle fan  : (v[i+1], v[i+2], v[0])
// The provoking vertex in last-vertex mode is the one the spec's table names: v[i+2] of a
// strip triangle (v[1] after the swap of an odd one), v[i+2] of a fan triangle (v[1]).
void assemble_run(Topology topology, std::span<const uint32_t> run,
                  std::vector<AssembledPrimitive>& out) {
  const size_t n = run.size();
  switch (topology) {
    case Topology::PointList:
      for (size_t i = 0; i < n; ++i) out.push_back({{run[i], 0, 0}, 0, true});
      break;
    case Topology::LineList:
      for (size_t i = 0; i + 1 < n; i += 2) out.push_back({{run[i], run[i + 1], 0}, 1, true});
      break;
    case Topology::LineStrip:
      for (size_t i = 0; i + 1 < n; ++i) out.push_back({{run[i], run[i + 1], 0}, 1, i == 0});
      break;
    case Topology::LineListWithAdjacency:
      for (size_t i = 0; i + 3 < n; i += 4) out.push_back({{run[i + 1], run[i + 2], 0}, 1, true});
      break;
    case Topology::LineStripWithAdjacency:
      for (size_t i = 0; i + 3 < n; ++i) out.push_back({{run[i + 1], run[i + 2], 0}, 1, i == 0});
      break;
    case Topology::TriangleList:
      for (size_t i = 0; i + 2 < n; i += 3) out.push_back({{run[i], run[i + 1], run[i + 2]}, 2, true});
      break;
    case Topology::TriangleStrip:
      for (size_t i = 0; i + 2 < n; ++i) {
        const size_t odd = i % 2;
        out.push_back({{run[i], run[i + 1 + odd], run[i + 2 - odd]}, static_cast<uint8_t>(odd ? 1 : 2), i == 0});
      }
      break;
    case Topology::TriangleFan:
      for (size_t i = 0; i + 2 < n; ++i) out.push_back({{run[i + 1], run[i + 2], run[0]}, 1, i == 0});
      break;
  }
}

}  // namespace

std::vector<AssembledPrimitive> assemble(Topology topology, uint32_t first_vertex,
                                         uint32_t vertex_count) {
  std::vector<uint32_t> run(vertex_count);
  for (uint32_t i = 0; i < vertex_count; ++i) run[i] = first_vertex + i;
  std::vector<AssembledPrimitive> out;
  assemble_run(topology, run, out);
  return out;
}

std::vector<AssembledPrimitive> assemble_indexed(Topology topology, std::span<const uint32_t> indices,
                                                 IndexType type, bool primitive_restart) {
  std::vector<AssembledPrimitive> out;
  if (!primitive_restart) {
    assemble_run(topology, indices, out);
    return out;
  }
  const uint32_t restart = restart_index(type);
  size_t begin = 0;
  for (size_t i = 0; i <= indices.size(); ++i) {
    if (i == indices.size() || indices[i] == restart) {
      assemble_run(topology, indices.subspan(begin, i - begin), out);
      begin = i + 1;
    }
  }
  return out;
}

}  // namespace tessera::pipeline
