// Operation classes: what each SPIR-V instruction of the normalised entry function is charged,
// per lane, by what a GPU issues for it (op_class.h). The table below is the whole rule; the
// functions apply it while lower.cpp decodes each instruction.
#include "decoder.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tessera::shader::decode {

// Each SPIR-V instruction of the normalised function is charged by what a GPU issues for it, per
// lane, classified by the SPIR-V instruction (not by its lowered Inst form: an OpVectorShuffle
// lowers to copies, an OpMatrixTimesMatrix to one MatTimesVec per column, yet what counts is the
// instruction). Weights are scalar operations per lane: Bifrost is scalar per thread ("four
// threads doing a vec3 FP32 add takes three cycles", Arm via EE Times 2016). n is the result's
// component count unless the row says otherwise.
//
// | SPIR-V instruction                                          | alu            | sfu | other   |
// |-------------------------------------------------------------|----------------|-----|---------|
// | OpLoad/OpStore of Function/Private variables (registers),   | -              | -   | free    |
// |   OpStore to Output variables (the blend unit takes colour),|                |     |         |
// |   OpAccessChain/InBoundsAccessChain, OpCopyObject/Logical,  |                |     |         |
// |   OpComposite{Extract,Insert,Construct}, OpVectorShuffle,   |                |     |         |
// |   OpTranspose (register renaming), OpBitcast, OpCopyMemory, |                |     |         |
// |   OpPhi, OpLabel, branches, OpSwitch, OpReturn, merges,     |                |     |         |
// |   OpUndef, OpSampledImage, OpImage, OpImageTexelPointer,    |                |     |         |
// |   OpKill/OpTerminateInvocation/OpDemoteToHelperInvocation,  |                |     |         |
// |   OpIsHelperInvocationEXT (a predicate), barriers,          |                |     |         |
// |   OpLoad of Uniform / PushConstant data at an offset known  |                |     |         |
// |   at load time (uniform registers: Arm's Mali Offline       |                |     |         |
// |   Compiler reports them apart from load/store cycles)       |                |     |         |
// | float/integer arithmetic, negate, compares, logic, select,  | n              |     |         |
// |   int<->float and width conversions, bit-field ops,         |                |     |         |
// |   OpQuantizeToF16, OpDPdx/OpDPdy (all forms),               |                |     |         |
// |   OpVectorTimesScalar, OpOuterProduct, integer division     |                |     |         |
// |   (counted as one op: no cited figure for its emulation)    |                |     |         |
// | OpFDiv: x * rcp(y)                                          | n              | n   |         |
// | OpFDiv by a constant y (rcp(y) a normal float): x * rcp(y)  | n              |     |         |
// | OpFRem, OpFMod: x - y * trunc|floor(x * rcp(y))             | 3n             | n   |         |
// | OpFwidth*: |dx| + |dy| (abs is a source modifier)           | 3n             |     |         |
// | OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended   | 2n (2 results) |     |         |
// | OpDot, OpAny, OpAll of m-component operands                 | m              |     |         |
// | OpVectorExtractDynamic / OpVectorInsertDynamic              | 1 / n          |     |         |
// | OpMatrixTimesScalar                                         | rows x cols    |     |         |
// | OpMatrixTimesVector, OpVectorTimesMatrix                    | rows x cols    |     |         |
// | OpMatrixTimesMatrix (A rows x inner, B inner x cols)        | rows x inner x cols |  |      |
// | OpArrayLength (descriptor range arithmetic)                 | 1              |     |         |
// | GLSL.std.450 component-wise (abs, sign, floor, ceil, fract, | n              |     |         |
// |   trunc, round, radians, degrees, min, max, step, fma,      |                |     |         |
// |   ldexp, find*sb)                                           |                |     |         |
// | clamp (min and max), mix (sub, fma)                         | 2n             |     |         |
// | modf, frexp (two results)                                   | 2n             |     |         |
// | smoothstep: t = sat((x - e0) * rcp(e1 - e0)), t*t*(3 - 2t)  | 6n             | n   |         |
// | sin cos tan asin acos atan sinh cosh tanh atan2 exp exp2    |                | n   |         |
// |   log log2 sqrt inversesqrt                                 |                |     |         |
// | pow: exp2(y * log2(x))                                      | n              | 2n  |         |
// | pack/unpack of an m-component vector                        | m              |     |         |
// | length of m components: sqrt(dot)                           | m              | 1   |         |
// | distance of m components: sqrt(dot(a - b))                  | 2m             | 1   |         |
// | normalize of m components: v * inversesqrt(dot(v, v))       | 2m             | 1   |         |
// | cross                                                       | 6              |     |         |
// | reflect: I - 2 dot(N, I) N                                  | 2n + 1         |     |         |
// | refract: dot, k (4), sqrt, eta*I, fma, compare, select      | 4n + 6         | 1   |         |
// | faceforward: dot, compare, select (negation a modifier)     | 2n + 1         |     |         |
// | determinant of order 2 / 3 / 4 (GLM's cofactor expansion)   | 2 / 9 / 28     |     |         |
// | inverse of order 2 / 3 / 4 (GLM: cofactors, det, scale)     | 6 / 30 / 104   | 1   |         |
// | OpLoad of an Input variable (built-ins such as FragCoord    |                |     | varying 1 per component |
// |   included): fragment interpolation, vertex attribute load; |                |     |         |
// |   each component the function reads counts once, in the     |                |     |         |
// |   entry block, however many OpLoad read it (decode_function)|                |     |         |
// | OpImageSample*, OpImageFetch, OpImage*Gather, OpImageQuery* |                |     | texture 1 |
// |   (the texture unit's cost comes from the stream's probes)  |                |     |         |
// | OpLoad/OpStore through StorageBuffer (or BufferBlock) and   |                |     | memory n (32-bit scalars moved) |
// |   Workgroup pointers; Uniform / PushConstant loads at an    |                |     |         |
// |   offset not known at load time (a dynamic index)           |                |     |         |
// | OpImageRead / OpImageWrite of storage images                |                |     | memory n (texel components) |
// | atomics (buffer, Workgroup, storage image)                  |                |     | memory 1 |
//
// Dynamically indexed Function/Private arrays stay free here: the interpreter keeps them in
// registers like every other variable (a GPU compiler may spill them to thread-local memory; that
// is not modelled).
void Decoder::classify(const Instr& in, OpCounts& ops) {
  // Lookups that never fail: the decode that follows reports malformed operands.
  const auto type_scalars = [&](uint32_t t) { return t < types_.size() ? types_[t].scalars : 0u; };
  const auto value_scalars = [&](uint32_t id) { return id < values_.size() ? type_scalars(values_[id].type) : 0u; };
  const auto value_type = [&](uint32_t id) -> const TypeInfo* {
    if (id >= values_.size() || values_[id].type >= types_.size()) return nullptr;
    return &types_[values_[id].type];
  };
  const uint32_t n = type_scalars(in[1]);  // result components (instructions with a result type)
  switch (in.op) {
    case spv::OpFDiv: {
      ops[OpClass::Alu] += n;
      // A constant divisor has its reciprocal computed when the shader is compiled (where that
      // is a normal float), leaving the multiply; the replay still divides (the normaliser keeps
      // OpFDiv: normalise.cpp).
      const std::vector<uint32_t>* divisor = constant_bits(in[4]);
      const bool folded = divisor != nullptr && std::all_of(divisor->begin(), divisor->end(), [](uint32_t bits) {
        return std::isnormal(1.0f / std::bit_cast<float>(bits));
      });
      if (!folded) ops[OpClass::Sfu] += n;
      return;
    }
    case spv::OpFRem: case spv::OpFMod:
      ops[OpClass::Alu] += 3 * n;
      ops[OpClass::Sfu] += n;
      return;
    case spv::OpFwidth: case spv::OpFwidthCoarse: case spv::OpFwidthFine:
      ops[OpClass::Alu] += 3 * n;
      return;
    case spv::OpSelect: case spv::OpQuantizeToF16: case spv::OpBitFieldSExtract: case spv::OpBitFieldUExtract:
    case spv::OpBitFieldInsert: case spv::OpSConvert: case spv::OpUConvert: case spv::OpFConvert:
    case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar: case spv::OpOuterProduct:
    case spv::OpVectorInsertDynamic:
      ops[OpClass::Alu] += n;
      return;
    case spv::OpIAddCarry: case spv::OpISubBorrow: case spv::OpUMulExtended: case spv::OpSMulExtended:
      ops[OpClass::Alu] += 2 * value_scalars(in[3]);
      return;
    case spv::OpVectorExtractDynamic: case spv::OpArrayLength:
      ops[OpClass::Alu] += 1;
      return;
    case spv::OpDot: case spv::OpAny: case spv::OpAll:
      ops[OpClass::Alu] += value_scalars(in[3]);
      return;
    case spv::OpMatrixTimesVector:  // the matrix's scalars: rows x cols
      ops[OpClass::Alu] += value_scalars(in[3]);
      return;
    case spv::OpVectorTimesMatrix:
      ops[OpClass::Alu] += value_scalars(in[4]);
      return;
    case spv::OpMatrixTimesMatrix: {
      const TypeInfo* b = value_type(in[4]);
      ops[OpClass::Alu] += value_scalars(in[3]) * (b != nullptr ? b->count : 0u);
      return;
    }
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod: case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageFetch: case spv::OpImageGather: case spv::OpImageDrefGather:
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize: case spv::OpImageQueryLevels:
    case spv::OpImageQueryLod:
      ops[OpClass::Texture] += 1;
      return;
    case spv::OpImageRead:  // storage images only (Vulkan: Sampled = 2; subpass inputs are refused)
      ops[OpClass::Memory] += n;
      return;
    case spv::OpImageWrite:
      ops[OpClass::Memory] += value_scalars(in[3]);
      return;
    case spv::OpAtomicLoad: case spv::OpAtomicStore: case spv::OpAtomicExchange:
    case spv::OpAtomicCompareExchange: case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement:
    case spv::OpAtomicIAdd: case spv::OpAtomicISub: case spv::OpAtomicSMin: case spv::OpAtomicUMin:
    case spv::OpAtomicSMax: case spv::OpAtomicUMax: case spv::OpAtomicAnd: case spv::OpAtomicOr:
    case spv::OpAtomicXor:
      ops[OpClass::Memory] += 1;
      return;
    case spv::OpLoad: case spv::OpStore:
      classify_memory(in, ops);
      return;
    case spv::OpExtInst:
      classify_ext(in, ops);
      return;
    default:
      break;
  }
  // The remaining arithmetic, compare, logic, conversion and derivative instructions are
  // component-wise (simple_op); everything else is free (table above).
  if (simple_op(in.op)) ops[OpClass::Alu] += n;
}

