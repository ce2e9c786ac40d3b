// Operation classes (op_class.h): exact per-quad counts of small shaders whose every operation is
// accounted for in the GLSL's comments (tests/shader/glsl/op_mix*.{frag,vert}), against the
// decoder's table in op_classes.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "shader_test_util.h"

namespace tessera::shader::testing {
namespace {

OpCounts counts(uint32_t alu, uint32_t sfu, uint32_t varying, uint32_t texture, uint32_t memory) {
  OpCounts c;
  c[OpClass::Alu] = alu;
  c[OpClass::Sfu] = sfu;
  c[OpClass::Varying] = varying;
  c[OpClass::Texture] = texture;
  c[OpClass::Memory] = memory;
  return c;
}

std::string describe(const OpCounts& c) {
  std::string s;
  for (uint32_t k = 0; k < kOpClassCount; ++k)
    s += std::string(k ? " " : "") + op_class_name(static_cast<OpClass>(k)) + "=" + std::to_string(c.ops[k]);
  return s;
}

void expect_quad(const LaneBatch& b, uint32_t quad, const OpCounts& want) {
  EXPECT_EQ(describe(b.quad_ops[quad]), describe(want)) << "quad " << quad;
}

class WhiteSampler final : public TextureSampler {
 public:
  void execute(const ImageRequest& r, uint32_t* const out[4]) override {
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t l = 0; l < r.lane_count; ++l) out[c][l] = fbits(1.0f);
  }
};

TEST(OpMix, StraightLineFragmentShaderCountsEachClassExactly) {
  std::string error;
  auto module = load("op_mix.frag", Stage::Fragment, error);
  ASSERT_NE(module, nullptr) << error;
  std::vector<std::byte> ubo(80);
  std::vector<BufferView> views(module->resources().size());
  for (size_t i = 0; i < views.size(); ++i)
    if (module->resources()[i].kind == ResourceKind::UniformBuffer) views[i] = {ubo.data(), ubo.size()};
  WhiteSampler sampler;
  Bindings bind;
  bind.buffers = views;
  bind.sampler = &sampler;
  ShaderExecutor exec(*module);
  auto b = make_batch(12);
  for (uint32_t q = 0; q < 3; ++q) set_quad(*b, q, 2 * q, 0);
  b->helper = 0x0f0;  // quad 1 is all helpers: helper lanes execute, so they issue too
  ASSERT_TRUE(exec.execute(*b, bind, error)) << error;
  // texture() 1; base + t: 4 alu; normalize(vec3): 6 alu + 1 sfu; fma: 4 alu; + offsets: 4 alu;
  // varyings: base 4 + uv 2 + normal 3; uniform loads, function-variable copies, swizzles and
  // the output store are free.
  const OpCounts want = counts(18, 1, 9, 1, 0);
  for (uint32_t q = 0; q < 3; ++q) expect_quad(*b, q, want);
  for (uint32_t q = 3; q < kMaxLanes / 4; ++q) expect_quad(*b, q, {});
}

TEST(OpMix, DivisionByAConstantCostsTheMultiplyOnly) {
  std::string error;
  auto module = load("division.frag", Stage::Fragment, error);
  ASSERT_NE(module, nullptr) << error;
  ShaderExecutor exec(*module);
  auto b = make_batch(4);
  set_quad(*b, 0, 0, 0);
  for (uint32_t l = 0; l < 4; ++l) b->inputs[slot(0, 1)][l] = fbits(3.0f);
  ASSERT_TRUE(exec.execute(*b, {}, error)) << error;
  // v.x / 15.0: alu 1; v.x / v.y: alu 1 + sfu 1; the two multiply-adds: alu 1 each;
  // varyings v 2 + f 3.
  expect_quad(*b, 0, counts(4, 1, 5, 0, 0));
}

TEST(OpMix, DivergentIfElseCostsTheQuadBothSides) {
  std::string error;
  auto module = load("op_mix_branch.frag", Stage::Fragment, error);
  ASSERT_NE(module, nullptr) << error;
  ShaderExecutor exec(*module);
  auto b = make_batch(12);
  // Quad 0 takes the then side in every lane, quad 1 the else side, quad 2 both.
  const float v[12] = {1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1};
  for (uint32_t q = 0; q < 3; ++q) set_quad(*b, q, 2 * q, 0);
  for (uint32_t l = 0; l < 12; ++l) b->inputs[slot(0, 0)][l] = fbits(v[l]);
  ASSERT_TRUE(exec.execute(*b, {}, error)) << error;
  // Entry: the compare (1 alu) and v (1 varying, read by three OpLoad, interpolated once);
  // then: sqrt (1 sfu); else: vec4 * vec4 (4 alu).
  expect_quad(*b, 0, counts(1, 1, 1, 0, 0));
  expect_quad(*b, 1, counts(5, 0, 1, 0, 0));
  expect_quad(*b, 2, counts(5, 1, 1, 0, 0));  // the warp's issue count, not a lane sum
  for (uint32_t q = 3; q < kMaxLanes / 4; ++q) expect_quad(*b, q, {});
  // The per-lane SPIR-V counts are unchanged by the classes: a lane runs one side only.
  EXPECT_EQ(b->instruction_count[8], b->instruction_count[0]);
  EXPECT_EQ(b->instruction_count[9], b->instruction_count[4]);
}

TEST(OpMix, MemoryOperationsCountTheScalarsMoved) {
  std::string error;
  auto module = load("op_mix_memory.frag", Stage::Fragment, error);
  ASSERT_NE(module, nullptr) << error;
  std::vector<std::byte> table(8 * 16 + 4), data(16 + 16 * 16);
  std::vector<BufferView> views(module->resources().size());
  for (size_t i = 0; i < views.size(); ++i) {
    if (module->resources()[i].kind == ResourceKind::UniformBuffer) views[i] = {table.data(), table.size()};
    else views[i] = {data.data(), data.size(), data.data()};
  }
  Bindings bind;
  bind.buffers = views;
  ShaderExecutor exec(*module);
  auto b = make_batch(8);
  for (uint32_t q = 0; q < 2; ++q) set_quad(*b, q, 2 * q, 0);
  for (uint32_t l = 0; l < 8; ++l) b->inputs[slot(0, 0)][l] = l;
  ASSERT_TRUE(exec.execute(*b, bind, error)) << error;
  // alu: index & 7, i + 8, vec4 * float; memory: storage load 4, uniform at a per-lane offset 4,
  // atomicAdd 1, storage store 4; the uniform at a constant offset is free; varying: index.
  expect_quad(*b, 0, counts(6, 0, 1, 0, 13));
  expect_quad(*b, 1, counts(6, 0, 1, 0, 13));
  uint32_t counter = 0;
  std::memcpy(&counter, data.data(), 4);
  EXPECT_EQ(counter, 8u);  // every lane ran the atomic once
}

TEST(OpMix, VertexShaderCountsAttributeLoadsAndMatrixProducts) {
  std::string error;
  auto module = load("op_mix.vert", Stage::Vertex, error);
  ASSERT_NE(module, nullptr) << error;
  std::vector<std::byte> ubo(64);
  std::vector<BufferView> views(module->resources().size(), BufferView{ubo.data(), ubo.size()});
  Bindings bind;
  bind.buffers = views;
  ShaderExecutor exec(*module);
  // Six vertices: quads 0 and 1 (the second with two of its four lanes) issue, the rest do not.
  auto b = make_batch(6);
  ASSERT_TRUE(exec.execute(*b, bind, error)) << error;
  // mat4 * vec4: 16 alu; position 3 + uv 2 varyings; the uniform matrix and the outputs are free.
  expect_quad(*b, 0, counts(16, 0, 5, 0, 0));
  expect_quad(*b, 1, counts(16, 0, 5, 0, 0));
  for (uint32_t q = 2; q < kMaxLanes / 4; ++q) expect_quad(*b, q, {});
}

}  // namespace
}  // namespace tessera::shader::testing
