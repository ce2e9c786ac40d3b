// Normalisation: the optimizer rewrites a validated module into the form the decoder reads. The
// specialization constants take the pipeline's values and are frozen (SPIR-V 2.12,
// "Specialization"; Vulkan spec "Specialization Constants"), every function is inlined into
// the entry point (the decoder lowers one function, so OpFunctionCall is left only for
// recursion, which SPIR-V for Vulkan forbids), and Function/Private variables become SSA values
// and OpPhi (SPIR-V 2.2.5) so only real memory (buffers, Workgroup, images) stays as loads and
// stores.
#include <unordered_map>

#include <glslang/SPIRV/spirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "load_steps.h"

namespace tessera::shader {

namespace {

// The module with every OpFDiv decorated NoContraction (SPIR-V 3.20 "Decoration": the
// instruction may not be combined or rewritten), which the optimizer's folding honours. Without
// it the folding turns x / c into x * (1 / c), which rounds differently for about half the
// values of x; the drivers we compare with divide (Mesa's NIR keeps fdiv unless the backend asks
// for lower_fdiv, which llvmpipe does not). glmark2's jellyfish feeds sin() with a time in
// seconds divided by 15: at 87462.2188 the quotient is 5830.81445 and the product 5830.81494,
// and the vertices move by a pixel. The decoder ignores the decoration.
std::vector<uint32_t> with_exact_division(std::span<const uint32_t> words) {
  std::vector<uint32_t> divisions;
  size_t annotations_end = 0;  // first word after the annotations (SPIR-V 2.4, Logical Layout)
  for (size_t i = 5; i < words.size();) {
    const uint32_t op = words[i] & 0xffffu, count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) break;  // validated before: never here
    switch (op) {
      case spv::OpNop: case spv::OpSourceContinued: case spv::OpSource: case spv::OpSourceExtension:
      case spv::OpName: case spv::OpMemberName: case spv::OpString: case spv::OpExtension:
      case spv::OpExtInstImport: case spv::OpMemoryModel: case spv::OpEntryPoint:
      case spv::OpExecutionMode: case spv::OpCapability: case spv::OpDecorate:
      case spv::OpMemberDecorate: case spv::OpDecorationGroup: case spv::OpGroupDecorate:
      case spv::OpGroupMemberDecorate: case spv::OpModuleProcessed: case spv::OpExecutionModeId:
      case spv::OpDecorateId: case spv::OpDecorateString: case spv::OpMemberDecorateString:
        if (annotations_end == 0 || annotations_end == i) annotations_end = i + count;
        break;
      case spv::OpFDiv:
        if (count == 5) divisions.push_back(words[i + 2]);
        break;
      default:
        break;
    }
    i += count;
  }
  std::vector<uint32_t> out(words.begin(), words.end());
  if (divisions.empty() || annotations_end == 0) return out;
  std::vector<uint32_t> decorations;
  for (uint32_t id : divisions) {
    decorations.insert(decorations.end(),
                       {(3u << 16) | spv::OpDecorate, id, static_cast<uint32_t>(spv::DecorationNoContraction)});
  }
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(annotations_end), decorations.begin(), decorations.end());
  return out;
}

}  // namespace

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
  const std::vector<uint32_t> module = with_exact_division(words);
  return opt.Run(module.data(), module.size(), &normalised, options);
}

}  // namespace tessera::shader
