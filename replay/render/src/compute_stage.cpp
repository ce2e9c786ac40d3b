#include "compute_stage.h"

#include "stage_bindings.h"

namespace tessera::render {

namespace {

// Hostile captures can ask for 2^96 workgroups; real dispatches stay far below (a 4K image at
// 8x8 per workgroup is 130 K workgroups, 8.3 M invocations). The invocation bound keeps a replay
// from running for hours on one damaged command.
constexpr uint64_t kMaxWorkgroups = uint64_t{1} << 22;
constexpr uint64_t kMaxInvocations = uint64_t{1} << 27;

}  // namespace

bool ComputeStage::run(const frontend::Dispatch& d, ShaderCache& shaders, TextureCache& textures,
                       ComputeStats& stats, frontend::SkipCounts& notes, std::string& reason) {
  // A dispatch of no workgroups does nothing.
  if (d.group_count[0] == 0 || d.group_count[1] == 0 || d.group_count[2] == 0) return true;
  // Multiplied step by step so three hostile 32-bit counts cannot wrap the product.
  uint64_t groups = d.group_count[0];
  for (int k = 1; k < 3 && groups <= kMaxWorkgroups; ++k) groups *= d.group_count[k];
  if (groups > kMaxWorkgroups) {
    reason = "dispatch: more than 2^22 workgroups (not run)";
    return false;
  }
  CompiledShader& cs = shaders.get(d.stage, shader::Stage::Compute);
  if (!cs.module) {
    reason = "dispatch: " + cs.error;
    return false;
  }
  if (groups * cs.workgroup->invocations() > kMaxInvocations) {
    reason = "dispatch: more than 2^27 invocations (not run)";
    return false;
  }
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
  if (const uint64_t n = sb.storage_images.unbound_requests())
    notes.add("storage image: compute shader access to an unbound image (zeros, writes dropped)", n);
  if (const uint64_t n = sb.storage_images.unsupported_requests())
    notes.add("storage image: compute shader access to an unsupported format or view (zeros, writes dropped)", n);
  if (!ok) {
    reason = "dispatch: compute shader: " + error;
    return false;
  }
  ++stats.dispatches;
  return true;
}

}  // namespace tessera::render
