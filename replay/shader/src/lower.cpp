// Lowering: the entry function of a normalised module into the Program's blocks, edges and
// register instructions (program.h). Blocks come from OpLabel (and OpControlBarrier splits a
// block in compute shaders), OpPhi becomes parallel copies on the incoming edges, composite
// instructions become register copies or aliases, arithmetic becomes component-wise
// instructions with broadcast strides, GLSL.std.450 becomes its own instructions.
//
// SPIR-V rules it implements: 2.2.5 (Control Flow: OpPhi operands are read on entry to the
// block), 2.11 (Structured Control Flow: blocks in dominator order), and the instruction groups
// "Composite", "Arithmetic", "Bit", "Relational and Logical", "Derivative", "Control-Flow" and
// "Barrier" of its list of instructions, with the GLSL.std.450 extended instruction set. Memory,
// image and atomic instructions are in lower_memory.cpp.
#include "decoder.h"

#include <algorithm>

namespace tessera::shader::decode {

uint32_t Decoder::new_edge(uint32_t label) {
  pending_edges_.push_back({cur_block_, label, -1});
  p_.edges.push_back(Edge{});
  return static_cast<uint32_t>(p_.edges.size() - 1);
}

uint32_t Decoder::new_edge_to_block(uint32_t block) {
  pending_edges_.push_back({cur_block_, 0, block});
  p_.edges.push_back(Edge{});
  return static_cast<uint32_t>(p_.edges.size() - 1);
}

void Decoder::decode_function() {
  // Pass A: blocks, registers for every value result (except aliases), phis.
  uint32_t block = 0;
  for (size_t i = function_begin_; i < function_end_; ++i) {
    const Instr& in = instrs_[i];
    if (in.op == spv::OpFunctionCall) fail("unsupported opcode OpFunctionCall (not inlined: recursion?)");
    if (in.op == spv::OpLabel) {
      label_block_[in[1]] = block;
      origin_.push_back(block);
      ++block;
      continue;
    }
    if (in.op == spv::OpControlBarrier && stage_ == Stage::Compute) {
      // The rest of the SPIR-V block becomes its own block, right after (block order stays
      // dominator order, which the scheduler's reconvergence relies on).
      barrier_blocks_.push_back(block);
      origin_.push_back(origin_.back());
      ++block;
      continue;
    }
    bool has_type = false, has_result = false;
    spv::HasResultAndType(static_cast<spv::Op>(in.op), &has_result, &has_type);
    if (!has_type || !has_result) continue;
    uint32_t t = in[1], id = in[2];
    if (id >= values_.size()) fail("id out of range");
    if (!is_value_type(t)) continue;
    bool alias = in.op == spv::OpCompositeExtract || in.op == spv::OpCopyObject || in.op == spv::OpBitcast ||
                 in.op == spv::OpCopyLogical || in.op == spv::OpSConvert || in.op == spv::OpUConvert ||
                 in.op == spv::OpFConvert;
    if (alias) continue;
    values_[id].kind = ValKind::Reg;
    values_[id].type = t;
    values_[id].reg = alloc(type(t).scalars);
    if (in.op == spv::OpPhi) {
      Phi ph{block - 1, values_[id].reg, type(t).scalars, {}};
      for (uint32_t w = 3; w + 1 < in.wc; w += 2) ph.incoming.push_back({in[w], in[w + 1]});
      phis_.push_back(std::move(ph));
    }
  }
  if (block == 0 || block > 0xffffu) fail("function has no blocks or too many blocks");
  p_.blocks.resize(block);
  // Pass B: emit.
  for (size_t i = function_begin_ + 1; i < function_end_; ++i) decode_instruction(instrs_[i]);
  // Varyings: each Input component the function reads, once per invocation, in the entry block.
  // glslang emits an OpLoad for every use of an input in GLSL and the normaliser keeps them all
  // (it merges no loads of Input memory), while a GPU interpolates a varying once (before the
  // shader, or one hoisted LD_VAR): charging each OpLoad would count `v` three times in
  //   if (v > 0.5) r = vec4(sqrt(v)); else r = vec4(v) * k;
  p_.blocks[0].ops[OpClass::Varying] +=
      static_cast<uint32_t>(std::count(input_read_.begin(), input_read_.end(), true));
  for (Block& b : p_.blocks) b.has_ops = b.ops.any();
  // Edges: OpPhi parallel copies (SPIR-V spec 2.2.5: all OpPhi of a block read their operands
  // on entry, so a phi operand that is itself a phi of the target goes through scratch).
  for (size_t e = 0; e < p_.edges.size(); ++e) {
    Edge& edge = p_.edges[e];
    if (pending_edges_[e].target_block >= 0) {
      edge.target = static_cast<uint32_t>(pending_edges_[e].target_block);
      continue;  // a barrier's continuation: no OpPhi there
    }
    auto it = label_block_.find(pending_edges_[e].target_label);
    if (it == label_block_.end()) fail("branch to unknown label");
    edge.target = it->second;
    std::vector<PhiCopy> copies;
    for (const Phi& ph : phis_) {
      if (ph.block != edge.target) continue;
      for (auto [value, parent] : ph.incoming) {
        auto pb = label_block_.find(parent);
        if (pb == label_block_.end() || pb->second != origin_[pending_edges_[e].from_block]) continue;
        uint32_t src = reg_of(value);
        for (uint32_t k = 0; k < ph.scalars; ++k) copies.push_back({ph.dst + k, src + k});
        break;
      }
    }
    bool conflict = false;
    for (const PhiCopy& a : copies)
      for (const PhiCopy& b : copies) conflict |= (a.src == b.dst && &a != &b);
    edge.copy_first = static_cast<uint32_t>(p_.copies.size());
    if (conflict) {
      if (copies.size() > 32) fail("too many conflicting OpPhi on one edge");
      for (size_t k = 0; k < copies.size(); ++k) p_.copies.push_back({p_.register_count + static_cast<uint32_t>(k), copies[k].src});
      for (size_t k = 0; k < copies.size(); ++k) p_.copies.push_back({copies[k].dst, p_.register_count + static_cast<uint32_t>(k)});
    } else {
      p_.copies.insert(p_.copies.end(), copies.begin(), copies.end());
    }
    edge.copy_count = static_cast<uint32_t>(p_.copies.size()) - edge.copy_first;
  }
  // Scratch registers are allocated right after (register_count at this point).
}

std::optional<IOp> simple_op(uint32_t op) {
  switch (op) {
    case spv::OpFNegate: return IOp::FNeg;
    case spv::OpFAdd: return IOp::FAdd;
    case spv::OpFSub: return IOp::FSub;
    case spv::OpFMul: return IOp::FMul;
    case spv::OpFDiv: return IOp::FDiv;
    case spv::OpFRem: return IOp::FRem;
    case spv::OpFMod: return IOp::FMod;
    case spv::OpSNegate: return IOp::SNegate;
    case spv::OpNot: return IOp::Not;
    case spv::OpIAdd: return IOp::IAdd;
    case spv::OpISub: return IOp::ISub;
    case spv::OpIMul: return IOp::IMul;
    case spv::OpSDiv: return IOp::SDiv;
    case spv::OpUDiv: return IOp::UDiv;
    case spv::OpSRem: return IOp::SRem;
    case spv::OpSMod: return IOp::SMod;
    case spv::OpUMod: return IOp::UMod;
    case spv::OpShiftLeftLogical: return IOp::Shl;
    case spv::OpShiftRightLogical: return IOp::ShrL;
    case spv::OpShiftRightArithmetic: return IOp::ShrA;
    case spv::OpBitwiseAnd: case spv::OpLogicalAnd: return IOp::And;
    case spv::OpBitwiseOr: case spv::OpLogicalOr: return IOp::Or;
    case spv::OpBitwiseXor: return IOp::Xor;
    case spv::OpLogicalNot: return IOp::LogicalNot;
    case spv::OpLogicalEqual: case spv::OpIEqual: return IOp::IEq;
    case spv::OpLogicalNotEqual: case spv::OpINotEqual: return IOp::INe;
    case spv::OpSLessThan: return IOp::SLt;
    case spv::OpSGreaterThan: return IOp::SGt;
    case spv::OpSLessThanEqual: return IOp::SLe;
    case spv::OpSGreaterThanEqual: return IOp::SGe;
    case spv::OpULessThan: return IOp::ULt;
    case spv::OpUGreaterThan: return IOp::UGt;
    case spv::OpULessThanEqual: return IOp::ULe;
    case spv::OpUGreaterThanEqual: return IOp::UGe;
    case spv::OpFOrdEqual: return IOp::FOrdEq;
    case spv::OpFOrdNotEqual: return IOp::FOrdNe;
    case spv::OpFOrdLessThan: return IOp::FOrdLt;
    case spv::OpFOrdGreaterThan: return IOp::FOrdGt;
    case spv::OpFOrdLessThanEqual: return IOp::FOrdLe;
    case spv::OpFOrdGreaterThanEqual: return IOp::FOrdGe;
    case spv::OpFUnordEqual: return IOp::FUnordEq;
    case spv::OpFUnordNotEqual: return IOp::FUnordNe;
    case spv::OpFUnordLessThan: return IOp::FUnordLt;
    case spv::OpFUnordGreaterThan: return IOp::FUnordGt;
    case spv::OpFUnordLessThanEqual: return IOp::FUnordLe;
    case spv::OpFUnordGreaterThanEqual: return IOp::FUnordGe;
    case spv::OpIsNan: return IOp::IsNan;
    case spv::OpIsInf: return IOp::IsInf;
    case spv::OpConvertFToS: return IOp::FToS;
    case spv::OpConvertFToU: return IOp::FToU;
    case spv::OpConvertSToF: return IOp::SToF;
    case spv::OpConvertUToF: return IOp::UToF;
    case spv::OpBitCount: return IOp::BitCount;
    case spv::OpBitReverse: return IOp::BitReverse;
    case spv::OpDPdx: return IOp::DPdxCoarse;
    case spv::OpDPdy: return IOp::DPdyCoarse;
    case spv::OpDPdxCoarse: return IOp::DPdxCoarse;
    case spv::OpDPdyCoarse: return IOp::DPdyCoarse;
    case spv::OpDPdxFine: return IOp::DPdxFine;
    case spv::OpDPdyFine: return IOp::DPdyFine;
    case spv::OpFwidth: return IOp::FwidthCoarse;
    case spv::OpFwidthCoarse: return IOp::FwidthCoarse;
    case spv::OpFwidthFine: return IOp::FwidthFine;
    default: return std::nullopt;
  }
}


// One instruction of the entry function: the block and variable declarations that are no work of
// their own, then, counted and charged its operation classes, each other instruction by its
// group in the SPIR-V spec's list of instructions.
void Decoder::decode_instruction(const Instr& in) {
  if (declare_in_function(in)) return;
  Block& blk = p_.blocks[cur_block_];
  blk.spirv_count++;
  info_.spirv_instruction_count++;
  classify(in, blk.ops);
  if (in.op == spv::OpExtInst) {
    ext_inst(in);
    return;
  }
  if (arithmetic_inst(in) || composite_inst(in) || memory_inst(in) || image_handle_inst(in) ||
      control_flow_inst(in, blk))
    return;
  fail("unsupported opcode " + opcode_name(in.op));
}

// OpLabel starts a block; merges, debug lines and parameters (none after inlining) emit nothing;
// OpVariable in a function (SPIR-V 2.4: the first instructions of the first block) is a run of
// registers.
bool Decoder::declare_in_function(const Instr& in) {
  switch (in.op) {
    case spv::OpLabel: {
      cur_block_ = label_block_.at(in[1]);
      p_.blocks[cur_block_].first = static_cast<uint32_t>(p_.insts.size());
      return true;
    }
    case spv::OpSelectionMerge: case spv::OpLoopMerge: case spv::OpLine: case spv::OpNoLine: case spv::OpNop:
    case spv::OpFunctionParameter:
      return true;
    case spv::OpVariable: {
      const TypeInfo& pt = type(in[1]);
      Ptr p;
      p.space = Space::Reg;
      p.pointee = pt.elem;
      p.var_scalars = type(pt.elem).scalars;
      p.var_base = alloc(p.var_scalars);
      if (in.wc > 4) {
        uint32_t init = reg_of(in[4]);
        for (uint32_t i = 0; i < p.var_scalars; ++i) p_.init_copies.push_back({p.var_base + i, init + i});
      } else {
        p_.zero_ranges.push_back({p.var_base, p.var_scalars});
      }
      define_pointer(in[2], in[1], p);
      return true;
    }
    default: return false;
  }
}

void Decoder::alias(uint32_t id, uint32_t t, uint32_t reg) {
  values_[id].kind = ValKind::Reg;
  values_[id].type = t;
  values_[id].reg = reg;
}

void Decoder::finish_block(Block& blk, Terminator t) {
  blk.term = t;
  blk.count = static_cast<uint32_t>(p_.insts.size()) - blk.first;
}

// The SPIR-V "Arithmetic", "Bit", "Relational and Logical" and "Derivative" instructions and the
// conversions that compute: component-wise instructions, a scalar operand broadcast (stride 0),
// and the vector and matrix products.
bool Decoder::arithmetic_inst(const Instr& in) {
  if (auto op = simple_op(in.op)) {
    uint32_t d = reg_of(in[2]);
    uint32_t n = type(in[1]).scalars;
    uint32_t ops = in.wc - 3;
    if (ops < 1 || ops > 2) fail("malformed " + opcode_name(in.op));
    Inst& ins = emit(*op, d, n, reg_of(in[3]), ops > 1 ? reg_of(in[4]) : 0);
    ins.sa = scalars_of(in[3]) == 1 ? 0 : 1;
    if (ops > 1) ins.sb = scalars_of(in[4]) == 1 ? 0 : 1;
    if (n == 1) ins.sa = ins.sb = 1;
    return true;
  }
  switch (in.op) {
    case spv::OpSelect: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(IOp::Select, reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.sa = (scalars_of(in[3]) == 1) ? 0 : 1;
      return true;
    }
    case spv::OpQuantizeToF16: emit(IOp::QuantizeToF16, reg_of(in[2]), type(in[1]).scalars, reg_of(in[3])); return true;
    case spv::OpIAddCarry: case spv::OpISubBorrow: case spv::OpUMulExtended: case spv::OpSMulExtended: {
      IOp op = in.op == spv::OpIAddCarry ? IOp::IAddCarry : in.op == spv::OpISubBorrow ? IOp::ISubBorrow
             : in.op == spv::OpUMulExtended ? IOp::UMulExtended : IOp::SMulExtended;
      emit(op, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3]), reg_of(in[4]));
      return true;
    }
    case spv::OpBitFieldSExtract: case spv::OpBitFieldUExtract: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(in.op == spv::OpBitFieldSExtract ? IOp::BitFieldSExtract : IOp::BitFieldUExtract,
                       reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.sb = ins.sc = 0;  // Offset and Count are scalars (SPIR-V spec OpBitFieldSExtract)
      return true;
    }
    case spv::OpBitFieldInsert: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(IOp::BitFieldInsert, reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.x = reg_of(in[6]);
      ins.sc = 0;
      return true;
    }
    case spv::OpDot: emit(IOp::Dot, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3]), reg_of(in[4])); return true;
    case spv::OpAny: emit(IOp::Any, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3])); return true;
    case spv::OpAll: emit(IOp::All, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3])); return true;
    case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar: {
      Inst& ins = emit(IOp::FMul, reg_of(in[2]), type(in[1]).scalars, reg_of(in[3]), reg_of(in[4]));
      ins.sb = 0;
      return true;
    }
    case spv::OpMatrixTimesVector: {
      const TypeInfo& mt = type(val(in[3]).type);
      uint32_t rows = type(mt.elem).count;
      Inst& ins = emit(IOp::MatTimesVec, reg_of(in[2]), rows, reg_of(in[3]), reg_of(in[4]));
      ins.m = static_cast<uint16_t>(mt.count);
      return true;
    }
    case spv::OpVectorTimesMatrix: {
      const TypeInfo& mt = type(val(in[4]).type);
      uint32_t rows = type(mt.elem).count;
      for (uint32_t j = 0; j < mt.count; ++j)
        emit(IOp::Dot, reg_of(in[2]) + j, rows, reg_of(in[3]), reg_of(in[4]) + j * rows);
      return true;
    }
    case spv::OpMatrixTimesMatrix: {
      const TypeInfo& at = type(val(in[3]).type);
      const TypeInfo& bt = type(val(in[4]).type);
      uint32_t rows = type(at.elem).count, inner = at.count;
      uint32_t d = reg_of(in[2]);
      if (d == reg_of(in[3]) || d == reg_of(in[4])) fail("OpMatrixTimesMatrix aliasing");
      for (uint32_t j = 0; j < bt.count; ++j) {
        Inst& ins = emit(IOp::MatTimesVec, d + j * rows, rows, reg_of(in[3]), reg_of(in[4]) + j * inner);
        ins.m = static_cast<uint16_t>(inner);
      }
      return true;
    }
    case spv::OpOuterProduct: {
      uint32_t rows = scalars_of(in[3]), cols = scalars_of(in[4]);
      for (uint32_t j = 0; j < cols; ++j) {
        Inst& ins = emit(IOp::FMul, reg_of(in[2]) + j * rows, rows, reg_of(in[3]), reg_of(in[4]) + j);
        ins.sb = 0;
      }
      return true;
    }
    default: return false;
  }
}

