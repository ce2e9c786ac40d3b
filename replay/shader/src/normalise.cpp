// Normalisation: the optimizer rewrites a validated module into the form the decoder reads. The
// specialization constants take the pipeline's values and are frozen (SPIR-V 2.12,
// "Specialization"; Vulkan spec "Specialization Constants"), every function is inlined into
// the entry point (the decoder lowers one function, so OpFunctionCall is left only for
// recursion, which SPIR-V for Vulkan forbids), and Function/Private variables become SSA values
// and OpPhi (SPIR-V 2.2.5) so only real memory (buffers, Workgroup, images) stays as loads and
// stores.
#include <unordered_map>

#include <spirv-tools/optimizer.hpp>

#include "load_steps.h"

namespace tessera::shader {

bool normalise_module(std::span<const uint32_t> words, std::span<const SpecConstantValue> spec_constants,
                      const spvtools::MessageConsumer& consumer, std::vector<uint32_t>& normalised) {
  // The order follows the optimizer's own performance recipe: freeze the specialization
  // constants to the pipeline's values, inline everything, then rewrite function-local memory
  // into SSA so only real memory remains as loads and stores.
  spvtools::Optimizer opt(kTargetEnv);
  opt.SetMessageConsumer(consumer);
  std::unordered_map<uint32_t, std::vector<uint32_t>> spec;
  for (const SpecConstantValue& s : spec_constants) spec[s.spec_id] = {s.bits};
  if (!spec.empty()) opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec));
  opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateMergeReturnPass())  // single-return callees inline anywhere
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateScalarReplacementPass(0))
      .RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateCCPPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateInsertExtractElimPass())
      .RegisterPass(spvtools::CreateDeadInsertElimPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateBlockMergePass())
      .RegisterPass(spvtools::CreateCFGCleanupPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateCompactIdsPass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // validated before (validate.cpp)
  return opt.Run(words.data(), words.size(), &normalised, options);
}

}  // namespace tessera::shader