void Decoder::classify_memory(const Instr& in, OpCounts& ops) {
  const bool load = in.op == spv::OpLoad;
  const uint32_t ptr_id = load ? in[3] : in[1];
  if (ptr_id >= values_.size() || values_[ptr_id].kind != ValKind::Ptr) return;
  const Ptr& p = ptrs_[values_[ptr_id].ptr];
  const uint32_t value_type = load ? in[1] : (in[2] < values_.size() ? values_[in[2]].type : 0u);
  const uint32_t n = value_type < types_.size() ? types_[value_type].scalars : 0u;
  switch (p.space) {
    case Space::Reg: {
      // Registers, except what the rasterizer interpolates (or the vertex fetch delivers) into
      // an Input variable: its components read (the whole variable when indexed by a value),
      // charged once by decode_function.
      if (!load || p.storage != spv::StorageClassInput) return;
      const uint32_t first = p.has_dyn ? p.var_base : p.var_base + p.static_off;
      const uint32_t count = p.has_dyn ? p.var_scalars : n;
      if (input_read_.size() < first + count) input_read_.resize(first + count, false);
      std::fill_n(input_read_.begin() + first, count, true);
      return;
    }
    case Space::Shared:
      ops[OpClass::Memory] += n;
      return;
    case Space::Buffer: {
      const bool storage = p.buffer != kPushConstants && p.buffer < resources_.size() &&
                           resources_[p.buffer].kind == ResourceKind::StorageBuffer;
      // A uniform at an offset fixed at load time lives in a uniform register; one indexed by a
      // value goes through the load/store unit.
      if (storage || p.has_dyn) ops[OpClass::Memory] += n;
      return;
    }
    case Space::Handle: case Space::Texel:
      return;  // descriptor loads are free; texel pointers are used by atomics only
  }
}

