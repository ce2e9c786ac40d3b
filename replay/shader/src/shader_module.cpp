// Loading: validate -> normalise (SPIRV-Tools optimizer) -> decode into Program (program.h).
#include "tessera/shader/shader_module.h"

#include <glslang/SPIRV/GLSL.std.450.h>
#define SPV_ENABLE_UTILITY_CODE 1
#include <glslang/SPIRV/spirv.hpp>
#include <spirv-tools/libspirv.h>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "dependent_reads.h"
#include "program.h"

namespace tessera::shader {
namespace {

struct DecodeError {
  std::string message;
};

[[noreturn]] void fail(std::string message) { throw DecodeError{std::move(message)}; }

std::string opcode_name(uint32_t op) {
  const char* name = spvOpcodeString(op);
  if (name == nullptr || std::strcmp(name, "unknown") == 0) return "opcode " + std::to_string(op);
  return std::string("Op") + name;
}

struct TypeInfo {
  enum Kind : uint8_t {
    None, Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Pointer,
    Function, Image, Sampler, SampledImage
  };
  Kind kind = None;
  bool is_signed = false;
  uint32_t elem = 0;   // component / column / element / pointee / image type
  uint32_t count = 0;  // vector size / columns / array length
  uint32_t scalars = 0;
  uint32_t storage = 0;
  std::vector<uint32_t> members;
  ImageDim dim = ImageDim::Dim2D;
  bool depth = false, arrayed = false, ms = false;
  uint32_t sampled_type = 0;
};

struct MemberDeco {
  uint32_t offset = 0;
  uint32_t matrix_stride = 16;
  bool row_major = false;
  int32_t builtin = -1;
  int32_t location = -1;
  bool flat = false, noperspective = false, centroid = false, sample = false;
};

struct Deco {
  int32_t location = -1;
  uint32_t component = 0;
  int32_t builtin = -1;
  uint32_t set = 0, binding = 0;
  uint32_t array_stride = 0;
  bool flat = false, noperspective = false, centroid = false, sample = false;
  bool block = false, buffer_block = false;
  std::vector<MemberDeco> members;
};

// Reg: private/function variables in registers. Buffer: uniform/storage buffers and push
// constants (byte offsets). Handle: image/sampler descriptors. Shared: Workgroup storage (scalar
// offsets into Bindings::workgroup_memory). Texel: an OpImageTexelPointer (image atomics).
enum class Space : uint8_t { Reg, Buffer, Handle, Shared, Texel };

struct Ptr {
  Space space = Space::Reg;
  uint32_t pointee = 0;
  uint32_t storage = spv::StorageClassFunction;  // the variable's storage class (operation classes)
  // Register space.
  uint32_t var_base = 0, var_scalars = 0;
  // Both: constant offset (scalars / bytes) and an optional per-lane dynamic offset register.
  uint32_t static_off = 0;
  bool has_dyn = false;
  uint32_t dyn = 0;
  // Buffer layout context for the pointee.
  uint32_t buffer = 0;
  uint32_t matrix_stride = 16, comp_stride = 4;
  bool row_major = false;
  // Handle space (and Texel: the image and its coordinate registers).
  uint32_t resource = 0, element = 0;
  uint32_t texel_coord = 0, texel_coord_n = 0;
  // Buffer variable declared as an array of blocks (Zink declares GL uniform blocks this way):
  // the first access-chain index selects the descriptor (resources buffer .. buffer +
  // descriptors - 1), not memory.
  bool descriptor_array = false;
  uint32_t descriptors = 1;
};

struct Handle {
  uint32_t image_resource = 0, sampler_resource = 0, element = 0;
  uint32_t image_type = 0;
};

enum class ValKind : uint8_t { None, Reg, Ptr, Handle };
struct Value {
  ValKind kind = ValKind::None;
  uint32_t type = 0;
  uint32_t reg = 0;
  uint32_t ptr = 0;     // index into ptrs
  uint32_t handle = 0;  // index into handles
};

struct Instr {
  uint32_t op;
  uint32_t wc;
  const uint32_t* w;
  uint32_t operator[](uint32_t i) const { return i < wc ? w[i] : 0; }
};

std::string literal_string(const Instr& in, uint32_t first) {
  std::string s;
  for (uint32_t i = first; i < in.wc; ++i) {
    for (int b = 0; b < 4; ++b) {
      char ch = static_cast<char>((in.w[i] >> (8 * b)) & 0xffu);
      if (ch == 0) return s;
      s.push_back(ch);
    }
  }
  return s;
}

class Decoder {
 public:
  Decoder(const std::vector<uint32_t>& words, std::string_view entry, Stage stage, ShaderInfo& info,
          std::vector<ResourceBinding>& resources, Program& prog)
      : words_(words), entry_(entry), stage_(stage), info_(info), resources_(resources), p_(prog) {}

  void run();
  // Per result id: the image reads whose coordinates depend on another's result.
  void set_dependent_reads(std::vector<bool> dependent) { dependent_ = std::move(dependent); }

 private:
  // ---- helpers ----
  const TypeInfo& type(uint32_t id) const {
    if (id >= types_.size() || types_[id].kind == TypeInfo::None) fail("reference to unknown type %" + std::to_string(id));
    return types_[id];
  }
  uint32_t alloc(uint32_t n) {
    uint32_t r = p_.register_count;
    p_.register_count += n;
    if (p_.register_count > (1u << 20)) fail("register file too large");
    return r;
  }
  Value& val(uint32_t id) {
    if (id >= values_.size()) fail("id %" + std::to_string(id) + " out of range");
    return values_[id];
  }
  uint32_t scalars_of(uint32_t id) { return type(val(id).type).scalars; }
  uint32_t reg_of(uint32_t id) {
    Value& v = val(id);
    if (v.kind != ValKind::Reg) fail("id %" + std::to_string(id) + " is not a value (or is used before its definition)");
    return v.reg;
  }
  bool is_value_type(uint32_t t) const {
    if (t >= types_.size()) return false;
    switch (types_[t].kind) {
      case TypeInfo::Bool: case TypeInfo::Int: case TypeInfo::Float: case TypeInfo::Vector:
      case TypeInfo::Matrix: case TypeInfo::Array: case TypeInfo::Struct: return true;
      default: return false;
    }
  }
  ScalarType leaf_scalar(uint32_t t) const {
    const TypeInfo& ti = type(t);
    switch (ti.kind) {
      case TypeInfo::Bool: return ScalarType::Bool;
      case TypeInfo::Int: return ti.is_signed ? ScalarType::Int32 : ScalarType::UInt32;
      case TypeInfo::Float: return ScalarType::Float32;
      case TypeInfo::Vector: case TypeInfo::Matrix: case TypeInfo::Array: return leaf_scalar(ti.elem);
      case TypeInfo::Struct: return ti.members.empty() ? ScalarType::UInt32 : leaf_scalar(ti.members[0]);
      default: return ScalarType::UInt32;
    }
  }
  uint32_t member_scalar_offset(const TypeInfo& t, uint32_t index) const {
    switch (t.kind) {
      case TypeInfo::Vector: case TypeInfo::Matrix: case TypeInfo::Array:
        if (index >= t.count) fail("constant index " + std::to_string(index) + " out of bounds");
        return index * type(t.elem).scalars;
      case TypeInfo::Struct: {
        if (index >= t.members.size()) fail("member index out of bounds");
        uint32_t off = 0;
        for (uint32_t i = 0; i < index; ++i) off += type(t.members[i]).scalars;
        return off;
      }
      default: fail("index into a non-composite type");
    }
  }
  uint32_t child_type(const TypeInfo& t, uint32_t index) const {
    if (t.kind == TypeInfo::Struct) {
      if (index >= t.members.size()) fail("member index out of bounds");
      return t.members[index];
    }
    return t.elem;
  }
  const Deco* deco(uint32_t id) const {
    auto it = decos_.find(id);
    return it == decos_.end() ? nullptr : &it->second;
  }
  MemberDeco member_deco(uint32_t struct_id, uint32_t m) const {
    const Deco* d = deco(struct_id);
    if (d == nullptr || m >= d->members.size()) return {};
    return d->members[m];
  }
  std::optional<uint32_t> const_u32(uint32_t id) const {
    auto it = scalar_consts_.find(id);
    if (it == scalar_consts_.end()) return std::nullopt;
    return it->second;
  }

  Inst& emit(IOp op, uint32_t d, uint32_t n, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0) {
    Inst in;
    in.op = op;
    in.d = d;
    in.n = static_cast<uint16_t>(n);
    in.a = a;
    in.b = b;
    in.c = c;
    p_.insts.push_back(in);
    return p_.insts.back();
  }
  void emit_copy(uint32_t d, uint32_t s, uint32_t n) {
    if (n == 0 || d == s) return;
    emit(IOp::Copy, d, n, s);
  }

  void parse();
  void declare_type(const Instr& in);
  void declare_constant(const Instr& in);
  void declare_global_variable(const Instr& in);
  void io_leaves(uint32_t t, const Deco* d, const MemberDeco* md, uint32_t& location, uint32_t component,
                 uint32_t reg, bool is_input, const std::string& name, bool top);
  void buffer_leaves(uint32_t t, uint32_t off, uint32_t ms, bool rm, uint32_t cs, std::vector<uint32_t>& out) const;
  void decode_function();
  void decode_instruction(const Instr& in);
  void classify(const Instr& in, OpCounts& ops);
  void classify_ext(const Instr& in, OpCounts& ops) const;
  void classify_memory(const Instr& in, OpCounts& ops);
  void access_chain(const Instr& in);
  void ext_inst(const Instr& in);
  void image_inst(const Instr& in);
  void image_write(const Instr& in);
  void atomic_inst(const Instr& in);
  void store(const Instr& in);
  uint32_t new_edge(uint32_t label);
  uint32_t new_edge_to_block(uint32_t block);
  void resolve_local_size();

  const std::vector<uint32_t>& words_;
  std::string entry_;
  Stage stage_;
  ShaderInfo& info_;
  std::vector<ResourceBinding>& resources_;
  Program& p_;
  std::vector<bool> dependent_;

