// The steps ShaderModule::create runs before decoding (internal to tessera_shader): validation
// (validate.cpp) and normalisation (normalise.cpp). Both report through one message consumer
// that keeps the first error, so a module's error names the first thing wrong with it.
#pragma once

#include <spirv-tools/libspirv.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tessera/shader/shader_module.h"

namespace tessera::shader {

// Vulkan 1.3 rules accept every SPIR-V version up to 1.6 that captured apps may use.
inline constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_3;

// A consumer that keeps the first error (or worse) in `first_message`, on one line, with the
// word it was found at.
spvtools::MessageConsumer first_error_consumer(std::string& first_message);

// Whether `words` is valid SPIR-V for a Vulkan 1.3 device with the most permissive block layout
// rules (validate.cpp).
bool validate_module(std::span<const uint32_t> words, const spvtools::MessageConsumer& consumer);

// The module with its specialization constants frozen to `spec_constants`, every function
// inlined into the entry points and function-local memory rewritten into SSA (normalise.cpp).
// False when the optimizer fails.
bool normalise_module(std::span<const uint32_t> words, std::span<const SpecConstantValue> spec_constants,
                      const spvtools::MessageConsumer& consumer, std::vector<uint32_t>& normalised);

}  // namespace tessera::shader
