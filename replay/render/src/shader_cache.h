// Compiled shader modules of the frame, cached by (content hash, entry point, stage,
// specialization): pipelines of a capture share a handful of modules, and compiling (validation,
// optimisation, decode) costs far more than any draw.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tessera/capture/hash.h"
#include "tessera/frontend/frame.h"
#include "tessera/shader/shader_module.h"
#include "tessera/shader/workgroup.h"

namespace tessera::render {

struct CompiledShader {
  std::unique_ptr<shader::ShaderModule> module;      // null when compilation failed
  std::unique_ptr<shader::ShaderExecutor> executor;  // reused by every batch of every draw
  std::unique_ptr<shader::WorkgroupExecutor> workgroup;  // compute: reused by every dispatch
  std::string error;                                 // one line, set when module is null
  uint64_t block_budget = shader::ShaderExecutor::kDefaultBlockBudget;  // of every executor of it
};

class ShaderCache {
 public:
  // `block_budget`: the watchdog of every executor made for a compiled stage (RenderConfig).
  explicit ShaderCache(uint64_t block_budget = shader::ShaderExecutor::kDefaultBlockBudget)
      : block_budget_(block_budget) {}
  // The compiled stage; a failure is cached too (CompiledShader::error), so a module with an
  // unsupported opcode is compiled and reported once however many draws use it.
  CompiledShader& get(const frontend::ShaderStageCode& code, shader::Stage stage);

 private:
  using Key = std::tuple<capture::Hash128, std::string, int,
                         std::vector<std::pair<uint32_t, uint32_t>>>;
  uint64_t block_budget_;
  std::map<Key, std::unique_ptr<CompiledShader>> entries_;
};

}  // namespace tessera::render