  std::vector<Instr> instrs_;
  std::vector<TypeInfo> types_;
  std::vector<Value> values_;
  std::vector<Ptr> ptrs_;
  std::vector<Handle> handles_;
  std::unordered_map<uint32_t, Deco> decos_;
  std::unordered_map<uint32_t, uint32_t> scalar_consts_;
  std::unordered_map<uint32_t, std::string> names_;
  uint32_t glsl_set_ = 0xffffffffu;
  uint32_t entry_function_ = 0;
  size_t function_begin_ = 0, function_end_ = 0;
  std::vector<uint32_t> interface_;

  // Function decoding state.
  std::unordered_map<uint32_t, uint32_t> label_block_;
  // An edge to a label, or (OpControlBarrier's continuation) straight to a block.
  struct PendingEdge { uint32_t from_block, target_label; int64_t target_block; };
  std::vector<PendingEdge> pending_edges_;
  // Per block, the block of the SPIR-V label it comes from: OpControlBarrier splits a SPIR-V
  // block, and OpPhi names the label, not the piece that branches.
  std::vector<uint32_t> origin_;
  std::vector<uint32_t> barrier_blocks_;  // continuation block of each OpControlBarrier, in order
  size_t next_barrier_ = 0;
  uint32_t local_size_ids_[3] = {0, 0, 0};
  struct Phi { uint32_t block, dst, scalars; std::vector<std::pair<uint32_t, uint32_t>> incoming; };
  std::vector<Phi> phis_;
  uint32_t cur_block_ = 0;
  // Registers of Input variables the function loads (operation classes: varyings are charged
  // once per component read, in the entry block).
  std::vector<bool> input_read_;
};

void Decoder::parse() {
  if (words_.size() < 5) fail("SPIR-V too short");
  uint32_t bound = words_[3];
  if (bound > (1u << 22)) fail("SPIR-V id bound too large");
  types_.resize(bound);
  values_.resize(bound);
  size_t pos = 5;
  while (pos < words_.size()) {
    uint32_t wc = words_[pos] >> 16;
    if (wc == 0 || pos + wc > words_.size()) fail("truncated SPIR-V instruction");
    instrs_.push_back(Instr{words_[pos] & 0xffffu, wc, &words_[pos]});
    pos += wc;
  }
}

void Decoder::declare_type(const Instr& in) {
  uint32_t id = in[1];
  if (id >= types_.size()) fail("type id out of range");
  TypeInfo t;
  switch (in.op) {
    case spv::OpTypeVoid: t.kind = TypeInfo::Void; break;
    case spv::OpTypeBool: t.kind = TypeInfo::Bool; t.scalars = 1; break;
    case spv::OpTypeInt:
      if (in[2] != 32) fail("unsupported type: " + std::to_string(in[2]) + "-bit integer");
      t.kind = TypeInfo::Int; t.is_signed = in[3] != 0; t.scalars = 1; break;
    case spv::OpTypeFloat:
      if (in[2] != 32) fail("unsupported type: " + std::to_string(in[2]) + "-bit float");
      t.kind = TypeInfo::Float; t.scalars = 1; break;
    case spv::OpTypeVector:
      t.kind = TypeInfo::Vector; t.elem = in[2]; t.count = in[3]; t.scalars = t.count; break;
    case spv::OpTypeMatrix:
      t.kind = TypeInfo::Matrix; t.elem = in[2]; t.count = in[3];
      t.scalars = t.count * type(in[2]).scalars; break;
    case spv::OpTypeArray: {
      t.kind = TypeInfo::Array; t.elem = in[2];
      auto len = const_u32(in[3]);
      if (!len) fail("array length is not a constant");
      t.count = *len;
      uint64_t s = uint64_t{t.count} * type(in[2]).scalars;
      if (s > (1u << 16)) fail("array too large");
      t.scalars = static_cast<uint32_t>(s);
      break;
    }
    case spv::OpTypeRuntimeArray: t.kind = TypeInfo::RuntimeArray; t.elem = in[2]; break;
    case spv::OpTypeStruct:
      t.kind = TypeInfo::Struct;
      for (uint32_t i = 2; i < in.wc; ++i) {
        t.members.push_back(in[i]);
        t.scalars += type(in[i]).scalars;
      }
      break;
    case spv::OpTypePointer: t.kind = TypeInfo::Pointer; t.storage = in[2]; t.elem = in[3]; break;
    case spv::OpTypeFunction: t.kind = TypeInfo::Function; break;
    case spv::OpTypeImage:
      t.kind = TypeInfo::Image; t.sampled_type = in[2];
      switch (in[3]) {
        case spv::Dim1D: t.dim = ImageDim::Dim1D; break;
        case spv::Dim2D: t.dim = ImageDim::Dim2D; break;
        case spv::Dim3D: t.dim = ImageDim::Dim3D; break;
        case spv::DimCube: t.dim = ImageDim::Cube; break;
        case spv::DimRect: t.dim = ImageDim::Rect; break;
        case spv::DimBuffer: t.dim = ImageDim::Buffer; break;
        default: t.dim = ImageDim::SubpassData; break;
      }
      t.depth = in[4] == 1; t.arrayed = in[5] != 0; t.ms = in[6] != 0; t.count = in[7];
      break;
    case spv::OpTypeSampler: t.kind = TypeInfo::Sampler; break;
    case spv::OpTypeSampledImage: t.kind = TypeInfo::SampledImage; t.elem = in[2]; break;
    default: fail("unsupported type " + opcode_name(in.op));
  }
  types_[id] = std::move(t);
}

void Decoder::declare_constant(const Instr& in) {
  uint32_t t = in[1], id = in[2];
  if (id >= values_.size()) fail("id out of range");
  const TypeInfo& ti = type(t);
  Value v;
  v.kind = ValKind::Reg;
  v.type = t;
  v.reg = alloc(ti.scalars);
  switch (in.op) {
    case spv::OpConstant: case spv::OpSpecConstant:
      p_.constants.push_back({v.reg, in[3]});
      scalar_consts_[id] = in[3];
      break;
    case spv::OpConstantTrue: case spv::OpSpecConstantTrue:
      p_.constants.push_back({v.reg, 1}); scalar_consts_[id] = 1; break;
    case spv::OpConstantFalse: case spv::OpSpecConstantFalse:
      p_.constants.push_back({v.reg, 0}); scalar_consts_[id] = 0; break;
    case spv::OpConstantNull: case spv::OpUndef:
      for (uint32_t i = 0; i < ti.scalars; ++i) p_.constants.push_back({v.reg + i, 0});
      if (ti.scalars == 1) scalar_consts_[id] = 0;
      break;
    case spv::OpConstantComposite: case spv::OpSpecConstantComposite: {
      uint32_t off = 0;
      for (uint32_t i = 3; i < in.wc; ++i) {
        const Value& c = val(in[i]);
        if (c.kind != ValKind::Reg) fail("composite constant of non-constant");
        uint32_t n = type(c.type).scalars;
        for (uint32_t k = 0; k < n; ++k) {
          auto it = std::find_if(p_.constants.begin(), p_.constants.end(),
                                 [&](const auto& e) { return e.first == c.reg + k; });
          p_.constants.push_back({v.reg + off + k, it == p_.constants.end() ? 0 : it->second});
        }
        off += n;
      }
      break;
    }
    default: fail("unsupported constant " + opcode_name(in.op));
  }
  values_[id] = v;
}

void Decoder::buffer_leaves(uint32_t t, uint32_t off, uint32_t ms, bool rm, uint32_t cs,
                            std::vector<uint32_t>& out) const {
  const TypeInfo& ti = type(t);
  switch (ti.kind) {
    case TypeInfo::Bool: case TypeInfo::Int: case TypeInfo::Float: out.push_back(off); break;
    case TypeInfo::Vector:
      for (uint32_t i = 0; i < ti.count; ++i) out.push_back(off + i * cs);
      break;
    case TypeInfo::Matrix: {
      uint32_t rows = type(ti.elem).count;
      for (uint32_t c = 0; c < ti.count; ++c)
        for (uint32_t r = 0; r < rows; ++r) out.push_back(off + (rm ? c * 4 + r * ms : c * ms + r * 4));
      break;
    }
    case TypeInfo::Array: {
      const Deco* d = deco(t);
      uint32_t stride = d ? d->array_stride : 0;
      if (stride == 0) fail("buffer array without ArrayStride");
      for (uint32_t i = 0; i < ti.count; ++i) buffer_leaves(ti.elem, off + i * stride, ms, rm, 4, out);
      break;
    }
    case TypeInfo::Struct:
      for (uint32_t m = 0; m < ti.members.size(); ++m) {
        MemberDeco md = member_deco(t, m);
        buffer_leaves(ti.members[m], off + md.offset, md.matrix_stride, md.row_major, 4, out);
      }
      break;
    default: fail("unsupported type in buffer load");
  }
}

// Interface leaves: Vulkan spec 15.1.4 (Location Assignment): a scalar or vector takes one
// location (components from `component`), a matrix one per column, arrays one per element.
void Decoder::io_leaves(uint32_t t, const Deco* d, const MemberDeco* md, uint32_t& location, uint32_t component,
                        uint32_t reg, bool is_input, const std::string& name, bool top) {
  const TypeInfo& ti = type(t);
  int32_t builtin = md ? md->builtin : (d ? d->builtin : -1);
  if (builtin >= 0) {
    auto add = [&](IoKind k, uint32_t n) {
      for (uint32_t i = 0; i < n; ++i) (is_input ? p_.inputs : p_.outputs).push_back({reg + i, k, i});
    };
    switch (builtin) {
      case spv::BuiltInPosition:
        if (is_input) fail("unsupported built-in input Position");
        add(IoKind::Position, std::min(ti.scalars, 4u)); break;
      case spv::BuiltInPointSize:
        if (is_input) fail("unsupported built-in input PointSize");
        info_.writes_point_size = true; add(IoKind::PointSize, 1); break;
      case spv::BuiltInClipDistance: case spv::BuiltInCullDistance:
        if (is_input) add(IoKind::Zero, ti.scalars); else add(IoKind::Discard, ti.scalars);
        break;
      case spv::BuiltInSampleMask:
        // Word 0 of the coverage mask in; word 0 of the mask to AND with coverage out (at most
        // 32 samples, maxSampleMaskWords = 1 on every device we replay).
        if (is_input) {
          info_.reads_sample_mask = true;
          add(IoKind::SampleMaskIn, 1);
          for (uint32_t i = 1; i < ti.scalars; ++i) (p_.inputs).push_back({reg + i, IoKind::Zero, i});
        } else {
          info_.writes_sample_mask = true;
          add(IoKind::SampleMaskOut, 1);
          for (uint32_t i = 1; i < ti.scalars; ++i) (p_.outputs).push_back({reg + i, IoKind::Discard, i});
        }
        break;
      case spv::BuiltInPointCoord:
        info_.reads_point_coord = true;
        add(IoKind::PointCoord, std::min(ti.scalars, 2u));
        break;
      case spv::BuiltInSampleId:
        if (!is_input) fail("unsupported built-in output SampleId");
        info_.reads_sample_id = true;
        add(IoKind::SampleId, 1);
        break;
      case spv::BuiltInSamplePosition:
        if (!is_input) fail("unsupported built-in output SamplePosition");
        info_.reads_sample_position = true;
        add(IoKind::SamplePosition, std::min(ti.scalars, 2u));
        break;
      case spv::BuiltInFragCoord: add(IoKind::FragCoord, 4); break;
      case spv::BuiltInFrontFacing: add(IoKind::FrontFacing, 1); break;
      case spv::BuiltInHelperInvocation: add(IoKind::HelperInvocation, 1); break;
      case spv::BuiltInVertexIndex: add(IoKind::VertexIndex, 1); break;
      case spv::BuiltInInstanceIndex: add(IoKind::InstanceIndex, 1); break;
      case spv::BuiltInLocalInvocationId: add(IoKind::LocalInvocationId, std::min(ti.scalars, 3u)); break;
      case spv::BuiltInGlobalInvocationId: add(IoKind::GlobalInvocationId, std::min(ti.scalars, 3u)); break;
      case spv::BuiltInWorkgroupId: add(IoKind::WorkgroupId, std::min(ti.scalars, 3u)); break;
      case spv::BuiltInNumWorkgroups: add(IoKind::NumWorkgroups, std::min(ti.scalars, 3u)); break;
      case spv::BuiltInLocalInvocationIndex: add(IoKind::LocalInvocationIndex, 1); break;
      case spv::BuiltInViewIndex: case spv::BuiltInLayer:
      case spv::BuiltInViewportIndex: case spv::BuiltInPrimitiveId:
        // Single view, single layer: these are 0 (or ignored as outputs).
        if (is_input) add(IoKind::Zero, 1); else add(IoKind::Discard, 1);
        break;
      case spv::BuiltInFragDepth:
        info_.writes_frag_depth = true; add(IoKind::FragDepth, 1); break;
      default: fail("unsupported built-in " + std::to_string(builtin));
    }
    return;
  }
  if (ti.kind == TypeInfo::Struct) {
    bool any_builtin = false;
    for (uint32_t m = 0; m < ti.members.size(); ++m) any_builtin |= member_deco(t, m).builtin >= 0;
    uint32_t off = 0;
    for (uint32_t m = 0; m < ti.members.size(); ++m) {
      MemberDeco mdm = member_deco(t, m);
      if (mdm.location >= 0) location = static_cast<uint32_t>(mdm.location);
      if (any_builtin && mdm.builtin < 0) {  // non-built-in member of a built-in block: unused
        off += type(ti.members[m]).scalars;
        continue;
      }
      io_leaves(ti.members[m], d, &mdm, location, 0, reg + off, is_input, name, false);
      off += type(ti.members[m]).scalars;
    }
    return;
  }
  uint32_t first_location = location;
  auto slot = [&](uint32_t loc, uint32_t comp) {
    uint32_t s = loc * 4 + comp;
    if (s >= kMaxInterfaceSlots) fail("interface location " + std::to_string(loc) + " beyond " + std::to_string(kMaxLocations));
    return s;
  };
  uint32_t vector_size = 1;
  switch (ti.kind) {
    case TypeInfo::Bool: case TypeInfo::Int: case TypeInfo::Float: case TypeInfo::Vector: {
      vector_size = ti.kind == TypeInfo::Vector ? ti.count : 1;
      if (component + vector_size > 4) fail("interface variable exceeds a location");
      for (uint32_t i = 0; i < vector_size; ++i)
        (is_input ? p_.inputs : p_.outputs).push_back({reg + i, IoKind::Slot, slot(location, component + i)});
      location += 1;
      break;
    }
    case TypeInfo::Matrix: case TypeInfo::Array: {
      uint32_t es = type(ti.elem).scalars;
      for (uint32_t i = 0; i < ti.count; ++i)
        io_leaves(ti.elem, nullptr, nullptr, location, component, reg + i * es, is_input, name, false);
      const TypeInfo& et = type(ti.elem);
      vector_size = et.kind == TypeInfo::Vector ? et.count : 1;
      break;
    }
    default: fail("unsupported interface variable type");
  }
  if (top || md != nullptr) {
    InterfaceVariable iv;
    iv.name = name;
    iv.location = first_location;
    iv.component = component;
    iv.location_count = location - first_location;
    iv.vector_size = vector_size;
    iv.scalar = leaf_scalar(t);
    const bool flat = (d && d->flat) || (md && md->flat);
    iv.flat = flat || iv.scalar != ScalarType::Float32;
    iv.noperspective = (d && d->noperspective) || (md && md->noperspective);
    iv.centroid = (d && d->centroid) || (md && md->centroid);
    iv.sample = (d && d->sample) || (md && md->sample);
    if (is_input && iv.sample) info_.sample_interpolation = true;
    (is_input ? info_.inputs : info_.outputs).push_back(iv);
  }
}

void Decoder::declare_global_variable(const Instr& in) {
  uint32_t ptr_type = in[1], id = in[2], storage = in[3];
  const TypeInfo& pt = type(ptr_type);
  uint32_t pointee = pt.elem;
  const Deco* d = deco(id);
  Ptr p;
  p.pointee = pointee;
  p.storage = storage;
  std::string name = names_.count(id) ? names_[id] : "%" + std::to_string(id);
  switch (storage) {
    case spv::StorageClassWorkgroup: {
      // Shared by the workgroup's invocations: words of Bindings::workgroup_memory, laid out like
      // registers (aggregates flattened). Vulkan leaves it uninitialised; the runner zeroes it.
      p.space = Space::Shared;
      p.var_scalars = type(pointee).scalars;
      p.var_base = info_.workgroup_words;
      if (uint64_t{info_.workgroup_words} + p.var_scalars > (1u << 20)) fail("Workgroup storage too large");
      info_.workgroup_words += p.var_scalars;
      break;
    }
    case spv::StorageClassInput: case spv::StorageClassOutput: case spv::StorageClassPrivate: {
      if (storage == spv::StorageClassInput || storage == spv::StorageClassOutput) {
        if (std::find(interface_.begin(), interface_.end(), id) == interface_.end()) break;  // other entry point
      }
      p.space = Space::Reg;
      p.var_scalars = type(pointee).scalars;
      p.var_base = alloc(p.var_scalars);
      if (in.wc > 4) {
        uint32_t init = reg_of(in[4]);
        for (uint32_t i = 0; i < p.var_scalars; ++i) p_.init_copies.push_back({p.var_base + i, init + i});
      } else if (storage != spv::StorageClassInput) {
        p_.zero_ranges.push_back({p.var_base, p.var_scalars});
      }
      if (storage == spv::StorageClassInput || storage == spv::StorageClassOutput) {
        uint32_t loc = d && d->location >= 0 ? static_cast<uint32_t>(d->location) : 0;
        io_leaves(pointee, d, nullptr, loc, d ? d->component : 0, p.var_base,
                  storage == spv::StorageClassInput, name, true);
      }
      break;
    }
    case spv::StorageClassUniform: case spv::StorageClassStorageBuffer: case spv::StorageClassPushConstant: {
      p.space = Space::Buffer;
      uint32_t block_type = pointee;
      uint32_t array_size = 1;
      if (type(pointee).kind == TypeInfo::Array) {
        array_size = type(pointee).count;
        block_type = type(pointee).elem;
      }
      if (type(block_type).kind != TypeInfo::Struct) fail("buffer variable is not a block");
      std::vector<uint32_t> leaves;
      uint32_t size = 0;
      {
        const TypeInfo& bt = type(block_type);
        for (uint32_t m = 0; m < bt.members.size(); ++m) {
          MemberDeco md = member_deco(block_type, m);
          leaves.clear();
          if (type(bt.members[m]).kind != TypeInfo::RuntimeArray)
            buffer_leaves(bt.members[m], md.offset, md.matrix_stride, md.row_major, 4, leaves);
          for (uint32_t l : leaves) size = std::max(size, l + 4);
        }
      }
      if (storage == spv::StorageClassPushConstant) {
        p.buffer = kPushConstants;
        info_.push_constant_size = size;
      } else {
        // One resource per element; devices expose at most a few hundred buffer descriptors per
        // stage (maxPerStageDescriptorUniformBuffers / StorageBuffers), so a larger array is
        // damage, not a shader to run.
        if (array_size == 0 || array_size > 1024) {
          fail("buffer descriptor array of " + std::to_string(array_size) + " elements (1 to 1024 supported)");
        }
        p.descriptor_array = type(pointee).kind == TypeInfo::Array;
        p.descriptors = array_size;
        const Deco* bd = deco(block_type);
        ResourceBinding rb;
        rb.name = name;
        rb.set = d ? d->set : 0;
        rb.binding = d ? d->binding : 0;
        rb.kind = (storage == spv::StorageClassStorageBuffer || (bd && bd->buffer_block))
                      ? ResourceKind::StorageBuffer : ResourceKind::UniformBuffer;
        rb.block_size = size;
        p.buffer = static_cast<uint32_t>(resources_.size());
        for (uint32_t k = 0; k < array_size; ++k) {
          rb.array_element = k;
          resources_.push_back(rb);
        }
      }
      break;
    }
    case spv::StorageClassUniformConstant: {
      p.space = Space::Handle;
      uint32_t t = pointee;
      uint32_t array_size = 1;
      if (type(t).kind == TypeInfo::Array) { array_size = type(t).count; t = type(t).elem; }
      ResourceBinding rb;
      rb.name = name;
      rb.set = d ? d->set : 0;
      rb.binding = d ? d->binding : 0;
      rb.array_size = array_size;
      switch (type(t).kind) {
        case TypeInfo::SampledImage: rb.kind = ResourceKind::CombinedImageSampler; break;
        case TypeInfo::Sampler: rb.kind = ResourceKind::Sampler; break;
        case TypeInfo::Image: rb.kind = type(t).count == 2 ? ResourceKind::StorageImage : ResourceKind::SampledImage; break;
        default: fail("unsupported UniformConstant variable type");
      }
      p.resource = static_cast<uint32_t>(resources_.size());
      resources_.push_back(rb);
      break;
    }
    default: fail("unsupported storage class " + std::to_string(storage));
  }
  Value v;
  v.kind = ValKind::Ptr;
  v.type = ptr_type;
  v.ptr = static_cast<uint32_t>(ptrs_.size());
  ptrs_.push_back(p);
  values_[id] = v;
}

void Decoder::run() {
  parse();
  // Pass 1: module-level declarations.
  bool found_entry = false;
  for (size_t i = 0; i < instrs_.size(); ++i) {
    const Instr& in = instrs_[i];
    switch (in.op) {
      case spv::OpCapability: case spv::OpExtension: case spv::OpMemoryModel: case spv::OpSource:
      case spv::OpSourceContinued: case spv::OpSourceExtension: case spv::OpString: case spv::OpLine:
      case spv::OpNoLine: case spv::OpModuleProcessed: case spv::OpMemberName: case spv::OpNop:
      case spv::OpDecorationGroup: case spv::OpDecorateString: case spv::OpMemberDecorateString:
        break;
      case spv::OpExecutionModeId:
        // LocalSizeId: the sizes are constant ids, resolved once the constants are declared.
        if (found_entry && in[1] == entry_function_ && in[2] == spv::ExecutionModeLocalSizeId)
          for (int k = 0; k < 3; ++k) local_size_ids_[k] = in[3 + static_cast<uint32_t>(k)];
        break;
      case spv::OpName: names_[in[1]] = literal_string(in, 2); break;
      case spv::OpExtInstImport: {
        std::string set = literal_string(in, 2);
        if (set == "GLSL.std.450") glsl_set_ = in[1];
        else if (set.rfind("NonSemantic.", 0) != 0) fail("unsupported extended instruction set " + set);
        break;
      }
      case spv::OpEntryPoint: {
        std::string name = literal_string(in, 3);
        const spv::ExecutionModel want = stage_ == Stage::Vertex     ? spv::ExecutionModelVertex
                                         : stage_ == Stage::Fragment ? spv::ExecutionModelFragment
                                                                     : spv::ExecutionModelGLCompute;
        if (name == entry_ && in[1] == static_cast<uint32_t>(want)) {
          found_entry = true;
          entry_function_ = in[2];
          uint32_t w = 3 + static_cast<uint32_t>(name.size() / 4 + 1);
          for (; w < in.wc; ++w) interface_.push_back(in[w]);
        }
        break;
      }
      case spv::OpExecutionMode:
        if (found_entry && in[1] == entry_function_) {
          if (in[2] == spv::ExecutionModeOriginLowerLeft) info_.origin_upper_left = false;
          if (in[2] == spv::ExecutionModeEarlyFragmentTests) info_.early_fragment_tests = true;
          if (in[2] == spv::ExecutionModeLocalSize)
            for (uint32_t k = 0; k < 3; ++k) info_.local_size[k] = in[3 + k];
        }
        break;
      case spv::OpDecorate: {
        Deco& d = decos_[in[1]];
        switch (in[2]) {
          case spv::DecorationLocation: d.location = static_cast<int32_t>(in[3]); break;
          case spv::DecorationComponent: d.component = in[3]; break;
          case spv::DecorationBuiltIn: d.builtin = static_cast<int32_t>(in[3]); break;
          case spv::DecorationDescriptorSet: d.set = in[3]; break;
          case spv::DecorationBinding: d.binding = in[3]; break;
          case spv::DecorationArrayStride: d.array_stride = in[3]; break;
          case spv::DecorationFlat: d.flat = true; break;
          case spv::DecorationNoPerspective: d.noperspective = true; break;
          case spv::DecorationCentroid: d.centroid = true; break;
          case spv::DecorationSample: d.sample = true; break;
          case spv::DecorationBlock: d.block = true; break;
          case spv::DecorationBufferBlock: d.buffer_block = true; break;
          default: break;
        }
        break;
      }
      case spv::OpMemberDecorate: {
        Deco& d = decos_[in[1]];
        if (in[2] > 4096) fail("member index too large");
        if (d.members.size() <= in[2]) d.members.resize(in[2] + 1);
        MemberDeco& m = d.members[in[2]];
        switch (in[3]) {
          case spv::DecorationOffset: m.offset = in[4]; break;
          case spv::DecorationMatrixStride: m.matrix_stride = in[4]; break;
          case spv::DecorationRowMajor: m.row_major = true; break;
          case spv::DecorationColMajor: m.row_major = false; break;
          case spv::DecorationBuiltIn: m.builtin = static_cast<int32_t>(in[4]); break;
          case spv::DecorationLocation: m.location = static_cast<int32_t>(in[4]); break;
          case spv::DecorationFlat: m.flat = true; break;
          case spv::DecorationNoPerspective: m.noperspective = true; break;
          case spv::DecorationCentroid: m.centroid = true; break;
          case spv::DecorationSample: m.sample = true; break;
          default: break;
        }
        break;
      }
      case spv::OpTypeVoid: case spv::OpTypeBool: case spv::OpTypeInt: case spv::OpTypeFloat:
      case spv::OpTypeVector: case spv::OpTypeMatrix: case spv::OpTypeArray: case spv::OpTypeRuntimeArray:
      case spv::OpTypeStruct: case spv::OpTypePointer: case spv::OpTypeFunction: case spv::OpTypeImage:
      case spv::OpTypeSampler: case spv::OpTypeSampledImage:
        declare_type(in);
        break;
      case spv::OpConstant: case spv::OpConstantTrue: case spv::OpConstantFalse: case spv::OpConstantNull:
      case spv::OpConstantComposite: case spv::OpSpecConstant: case spv::OpSpecConstantTrue:
      case spv::OpSpecConstantFalse: case spv::OpSpecConstantComposite:
        declare_constant(in);
        break;
      case spv::OpUndef:
        declare_constant(in);
        break;
      case spv::OpVariable:
        if (!found_entry) fail("entry point '" + entry_ + "' not found for this stage");
        declare_global_variable(in);
        break;
      case spv::OpFunction:
        if (in[2] == entry_function_ && found_entry) {
          function_begin_ = i;
          for (size_t j = i; j < instrs_.size(); ++j)
            if (instrs_[j].op == spv::OpFunctionEnd) { function_end_ = j; break; }
        }
        // Skip function bodies here; only the entry function is decoded.
        while (i < instrs_.size() && instrs_[i].op != spv::OpFunctionEnd) ++i;
        break;
      default:
        fail("unsupported opcode " + opcode_name(in.op) + " at module scope");
    }
  }
  if (!found_entry) fail("entry point '" + entry_ + "' not found for this stage");
  if (function_end_ == 0) fail("entry point function not found");
  if (stage_ == Stage::Compute) resolve_local_size();
  decode_function();
  p_.scratch = alloc(32);
}

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

// The workgroup size (SPIR-V "LocalSize", "LocalSizeId", and the WorkgroupSize built-in, which
// takes precedence when present): specialization constants are frozen by now.
void Decoder::resolve_local_size() {
  const auto constant = [&](uint32_t reg) -> std::optional<uint32_t> {
    for (const auto& [r, bits] : p_.constants)
      if (r == reg) return bits;
    return std::nullopt;
  };
  if (local_size_ids_[0] != 0) {
    for (int k = 0; k < 3; ++k) {
      auto v = const_u32(local_size_ids_[k]);
      if (!v) fail("LocalSizeId operand is not a constant");
      info_.local_size[k] = *v;
    }
  }
  for (const auto& [id, d] : decos_) {
    if (d.builtin != spv::BuiltInWorkgroupSize || id >= values_.size() || values_[id].kind != ValKind::Reg) continue;
    for (uint32_t k = 0; k < 3; ++k) {
      auto v = constant(values_[id].reg + k);
      if (!v) fail("WorkgroupSize is not a constant");
      info_.local_size[k] = *v;
    }
  }
  const uint64_t invocations = uint64_t{info_.local_size[0]} * info_.local_size[1] * info_.local_size[2];
  // maxComputeWorkGroupInvocations is at most 1024 on the devices captures come from.
  if (invocations == 0 || invocations > 1024) fail("workgroup of " + std::to_string(invocations) + " invocations");
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

void Decoder::decode_instruction(const Instr& in) {
  Block& blk = p_.blocks[cur_block_];
  switch (in.op) {
    case spv::OpLabel: {
      cur_block_ = label_block_.at(in[1]);
      p_.blocks[cur_block_].first = static_cast<uint32_t>(p_.insts.size());
      return;
    }
    case spv::OpSelectionMerge: case spv::OpLoopMerge: case spv::OpLine: case spv::OpNoLine: case spv::OpNop:
    case spv::OpFunctionParameter:
      return;
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
      Value v;
      v.kind = ValKind::Ptr;
      v.type = in[1];
      v.ptr = static_cast<uint32_t>(ptrs_.size());
      ptrs_.push_back(p);
      values_[in[2]] = v;
      return;
    }
    default: break;
  }
  blk.spirv_count++;
  info_.spirv_instruction_count++;
  classify(in, blk.ops);
  auto finish_block = [&](Terminator t) {
    blk.term = t;
    blk.count = static_cast<uint32_t>(p_.insts.size()) - blk.first;
  };
  auto scalars_of_id = [&](uint32_t id) { return type(val(id).type).scalars; };
  auto alias = [&](uint32_t id, uint32_t t, uint32_t reg) {
    values_[id].kind = ValKind::Reg;
    values_[id].type = t;
    values_[id].reg = reg;
  };

  if (auto op = simple_op(in.op)) {
    uint32_t d = reg_of(in[2]);
    uint32_t n = type(in[1]).scalars;
    uint32_t ops = in.wc - 3;
    if (ops < 1 || ops > 2) fail("malformed " + opcode_name(in.op));
    Inst& ins = emit(*op, d, n, reg_of(in[3]), ops > 1 ? reg_of(in[4]) : 0);
    ins.sa = scalars_of_id(in[3]) == 1 ? 0 : 1;
    if (ops > 1) ins.sb = scalars_of_id(in[4]) == 1 ? 0 : 1;
    if (n == 1) ins.sa = ins.sb = 1;
    return;
  }

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
      return;
    }
    case spv::OpCopyObject: case spv::OpCopyLogical: case spv::OpBitcast: case spv::OpSConvert:
    case spv::OpUConvert: case spv::OpFConvert: {
      if (!is_value_type(in[1])) {  // copies of pointers / handles
        values_[in[2]] = val(in[3]);
        return;
      }
      alias(in[2], in[1], reg_of(in[3]));
      return;
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
      return;
    }
    case spv::OpCompositeConstruct: {
      uint32_t d = reg_of(in[2]), off = 0;
      for (uint32_t w = 3; w < in.wc; ++w) {
        uint32_t n = scalars_of_id(in[w]);
        emit_copy(d + off, reg_of(in[w]), n);
        off += n;
      }
      return;
    }
    case spv::OpVectorShuffle: {
      uint32_t d = reg_of(in[2]);
      uint32_t v1 = reg_of(in[3]), v2 = reg_of(in[4]), n1 = scalars_of_id(in[3]);
      for (uint32_t w = 5; w < in.wc; ++w) {
        uint32_t c = in[w];
        if (c == 0xffffffffu) continue;
        emit_copy(d + (w - 5), c < n1 ? v1 + c : v2 + (c - n1), 1);
      }
      return;
    }
    case spv::OpSelect: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(IOp::Select, reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.sa = (scalars_of_id(in[3]) == 1) ? 0 : 1;
      return;
    }
    case spv::OpQuantizeToF16: emit(IOp::QuantizeToF16, reg_of(in[2]), type(in[1]).scalars, reg_of(in[3])); return;
    case spv::OpIAddCarry: case spv::OpISubBorrow: case spv::OpUMulExtended: case spv::OpSMulExtended: {
      IOp op = in.op == spv::OpIAddCarry ? IOp::IAddCarry : in.op == spv::OpISubBorrow ? IOp::ISubBorrow
             : in.op == spv::OpUMulExtended ? IOp::UMulExtended : IOp::SMulExtended;
      emit(op, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3]), reg_of(in[4]));
      return;
    }
    case spv::OpVectorExtractDynamic: {
      emit(IOp::VectorExtractDynamic, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3]), reg_of(in[4]));
      return;
    }
    case spv::OpVectorInsertDynamic: {
      emit(IOp::VectorInsertDynamic, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      return;
    }
    case spv::OpCopyMemory: {
      const Value& dv = val(in[1]);
      const Value& sv = val(in[2]);
      if (dv.kind != ValKind::Ptr || sv.kind != ValKind::Ptr) fail("OpCopyMemory of non-pointers");
      const Ptr dp = ptrs_[dv.ptr], sp = ptrs_[sv.ptr];
      if (dp.space != Space::Reg || sp.space != Space::Reg || dp.has_dyn || sp.has_dyn)
        fail("unsupported: OpCopyMemory other than between private/function variables");
      emit_copy(dp.var_base + dp.static_off, sp.var_base + sp.static_off, type(dp.pointee).scalars);
      return;
    }
    case spv::OpBitFieldSExtract: case spv::OpBitFieldUExtract: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(in.op == spv::OpBitFieldSExtract ? IOp::BitFieldSExtract : IOp::BitFieldUExtract,
                       reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.sb = ins.sc = 0;  // Offset and Count are scalars (SPIR-V spec OpBitFieldSExtract)
      return;
    }
    case spv::OpBitFieldInsert: {
      uint32_t n = type(in[1]).scalars;
      Inst& ins = emit(IOp::BitFieldInsert, reg_of(in[2]), n, reg_of(in[3]), reg_of(in[4]), reg_of(in[5]));
      ins.x = reg_of(in[6]);
      ins.sc = 0;
      return;
    }
    case spv::OpUndef: {
      p_.zero_ranges.push_back({reg_of(in[2]), type(in[1]).scalars});
      return;
    }
    case spv::OpDot: emit(IOp::Dot, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3]), reg_of(in[4])); return;
    case spv::OpAny: emit(IOp::Any, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3])); return;
    case spv::OpAll: emit(IOp::All, reg_of(in[2]), scalars_of_id(in[3]), reg_of(in[3])); return;
    case spv::OpVectorTimesScalar: case spv::OpMatrixTimesScalar: {
      Inst& ins = emit(IOp::FMul, reg_of(in[2]), type(in[1]).scalars, reg_of(in[3]), reg_of(in[4]));
      ins.sb = 0;
      return;
    }
    case spv::OpMatrixTimesVector: {
      const TypeInfo& mt = type(val(in[3]).type);
      uint32_t rows = type(mt.elem).count;
      Inst& ins = emit(IOp::MatTimesVec, reg_of(in[2]), rows, reg_of(in[3]), reg_of(in[4]));
      ins.m = static_cast<uint16_t>(mt.count);
      return;
    }
    case spv::OpVectorTimesMatrix: {
      const TypeInfo& mt = type(val(in[4]).type);
      uint32_t rows = type(mt.elem).count;
      for (uint32_t j = 0; j < mt.count; ++j)
        emit(IOp::Dot, reg_of(in[2]) + j, rows, reg_of(in[3]), reg_of(in[4]) + j * rows);
      return;
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
      return;
    }
    case spv::OpOuterProduct: {
      uint32_t rows = scalars_of_id(in[3]), cols = scalars_of_id(in[4]);
      for (uint32_t j = 0; j < cols; ++j) {
        Inst& ins = emit(IOp::FMul, reg_of(in[2]) + j * rows, rows, reg_of(in[3]), reg_of(in[4]) + j);
        ins.sb = 0;
      }
      return;
    }
    case spv::OpTranspose: {
      const TypeInfo& st = type(val(in[3]).type);
      uint32_t cols = st.count, rows = type(st.elem).count;
      uint32_t d = reg_of(in[2]), s = reg_of(in[3]);
      for (uint32_t i = 0; i < cols; ++i)
        for (uint32_t j = 0; j < rows; ++j) emit_copy(d + j * cols + i, s + i * rows + j, 1);
      return;
    }
    case spv::OpLoad: {
      const Value& pv = val(in[3]);
      if (pv.kind != ValKind::Ptr) fail("OpLoad from a non-pointer");
      const Ptr p = ptrs_[pv.ptr];
      if (p.space == Space::Handle) {
        Handle h;
        const TypeInfo& t = type(p.pointee);
        h.element = p.element;
        if (t.kind == TypeInfo::SampledImage) {
          h.image_resource = h.sampler_resource = p.resource;
          h.image_type = t.elem;
        } else if (t.kind == TypeInfo::Image) {
          h.image_resource = p.resource;
          h.image_type = p.pointee;
        } else {
          h.sampler_resource = p.resource;
        }
        values_[in[2]].kind = ValKind::Handle;
        values_[in[2]].type = in[1];
        values_[in[2]].handle = static_cast<uint32_t>(handles_.size());
        handles_.push_back(h);
        return;
      }
      uint32_t d = reg_of(in[2]);
      uint32_t n = type(in[1]).scalars;
      if (p.space == Space::Texel) fail("unsupported: OpLoad through an OpImageTexelPointer");
      if (p.space == Space::Shared) {
        MemAccess m;
        m.base = p.var_base;
        m.static_off = p.static_off;
        m.dyn = p.dyn;
        m.has_dyn = p.has_dyn;
        m.limit = p.var_scalars - n;
        emit(IOp::LoadShared, d, n).x = static_cast<uint32_t>(p_.mem.size());
        p_.mem.push_back(std::move(m));
        return;
      }
      if (p.space == Space::Reg) {
        if (!p.has_dyn) {
          emit_copy(d, p.var_base + p.static_off, n);
        } else {
          MemAccess m;
          m.base = p.var_base;
          m.static_off = p.static_off;
          m.dyn = p.dyn;
          m.has_dyn = true;
          m.limit = p.var_scalars - n;
          emit(IOp::LoadDynamic, d, n).x = static_cast<uint32_t>(p_.mem.size());
          p_.mem.push_back(std::move(m));
        }
        return;
      }
      MemAccess m;
      m.buffer = p.buffer;
      m.base = p.static_off;
      m.dyn = p.dyn;
      m.has_dyn = p.has_dyn;
      if (p.descriptor_array) fail("unsupported: OpLoad of a whole buffer descriptor array");
      buffer_leaves(in[1], 0, p.matrix_stride, p.row_major, p.comp_stride, m.leaf_offsets);
      emit(IOp::LoadBuffer, d, n).x = static_cast<uint32_t>(p_.mem.size());
      p_.mem.push_back(std::move(m));
      return;
    }
    case spv::OpStore: store(in); return;
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: access_chain(in); return;
    case spv::OpSampledImage: {
      const Value& iv = val(in[3]);
      const Value& sv = val(in[4]);
      if (iv.kind != ValKind::Handle || sv.kind != ValKind::Handle) fail("OpSampledImage of non-handles");
      Handle h = handles_[iv.handle];
      h.sampler_resource = handles_[sv.handle].sampler_resource;
      values_[in[2]] = Value{ValKind::Handle, in[1], 0, 0, static_cast<uint32_t>(handles_.size())};
      handles_.push_back(h);
      return;
    }
    case spv::OpImage: {
      values_[in[2]] = val(in[3]);
      if (values_[in[2]].kind != ValKind::Handle) fail("OpImage of a non-handle");
      return;
    }
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod: case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageFetch: case spv::OpImageGather: case spv::OpImageDrefGather:
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize: case spv::OpImageQueryLevels:
    case spv::OpImageQueryLod:
      image_inst(in);
      return;
    case spv::OpImageRead:
      image_inst(in);
      return;
    case spv::OpImageWrite: image_write(in); return;
    case spv::OpImageTexelPointer: {
      // A pointer to one texel of a storage image, for atomics (SPIR-V "OpImageTexelPointer").
      const Value& iv = val(in[3]);
      if (iv.kind != ValKind::Ptr || ptrs_[iv.ptr].space != Space::Handle) fail("OpImageTexelPointer on a non-image");
      Ptr tp = ptrs_[iv.ptr];
      if (type(tp.pointee).kind != TypeInfo::Image) fail("OpImageTexelPointer on a non-image");
      tp.space = Space::Texel;
      tp.texel_coord = reg_of(in[4]);
      tp.texel_coord_n = scalars_of_id(in[4]);
      values_[in[2]] = Value{ValKind::Ptr, in[1], 0, static_cast<uint32_t>(ptrs_.size()), 0};
      ptrs_.push_back(tp);
      return;
    }
    case spv::OpAtomicLoad: case spv::OpAtomicStore: case spv::OpAtomicExchange:
    case spv::OpAtomicCompareExchange: case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement:
    case spv::OpAtomicIAdd: case spv::OpAtomicISub: case spv::OpAtomicSMin: case spv::OpAtomicUMin:
    case spv::OpAtomicSMax: case spv::OpAtomicUMax: case spv::OpAtomicAnd: case spv::OpAtomicOr:
    case spv::OpAtomicXor:
      atomic_inst(in);
      return;
    case spv::OpArrayLength: {
      // Elements of the runtime array that ends the block: (bound range - its offset) / stride.
      const Value& pv = val(in[3]);
      if (pv.kind != ValKind::Ptr || ptrs_[pv.ptr].space != Space::Buffer) fail("OpArrayLength of a non-buffer");
      const Ptr& bp = ptrs_[pv.ptr];
      uint32_t st = bp.pointee;
      if (bp.descriptor_array) st = type(st).elem;
      const TypeInfo& t = type(st);
      if (t.kind != TypeInfo::Struct || in[4] >= t.members.size()) fail("OpArrayLength of a non-block");
      const Deco* ad = deco(t.members[in[4]]);
      if (ad == nullptr || ad->array_stride == 0) fail("OpArrayLength of an array without ArrayStride");
      Inst& ins = emit(IOp::ArrayLength, reg_of(in[2]), 1, 0, bp.static_off + member_deco(st, in[4]).offset, ad->array_stride);
      ins.x = bp.buffer;
      return;
    }
    case spv::OpControlBarrier:
      // Compute: the block ends here; the lanes wait until the whole workgroup arrived
      // (Terminator::Barrier). Other stages run one batch of independent invocations: no-op.
      if (stage_ == Stage::Compute) {
        info_.has_barrier = true;
        const uint32_t next = barrier_blocks_.at(next_barrier_++);
        blk.edge[0] = new_edge_to_block(next);
        finish_block(Terminator::Barrier);
        cur_block_ = next;
        p_.blocks[cur_block_].first = static_cast<uint32_t>(p_.insts.size());
      }
      return;
    case spv::OpMemoryBarrier:
      // Stores are visible as soon as they execute: invocations run one instruction at a time.
      return;
    case spv::OpExtInst: ext_inst(in); return;
    case spv::OpDemoteToHelperInvocation:
      info_.has_discard = true;
      emit(IOp::Demote, 0, 1);
      return;
    case spv::OpIsHelperInvocationEXT: emit(IOp::IsHelper, reg_of(in[2]), 1); return;
    case spv::OpKill: case spv::OpTerminateInvocation:
      info_.has_discard = true;
      finish_block(Terminator::Kill);
      return;
    case spv::OpReturn: finish_block(Terminator::Return); return;
    case spv::OpUnreachable: finish_block(Terminator::Unreachable); return;
    case spv::OpBranch:
      blk.edge[0] = new_edge(in[1]);
      finish_block(Terminator::Branch);
      return;
    case spv::OpBranchConditional:
      blk.cond = reg_of(in[1]);
      blk.edge[0] = new_edge(in[2]);
      blk.edge[1] = new_edge(in[3]);
      finish_block(Terminator::CondBranch);
      return;
    case spv::OpSwitch: {
      blk.cond = reg_of(in[1]);
      blk.edge[0] = new_edge(in[2]);
      blk.case_first = static_cast<uint32_t>(p_.cases.size());
      for (uint32_t w = 3; w + 1 < in.wc; w += 2) p_.cases.push_back({in[w], new_edge(in[w + 1])});
      blk.case_count = static_cast<uint32_t>(p_.cases.size()) - blk.case_first;
      finish_block(Terminator::Switch);
      return;
    }
    case spv::OpPhi: return;  // copies on the incoming edges
    default:
      fail("unsupported opcode " + opcode_name(in.op));
  }
}

