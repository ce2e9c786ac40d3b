// Primitive assembly: vertex numbering of points, lines, triangles, their strips and fans and
// the line adjacency topologies (Vulkan spec "Primitive Topologies"), provoking vertices, and
// primitive restart.
#include "tessera/pipeline/primitive_assembly.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

namespace tessera::pipeline {
namespace {

using Tri = std::array<uint32_t, 3>;

std::vector<Tri> as_arrays(const std::vector<AssembledPrimitive>& tris) {
  std::vector<Tri> r;
  for (const AssembledPrimitive& t : tris) r.push_back({t.v[0], t.v[1], t.v[2]});
  return r;
}

TEST(PrimitiveAssembly, ListDropsIncompleteTriangle) {
  EXPECT_EQ(as_arrays(assemble(Topology::TriangleList, 0, 7)), (std::vector<Tri>{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(as_arrays(assemble(Topology::TriangleList, 10, 3)), (std::vector<Tri>{{10, 11, 12}}));
  EXPECT_TRUE(assemble(Topology::TriangleList, 0, 2).empty());
}

TEST(PrimitiveAssembly, StripSwapsOddTriangles) {
  EXPECT_EQ(as_arrays(assemble(Topology::TriangleStrip, 0, 5)),
            (std::vector<Tri>{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}}));
}

TEST(PrimitiveAssembly, FanUsesFirstVertexLast) {
  EXPECT_EQ(as_arrays(assemble(Topology::TriangleFan, 0, 5)),
            (std::vector<Tri>{{1, 2, 0}, {2, 3, 0}, {3, 4, 0}}));
}

// Every triangle of a zig-zag strip must come out with the same winding, which is the point of
// swapping the odd ones.
TEST(PrimitiveAssembly, StripKeepsWindingConstant) {
  const float pos[8][2] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}};
  const auto tris = assemble(Topology::TriangleStrip, 0, 8);
  ASSERT_EQ(tris.size(), 6u);
  for (const AssembledPrimitive& t : tris) {
    const float* a = pos[t.v[0]];
    const float* b = pos[t.v[1]];
    const float* c = pos[t.v[2]];
    const float cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    EXPECT_LT(cross, 0.0f) << t.v[0] << " " << t.v[1] << " " << t.v[2];
  }
}

TEST(PrimitiveAssembly, RestartSplitsStripsAndFans) {
  const std::vector<uint32_t> strip = {0, 1, 2, 3, 0xFFFF, 4, 5, 6};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleStrip, strip, IndexType::Uint16, true)),
            (std::vector<Tri>{{0, 1, 2}, {1, 3, 2}, {4, 5, 6}}));
  const std::vector<uint32_t> fan = {0, 1, 2, 3, 0xFFFFFFFF, 4, 5, 6, 7};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleFan, fan, IndexType::Uint32, true)),
            (std::vector<Tri>{{1, 2, 0}, {2, 3, 0}, {5, 6, 4}, {6, 7, 4}}));
  // The restart value restarts the parity of the strip: after it, the first triangle is even.
  const std::vector<uint32_t> odd = {0, 1, 2, 0xFFFF, 3, 4, 5, 6};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleStrip, odd, IndexType::Uint16, true)),
            (std::vector<Tri>{{0, 1, 2}, {3, 4, 5}, {4, 6, 5}}));
}

TEST(PrimitiveAssembly, RestartValueDependsOnIndexType) {
  EXPECT_EQ(restart_index(IndexType::Uint8), 0xFFu);
  EXPECT_EQ(restart_index(IndexType::Uint16), 0xFFFFu);
  EXPECT_EQ(restart_index(IndexType::Uint32), 0xFFFFFFFFu);
  // With 32-bit indices 0xFFFF is an ordinary vertex.
  const std::vector<uint32_t> idx = {0, 1, 0xFFFF, 2};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleStrip, idx, IndexType::Uint32, true)),
            (std::vector<Tri>{{0, 1, 0xFFFF}, {1, 2, 0xFFFF}}));
  // Without primitiveRestartEnable the value is an ordinary vertex as well.
  const std::vector<uint32_t> idx16 = {0, 1, 0xFFFF, 2};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleStrip, idx16, IndexType::Uint16, false)),
            (std::vector<Tri>{{0, 1, 0xFFFF}, {1, 2, 0xFFFF}}));
}

