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

namespace {

// Appends the triangles of one run of vertices (no restart inside) following the vertex
// numbering of the Vulkan spec, "Primitive Topologies":
//   list : (v[3i], v[3i+1], v[3i+2])
//   strip: (v[i], v[i + (1 + i%2)], v[i + (2 - i%2)]) -- odd triangles swap their last two
//          vertices so that every triangle of the strip has the same winding
//   fan  : (v[i+1], v[i+2], v[0])
void assemble_run(Topology topology, std::span<const uint32_t> run,
                  std::vector<AssembledTriangle>& out) {
  const size_t n = run.size();
  if (n < 3) return;
  switch (topology) {
    case Topology::TriangleList:
      for (size_t i = 0; i + 2 < n; i += 3) out.push_back({{run[i], run[i + 1], run[i + 2]}});
      break;
    case Topology::TriangleStrip:
      for (size_t i = 0; i + 2 < n; ++i) {
        const size_t odd = i % 2;
        out.push_back({{run[i], run[i + 1 + odd], run[i + 2 - odd]}});
      }
      break;
    case Topology::TriangleFan:
      for (size_t i = 0; i + 2 < n; ++i) out.push_back({{run[i + 1], run[i + 2], run[0]}});
      break;
  }
}

}  // namespace

std::vector<AssembledTriangle> assemble(Topology topology, uint32_t first_vertex,
                                        uint32_t vertex_count) {
  std::vector<uint32_t> run(vertex_count);
  for (uint32_t i = 0; i < vertex_count; ++i) run[i] = first_vertex + i;
  std::vector<AssembledTriangle> out;
  assemble_run(topology, run, out);
  return out;
}

std::vector<AssembledTriangle> assemble_indexed(Topology topology, std::span<const uint32_t> indices,
                                                IndexType type, bool primitive_restart) {
  std::vector<AssembledTriangle> out;
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