// ---- Operation classes (op_class.h) ----------------------------------------------------------
//
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
    case spv::OpFDiv:
      ops[OpClass::Alu] += n;
      ops[OpClass::Sfu] += n;
      return;
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

void Decoder::access_chain(const Instr& in) {
  const Value& bv = val(in[3]);
  if (bv.kind != ValKind::Ptr) fail("OpAccessChain base is not a pointer");
  Ptr p = ptrs_[bv.ptr];
  uint32_t t = p.pointee;
  auto dynamic = [&](uint32_t index_id, uint32_t stride) {
    uint32_t r = alloc(1);
    Inst& ins = emit(IOp::OffsetMad, r, 1, p.dyn, reg_of(index_id), stride);
    ins.sb = p.has_dyn ? 1 : 0;  // sb doubles as "has previous dynamic part"
    p.dyn = r;
    p.has_dyn = true;
  };
  uint32_t first_index = 4;
  if (p.space == Space::Buffer && p.descriptor_array && in.wc > 4) {
    // Each element is its own resource; a dynamic index would need the descriptor chosen per
    // lane (SPIR-V allows it only with the runtime descriptor array capabilities).
    auto c = const_u32(in[4]);
    if (!c) fail("unsupported: dynamic index into a buffer descriptor array");
    if (*c >= p.descriptors) fail("index " + std::to_string(*c) + " past a buffer descriptor array of " +
                                  std::to_string(p.descriptors));
    p.buffer += *c;
    t = type(t).elem;
    p.descriptor_array = false;
    first_index = 5;
  }
  for (uint32_t w = first_index; w < in.wc; ++w) {
    uint32_t idx = in[w];
    auto c = const_u32(idx);
    const TypeInfo& ti = type(t);
    switch (p.space) {
      case Space::Texel: fail("OpAccessChain on an OpImageTexelPointer");
      case Space::Reg:
      case Space::Shared:
        if (c) {
          p.static_off += member_scalar_offset(ti, *c);
          t = child_type(ti, *c);
        } else {
          if (ti.kind == TypeInfo::Struct) fail("dynamic struct index");
          dynamic(idx, type(ti.elem).scalars);
          t = ti.elem;
        }
        break;
      case Space::Buffer: {
        uint32_t stride = 0;
        uint32_t next_comp_stride = 4;
        if (ti.kind == TypeInfo::Struct) {
          if (!c) fail("dynamic struct index");
          MemberDeco md = member_deco(t, *c);
          p.static_off += md.offset;
          p.matrix_stride = md.matrix_stride;
          p.row_major = md.row_major;
          p.comp_stride = 4;
          t = child_type(ti, *c);
          break;
        }
        if (ti.kind == TypeInfo::Array || ti.kind == TypeInfo::RuntimeArray) {
          const Deco* d = deco(t);
          stride = d ? d->array_stride : 0;
          if (stride == 0) fail("buffer array without ArrayStride");
        } else if (ti.kind == TypeInfo::Matrix) {
          stride = p.row_major ? 4 : p.matrix_stride;
          next_comp_stride = p.row_major ? p.matrix_stride : 4;
        } else if (ti.kind == TypeInfo::Vector) {
          stride = p.comp_stride;
        } else {
          fail("index into a scalar");
        }
        if (c) p.static_off += *c * stride; else dynamic(idx, stride);
        p.comp_stride = next_comp_stride;
        t = ti.elem;
        break;
      }
      case Space::Handle:
        if (!c) fail("unsupported: dynamic indexing of a descriptor array");
        p.element = *c;
        t = ti.elem;
        break;
    }
  }
  p.pointee = t;
  Value v;
  v.kind = ValKind::Ptr;
  v.type = in[1];
  v.ptr = static_cast<uint32_t>(ptrs_.size());
  ptrs_.push_back(p);
  values_[in[2]] = v;
}

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
  switch (e) {
    case GLSLstd450Round: cw(IOp::Round, 1); return;
    case GLSLstd450RoundEven: cw(IOp::RoundEven, 1); return;
    case GLSLstd450Trunc: cw(IOp::Trunc, 1); return;
    case GLSLstd450FAbs: cw(IOp::FAbs, 1); return;
    case GLSLstd450SAbs: cw(IOp::SAbs, 1); return;
    case GLSLstd450FSign: cw(IOp::FSign, 1); return;
    case GLSLstd450SSign: cw(IOp::SSign, 1); return;
    case GLSLstd450Floor: cw(IOp::Floor, 1); return;
    case GLSLstd450Ceil: cw(IOp::Ceil, 1); return;
    case GLSLstd450Fract: cw(IOp::Fract, 1); return;
    case GLSLstd450Radians: cw(IOp::Radians, 1); return;
    case GLSLstd450Degrees: cw(IOp::Degrees, 1); return;
    case GLSLstd450Sin: cw(IOp::Sin, 1); return;
    case GLSLstd450Cos: cw(IOp::Cos, 1); return;
    case GLSLstd450Tan: cw(IOp::Tan, 1); return;
    case GLSLstd450Asin: cw(IOp::Asin, 1); return;
    case GLSLstd450Acos: cw(IOp::Acos, 1); return;
    case GLSLstd450Atan: cw(IOp::Atan, 1); return;
    case GLSLstd450Sinh: cw(IOp::Sinh, 1); return;
    case GLSLstd450Cosh: cw(IOp::Cosh, 1); return;
    case GLSLstd450Tanh: cw(IOp::Tanh, 1); return;
    case GLSLstd450Exp: cw(IOp::Exp, 1); return;
    case GLSLstd450Log: cw(IOp::Log, 1); return;
    case GLSLstd450Exp2: cw(IOp::Exp2, 1); return;
    case GLSLstd450Log2: cw(IOp::Log2, 1); return;
    case GLSLstd450Sqrt: cw(IOp::Sqrt, 1); return;
    case GLSLstd450InverseSqrt: cw(IOp::InverseSqrt, 1); return;
    case GLSLstd450FindILsb: cw(IOp::FindILsb, 1); return;
    case GLSLstd450FindSMsb: cw(IOp::FindSMsb, 1); return;
    case GLSLstd450FindUMsb: cw(IOp::FindUMsb, 1); return;
    case GLSLstd450Atan2: cw(IOp::Atan2, 2); return;
    case GLSLstd450Pow: cw(IOp::Pow, 2); return;
    case GLSLstd450FMin: cw(IOp::FMin, 2); return;
    case GLSLstd450UMin: cw(IOp::UMin, 2); return;
    case GLSLstd450SMin: cw(IOp::SMin, 2); return;
    case GLSLstd450FMax: cw(IOp::FMax, 2); return;
    case GLSLstd450UMax: cw(IOp::UMax, 2); return;
    case GLSLstd450SMax: cw(IOp::SMax, 2); return;
    case GLSLstd450NMin: cw(IOp::NMin, 2); return;
    case GLSLstd450NMax: cw(IOp::NMax, 2); return;
    case GLSLstd450Step: cw(IOp::Step, 2); return;
    case GLSLstd450FClamp: case GLSLstd450NClamp: cw(IOp::FClamp, 3); return;
    case GLSLstd450UClamp: cw(IOp::UClamp, 3); return;
    case GLSLstd450SClamp: cw(IOp::SClamp, 3); return;
    case GLSLstd450FMix: cw(IOp::FMix, 3); return;
    case GLSLstd450SmoothStep: cw(IOp::SmoothStep, 3); return;
    case GLSLstd450Fma: cw(IOp::Fma, 3); return;
    case GLSLstd450Ldexp: cw(IOp::Ldexp, 2); return;
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

void Decoder::store(const Instr& in) {
  const Value& pv = val(in[1]);
  if (pv.kind != ValKind::Ptr) fail("OpStore to a non-pointer");
  const Ptr p = ptrs_[pv.ptr];
  const uint32_t n = type(val(in[2]).type).scalars;
  MemAccess m;
  m.base = p.space == Space::Buffer ? p.static_off : p.var_base;
  m.static_off = p.static_off;
  m.dyn = p.dyn;
  m.has_dyn = p.has_dyn;
  m.limit = p.var_scalars - std::min(n, p.var_scalars);
  switch (p.space) {
    case Space::Reg:
      if (!p.has_dyn) {
        emit_copy(p.var_base + p.static_off, reg_of(in[2]), n);
        return;
      }
      emit(IOp::StoreDynamic, 0, n, reg_of(in[2])).x = static_cast<uint32_t>(p_.mem.size());
      break;
    case Space::Shared:
      info_.has_side_effects = true;
      emit(IOp::StoreShared, 0, n, reg_of(in[2])).x = static_cast<uint32_t>(p_.mem.size());
      break;
    case Space::Buffer:
      if (p.buffer == kPushConstants) fail("OpStore to push constants");
      if (p.descriptor_array) fail("unsupported: OpStore of a whole buffer descriptor array");
      info_.has_side_effects = true;
      m.buffer = p.buffer;
      buffer_leaves(val(in[2]).type, 0, p.matrix_stride, p.row_major, p.comp_stride, m.leaf_offsets);
      emit(IOp::StoreBuffer, 0, n, reg_of(in[2])).x = static_cast<uint32_t>(p_.mem.size());
      break;
    default: fail("unsupported: OpStore to an image or texel pointer");
  }
  p_.mem.push_back(std::move(m));
}

void Decoder::atomic_inst(const Instr& in) {
  AtomicInst a;
  uint32_t ptr_word = 3, value_word = 0, comparator_word = 0;
  switch (in.op) {
    case spv::OpAtomicLoad: a.op = AtomicOp::Load; break;
    case spv::OpAtomicStore: a.op = AtomicOp::Store, ptr_word = 1, value_word = 4, a.has_result = false; break;
    case spv::OpAtomicExchange: a.op = AtomicOp::Exchange, value_word = 6; break;
    case spv::OpAtomicCompareExchange: a.op = AtomicOp::CompareExchange, value_word = 7, comparator_word = 8; break;
    case spv::OpAtomicIIncrement: a.op = AtomicOp::IIncrement; break;
    case spv::OpAtomicIDecrement: a.op = AtomicOp::IDecrement; break;
    case spv::OpAtomicIAdd: a.op = AtomicOp::IAdd, value_word = 6; break;
    case spv::OpAtomicISub: a.op = AtomicOp::ISub, value_word = 6; break;
    case spv::OpAtomicSMin: a.op = AtomicOp::SMin, value_word = 6; break;
    case spv::OpAtomicUMin: a.op = AtomicOp::UMin, value_word = 6; break;
    case spv::OpAtomicSMax: a.op = AtomicOp::SMax, value_word = 6; break;
    case spv::OpAtomicUMax: a.op = AtomicOp::UMax, value_word = 6; break;
    case spv::OpAtomicAnd: a.op = AtomicOp::And, value_word = 6; break;
    case spv::OpAtomicOr: a.op = AtomicOp::Or, value_word = 6; break;
    default: a.op = AtomicOp::Xor, value_word = 6; break;
  }
  if (a.has_result) {
    const TypeInfo& rt = type(in[1]);
    if (rt.kind != TypeInfo::Int) fail(opcode_name(in.op) + " on a non-integer");
    a.result = reg_of(in[2]);
  }
  if (value_word) a.value = reg_of(in[value_word]);
  if (comparator_word) a.comparator = reg_of(in[comparator_word]);
  const Value& pv = val(in[ptr_word]);
  if (pv.kind != ValKind::Ptr) fail(opcode_name(in.op) + " on a non-pointer");
  const Ptr p = ptrs_[pv.ptr];
  info_.has_side_effects = info_.has_side_effects || a.op != AtomicOp::Load;
  switch (p.space) {
    case Space::Buffer: {
      if (p.descriptor_array || p.buffer == kPushConstants) fail(opcode_name(in.op) + " on a non-storage buffer");
      MemAccess m;
      m.buffer = p.buffer;
      m.base = p.static_off;
      m.dyn = p.dyn;
      m.has_dyn = p.has_dyn;
      m.leaf_offsets = {0};
      a.where = AtomicInst::Where::Buffer;
      a.mem = static_cast<uint32_t>(p_.mem.size());
      p_.mem.push_back(std::move(m));
      break;
    }
    case Space::Shared: {
      MemAccess m;
      m.base = p.var_base;
      m.static_off = p.static_off;
      m.dyn = p.dyn;
      m.has_dyn = p.has_dyn;
      m.limit = p.var_scalars - 1;
      a.where = AtomicInst::Where::Shared;
      a.mem = static_cast<uint32_t>(p_.mem.size());
      p_.mem.push_back(std::move(m));
      break;
    }
    case Space::Texel: {
      const TypeInfo& it = type(p.pointee);
      ImageInst im;
      im.storage = true;
      im.proto.op = ImageOp::Atomic;
      im.proto.atomic = a.op;
      im.proto.image_resource = p.resource;
      im.proto.array_element = p.element;
      im.proto.dim = it.dim;
      im.proto.arrayed = it.arrayed;
      im.coord = p.texel_coord;
      im.coord_n = p.texel_coord_n;
      im.integer_coords = true;
      a.where = AtomicInst::Where::Image;
      a.mem = static_cast<uint32_t>(p_.images.size());
      p_.images.push_back(std::move(im));
      break;
    }
    default: fail(opcode_name(in.op) + " on function or private memory");
  }
  emit(IOp::Atomic, a.result, 1).x = static_cast<uint32_t>(p_.atomics.size());
  p_.atomics.push_back(a);
}

void Decoder::image_write(const Instr& in) {
  // OpImageWrite <image> <coordinate> <texel> [image operands]
  const Value& hv = val(in[1]);
  if (hv.kind != ValKind::Handle) fail("OpImageWrite on a non-image value");
  const Handle& h = handles_[hv.handle];
  const TypeInfo& it = type(h.image_type);
  if (it.dim == ImageDim::SubpassData) fail("OpImageWrite on a subpass input");
  ImageInst im;
  im.storage = true;
  im.proto.op = ImageOp::Write;
  im.proto.image_resource = h.image_resource;
  im.proto.array_element = h.element;
  im.proto.dim = it.dim;
  im.proto.arrayed = it.arrayed;
  im.coord = reg_of(in[2]);
  im.coord_n = scalars_of(in[2]);
  im.integer_coords = true;
  im.texel = reg_of(in[3]);
  im.texel_n = scalars_of(in[3]);
  if (in.wc > 4 && (in[4] & 0x40u)) fail("OpImageWrite with a Sample operand (multisampled storage image)");
  info_.has_side_effects = true;
  emit(IOp::Image, 0, 0).x = static_cast<uint32_t>(p_.images.size());
  p_.images.push_back(std::move(im));
}

void Decoder::image_inst(const Instr& in) {
  ImageInst im;
  uint32_t first_operand = 0;  // word index of the optional image-operands mask
  const Value& hv = val(in[3]);
  if (hv.kind != ValKind::Handle) fail(opcode_name(in.op) + " on a non-image value");
  const Handle& h = handles_[hv.handle];
  const TypeInfo& it = type(h.image_type);
  ImageRequest& r = im.proto;
  r.image_resource = h.image_resource;
  r.sampler_resource = h.sampler_resource;
  r.array_element = h.element;
  r.dim = it.dim;
  r.arrayed = it.arrayed;
  r.depth_image = it.depth;
  r.dependent = in[2] < dependent_.size() && dependent_[in[2]];
  // Sampled = 2: a storage image (read, write, atomics and size queries without a sampler).
  im.storage = it.count == 2 && it.dim != ImageDim::SubpassData;
  im.dst = reg_of(in[2]);
  im.dst_n = type(in[1]).scalars;
  auto coord = [&](uint32_t w) {
    im.coord = reg_of(in[w]);
    im.coord_n = type(val(in[w]).type).scalars;
  };
  switch (in.op) {
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleProjImplicitLod:
      r.op = ImageOp::SampleImplicitLod; coord(4); first_operand = 5; break;
    case spv::OpImageSampleExplicitLod: case spv::OpImageSampleProjExplicitLod:
      r.op = ImageOp::SampleExplicitLod; coord(4); first_operand = 5; break;
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleProjDrefImplicitLod:
      r.op = ImageOp::SampleDrefImplicitLod; coord(4); im.dref = reg_of(in[5]); im.has_dref = true; first_operand = 6; break;
    case spv::OpImageSampleDrefExplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
      r.op = ImageOp::SampleDrefExplicitLod; coord(4); im.dref = reg_of(in[5]); im.has_dref = true; first_operand = 6; break;
    case spv::OpImageFetch:
      r.op = ImageOp::Fetch; coord(4); im.integer_coords = true; first_operand = 5; break;
    case spv::OpImageGather: {
      r.op = ImageOp::Gather; coord(4);
      auto c = const_u32(in[5]);
      if (!c) fail("OpImageGather with a non-constant component");
      r.gather_component = *c;
      first_operand = 6;
      break;
    }
    case spv::OpImageDrefGather:
      r.op = ImageOp::DrefGather; coord(4); im.dref = reg_of(in[5]); im.has_dref = true; first_operand = 6; break;
    case spv::OpImageQuerySizeLod:
      r.op = ImageOp::QuerySizeLod; im.lod = reg_of(in[4]); im.has_lod = true; im.lod_is_int = true; break;
    case spv::OpImageQuerySize: r.op = ImageOp::QuerySize; break;
    case spv::OpImageQueryLevels: r.op = ImageOp::QueryLevels; break;
    case spv::OpImageQueryLod: r.op = ImageOp::QueryLod; coord(4); break;
    case spv::OpImageRead:
      if (it.dim == ImageDim::SubpassData) fail("unsupported: OpImageRead of a subpass input (input attachment)");
      r.op = ImageOp::Read; coord(4); im.integer_coords = true; first_operand = 5; break;
    default: fail("unsupported opcode " + opcode_name(in.op));
  }
  im.proj = in.op == spv::OpImageSampleProjImplicitLod || in.op == spv::OpImageSampleProjExplicitLod ||
            in.op == spv::OpImageSampleProjDrefImplicitLod || in.op == spv::OpImageSampleProjDrefExplicitLod;
  im.implicit_derivatives = (r.op == ImageOp::SampleImplicitLod || r.op == ImageOp::SampleDrefImplicitLod ||
                             r.op == ImageOp::QueryLod);
  if (im.implicit_derivatives && stage_ != Stage::Fragment) fail(opcode_name(in.op) + " outside a fragment shader");
  if (first_operand != 0 && first_operand < in.wc) {
    uint32_t mask = in[first_operand];
    uint32_t w = first_operand + 1;
    // Bias, Lod, Grad, ConstOffset, MinLod; the memory-model and sign bits (0x100 and up) carry
    // nothing this interpreter needs (every access is visible at once, texels are 32-bit).
    if (mask & ~(0x1u | 0x2u | 0x4u | 0x8u | 0x80u | 0x7f00u))
      fail(opcode_name(in.op) + " with unsupported image operands 0x" + std::to_string(mask));
    if (mask & 0x1u) { im.bias = reg_of(in[w++]); im.has_bias = true; }
    if (mask & 0x2u) {
      im.lod = reg_of(in[w]);
      im.has_lod = true;
      im.lod_is_int = type(val(in[w]).type).kind == TypeInfo::Int;
      ++w;
    }
    if (mask & 0x4u) { im.grad_x = reg_of(in[w++]); im.grad_y = reg_of(in[w++]); im.has_grad = true; }
    if (mask & 0x8u) {
      const Value& ov = val(in[w++]);
      if (ov.kind != ValKind::Reg) fail("ConstOffset is not a constant");
      uint32_t n = std::min(type(ov.type).scalars, 3u);
      for (uint32_t k = 0; k < n; ++k) {
        auto itc = std::find_if(p_.constants.begin(), p_.constants.end(),
                                [&](const auto& e) { return e.first == ov.reg + k; });
        if (itc == p_.constants.end()) fail("ConstOffset is not a constant");
        r.offset[k] = static_cast<int32_t>(itc->second);
      }
      r.has_offset = true;
    }
    if (mask & 0x80u) { im.min_lod = reg_of(in[w++]); im.has_min_lod = true; }
  }
  emit(IOp::Image, im.dst, im.dst_n).x = static_cast<uint32_t>(p_.images.size());
  p_.images.push_back(std::move(im));
}

}  // namespace

