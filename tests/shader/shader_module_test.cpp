// Loading, reflection and error reporting of ShaderModule.
#include <gtest/gtest.h>

#include <xxhash.h>

#include <cstdio>

#include "shader_test_util.h"

namespace tessera::shader::testing {
namespace {

TEST(ShaderModule, ReflectsInterfaceVariables) {
  std::string error;
  auto m = load("arith.frag", Stage::Fragment, error);
  ASSERT_NE(m, nullptr) << error;
  const ShaderInfo& info = m->info();
  ASSERT_EQ(info.inputs.size(), 3u);
  ASSERT_EQ(info.outputs.size(), 4u);
  bool seen[3] = {false, false, false};
  for (const InterfaceVariable& v : info.inputs) {
    ASSERT_LT(v.location, 3u);
    seen[v.location] = true;
    if (v.location == 0) { EXPECT_EQ(v.vector_size, 4u); EXPECT_EQ(v.scalar, ScalarType::Float32); EXPECT_FALSE(v.flat); EXPECT_EQ(v.name, "a"); }
    if (v.location == 1) { EXPECT_EQ(v.scalar, ScalarType::Int32); EXPECT_TRUE(v.flat); }
    if (v.location == 2) { EXPECT_EQ(v.scalar, ScalarType::UInt32); EXPECT_EQ(v.vector_size, 2u); }
  }
  EXPECT_TRUE(seen[0] && seen[1] && seen[2]);
  EXPECT_FALSE(info.has_discard);
  EXPECT_FALSE(info.writes_frag_depth);
  EXPECT_GT(info.spirv_instruction_count, 10u);
  EXPECT_EQ(info.hash.size(), 32u);
}

TEST(ShaderModule, VertexBuiltInsAndLocations) {
  std::string error;
  auto m = load("transform.vert", Stage::Vertex, error);
  ASSERT_NE(m, nullptr) << error;
  EXPECT_EQ(m->info().inputs.size(), 2u);
  EXPECT_EQ(m->info().outputs.size(), 3u);  // gl_PerVertex is not a location output
  EXPECT_EQ(m->resources()[0].block_size, 192u);
}

TEST(ShaderModule, UnsupportedOpcodeIsNamed) {
  std::string error;
  auto m = load("atomic.frag", Stage::Fragment, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("unsupported opcode OpAtomicIAdd"), std::string::npos) << error;
  // Names the shader by the capture's content hash of its bytes (XXH3-128, high half first).
  std::vector<uint32_t> words = read_spirv("atomic.frag");
  XXH128_hash_t h = XXH3_128bits(words.data(), words.size() * 4);
  char hex[33];
  std::snprintf(hex, sizeof hex, "%016llx%016llx", static_cast<unsigned long long>(h.high64), static_cast<unsigned long long>(h.low64));
  EXPECT_EQ(error.rfind(std::string("shader ") + hex + ": ", 0), 0u) << error;
}

TEST(ShaderModule, InvalidInputIsRejectedWithAReason) {
  std::string error;
  std::vector<uint32_t> words = read_spirv("arith.frag");
  ASSERT_GT(words.size(), 20u);

  std::vector<uint32_t> bad_magic = words;
  bad_magic[0] = 0x12345678u;
  EXPECT_EQ(ShaderModule::create(bad_magic, "main", Stage::Fragment, {}, error), nullptr);
  EXPECT_NE(error.find("not a SPIR-V module"), std::string::npos) << error;

  std::vector<uint32_t> truncated(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(words.size() / 2));
  EXPECT_EQ(ShaderModule::create(truncated, "main", Stage::Fragment, {}, error), nullptr);
  EXPECT_NE(error.find("invalid SPIR-V"), std::string::npos) << error;

  EXPECT_EQ(ShaderModule::create(words, "nope", Stage::Fragment, {}, error), nullptr);
  EXPECT_NE(error.find("entry point 'nope' not found"), std::string::npos) << error;

  EXPECT_EQ(ShaderModule::create(words, "main", Stage::Vertex, {}, error), nullptr);
  EXPECT_NE(error.find("not found for this stage"), std::string::npos) << error;

  EXPECT_EQ(ShaderModule::create({}, "main", Stage::Vertex, {}, error), nullptr);
  EXPECT_FALSE(error.empty());
}

TEST(ShaderModule, NormalisationLeavesOneFunctionInSsaForm) {
  std::string error;
  auto m = load("functions.frag", Stage::Fragment, error);
  ASSERT_NE(m, nullptr) << error;
  uint32_t functions = 0, variables_in_function = 0;
  const auto& w = m->normalised_spirv();
  bool in_function = false;
  for (size_t i = 5; i < w.size();) {
    uint32_t op = w[i] & 0xffffu, wc = w[i] >> 16;
    if (op == 54) { ++functions; in_function = true; }        // OpFunction
    if (op == 56) in_function = false;                         // OpFunctionEnd
    if (op == 59 && in_function) ++variables_in_function;      // OpVariable
    i += wc;
  }
  EXPECT_EQ(functions, 1u);
  EXPECT_EQ(variables_in_function, 0u);
}

}  // namespace
}  // namespace tessera::shader::testing
