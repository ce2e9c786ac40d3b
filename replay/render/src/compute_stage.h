// Compute dispatches (vkCmdDispatch, vkCmdDispatchIndirect, vkCmdDispatchBase), executed
// functionally in submit order: every workgroup of the grid, x fastest, then y, then z, each
// run by a WorkgroupExecutor (barriers honoured, Workgroup storage per workgroup). Compute is not
// tile-based render pass work: nothing of it goes to the access stream; what matters is that
// later draws see what it wrote (storage buffers in memory, storage images touched).
#pragma once

#include <cstdint>
#include <deque>
#include <string>

#include "shader_cache.h"
#include "texture_cache.h"
#include "tessera/frontend/frame.h"
#include "tessera/render/renderer.h"

namespace tessera::render {

class ComputeStage {
 public:
  // Runs `dispatch`. False with a SkipCounts reason when it cannot be run at all (the shader
  // does not compile); a workgroup that fails on its bindings stops the dispatch, also false.
  // Throws frontend::ReplayLimitError naming the dispatch for a grid of more than 2^27
  // invocations (before any runs) and for a shader stopped by the executor's watchdog.
  bool run(const frontend::Dispatch& dispatch, ShaderCache& shaders, TextureCache& textures, ComputeStats& stats,
           frontend::SkipCounts& notes, std::string& reason);

 private:
  std::deque<texture::SamplerState> samplers_;
};

}  // namespace tessera::render
