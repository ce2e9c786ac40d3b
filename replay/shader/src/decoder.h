// The decoder's shared state (internal to tessera_shader): what a normalised SPIR-V module
// declares (types, decorations, constants, variables as pointers into registers, buffers or
// descriptors) and the Program it lowers the entry point into. Its member functions are defined
// by job:
//   reflect.cpp      module-scope declarations -> ShaderInfo, resources, interface variables
//   lower.cpp        the entry function's control flow and arithmetic -> Program instructions
//   lower_memory.cpp memory, image and atomic instructions -> Program instructions
//   op_classes.cpp   the operation classes each SPIR-V instruction is charged
// A module reaches the decoder validated (validate.cpp) and normalised (normalise.cpp).
#pragma once

#include <glslang/SPIRV/GLSL.std.450.h>
#define SPV_ENABLE_UTILITY_CODE 1
#include <glslang/SPIRV/spirv.hpp>
#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "program.h"
#include "tessera/shader/op_class.h"
#include "tessera/shader/shader_module.h"

namespace tessera::shader::decode {


struct DecodeError {
  std::string message;
};

[[noreturn]] inline void fail(std::string message) { throw DecodeError{std::move(message)}; }

inline std::string opcode_name(uint32_t op) {
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

inline std::string literal_string(const Instr& in, uint32_t first) {
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

// The instruction of a SPIR-V opcode that maps to one component-wise Inst (lower.cpp).
std::optional<IOp> simple_op(uint32_t op);

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
  // The scalars (bits) of a constant (after normalisation, which folds the constant
  // expressions into constants), or null for any other value.
  const std::vector<uint32_t>* constant_bits(uint32_t id) const {
    auto it = constant_bits_.find(id);
    return it == constant_bits_.end() ? nullptr : &it->second;
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
  // Result `id` (of pointer type `ptr_type`) points as `p` does.
  void define_pointer(uint32_t id, uint32_t ptr_type, const Ptr& p) {
    Value v;
    v.kind = ValKind::Ptr;
    v.type = ptr_type;
    v.ptr = static_cast<uint32_t>(ptrs_.size());
    ptrs_.push_back(p);
    values_[id] = v;
  }
  void emit_copy(uint32_t d, uint32_t s, uint32_t n) {
    if (n == 0 || d == s) return;
    emit(IOp::Copy, d, n, s);
  }

  void parse();
  void declare_type(const Instr& in);
  void declare_constant(const Instr& in);
  void declare_global_variable(const Instr& in);
  void record_decoration(const Instr& in);
  void declare_buffer_block(Ptr& p, uint32_t pointee, uint32_t storage, const Deco* d, const std::string& name);
  void declare_descriptor(Ptr& p, uint32_t pointee, const Deco* d, const std::string& name);
  void builtin_leaves(int32_t builtin, const TypeInfo& ti, uint32_t reg, bool is_input);
  void io_leaves(uint32_t t, const Deco* d, const MemberDeco* md, uint32_t& location, uint32_t component,
                 uint32_t reg, bool is_input, const std::string& name, bool top);
  void buffer_leaves(uint32_t t, uint32_t off, uint32_t ms, bool rm, uint32_t cs, std::vector<uint32_t>& out) const;
  void decode_function();
  void decode_instruction(const Instr& in);
  // The instruction groups of decode_instruction (SPIR-V spec, "Instructions"), each true when `in` is
  // one of its instructions.
  bool declare_in_function(const Instr& in);
  bool arithmetic_inst(const Instr& in);
  bool composite_inst(const Instr& in);
  bool memory_inst(const Instr& in);
  bool image_handle_inst(const Instr& in);
  bool control_flow_inst(const Instr& in, Block& blk);
  void alias(uint32_t id, uint32_t t, uint32_t reg);
  void finish_block(Block& blk, Terminator t);
  void load(const Instr& in);
  void array_length(const Instr& in);
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
  std::unordered_map<uint32_t, std::vector<uint32_t>> constant_bits_;
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

}  // namespace tessera::shader::decode
