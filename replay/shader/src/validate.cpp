// Validation: a module is checked against the SPIR-V spec's validation rules (2.16) and the
// Vulkan environment for SPIR-V (Vulkan spec appendix "Vulkan Environment for SPIR-V") before
// anything reads it, so the decoder may rely on a well-formed module: ids defined before use,
// types consistent, structured control flow (SPIR-V 2.11, "Structured Control Flow").
//
// Block layout: validated with the scalar, relaxed and standard uniform buffer layouts all
// allowed (Vulkan spec "Offset and Stride Assignment": VK_EXT_scalar_block_layout and
// uniformBufferStandardLayout), the most permissive rules a Vulkan 1.3 device can enable.
#include <string>

#include "load_steps.h"

namespace tessera::shader {

spvtools::MessageConsumer first_error_consumer(std::string& first_message) {
  return [&first_message](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level > SPV_MSG_ERROR || !first_message.empty()) return;
    // One line: the validator appends the disassembled instruction on its own line.
    std::string text;
    for (const char* c = msg; *c != 0; ++c) {
      if (*c == '\n') {
        if (!text.empty() && text.back() != ' ') text += " |";
        continue;
      }
      if (*c == ' ' && !text.empty() && text.back() == ' ') continue;
      text.push_back(*c);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '|')) text.pop_back();
    first_message = text + " (word " + std::to_string(pos.index) + ")";
  };
}

bool validate_module(std::span<const uint32_t> words, const spvtools::MessageConsumer& consumer) {
  spvtools::SpirvTools tools(kTargetEnv);
  tools.SetMessageConsumer(consumer);
  // Layout rules: captured apps may use VK_EXT_scalar_block_layout (core in Vulkan 1.2, and
  // what Zink emits for GL uniforms: arrays of uint with stride 4), so validate block layout
  // with the most permissive rules a Vulkan 1.3 device can enable.
  spvtools::ValidatorOptions validator_options;
  validator_options.SetScalarBlockLayout(true);
  validator_options.SetRelaxBlockLayout(true);
  validator_options.SetUniformBufferStandardLayout(true);
  return tools.Validate(words.data(), words.size(), validator_options);
}

}  // namespace tessera::shader