// SPIR-V "Composite Instructions", the copies and width conversions that keep the bits
// (32-bit types only: an alias of the operand's registers), and OpUndef: register copies and
// aliases, no arithmetic.
bool Decoder::composite_inst(const Instr& in) {
  switch (in.op) {
    case spv::OpCompositeExtract: {
      uint32_t t = val(in[3]).type;
      uint32_t off = 0;
      for (uint32_t w = 4; w < in.wc; ++w) {
        const TypeInfo& ti = type(t);
        off += member_scalar_offset(ti, in[w]);
        t = child_type(ti, in[w]);
      }
      alias(in[2], in[1], reg_of(in[3]) + off);
      return true;
    }
    case spv::OpCopyObject: case spv::OpCopyLogical: case spv::OpBitcast: case spv::OpSConvert:
    case spv::OpUConvert: case spv::OpFConvert: {
      if (!is_value_type(in[1])) {  // copies of pointers / handles
        values_[in[2]] = val(in[3]);
        return true;
      }
      alias(in[2], in[1], reg_of(in[3]));
      return true;
    }
    case spv::OpCompositeInsert: {
      uint32_t d = reg_of(in[2]);
      emit_copy(d, reg_of(in[4]), type(in[1]).scalars);
      uint32_t t = in[1], off = 0;
      for (uint32_t w = 5; w < in.wc; ++w) {
        const TypeInfo& ti = type(t);
        off += member_scalar_offset(ti, in[w]);
        t = child_type(ti, in[w]);
      }
      emit_copy(d + off, reg_of(in[3]), type(t).scalars);
      return true;
    }
    case spv::OpCompositeConstruct: {
      uint32_t d = reg_of(in[2]), off = 0;
      for (uint32_t w = 3; w < in.wc; ++w) {
        uint32_t n = scalars_of(in[w]);
        emit_copy(d + off, reg_of(in[w]), n);
        off += n;
      }
      return true;
    }
    case spv::OpVectorShuffle: {
      uint32_t d = reg_of(in[2]);
      uint32_t v1 = reg_of(in[3]), v2 = reg_of(in[4]), n1 = scalars_of(in[3]);
      for (uint32_t w = 5; w < in.wc; ++w) {
        uint32_t c = in[w];
        if (c == 0xffffffffu) continue;
        emit_copy(d + (w - 5), c < n1 ? v1 + c : v2 + (c - n1), 1);
      }
      return true;
    }
    case spv::OpVectorExtractDynamic: {
      emit(IOp::VectorExtractDynamic, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3]), reg_of(in[4]));
      return true;
    }
    case spv::OpVectorInsertDynamic: {
      emit(IOp::VectorInsertDynamic, reg_of(in[2]), scalars_of(in[3]), reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      return true;
    }
    case spv::OpTranspose: {
      const TypeInfo& st = type(val(in[3]).type);
      uint32_t cols = st.count, rows = type(st.elem).count;
      uint32_t d = reg_of(in[2]), s = reg_of(in[3]);
      for (uint32_t i = 0; i < cols; ++i)
        for (uint32_t j = 0; j < rows; ++j) emit_copy(d + j * cols + i, s + i * rows + j, 1);
      return true;
    }
    case spv::OpUndef: {
      p_.zero_ranges.push_back({reg_of(in[2]), type(in[1]).scalars});
      return true;
    }
    default: return false;
  }
}

