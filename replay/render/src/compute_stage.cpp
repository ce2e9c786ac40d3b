#include "compute_stage.h"

#include "stage_bindings.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::render {

namespace {

// Compute shader invocations (workgroups x local size) one dispatch may run. Not memory but
// time: a capture may declare 65535 workgroups in each dimension (what every device allows,
// Vulkan spec "Limits", maxComputeWorkGroupCount; or a VkDispatchIndirectCommand read from a
// buffer), 2^48 of them, and the replay, running a few tens of millions of invocations a second,
// would be busy for months. Real dispatches stay far below the bound (a 4K image at one
// invocation per pixel is 8.3 M invocations, 2^23; 2^27 leaves room for several passes' worth
// in one dispatch). A dispatch holds no per-invocation arrays, unlike a draw's vertex stage, so
// its bound is twice the draws' 2^26. Skipping such a dispatch would leave what it writes
// missing from every later draw, so the replay stops instead, before any invocation runs.
constexpr uint64_t kMaxDispatchInvocations = uint64_t{1} << 27;

}  // namespace

bool ComputeStage::run(const frontend::Dispatch& d, ShaderCache& shaders, TextureCache& textures,
                       ComputeStats& stats, frontend::SkipCounts& notes, std::string& reason) {
  // A dispatch of no workgroups does nothing.
  if (d.group_count[0] == 0 || d.group_count[1] == 0 || d.group_count[2] == 0) return true;
  const std::string name = "dispatch " + std::to_string(d.index) + " (" + std::to_string(d.group_count[0]) + "x" +
                           std::to_string(d.group_count[1]) + "x" + std::to_string(d.group_count[2]) + " workgroups)";
  const std::string too_many =
      name + ": more than 2^27 compute shader invocations, beyond what the replay runs for one dispatch";
  // Every workgroup has at least one invocation: the grid alone can pass the bound, before the
  // shader is compiled. Multiplied step by step so three 32-bit counts cannot wrap the product.
  uint64_t groups = d.group_count[0];
  for (int k = 1; k < 3 && groups <= kMaxDispatchInvocations; ++k) groups *= d.group_count[k];
  if (groups > kMaxDispatchInvocations) throw frontend::ReplayLimitError(too_many);
  CompiledShader& cs = shaders.get(d.stage, shader::Stage::Compute);
  if (!cs.module) {
    reason = "dispatch: " + cs.error;
    return false;
  }
  if (groups * cs.workgroup->invocations() > kMaxDispatchInvocations) throw frontend::ReplayLimitError(too_many);
  samplers_.clear();
  StageBindings sb;
  bind_stage(d.descriptors, d.push_constants, *cs.module, textures, samplers_, sb, notes);
  const shader::Bindings bindings = sb.bindings();
  std::string error;
  bool ok = true;
  uint64_t ran = 0;
  for (uint32_t z = 0; z < d.group_count[2] && ok; ++z)
    for (uint32_t y = 0; y < d.group_count[1] && ok; ++y)
      for (uint32_t x = 0; x < d.group_count[0] && ok; ++x) {
        // WorkgroupId includes vkCmdDispatchBase's base; NumWorkgroups is the grid's size.
        const uint32_t id[3] = {d.base[0] + x, d.base[1] + y, d.base[2] + z};
        ok = cs.workgroup->run(id, d.group_count, bindings, error);
        if (!ok) break;
        ++ran;
        stats.instructions += cs.workgroup->instructions();
      }
  stats.workgroups += ran;
  stats.invocations += ran * cs.workgroup->invocations();
  // Image instructions the units could not serve returned zeros: counted, never dropped silently.
  if (const uint64_t n = sb.textures.unbound_requests())
    notes.add("texture: compute shader image instruction on an unbound image (zeros)", n);
  if (const uint64_t n = sb.textures.unsupported_requests())
    notes.add("texture: compute shader image instruction on an unsupported dimensionality (zeros)", n);
  if (sb.textures.unknown_contents_requests())
    notes.approximate("texture: compute shader read an image whose contents the capture does not hold (zeros)");
  if (const uint64_t n = sb.storage_images.unbound_requests())
    notes.add("storage image: compute shader access to an unbound image (zeros, writes dropped)", n);
  if (const uint64_t n = sb.storage_images.unsupported_requests())
    notes.add("storage image: compute shader access to an unsupported format or view (zeros, writes dropped)", n);
  if (!ok) {
    // A shader stopped by ShaderExecutor's watchdog (one that never ends, or runs longer than
    // the replay affords) stops the replay: the dispatch's remaining workgroups would be
    // missing, and what later commands read of its writes wrong.
    if (cs.workgroup->watchdog_fired()) throw frontend::ReplayLimitError(name + ": compute " + error);
    reason = "dispatch: compute shader: " + error;
    return false;
  }
  ++stats.dispatches;
  return true;
}

}  // namespace tessera::render
