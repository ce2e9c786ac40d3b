#include "dependent_reads.h"

#include <glslang/SPIRV/spirv.hpp>

namespace tessera::shader {

namespace {

struct Parsed {
  uint32_t op = 0;
  uint32_t result = 0;            // 0: none
  std::vector<uint32_t> operands;  // id operands (result type and result excluded), in order
};

struct Module {
  uint32_t bound = 0;
  std::vector<Parsed> instrs;
};

spv_result_t on_header(void* user, spv_endianness_t, uint32_t, uint32_t, uint32_t, uint32_t id_bound, uint32_t) {
  static_cast<Module*>(user)->bound = id_bound;
  return SPV_SUCCESS;
}

spv_result_t on_instruction(void* user, const spv_parsed_instruction_t* in) {
  Parsed p;
  p.op = in->opcode;
  p.result = in->result_id;
  for (uint16_t i = 0; i < in->num_operands; ++i) {
    const spv_parsed_operand_t& o = in->operands[i];
    if (o.type == SPV_OPERAND_TYPE_ID) p.operands.push_back(in->words[o.offset]);
  }
  static_cast<Module*>(user)->instrs.push_back(std::move(p));
  return SPV_SUCCESS;
}

bool image_read(uint32_t op) {
  switch (op) {
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod: case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageFetch: case spv::OpImageGather: case spv::OpImageDrefGather: case spv::OpImageRead:
      return true;
    default: return false;
  }
}

}  // namespace

std::vector<bool> dependent_image_reads(std::span<const uint32_t> words, spv_target_env env) {
  Module m;
  spv_context context = spvContextCreate(env);
  const spv_result_t parsed =
      spvBinaryParse(context, &m, words.data(), words.size(), on_header, on_instruction, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS) return {};
  const auto in_range = [&](uint32_t id) { return id < m.bound; };
  // The variable a pointer is derived from (access chains), so a store through any of its
  // pointers taints every load from it.
  std::vector<uint32_t> root(m.bound, 0);
  for (const Parsed& p : m.instrs) {
    if (!in_range(p.result)) continue;
    if (p.op == spv::OpVariable) root[p.result] = p.result;
    if ((p.op == spv::OpAccessChain || p.op == spv::OpInBoundsAccessChain || p.op == spv::OpPtrAccessChain ||
         p.op == spv::OpCopyObject) && !p.operands.empty() && in_range(p.operands[0])) {
      root[p.result] = root[p.operands[0]];
    }
  }
  // Taint: the results of image reads, and whatever is computed from a tainted value, to a fixed
  // point (phis and variables carry values around loops). Stores are flow-insensitive: a
  // variable ever given a tainted value taints every load from it (conservative).
  std::vector<bool> tainted(m.bound, false), dependent(m.bound, false);
  // A tainted value, or a pointer into a variable that holds one.
  const auto reads_taint = [&](uint32_t id) { return in_range(id) && (tainted[id] || (root[id] != 0 && tainted[root[id]])); };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Parsed& p : m.instrs) {
      if (p.op == spv::OpStore) {
        // OpStore pointer, object: the variable holds a tainted value from now on.
        if (p.operands.size() >= 2 && in_range(p.operands[1]) && tainted[p.operands[1]] && in_range(p.operands[0])) {
          const uint32_t var = root[p.operands[0]];
          if (var != 0 && !tainted[var]) {
            tainted[var] = true;
            changed = true;
          }
        }
        continue;
      }
      if (!in_range(p.result) || p.result == 0 || tainted[p.result]) continue;
      bool from_taint = false;
      for (uint32_t id : p.operands) from_taint = from_taint || reads_taint(id);
      if (image_read(p.op) || from_taint) {
        tainted[p.result] = true;
        changed = true;
      }
    }
  }
  // Every image read is a source of taint; it is dependent when an operand carries taint.
  for (const Parsed& p : m.instrs) {
    if (!image_read(p.op) || !in_range(p.result)) continue;
    for (uint32_t id : p.operands) dependent[p.result] = dependent[p.result] || reads_taint(id);
  }
  return dependent;
}

}  // namespace tessera::shader