// SPIR-V "Control-Flow Instructions", "Barrier Instructions" and the fragment
// shader's discard and helper invocations (Vulkan spec "Discarding Fragments", "Helper
// Invocations"): the terminator of `blk` and its outgoing edges.
bool Decoder::control_flow_inst(const Instr& in, Block& blk) {
  switch (in.op) {
    case spv::OpControlBarrier:
      // Compute: the block ends here; the lanes wait until the whole workgroup arrived
      // (Terminator::Barrier). Other stages run one batch of independent invocations: no-op.
      if (stage_ == Stage::Compute) {
        info_.has_barrier = true;
        const uint32_t next = barrier_blocks_.at(next_barrier_++);
        blk.edge[0] = new_edge_to_block(next);
        finish_block(blk, Terminator::Barrier);
        cur_block_ = next;
        p_.blocks[cur_block_].first = static_cast<uint32_t>(p_.insts.size());
      }
      return true;
    case spv::OpMemoryBarrier:
      // Stores are visible as soon as they execute: invocations run one instruction at a time.
      return true;
    case spv::OpDemoteToHelperInvocation:
      info_.has_discard = true;
      emit(IOp::Demote, 0, 1);
      return true;
    case spv::OpIsHelperInvocationEXT: emit(IOp::IsHelper, reg_of(in[2]), 1); return true;
    case spv::OpKill: case spv::OpTerminateInvocation:
      info_.has_discard = true;
      finish_block(blk, Terminator::Kill);
      return true;
    case spv::OpReturn: finish_block(blk, Terminator::Return); return true;
    case spv::OpUnreachable: finish_block(blk, Terminator::Unreachable); return true;
    case spv::OpBranch:
      blk.edge[0] = new_edge(in[1]);
      finish_block(blk, Terminator::Branch);
      return true;
    case spv::OpBranchConditional:
      blk.cond = reg_of(in[1]);
      blk.edge[0] = new_edge(in[2]);
      blk.edge[1] = new_edge(in[3]);
      finish_block(blk, Terminator::CondBranch);
      return true;
    case spv::OpSwitch: {
      blk.cond = reg_of(in[1]);
      blk.edge[0] = new_edge(in[2]);
      blk.case_first = static_cast<uint32_t>(p_.cases.size());
      for (uint32_t w = 3; w + 1 < in.wc; w += 2) p_.cases.push_back({in[w], new_edge(in[w + 1])});
      blk.case_count = static_cast<uint32_t>(p_.cases.size()) - blk.case_first;
      finish_block(blk, Terminator::Switch);
      return true;
    }
    case spv::OpPhi: return true;  // copies on the incoming edges
    default: return false;
  }
}