void Decoder::classify_ext(const Instr& in, OpCounts& ops) const {
  if (in[3] != glsl_set_) return;
  const auto type_scalars = [&](uint32_t t) { return t < types_.size() ? types_[t].scalars : 0u; };
  const auto operand_scalars = [&](uint32_t k) {
    const uint32_t id = in[5 + k];
    return id < values_.size() ? type_scalars(values_[id].type) : 0u;
  };
  const auto order = [&](uint32_t t) { return t < types_.size() ? types_[t].count : 0u; };
  const uint32_t n = type_scalars(in[1]);
  uint32_t alu = 0, sfu = 0;
  switch (in[4]) {
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc: case GLSLstd450FAbs:
    case GLSLstd450SAbs: case GLSLstd450FSign: case GLSLstd450SSign: case GLSLstd450Floor:
    case GLSLstd450Ceil: case GLSLstd450Fract: case GLSLstd450Radians: case GLSLstd450Degrees:
    case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450FMax:
    case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450NMin: case GLSLstd450NMax:
    case GLSLstd450Step: case GLSLstd450Fma: case GLSLstd450Ldexp: case GLSLstd450FindILsb:
    case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
      alu = n;
      break;
    case GLSLstd450FClamp: case GLSLstd450NClamp: case GLSLstd450UClamp: case GLSLstd450SClamp:
    case GLSLstd450FMix:
      alu = 2 * n;
      break;
    case GLSLstd450Modf: case GLSLstd450Frexp:
      alu = 2 * n;
      break;
    case GLSLstd450ModfStruct: case GLSLstd450FrexpStruct:
      alu = 2 * operand_scalars(0);
      break;
    case GLSLstd450SmoothStep:
      alu = 6 * n;
      sfu = n;
      break;
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin:
    case GLSLstd450Acos: case GLSLstd450Atan: case GLSLstd450Sinh: case GLSLstd450Cosh:
    case GLSLstd450Tanh: case GLSLstd450Atan2: case GLSLstd450Exp: case GLSLstd450Exp2:
    case GLSLstd450Log: case GLSLstd450Log2: case GLSLstd450Sqrt: case GLSLstd450InverseSqrt:
      sfu = n;
      break;
    case GLSLstd450Pow:
      alu = n;
      sfu = 2 * n;
      break;
    case GLSLstd450PackHalf2x16: case GLSLstd450PackUnorm2x16: case GLSLstd450PackSnorm2x16:
    case GLSLstd450PackUnorm4x8: case GLSLstd450PackSnorm4x8:
      alu = operand_scalars(0);
      break;
    case GLSLstd450UnpackHalf2x16: case GLSLstd450UnpackUnorm2x16: case GLSLstd450UnpackSnorm2x16:
    case GLSLstd450UnpackUnorm4x8: case GLSLstd450UnpackSnorm4x8:
      alu = n;
      break;
    case GLSLstd450Length:
      alu = operand_scalars(0);
      sfu = 1;
      break;
    case GLSLstd450Distance:
      alu = 2 * operand_scalars(0);
      sfu = 1;
      break;
    case GLSLstd450Normalize:
      alu = 2 * n;
      sfu = 1;
      break;
    case GLSLstd450Cross: alu = 6; break;
    case GLSLstd450Reflect: case GLSLstd450FaceForward: alu = 2 * n + 1; break;
    case GLSLstd450Refract:
      alu = 4 * n + 6;
      sfu = 1;
      break;
    case GLSLstd450Determinant: {
      const uint32_t m = in[5] < values_.size() ? order(values_[in[5]].type) : 0u;
      alu = m == 2 ? 2u : m == 3 ? 9u : m == 4 ? 28u : 0u;
      break;
    }
    case GLSLstd450MatrixInverse: {
      const uint32_t m = order(in[1]);
      alu = m == 2 ? 6u : m == 3 ? 30u : m == 4 ? 104u : 0u;
      sfu = 1;
      break;
    }
    default:
      break;  // refused by ext_inst
  }
  ops[OpClass::Alu] += alu;
  ops[OpClass::Sfu] += sfu;
}

}  // namespace tessera::shader::decode