ShaderModule::ShaderModule() = default;
ShaderModule::~ShaderModule() = default;

std::unique_ptr<ShaderModule> ShaderModule::create(std::span<const uint32_t> words, std::string_view entry_point,
                                                   Stage stage, std::span<const SpecConstantValue> spec_constants,
                                                   std::string& error) {
  const XXH128_hash_t h = XXH3_128bits(words.data(), words.size_bytes());
  char hash_text[33];
  std::snprintf(hash_text, sizeof hash_text, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  const std::string hash = hash_text;
  const std::string prefix = "shader " + hash + ": ";
  if (words.size() < 5 || words[0] != 0x07230203u) {
    error = prefix + "not a SPIR-V module (bad magic or too short)";
    return nullptr;
  }
  // Vulkan 1.3 rules accept every SPIR-V version up to 1.6 that captured apps may use.
  const spv_target_env env = SPV_ENV_VULKAN_1_3;
  std::string first_message;
  auto consumer = [&first_message](spv_message_level_t level, const char*, const spv_position_t& pos, const char* msg) {
    if (level > SPV_MSG_ERROR || !first_message.empty()) return;
    // One line: the validator appends the disassembled instruction on its own line.
    std::string text;
    for (const char* c = msg; *c != 0; ++c) {
      if (*c == '\n') {
        if (!text.empty() && text.back() != ' ') text += " |";
        continue;
      }
      if (*c == ' ' && !text.empty() && text.back() == ' ') continue;
      text.push_back(*c);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '|')) text.pop_back();
    first_message = text + " (word " + std::to_string(pos.index) + ")";
  };
  spvtools::SpirvTools tools(env);
  tools.SetMessageConsumer(consumer);
  // Layout rules: captured apps may use VK_EXT_scalar_block_layout (core in Vulkan 1.2, and
  // what Zink emits for GL uniforms: arrays of uint with stride 4), so validate block layout
  // with the most permissive rules a Vulkan 1.3 device can enable.
  spvtools::ValidatorOptions validator_options;
  validator_options.SetScalarBlockLayout(true);
  validator_options.SetRelaxBlockLayout(true);
  validator_options.SetUniformBufferStandardLayout(true);
  if (!tools.Validate(words.data(), words.size(), validator_options)) {
    error = prefix + "invalid SPIR-V: " + first_message;
    return nullptr;
  }
  // Normalisation (the order follows the optimizer's own performance recipe): freeze the
  // specialization constants to the pipeline's values, inline everything, then rewrite
  // function-local memory into SSA so only real memory remains as loads and stores.
  spvtools::Optimizer opt(env);
  opt.SetMessageConsumer(consumer);
  std::unordered_map<uint32_t, std::vector<uint32_t>> spec;
  for (const SpecConstantValue& s : spec_constants) spec[s.spec_id] = {s.bits};
  if (!spec.empty()) opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec));
  opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
      .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateMergeReturnPass())  // single-return callees inline anywhere
      .RegisterPass(spvtools::CreateInlineExhaustivePass())
      .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreatePrivateToLocalPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateScalarReplacementPass(0))
      .RegisterPass(spvtools::CreateLocalAccessChainConvertPass())
      .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
      .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateCCPPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateDeadBranchElimPass())
      .RegisterPass(spvtools::CreateMergeReturnPass())
      .RegisterPass(spvtools::CreateSSARewritePass())
      .RegisterPass(spvtools::CreateInsertExtractElimPass())
      .RegisterPass(spvtools::CreateDeadInsertElimPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateBlockMergePass())
      .RegisterPass(spvtools::CreateCFGCleanupPass())
      .RegisterPass(spvtools::CreateAggressiveDCEPass())
      .RegisterPass(spvtools::CreateCompactIdsPass());
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // validated above
  std::unique_ptr<ShaderModule> module(new ShaderModule());
  if (!opt.Run(words.data(), words.size(), &module->optimised_, options)) {
    error = prefix + "optimizer failed: " + first_message;
    return nullptr;
  }
  module->info_.stage = stage;
  module->info_.entry_point = std::string(entry_point);
  module->info_.hash = hash;
  module->program_ = std::make_unique<Program>();
  try {
    Decoder dec(module->optimised_, entry_point, stage, module->info_, module->resources_, *module->program_);
    dec.set_dependent_reads(dependent_image_reads(module->optimised_, env));
    dec.run();
  } catch (const DecodeError& e) {
    error = prefix + e.message;
    return nullptr;
  } catch (const std::out_of_range&) {
    error = prefix + "malformed control flow (branch to an unknown block)";
    return nullptr;
  }
  module->info_.register_count = module->program_->register_count;
  return module;
}

}  // namespace tessera::shader
