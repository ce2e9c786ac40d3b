// The access stream's operation mix (stream::OpMix) from the executor's per-quad counts
// (shader::LaneBatch::quad_ops): a Quad event carries its shading quads' operations, a
// VertexShade event its batch's (schema/access-stream.md, "Operation mix").
#pragma once

#include <algorithm>
#include <cstdint>

#include "tessera/shader/lanes.h"
#include "tessera/stream/access_stream.h"

namespace tessera::render {

// Adds the operations shading quad `q` of batch `b` issued to `mix`. Saturates at 2^32 - 1, the
// stream's field width: only a shader near the executor's block watchdog could get there.
inline void add_quad_ops(stream::OpMix& mix, const shader::LaneBatch& b, uint32_t q) {
  const shader::OpCounts& c = b.quad_ops[q];
  const auto add = [](uint32_t& field, uint32_t v) {
    field = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{field} + v, UINT32_MAX));
  };
  add(mix.alu, c[shader::OpClass::Alu]);
  add(mix.sfu, c[shader::OpClass::Sfu]);
  add(mix.varying, c[shader::OpClass::Varying]);
  add(mix.texture, c[shader::OpClass::Texture]);
  add(mix.memory, c[shader::OpClass::Memory]);
}

}  // namespace tessera::render