namespace {

// The GLSL.std.450 instructions that map to one component-wise Inst, with their operand count.
std::optional<std::pair<IOp, uint32_t>> glsl_componentwise_op(uint32_t e) {
  switch (e) {
    case GLSLstd450Round: return {{IOp::Round, 1}};
    case GLSLstd450RoundEven: return {{IOp::RoundEven, 1}};
    case GLSLstd450Trunc: return {{IOp::Trunc, 1}};
    case GLSLstd450FAbs: return {{IOp::FAbs, 1}};
    case GLSLstd450SAbs: return {{IOp::SAbs, 1}};
    case GLSLstd450FSign: return {{IOp::FSign, 1}};
    case GLSLstd450SSign: return {{IOp::SSign, 1}};
    case GLSLstd450Floor: return {{IOp::Floor, 1}};
    case GLSLstd450Ceil: return {{IOp::Ceil, 1}};
    case GLSLstd450Fract: return {{IOp::Fract, 1}};
    case GLSLstd450Radians: return {{IOp::Radians, 1}};
    case GLSLstd450Degrees: return {{IOp::Degrees, 1}};
    case GLSLstd450Sin: return {{IOp::Sin, 1}};
    case GLSLstd450Cos: return {{IOp::Cos, 1}};
    case GLSLstd450Tan: return {{IOp::Tan, 1}};
    case GLSLstd450Asin: return {{IOp::Asin, 1}};
    case GLSLstd450Acos: return {{IOp::Acos, 1}};
    case GLSLstd450Atan: return {{IOp::Atan, 1}};
    case GLSLstd450Sinh: return {{IOp::Sinh, 1}};
    case GLSLstd450Cosh: return {{IOp::Cosh, 1}};
    case GLSLstd450Tanh: return {{IOp::Tanh, 1}};
    case GLSLstd450Exp: return {{IOp::Exp, 1}};
    case GLSLstd450Log: return {{IOp::Log, 1}};
    case GLSLstd450Exp2: return {{IOp::Exp2, 1}};
    case GLSLstd450Log2: return {{IOp::Log2, 1}};
    case GLSLstd450Sqrt: return {{IOp::Sqrt, 1}};
    case GLSLstd450InverseSqrt: return {{IOp::InverseSqrt, 1}};
    case GLSLstd450FindILsb: return {{IOp::FindILsb, 1}};
    case GLSLstd450FindSMsb: return {{IOp::FindSMsb, 1}};
    case GLSLstd450FindUMsb: return {{IOp::FindUMsb, 1}};
    case GLSLstd450Atan2: return {{IOp::Atan2, 2}};
    case GLSLstd450Pow: return {{IOp::Pow, 2}};
    case GLSLstd450FMin: return {{IOp::FMin, 2}};
    case GLSLstd450UMin: return {{IOp::UMin, 2}};
    case GLSLstd450SMin: return {{IOp::SMin, 2}};
    case GLSLstd450FMax: return {{IOp::FMax, 2}};
    case GLSLstd450UMax: return {{IOp::UMax, 2}};
    case GLSLstd450SMax: return {{IOp::SMax, 2}};
    case GLSLstd450NMin: return {{IOp::NMin, 2}};
    case GLSLstd450NMax: return {{IOp::NMax, 2}};
    case GLSLstd450Step: return {{IOp::Step, 2}};
    case GLSLstd450FClamp: case GLSLstd450NClamp: return {{IOp::FClamp, 3}};
    case GLSLstd450UClamp: return {{IOp::UClamp, 3}};
    case GLSLstd450SClamp: return {{IOp::SClamp, 3}};
    case GLSLstd450FMix: return {{IOp::FMix, 3}};
    case GLSLstd450SmoothStep: return {{IOp::SmoothStep, 3}};
    case GLSLstd450Fma: return {{IOp::Fma, 3}};
    case GLSLstd450Ldexp: return {{IOp::Ldexp, 2}};
    default: return std::nullopt;
  }
}

}  // namespace

