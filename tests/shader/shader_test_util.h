// Helpers shared by the shader tests and the shader benchmark.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/shader/shader_module.h"

namespace tessera::shader::testing {

// Reads build/tests/shader/spv/<name>.spv (compiled from tests/shader/glsl by glslang).
std::vector<uint32_t> read_spirv(const std::string& name);

// Loads a module or returns null with the error in `error`.
std::unique_ptr<ShaderModule> load(const std::string& name, Stage stage, std::string& error,
                                   std::vector<SpecConstantValue> spec = {});

// A zeroed batch (LaneBatch is ~70 KiB: keep it off the stack).
std::unique_ptr<LaneBatch> make_batch(uint32_t lane_count);

// Fragment lanes 4q..4q+3 cover pixels (x0,y0) (x0+1,y0) (x0,y0+1) (x0+1,y0+1); centres at +0.5.
void set_quad(LaneBatch& b, uint32_t quad, uint32_t x0, uint32_t y0, float z = 0.5f);

inline uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
inline float as_float(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t slot(uint32_t location, uint32_t component) { return location * 4 + component; }

}  // namespace tessera::shader::testing
