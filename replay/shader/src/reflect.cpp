// Reflection: the module-scope pass of the decoder. Reads the entry point, its execution modes
// and interface, names, decorations, types, constants and global variables of a normalised
// module, and fills ShaderInfo (stage properties, interface variables), the resource bindings
// and the Program's constants, variable registers and input/output slots.
//
// SPIR-V rules it relies on: 2.4 (Logical Layout of a Module: annotations, then types, constants
// and global variables, each declared before use) and 2.16 (Validation Rules, checked by
// validate.cpp). Vulkan rules it implements: 15.1.4 (Location Assignment) for the interface,
// "Built-In Variables", "Offset and Stride Assignment" for buffer blocks, "Descriptor Set
// Interface" for the resources, and the compute workgroup size of the LocalSize and LocalSizeId
// execution modes and the WorkgroupSize built-in.
#include "decoder.h"

#include <algorithm>

namespace tessera::shader::decode {

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
  const size_t first = p_.constants.size();
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
  if (p_.constants.size() - first == ti.scalars) {
    std::vector<uint32_t>& bits = constant_bits_[id];
    for (size_t i = first; i < p_.constants.size(); ++i) bits.push_back(p_.constants[i].second);
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

// Built-in interface variables (Vulkan spec "Built-In Variables"): the ones a stage of the
// replayer provides or consumes, each scalar an IoKind of its own.
void Decoder::builtin_leaves(int32_t builtin, const TypeInfo& ti, uint32_t reg, bool is_input) {
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
    case spv::BuiltInClipDistance: case spv::BuiltInCullDistance: {
      // Outputs clip or cull the primitive (spec "Primitive Clipping"). A fragment shader reading
      // them back would need them interpolated, which the replay does not do: refused, so the
      // draw is reported as skipped rather than shaded with zeros.
      if (is_input) {
        fail(builtin == spv::BuiltInClipDistance ? "unsupported built-in input ClipDistance"
                                                 : "unsupported built-in input CullDistance");
        break;
      }
      const bool clip = builtin == spv::BuiltInClipDistance;
      const uint32_t total = ti.scalars + (clip ? info_.cull_distances : info_.clip_distances);
      if (ti.scalars > kMaxClipCullDistances || total > kMaxClipCullDistances) {
        fail("more than 8 clip and cull distances (maxCombinedClipAndCullDistances)");
      }
      (clip ? info_.clip_distances : info_.cull_distances) = ti.scalars;
      add(clip ? IoKind::ClipDistance : IoKind::CullDistance, ti.scalars);
      break;
    }
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
}

// Interface leaves: Vulkan spec 15.1.4 (Location Assignment): a scalar or vector takes one
// location (components from `component`), a matrix one per column, arrays one per element.
void Decoder::io_leaves(uint32_t t, const Deco* d, const MemberDeco* md, uint32_t& location, uint32_t component,
                        uint32_t reg, bool is_input, const std::string& name, bool top) {
  const TypeInfo& ti = type(t);
  int32_t builtin = md ? md->builtin : (d ? d->builtin : -1);
  if (builtin >= 0) {
    builtin_leaves(builtin, ti, reg, is_input);
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
  // Appended rather than "%" + std::to_string(id): GCC 12's -Wrestrict misreads that operator+
  // once inlined here (a false positive; the same text either way).
  std::string name = "%";
  if (names_.count(id)) name = names_[id];
  else name += std::to_string(id);
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
    case spv::StorageClassUniform: case spv::StorageClassStorageBuffer: case spv::StorageClassPushConstant:
      declare_buffer_block(p, pointee, storage, d, name);
      break;
    case spv::StorageClassUniformConstant:
      declare_descriptor(p, pointee, d, name);
      break;
    default: fail("unsupported storage class " + std::to_string(storage));
  }
  define_pointer(id, ptr_type, p);
}

// A uniform, storage or push constant block (Vulkan spec "Offset and Stride Assignment"):
// its size from the members' offsets, one resource per descriptor of an array of blocks.
void Decoder::declare_buffer_block(Ptr& p, uint32_t pointee, uint32_t storage, const Deco* d, const std::string& name) {
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
}

// A sampler, image or combined image sampler variable (Vulkan spec "Descriptor Set
// Interface"): one resource, the array of descriptors it names.
void Decoder::declare_descriptor(Ptr& p, uint32_t pointee, const Deco* d, const std::string& name) {
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
}

// OpDecorate and OpMemberDecorate (SPIR-V spec "Annotation Instructions"): the decorations the
// interface, the resources and the buffer layouts depend on; the others are ignored.
void Decoder::record_decoration(const Instr& in) {
  switch (in.op) {
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
    default: break;
  }
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
      case spv::OpDecorate: case spv::OpMemberDecorate:
        record_decoration(in);
        break;
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

}  // namespace tessera::shader::decode
