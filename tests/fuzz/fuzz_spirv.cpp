// libFuzzer target for the SPIR-V path a captured shader takes: the loader and validator
// (ShaderModule::create: validation, the optimizer's normalisation, the decoder), then the
// interpreter on one batch with every resource it declares bound, and the sampler behind it.
// Any input must end in a one-line error or a finished batch, never a crash, hang or sanitizer
// report.
//
// Input: byte 0 picks the stage (vertex, fragment, compute), byte 1 seeds the lane inputs, the
// rest is the module's words (little-endian; a trailing partial word is dropped).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/shader/shader_module.h"
#include "tessera/texture/sampler.h"
#include "tessera/texture/shader_texture_unit.h"
#include "tessera/texture/texture.h"

using namespace tessera;

namespace {

// Loops end after this many blocks: a real shader's batch stays in the thousands, and a fuzzed
// endless loop must not cost the default 2^24.
constexpr uint64_t kBlockBudget = 4096;

// A 2D RGBA8 texture of 8x8 texels with its four levels, contents a gradient, and a linear
// mipmapped sampler: every image instruction reads real texels and a real footprint.
struct TextureFixture {
  texture::Texture texture;
  texture::SamplerState sampler;
  TextureFixture() {
    std::string error;
    texture.create(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, 1, 0x1000'0000, &error);
    for (uint32_t level = 0; level < 4; ++level) {
      std::vector<uint8_t> bytes(texture.level_linear_bytes(level));
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + level);
      texture.upload(level, 0, bytes.data(), bytes.size(), &error);
    }
    sampler.mag_filter = sampler.min_filter = VK_FILTER_LINEAR;
    sampler.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 + 5 * 4) return 0;  // below the SPIR-V header
  static const TextureFixture fixture;
  const auto stage = static_cast<shader::Stage>(data[0] % 3);
  const uint8_t seed = data[1];
  std::vector<uint32_t> words((size - 2) / 4);
  std::memcpy(words.data(), data + 2, words.size() * 4);

  std::string error;
  const auto module = shader::ShaderModule::create(words, "main", stage, {}, error);
  if (!module) return 0;

  // Every buffer the module declares gets 256 bytes it may read and write (out-of-range
  // accesses are dropped, robustBufferAccess); every image resource the fixture's texture.
  std::vector<std::vector<std::byte>> storage;
  std::vector<shader::BufferView> buffers;
  texture::ShaderTextureUnit unit;
  const auto& resources = module->resources();
  storage.reserve(resources.size());
  for (uint32_t r = 0; r < resources.size(); ++r) {
    storage.emplace_back(256, std::byte{seed});
    buffers.push_back({storage.back().data(), storage.back().size(), storage.back().data()});
    for (uint32_t e = 0; e < std::min<uint32_t>(resources[r].array_size, 4); ++e) {
      unit.bind_texture(r, e, &fixture.texture);
      unit.bind_sampler(r, e, &fixture.sampler);
    }
  }
  std::vector<std::byte> push(128, std::byte{seed});
  std::vector<uint32_t> workgroup(module->info().workgroup_words);
  shader::Bindings bindings;
  bindings.buffers = buffers;
  bindings.push_constants = {push.data(), push.size(), nullptr};
  bindings.sampler = &unit;
  bindings.workgroup_memory = workgroup.data();

  auto batch = std::make_unique<shader::LaneBatch>();
  batch->lane_count = 16;  // four quads
  for (uint32_t s = 0; s < shader::kMaxInterfaceSlots; ++s)
    for (uint32_t l = 0; l < shader::kMaxLanes; ++l) batch->inputs[s][l] = (s * 131u + l * 7u) ^ seed;
  for (uint32_t l = 0; l < shader::kMaxLanes; ++l) {
    batch->frag_coord[0][l] = static_cast<float>(l % 2 + (l / 4) * 2) + 0.5f;
    batch->frag_coord[1][l] = static_cast<float>((l / 2) % 2) + 0.5f;
    batch->frag_coord[2][l] = 0.5f;
    batch->frag_coord[3][l] = 1.0f;
    batch->vertex_index[l] = static_cast<int32_t>(l);
    batch->instance_index[l] = 0;
    batch->point_coord[0][l] = batch->point_coord[1][l] = 0.5f;
    batch->sample_id[l] = 0;
    batch->sample_position[0][l] = batch->sample_position[1][l] = 0.5f;
    batch->sample_mask_in[l] = 1;
    for (uint32_t k = 0; k < 3; ++k) batch->local_invocation_id[k][l] = k == 0 ? l : 0;
  }
  batch->front_facing = seed & 1 ? ~shader::LaneMask{0} : 0;
  for (uint32_t k = 0; k < 3; ++k) batch->workgroup_size[k] = module->info().local_size[k];

  shader::ShaderExecutor exec(*module, kBlockBudget);
  (void)exec.execute(*batch, bindings, error);
  return 0;
}
