#include "shader_test_util.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tessera::shader::testing {

std::vector<uint32_t> read_spirv(const std::string& name) {
  std::ifstream f(std::string(TESSERA_SHADER_SPV_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

std::unique_ptr<ShaderModule> load(const std::string& name, Stage stage, std::string& error,
                                   std::vector<SpecConstantValue> spec) {
  std::vector<uint32_t> words = read_spirv(name);
  return ShaderModule::create(words, "main", stage, spec, error);
}

std::unique_ptr<LaneBatch> make_batch(uint32_t lane_count) {
  auto b = std::make_unique<LaneBatch>();
  std::memset(static_cast<void*>(b.get()), 0, sizeof(LaneBatch));
  b->lane_count = lane_count;
  return b;
}

void set_quad(LaneBatch& b, uint32_t quad, uint32_t x0, uint32_t y0, float z) {
  for (uint32_t k = 0; k < 4; ++k) {
    uint32_t l = quad * 4 + k;
    b.frag_coord[0][l] = static_cast<float>(x0 + (k & 1u)) + 0.5f;
    b.frag_coord[1][l] = static_cast<float>(y0 + (k >> 1)) + 0.5f;
    b.frag_coord[2][l] = z;
    b.frag_coord[3][l] = 1.0f;
  }
}

}  // namespace tessera::shader::testing
