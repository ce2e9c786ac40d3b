// Primitive assembly: vertex numbering of lists, strips and fans (Vulkan spec "Primitive
// Topologies") and primitive restart.
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

}  // namespace
}  // namespace tessera::pipeline
