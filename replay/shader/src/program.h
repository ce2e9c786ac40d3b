// The decoded, compact form of a normalised SPIR-V function (internal to tessera_shader).
//
// Registers: every SSA value, constant and non-buffer variable is a run of consecutive scalar
// registers (aggregates flattened in declaration order, matrices column-major). A scalar
// register is kMaxLanes 32-bit words, one per lane.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/shader/shader_module.h"

namespace tessera::shader {

enum class IOp : uint16_t {
  // Component-wise; operand strides sa/sb/sc are 0 to broadcast a scalar operand.
  Copy,
  FNeg, FAbs, FSign, Floor, Ceil, Fract, Trunc, Round, RoundEven, Sqrt, InverseSqrt, Exp, Exp2,
  Log, Log2, Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Radians, Degrees,
  FAdd, FSub, FMul, FDiv, FRem, FMod, Pow, Atan2, FMin, FMax, Step, NMin, NMax,
  FClamp, FMix, SmoothStep, Fma,
  SNegate, Not, SAbs, SSign,
  IAdd, ISub, IMul, SDiv, UDiv, SRem, SMod, UMod, Shl, ShrL, ShrA, And, Or, Xor,
  SMin, SMax, UMin, UMax, SClamp, UClamp,
  FOrdEq, FOrdNe, FOrdLt, FOrdGt, FOrdLe, FOrdGe,
  FUnordEq, FUnordNe, FUnordLt, FUnordGt, FUnordLe, FUnordGe,
  IEq, INe, SLt, SGt, SLe, SGe, ULt, UGt, ULe, UGe,
  LogicalNot, IsNan, IsInf,
  FToS, FToU, SToF, UToF,
  Select,  // d = a ? b : c
  FindILsb, FindSMsb, FindUMsb, BitCount, BitReverse, Ldexp,
  BitFieldSExtract, BitFieldUExtract,  // b = offset, c = count (scalars)
  BitFieldInsert,                      // a = base, b = insert, c = offset, x = count register
  // Packing (GLSL.std.450 Pack*/Unpack*): n = component count of the unpacked vector.
  PackHalf2x16, UnpackHalf2x16, PackUnorm4x8, UnpackUnorm4x8, PackSnorm4x8, UnpackSnorm4x8,
  PackUnorm2x16, UnpackUnorm2x16, PackSnorm2x16, UnpackSnorm2x16,
  QuantizeToF16,
  // Two results per component: d + c gets the first, d + n + c the second member of the
  // result struct (OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended, ModfStruct,
  // FrexpStruct).
  IAddCarry, ISubBorrow, UMulExtended, SMulExtended, ModfStruct, FrexpStruct,
  VectorExtractDynamic,  // d = a[clamp(b)]; n = vector size
  VectorInsertDynamic,   // d = a with d[clamp(c)] = b; n = vector size
  // Reductions and geometric ops; n = vector size.
  Dot, Any, All, Length, Distance, Normalize, Cross, Reflect, Refract, FaceForward,
  MatTimesVec,  // d[rows] = M(a)[cols x rows] * v(b); n = rows, m = cols
  Determinant, MatrixInverse,  // n = order
  // Memory: x indexes Program::mem.
  LoadDynamic,   // register-space load with per-lane offset register
  StoreDynamic,
  LoadBuffer,    // uniform/push-constant/storage buffer load
  StoreBuffer,   // storage buffer store of register a (leaf offsets as LoadBuffer)
  LoadShared,    // Workgroup storage load (scalar offsets, like LoadDynamic)
  StoreShared,   // Workgroup storage store of register a
  ArrayLength,   // d = (size of buffer x - b) / c: OpArrayLength of a runtime array at offset b, stride c
  Atomic,        // x indexes Program::atomics
  OffsetMad,     // d = (sb ? a : 0) + clamp(b) * c (dynamic access-chain offset)
  // Fragment.
  DPdxFine, DPdyFine, DPdxCoarse, DPdyCoarse, FwidthFine, FwidthCoarse,
  Demote, IsHelper,
  Image,  // x indexes Program::images
};

struct Inst {
  IOp op = IOp::Copy;
  uint8_t sa = 1, sb = 1, sc = 1;  // component stride of operands a, b, c (0 = broadcast)
  uint16_t n = 1;                  // component count
  uint16_t m = 0;                  // secondary count
  uint32_t d = 0, a = 0, b = 0, c = 0;
  uint32_t x = 0;
};

// Barrier: OpControlBarrier ends a block (the decoder splits the SPIR-V block there) and edge[0]
// continues after it once the whole workgroup arrived.
enum class Terminator : uint8_t { Branch, CondBranch, Switch, Return, Kill, Unreachable, Barrier };

struct Block {
  uint32_t first = 0, count = 0;  // instruction range
  uint32_t spirv_count = 0;       // SPIR-V instructions counted per lane per execution
  OpCounts ops;                   // issued operations by class per execution (op_class.h)
  bool has_ops = false;           // any of them (the executor skips blocks of free instructions)
  Terminator term = Terminator::Return;
  uint32_t cond = 0;              // condition / selector register
  uint32_t edge[2] = {0, 0};      // Branch: edge[0]; CondBranch: true, false; Switch: default
  uint32_t case_first = 0, case_count = 0;
};

struct Edge {
  uint32_t target = 0;  // block index
  uint32_t copy_first = 0, copy_count = 0;  // OpPhi parallel copies for this edge
};

struct PhiCopy { uint32_t dst, src; };
struct SwitchCase { uint32_t literal, edge; };

// A load/store through a pointer with a per-lane offset.
struct MemAccess {
  uint32_t base = 0;        // variable's first register (register space) or byte offset (buffers)
  uint32_t static_off = 0;  // register space: constant part of the offset within the variable
  uint32_t dyn = 0;         // register with the per-lane offset (scalars or bytes)
  uint32_t limit = 0;       // register space: largest valid dynamic offset
  uint32_t buffer = 0;      // buffer: resource index, or kPushConstants
  bool has_dyn = false;
  std::vector<uint32_t> leaf_offsets;  // buffer: byte offset of each loaded scalar
};
inline constexpr uint32_t kPushConstants = 0xffffffffu;

struct ImageInst {
  ImageRequest proto;        // constant fields (op, resources, dim, offsets)
  bool storage = false;      // a storage image: goes to Bindings::storage_images
  uint32_t texel = 0, texel_n = 0;  // OpImageWrite: the texel's registers
  uint32_t dst = 0, dst_n = 0;
  uint32_t coord = 0, coord_n = 0;  // registers
  bool proj = false;
  bool integer_coords = false;
  bool implicit_derivatives = false;
  // An explicit Lod or Grad sample in a fragment shader: the quad's coordinate differences go
  // along too (ImageRequest::quad_ddx), for an anisotropic sampler's filter shape.
  bool quad_derivatives = false;
  uint32_t dref = 0, lod = 0, bias = 0, min_lod = 0, grad_x = 0, grad_y = 0;
  bool has_dref = false, has_lod = false, has_bias = false, has_min_lod = false, has_grad = false;
  bool lod_is_int = false;
};

// An atomic instruction: where it operates (mem indexes Program::mem for buffers and Workgroup
// storage, Program::images for an OpImageTexelPointer), its operands and result registers.
struct AtomicInst {
  enum class Where : uint8_t { Buffer, Shared, Image };
  AtomicOp op = AtomicOp::IAdd;
  Where where = Where::Buffer;
  uint32_t mem = 0;
  uint32_t value = 0, comparator = 0, result = 0;
  bool has_result = true;
};

// Where an interface register comes from / goes to at the start / end of execute().
enum class IoKind : uint8_t {
  Slot, FragCoord, FrontFacing, HelperInvocation, VertexIndex, InstanceIndex, Zero,
  LocalInvocationId, GlobalInvocationId, WorkgroupId, NumWorkgroups, LocalInvocationIndex,
  PointCoord, SampleId, SamplePosition, SampleMaskIn,
  Position, PointSize, FragDepth, SampleMaskOut, ClipDistance, CullDistance, Discard /* output ignored */
};
struct IoCopy {
  uint32_t reg = 0;
  IoKind kind = IoKind::Slot;
  uint32_t index = 0;  // slot or component
};

struct Program {
  uint32_t register_count = 0;
  std::vector<std::pair<uint32_t, uint32_t>> constants;  // (register, bits), broadcast once
  std::vector<std::pair<uint32_t, uint32_t>> zero_ranges;  // (first, count) per execute
  std::vector<PhiCopy> init_copies;  // variable initialisers, per execute
  std::vector<Inst> insts;
  std::vector<Block> blocks;
  std::vector<Edge> edges;
  std::vector<PhiCopy> copies;
  std::vector<SwitchCase> cases;
  std::vector<MemAccess> mem;
  std::vector<ImageInst> images;
  std::vector<AtomicInst> atomics;
  std::vector<IoCopy> inputs, outputs;
  uint32_t scratch = 0;  // first of 32 scratch registers (phi two-phase copies)
};

}  // namespace tessera::shader
