// Operation classes: what a GPU issues for a shader, by the unit that executes it.
//
// The decoder (op_classes.cpp, table "Operation classes") gives every SPIR-V instruction of a
// block a class and a weight: the scalar operations one lane issues for it. Bifrost (Mali) is
// scalar per thread, "four threads doing a vec3 FP32 add takes three cycles" (Arm via EE Times,
// 2016), so a component-wise op on n components weighs n. Instructions a GPU compiler folds away
// (register moves, constant-offset addressing, uniform-register reads) are in no class: they
// cost no issue slot. The executor adds a block's weights once per quad whenever any of the
// quad's four lanes runs the block (LaneBatch::quad_ops): the lanes of a warp run in lock-step,
// so a divergent if/else costs the warp both sides.
#pragma once

#include <cstdint>

namespace tessera::shader {

enum class OpClass : uint8_t {
  Alu,      // float and integer arithmetic, compares, logic, select, conversions, derivatives
  Sfu,      // transcendentals and reciprocals (special function unit), per component
  Varying,  // scalar components of Input variables loaded (interpolation / attribute load)
  Texture,  // image sample, fetch, gather and query instructions (one each)
  Memory,   // 32-bit scalars moved through buffers, Workgroup storage, storage images, atomics
};
inline constexpr uint32_t kOpClassCount = 5;

inline constexpr const char* op_class_name(OpClass c) {
  switch (c) {
    case OpClass::Alu: return "alu";
    case OpClass::Sfu: return "sfu";
    case OpClass::Varying: return "varying";
    case OpClass::Texture: return "texture";
    case OpClass::Memory: return "memory";
  }
  return "unknown";
}

// Issue weights by class, indexed by OpClass.
struct OpCounts {
  uint32_t ops[kOpClassCount] = {};
  uint32_t& operator[](OpClass c) { return ops[static_cast<uint8_t>(c)]; }
  uint32_t operator[](OpClass c) const { return ops[static_cast<uint8_t>(c)]; }
  bool any() const {
    uint32_t v = 0;
    for (uint32_t o : ops) v |= o;
    return v != 0;
  }
  bool operator==(const OpCounts&) const = default;
};

}  // namespace tessera::shader