TEST(PrimitiveAssembly, RestartDropsIncompleteListTriangle) {
  const std::vector<uint32_t> idx = {0, 1, 2, 3, 0xFFFF, 4, 5, 6, 0xFFFF, 0xFFFF, 7};
  EXPECT_EQ(as_arrays(assemble_indexed(Topology::TriangleList, idx, IndexType::Uint16, true)),
            (std::vector<Tri>{{0, 1, 2}, {4, 5, 6}}));
}

// Points and lines: their first vertices (the third entry unused), with the last-vertex
// provoking vertex and where strips start over.
struct Line {
  uint32_t a, b, last;
  bool start;
  bool operator==(const Line&) const = default;
};
std::vector<Line> as_lines(const std::vector<AssembledPrimitive>& prims) {
  std::vector<Line> r;
  for (const AssembledPrimitive& p : prims) r.push_back({p.v[0], p.v[1], p.last, p.strip_start});
  return r;
}

TEST(PrimitiveAssembly, PointsAndLines) {
  EXPECT_EQ(vertices_per_primitive(Topology::PointList), 1u);
  EXPECT_EQ(vertices_per_primitive(Topology::LineStripWithAdjacency), 2u);
  const auto points = assemble(Topology::PointList, 5, 3);
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[2].v[0], 7u);
  EXPECT_EQ(points[2].last, 0u);
  EXPECT_EQ(as_lines(assemble(Topology::LineList, 0, 5)), (std::vector<Line>{{0, 1, 1, true}, {2, 3, 1, true}}));
  EXPECT_EQ(as_lines(assemble(Topology::LineStrip, 0, 4)),
            (std::vector<Line>{{0, 1, 1, true}, {1, 2, 1, false}, {2, 3, 1, false}}));
  // Adjacency topologies without a geometry shader: only the segments' own vertices.
  EXPECT_EQ(as_lines(assemble(Topology::LineListWithAdjacency, 0, 8)), (std::vector<Line>{{1, 2, 1, true}, {5, 6, 1, true}}));
  EXPECT_EQ(as_lines(assemble(Topology::LineStripWithAdjacency, 0, 5)),
            (std::vector<Line>{{1, 2, 1, true}, {2, 3, 1, false}}));
  // A restart in a line strip starts a new strip (line stipple restarts with it).
  const std::vector<uint32_t> idx = {0, 1, 2, 0xFF, 3, 4};
  EXPECT_EQ(as_lines(assemble_indexed(Topology::LineStrip, idx, IndexType::Uint8, true)),
            (std::vector<Line>{{0, 1, 1, true}, {1, 2, 1, false}, {3, 4, 1, true}}));
}

TEST(PrimitiveAssembly, LastVertexProvokingFollowsTheSpecTable) {
  // Lists: v[2]; strips: vertex i + 2, which odd triangles hold in v[1]; fans: vertex i + 2 = v[1].
  const auto list = assemble(Topology::TriangleList, 0, 3);
  EXPECT_EQ(list[0].v[list[0].last], 2u);
  const auto strip = assemble(Topology::TriangleStrip, 0, 5);
  for (uint32_t i = 0; i < strip.size(); ++i) EXPECT_EQ(strip[i].v[strip[i].last], i + 2) << i;
  const auto fan = assemble(Topology::TriangleFan, 0, 5);
  for (uint32_t i = 0; i < fan.size(); ++i) EXPECT_EQ(fan[i].v[fan[i].last], i + 2) << i;
}

}  // namespace
}  // namespace tessera::pipeline
