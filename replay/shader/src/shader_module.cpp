// Loading: validate (validate.cpp) -> normalise (normalise.cpp) -> decode into Program
// (program.h): reflect.cpp reads the module's declarations, lower.cpp and lower_memory.cpp lower
// the entry function, op_classes.cpp charges each instruction its operation classes.
#include "tessera/shader/shader_module.h"

#include <xxhash.h>

#include <cstdio>

#include "decoder.h"
#include "dependent_reads.h"
#include "load_steps.h"
#include "program.h"

namespace tessera::shader {

ShaderModule::ShaderModule() = default;
ShaderModule::~ShaderModule() = default;

std::unique_ptr<ShaderModule> ShaderModule::create(std::span<const uint32_t> words, std::string_view entry_point,
                                                   Stage stage, std::span<const SpecConstantValue> spec_constants,
                                                   std::string& error) {
  const XXH128_hash_t h = XXH3_128bits(words.data(), words.size_bytes());
  char hash_text[33];
  std::snprintf(hash_text, sizeof hash_text, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  const std::string hash = hash_text;
  const std::string prefix = "shader " + hash + ": ";
  if (words.size() < 5 || words[0] != 0x07230203u) {
    error = prefix + "not a SPIR-V module (bad magic or too short)";
    return nullptr;
  }
  std::string first_message;
  const spvtools::MessageConsumer consumer = first_error_consumer(first_message);
  if (!validate_module(words, consumer)) {
    error = prefix + "invalid SPIR-V: " + first_message;
    return nullptr;
  }
  std::unique_ptr<ShaderModule> module(new ShaderModule());
  if (!normalise_module(words, spec_constants, consumer, module->optimised_)) {
    error = prefix + "optimizer failed: " + first_message;
    return nullptr;
  }
  module->info_.stage = stage;
  module->info_.entry_point = std::string(entry_point);
  module->info_.hash = hash;
  module->program_ = std::make_unique<Program>();
  try {
    decode::Decoder dec(module->optimised_, entry_point, stage, module->info_, module->resources_, *module->program_);
    dec.set_dependent_reads(dependent_image_reads(module->optimised_, kTargetEnv));
    dec.run();
  } catch (const decode::DecodeError& e) {
    error = prefix + e.message;
    return nullptr;
  } catch (const std::out_of_range&) {
    error = prefix + "malformed control flow (branch to an unknown block)";
    return nullptr;
  }
  module->info_.register_count = module->program_->register_count;
  return module;
}

}  // namespace tessera::shader
