// Dependent texture reads (paper 002 section 3): an image read whose coordinates (or level,
// gradients, reference) are computed from the result of another image read in the same
// invocation cannot have its addresses computed while the quad waits in the tile queue, so a
// decoupled access/execute GPU cannot prefetch it. Found by data flow over the module's SSA ids.
#pragma once

#include <cstdint>
#include <span>
#include <spirv-tools/libspirv.h>
#include <vector>

namespace tessera::shader {

// Per result id of `words` (a module after inlining and SSA rewriting): true for the image reads
// (OpImageSample*, OpImageFetch, OpImageGather, OpImageDrefGather, OpImageRead) with an operand
// that depends, through any chain of instructions, phis, or stores and loads of a variable, on
// the result of an image read. Empty when the module cannot be parsed.
std::vector<bool> dependent_image_reads(std::span<const uint32_t> words, spv_target_env env);

}  // namespace tessera::shader
