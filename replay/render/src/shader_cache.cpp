#include "shader_cache.h"

#include <span>

namespace tessera::render {

CompiledShader& ShaderCache::get(const frontend::ShaderStageCode& code, shader::Stage stage) {
  std::span<const uint32_t> words;
  if (code.spirv) words = *code.spirv;
  // A zero hash means the producer did not fill it in: hash the words so two different modules
  // never share an entry.
  capture::Hash128 hash = code.hash;
  if (hash.is_zero()) hash = capture::hash128(std::as_bytes(words));
  Key key{hash, code.entry_point, static_cast<int>(stage), code.specialization};
  auto it = entries_.find(key);
  if (it != entries_.end()) return *it->second;

  auto entry = std::make_unique<CompiledShader>();
  entry->block_budget = block_budget_;
  if (words.empty()) {
    entry->error = "shader " + hash.hex() + ": no SPIR-V";
  } else {
    std::vector<shader::SpecConstantValue> spec;
    spec.reserve(code.specialization.size());
    for (const auto& [id, bits] : code.specialization) spec.push_back({id, bits});
    entry->module = shader::ShaderModule::create(words, code.entry_point, stage, spec, entry->error);
    if (entry->module && stage == shader::Stage::Compute)
      entry->workgroup = std::make_unique<shader::WorkgroupExecutor>(*entry->module, block_budget_);
    else if (entry->module)
      entry->executor = std::make_unique<shader::ShaderExecutor>(*entry->module, block_budget_);
  }
  return *entries_.emplace(std::move(key), std::move(entry)).first->second;
}

}  // namespace tessera::render
