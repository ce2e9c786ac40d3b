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

// ClipDistance and CullDistance outputs: their element counts, and each lane's values in the
// batch; read back by a fragment shader, refused with a reason.
TEST(ShaderModule, ClipAndCullDistanceOutputs) {
  std::string error;
  auto m = load("clip_cull.vert", Stage::Vertex, error);
  ASSERT_NE(m, nullptr) << error;
  EXPECT_EQ(m->info().clip_distances, 2u);
  EXPECT_EQ(m->info().cull_distances, 1u);
  ShaderExecutor exec(*m);
  auto b = make_batch(5);
  for (uint32_t l = 0; l < 5; ++l) {
    b->inputs[slot(0, 0)][l] = fbits(0.25f * static_cast<float>(l) - 0.5f);  // x
    b->inputs[slot(0, 3)][l] = fbits(1.0f);                                  // w
    b->inputs[slot(1, 3)][l] = fbits(0.1f * static_cast<float>(l));          // alpha
  }
  Bindings bind;
  ASSERT_TRUE(exec.execute(*b, bind, error)) << error;
  for (uint32_t l = 0; l < 5; ++l) {
    EXPECT_EQ(b->clip_distance[0][l], 0.25f * static_cast<float>(l) - 0.5f) << l;
    EXPECT_EQ(b->clip_distance[1][l], 1.0f) << l;
    EXPECT_EQ(b->cull_distance[0][l], 0.1f * static_cast<float>(l) - 0.5f) << l;
  }
  // glslang's default gl_PerVertex block declares ClipDistance[1] and CullDistance[1] in every
  // vertex shader: counted as declared; never written they read 0, on the plane, so nothing is
  // clipped or culled (RasterBreadthTest.ClipAndCullDistancesFromTheVertexShader draws
  // color.vert, which has them, over the whole target).
  auto t = load("transform.vert", Stage::Vertex, error);
  ASSERT_NE(t, nullptr) << error;
  EXPECT_EQ(t->info().clip_distances, 1u);
  EXPECT_EQ(t->info().cull_distances, 1u);
  auto f = load("reads_clip_distance.frag", Stage::Fragment, error);
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(error.find("unsupported built-in input ClipDistance"), std::string::npos) << error;
}

TEST(ShaderModule, UnsupportedOpcodeIsNamed) {
  std::string error;
  auto m = load("subgroup.frag", Stage::Fragment, error);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(error.find("unsupported opcode OpGroupNonUniformFAdd"), std::string::npos) << error;
  // Names the shader by the capture's content hash of its bytes (XXH3-128, high half first).
  std::vector<uint32_t> words = read_spirv("subgroup.frag");
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

// Corrupted modules: every mutation either loads (and then executes without fault) or is
// rejected with a message; nothing crashes (run under ASan/UBSan in CI).
TEST(ShaderModule, CorruptedModulesAreRejectedOrRunSafely) {
  const char* names[] = {"control.frag", "arrays.frag", "texture.frag"};
  uint32_t rejected = 0, accepted = 0;
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  auto next = [&rng]() {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
  };
  class ZeroSampler final : public TextureSampler {
   public:
    void execute(const ImageRequest& r, uint32_t* const out[4]) override {
      for (uint32_t c = 0; c < 4; ++c)
        for (uint32_t l = 0; l < r.lane_count; ++l) out[c][l] = 0;
    }
  } sampler;
  std::vector<std::byte> ubo(4096);
  std::vector<BufferView> views(8, BufferView{ubo.data(), ubo.size()});
  Bindings bind;
  bind.buffers = views;
  bind.sampler = &sampler;
  auto batch = make_batch(16);
  for (const char* name : names) {
    const std::vector<uint32_t> good = read_spirv(name);
    ASSERT_GT(good.size(), 5u);
    for (int trial = 0; trial < 150; ++trial) {
      std::vector<uint32_t> w = good;
      const size_t pos = 5 + next() % (w.size() - 5);
      switch (trial % 3) {
        case 0: w[pos] ^= 1u << (next() % 32); break;     // bit flip
        case 1: w[pos] = static_cast<uint32_t>(next() % 64); break;  // small id/literal
        default: w.resize(pos); break;                    // truncation
      }
      std::string error;
      auto m = ShaderModule::create(w, "main", Stage::Fragment, {}, error);
      if (!m) {
        ++rejected;
        EXPECT_FALSE(error.empty());
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
        continue;
      }
      ++accepted;
      ShaderExecutor exec(*m);
      for (uint32_t l = 0; l < 16; ++l) batch->inputs[0][l] = l;
      exec.execute(*batch, bind, error);
    }
  }
  EXPECT_GT(rejected, 100u);
  EXPECT_EQ(rejected + accepted, 450u);
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

TEST(ShaderModule, ComputeWorkgroupSizeAndStorage) {
  std::string error;
  auto m = load("workgroup.comp", Stage::Compute, error);
  ASSERT_NE(m, nullptr) << error;
  EXPECT_EQ(m->info().local_size[0], 128u);
  EXPECT_EQ(m->info().local_size[1], 1u);
  EXPECT_EQ(m->info().workgroup_words, 129u);  // tile[128] and sum
  EXPECT_TRUE(m->info().has_barrier);
  EXPECT_TRUE(m->info().has_side_effects);
  ASSERT_EQ(m->resources().size(), 1u);
  EXPECT_EQ(m->resources()[0].kind, ResourceKind::StorageBuffer);
  // A fragment entry point is not a compute one.
  EXPECT_EQ(load("workgroup.comp", Stage::Fragment, error), nullptr);
  EXPECT_NE(error.find("not found for this stage"), std::string::npos) << error;
  // local_size_x_id: the WorkgroupSize built-in, specialised.
  auto spec = load("spec_size.comp", Stage::Compute, error, {{0, 32}});
  ASSERT_NE(spec, nullptr) << error;
  EXPECT_EQ(spec->info().local_size[0], 32u);
  EXPECT_EQ(spec->info().local_size[1], 2u);
  EXPECT_EQ(spec->info().local_size[2], 1u);
  EXPECT_FALSE(spec->info().has_barrier);
  // Beyond maxComputeWorkGroupInvocations (1024 on every device captures come from): refused.
  EXPECT_EQ(load("spec_size.comp", Stage::Compute, error, {{0, 1000}}), nullptr);
  EXPECT_NE(error.find("workgroup of 2000 invocations"), std::string::npos) << error;
}

}  // namespace
}  // namespace tessera::shader::testing