void Decoder::ext_inst(const Instr& in) {
  if (in[3] != glsl_set_) fail("unsupported extended instruction set");
  uint32_t d = reg_of(in[2]);
  uint32_t n = type(in[1]).scalars;
  uint32_t e = in[4];
  uint32_t nops = in.wc - 5;
  auto opnd = [&](uint32_t k) { return reg_of(in[5 + k]); };
  auto opn = [&](uint32_t k) { return type(val(in[5 + k]).type).scalars; };
  auto cw = [&](IOp op, uint32_t arity) {
    if (nops != arity) fail("malformed GLSL.std.450 instruction " + std::to_string(e));
    Inst& ins = emit(op, d, n, opnd(0), arity > 1 ? opnd(1) : 0, arity > 2 ? opnd(2) : 0);
    if (n > 1) {
      ins.sa = opn(0) == 1 ? 0 : 1;
      if (arity > 1) ins.sb = opn(1) == 1 ? 0 : 1;
      if (arity > 2) ins.sc = opn(2) == 1 ? 0 : 1;
    }
  };
  if (const auto op = glsl_componentwise_op(e)) {
    cw(op->first, op->second);
    return;
  }
  switch (e) {
    case GLSLstd450Modf: case GLSLstd450Frexp: {
      // The pointer forms: result = first member, *pointer = second member.
      const Value& pv = val(in[6]);
      if (pv.kind != ValKind::Ptr) fail("Modf/Frexp without a pointer operand");
      const Ptr p = ptrs_[pv.ptr];
      if (p.space != Space::Reg || p.has_dyn) fail("unsupported: Modf/Frexp writing through a dynamic pointer");
      uint32_t tmp = alloc(2 * n);
      emit(e == GLSLstd450Modf ? IOp::ModfStruct : IOp::FrexpStruct, tmp, n, opnd(0));
      emit_copy(d, tmp, n);
      emit_copy(p.var_base + p.static_off, tmp + n, n);
      return;
    }
    case GLSLstd450ModfStruct: emit(IOp::ModfStruct, d, opn(0), opnd(0)); return;
    case GLSLstd450FrexpStruct: emit(IOp::FrexpStruct, d, opn(0), opnd(0)); return;
    case GLSLstd450PackHalf2x16: emit(IOp::PackHalf2x16, d, 2, opnd(0)); return;
    case GLSLstd450PackUnorm2x16: emit(IOp::PackUnorm2x16, d, 2, opnd(0)); return;
    case GLSLstd450PackSnorm2x16: emit(IOp::PackSnorm2x16, d, 2, opnd(0)); return;
    case GLSLstd450PackUnorm4x8: emit(IOp::PackUnorm4x8, d, 4, opnd(0)); return;
    case GLSLstd450PackSnorm4x8: emit(IOp::PackSnorm4x8, d, 4, opnd(0)); return;
    case GLSLstd450UnpackHalf2x16: emit(IOp::UnpackHalf2x16, d, 2, opnd(0)); return;
    case GLSLstd450UnpackUnorm2x16: emit(IOp::UnpackUnorm2x16, d, 2, opnd(0)); return;
    case GLSLstd450UnpackSnorm2x16: emit(IOp::UnpackSnorm2x16, d, 2, opnd(0)); return;
    case GLSLstd450UnpackUnorm4x8: emit(IOp::UnpackUnorm4x8, d, 4, opnd(0)); return;
    case GLSLstd450UnpackSnorm4x8: emit(IOp::UnpackSnorm4x8, d, 4, opnd(0)); return;
    case GLSLstd450Length: emit(IOp::Length, d, opn(0), opnd(0)); return;
    case GLSLstd450Distance: emit(IOp::Distance, d, opn(0), opnd(0), opnd(1)); return;
    case GLSLstd450Normalize: emit(IOp::Normalize, d, n, opnd(0)); return;
    case GLSLstd450Cross: emit(IOp::Cross, d, 3, opnd(0), opnd(1)); return;
    case GLSLstd450FaceForward: emit(IOp::FaceForward, d, n, opnd(0), opnd(1), opnd(2)); return;
    case GLSLstd450Reflect: emit(IOp::Reflect, d, n, opnd(0), opnd(1)); return;
    case GLSLstd450Refract: emit(IOp::Refract, d, n, opnd(0), opnd(1), opnd(2)); return;
    case GLSLstd450Determinant: {
      uint32_t order = type(val(in[5]).type).count;
      if (order < 2 || order > 4) fail("Determinant order");
      emit(IOp::Determinant, d, order, opnd(0));
      return;
    }
    case GLSLstd450MatrixInverse: {
      uint32_t order = type(in[1]).count;
      if (order < 2 || order > 4) fail("MatrixInverse order");
      emit(IOp::MatrixInverse, d, order, opnd(0));
      return;
    }
    default: fail("unsupported GLSL.std.450 instruction " + std::to_string(e));
  }
}

}  // namespace tessera::shader::decode
