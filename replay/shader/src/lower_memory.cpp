// Lowering of the memory, image and atomic instructions of the entry function: access chains
// into register offsets (private and function variables, Workgroup storage) or byte offsets
// (uniform, storage and push constant blocks, laid out by their Offset, ArrayStride and
// MatrixStride decorations), loads and stores, image sampling, fetches, queries, reads and
// writes, and atomics on buffers, Workgroup storage and storage image texels.
//
// SPIR-V rules it implements: the "Memory", "Image" and "Atomic" instruction groups; Vulkan
// rules: "Offset and Stride Assignment", and "Image Operations" for the operands each image
// instruction passes to the texture unit.
#include "decoder.h"

#include <algorithm>

namespace tessera::shader::decode {

// SPIR-V "Memory Instructions" and "Atomic Instructions".
bool Decoder::memory_inst(const Instr& in) {
  switch (in.op) {
    case spv::OpLoad: load(in); return true;
    case spv::OpStore: store(in); return true;
    case spv::OpAccessChain: case spv::OpInBoundsAccessChain: access_chain(in); return true;
    case spv::OpCopyMemory: {
      const Value& dv = val(in[1]);
      const Value& sv = val(in[2]);
      if (dv.kind != ValKind::Ptr || sv.kind != ValKind::Ptr) fail("OpCopyMemory of non-pointers");
      const Ptr dp = ptrs_[dv.ptr], sp = ptrs_[sv.ptr];
      if (dp.space != Space::Reg || sp.space != Space::Reg || dp.has_dyn || sp.has_dyn)
        fail("unsupported: OpCopyMemory other than between private/function variables");
      emit_copy(dp.var_base + dp.static_off, sp.var_base + sp.static_off, type(dp.pointee).scalars);
      return true;
    }
    case spv::OpArrayLength: array_length(in); return true;
    case spv::OpAtomicLoad: case spv::OpAtomicStore: case spv::OpAtomicExchange:
    case spv::OpAtomicCompareExchange: case spv::OpAtomicIIncrement: case spv::OpAtomicIDecrement:
    case spv::OpAtomicIAdd: case spv::OpAtomicISub: case spv::OpAtomicSMin: case spv::OpAtomicUMin:
    case spv::OpAtomicSMax: case spv::OpAtomicUMax: case spv::OpAtomicAnd: case spv::OpAtomicOr:
    case spv::OpAtomicXor:
      atomic_inst(in);
      return true;
    default: return false;
  }
}

// OpLoad: a descriptor becomes a handle value; registers, Workgroup storage and buffer memory
// become copies or loads into the result's registers.
void Decoder::load(const Instr& in) {
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
}

// OpArrayLength: elements of the runtime array that ends the block: (bound range - its offset)
// / stride.
void Decoder::array_length(const Instr& in) {
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
}

// SPIR-V "Image Instructions": the combining of image and sampler handles, the
// instructions the texture unit executes, and the texel pointer of image atomics.
bool Decoder::image_handle_inst(const Instr& in) {
  switch (in.op) {
    case spv::OpSampledImage: {
      const Value& iv = val(in[3]);
      const Value& sv = val(in[4]);
      if (iv.kind != ValKind::Handle || sv.kind != ValKind::Handle) fail("OpSampledImage of non-handles");
      Handle h = handles_[iv.handle];
      h.sampler_resource = handles_[sv.handle].sampler_resource;
      values_[in[2]] = Value{ValKind::Handle, in[1], 0, 0, static_cast<uint32_t>(handles_.size())};
      handles_.push_back(h);
      return true;
    }
    case spv::OpImage: {
      values_[in[2]] = val(in[3]);
      if (values_[in[2]].kind != ValKind::Handle) fail("OpImage of a non-handle");
      return true;
    }
    case spv::OpImageSampleImplicitLod: case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleDrefImplicitLod: case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjImplicitLod: case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod: case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageFetch: case spv::OpImageGather: case spv::OpImageDrefGather:
    case spv::OpImageQuerySizeLod: case spv::OpImageQuerySize: case spv::OpImageQueryLevels:
    case spv::OpImageQueryLod: case spv::OpImageRead:
      image_inst(in);
      return true;
    case spv::OpImageWrite: image_write(in); return true;
    case spv::OpImageTexelPointer: {
      // A pointer to one texel of a storage image, for atomics (SPIR-V "OpImageTexelPointer").
      const Value& iv = val(in[3]);
      if (iv.kind != ValKind::Ptr || ptrs_[iv.ptr].space != Space::Handle) fail("OpImageTexelPointer on a non-image");
      Ptr tp = ptrs_[iv.ptr];
      if (type(tp.pointee).kind != TypeInfo::Image) fail("OpImageTexelPointer on a non-image");
      tp.space = Space::Texel;
      tp.texel_coord = reg_of(in[4]);
      tp.texel_coord_n = scalars_of(in[4]);
      values_[in[2]] = Value{ValKind::Ptr, in[1], 0, static_cast<uint32_t>(ptrs_.size()), 0};
      ptrs_.push_back(tp);
      return true;
    }
    default: return false;
  }
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
  define_pointer(in[2], in[1], p);
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
  im.quad_derivatives = stage_ == Stage::Fragment &&
                        (r.op == ImageOp::SampleExplicitLod || r.op == ImageOp::SampleDrefExplicitLod);
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

}  // namespace tessera::shader::decode
