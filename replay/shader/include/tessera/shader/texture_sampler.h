// The interfaces the SPIR-V interpreter calls for every image instruction. One call serves all
// active lanes of a batch, so the virtual-call cost is amortised the same way instruction
// dispatch is.
//  - TextureSampler: sampled images (OpImageSample*, OpImageFetch, OpImageGather, OpImageQuery*).
//    The texture unit (replay/texture, built separately) implements it; it also records the
//    texel-block footprint of each sample for the access stream.
//  - StorageImages: storage images (OpImageRead, OpImageWrite, image atomics through
//    OpImageTexelPointer, OpImageQuerySize). The renderer implements it on the front end's images.
#pragma once

#include <cstdint>

#include "tessera/shader/lanes.h"

namespace tessera::shader {

enum class ImageOp : uint8_t {
  SampleImplicitLod,      // OpImageSampleImplicitLod / ProjImplicitLod
  SampleExplicitLod,      // OpImageSampleExplicitLod / ProjExplicitLod (Lod or Grad operand)
  SampleDrefImplicitLod,  // OpImageSampleDrefImplicitLod / ProjDref
  SampleDrefExplicitLod,  // OpImageSampleDrefExplicitLod / ProjDref
  Fetch,                  // OpImageFetch: integer texel coordinates, `lod` is the level
  Gather,                 // OpImageGather: `gather_component` selects the channel
  DrefGather,             // OpImageDrefGather
  QuerySizeLod,           // OpImageQuerySizeLod: result = size of level `lod` (ints)
  QuerySize,              // OpImageQuerySize
  QueryLevels,            // OpImageQueryLevels: result[0] = mip count
  QueryLod,               // OpImageQueryLod: result = (mipmap array level, LOD relative to base)
  Read,                   // OpImageRead: integer coordinates, the texel as 32-bit patterns
  Write,                  // OpImageWrite: `texel` written at the integer coordinates
  Atomic,                 // an atomic instruction on OpImageTexelPointer: `atomic`, result = old value
};

// Atomic read-modify-write operations (SPIR-V "Atomic Instructions"), on 32-bit integers.
enum class AtomicOp : uint8_t {
  Load, Store, Exchange, CompareExchange, IIncrement, IDecrement, IAdd, ISub,
  SMin, UMin, SMax, UMax, And, Or, Xor,
};

// The value an atomic leaves in memory, given the old value, the instruction's Value operand and
// (CompareExchange) its Comparator: "the original value is replaced by Value if it equals
// Comparator".
inline uint32_t atomic_result(AtomicOp op, uint32_t old, uint32_t value, uint32_t comparator) {
  switch (op) {
    case AtomicOp::Load: return old;
    case AtomicOp::Store:
    case AtomicOp::Exchange: return value;
    case AtomicOp::CompareExchange: return old == comparator ? value : old;
    case AtomicOp::IIncrement: return old + 1;
    case AtomicOp::IDecrement: return old - 1;
    case AtomicOp::IAdd: return old + value;
    case AtomicOp::ISub: return old - value;
    case AtomicOp::SMin: return static_cast<int32_t>(value) < static_cast<int32_t>(old) ? value : old;
    case AtomicOp::UMin: return value < old ? value : old;
    case AtomicOp::SMax: return static_cast<int32_t>(value) > static_cast<int32_t>(old) ? value : old;
    case AtomicOp::UMax: return value > old ? value : old;
    case AtomicOp::And: return old & value;
    case AtomicOp::Or: return old | value;
    case AtomicOp::Xor: return old ^ value;
  }
  return old;
}

enum class ImageDim : uint8_t { Dim1D, Dim2D, Dim3D, Cube, Rect, Buffer, SubpassData };

// Everything the texture unit needs for one image instruction over a batch of lanes.
// Arrays are SoA, indexed by lane; only lanes in `active` are meaningful.
struct ImageRequest {
  ImageOp op = ImageOp::SampleImplicitLod;
  ImageDim dim = ImageDim::Dim2D;
  bool arrayed = false;
  bool depth_image = false;
  // Index into ShaderModule::resources() of the image (or combined image sampler) and of the
  // separate sampler (same as `image_resource` for a combined image sampler).
  uint32_t image_resource = 0;
  uint32_t sampler_resource = 0;
  uint32_t array_element = 0;  // for arrays of descriptors indexed by a constant

  uint32_t lane_count = 0;
  LaneMask active = 0;
  // Its coordinates depend on an earlier image read's result (dependent_reads.h, paper 002).
  bool dependent = false;

  // Coordinates after the projective divide (Proj variants), layer last when arrayed.
  // For Fetch the integer coordinates are in `icoord`.
  uint32_t coord_components = 0;
  const float* coord[4] = {};
  const int32_t* icoord[4] = {};

  // Implicit LOD: d(coord)/dx and d(coord)/dy taken across the 2x2 quad (helper lanes
  // included), per lane. Explicit Grad: the shader's operands. Null when not applicable.
  const float* ddx[3] = {};
  const float* ddy[3] = {};
  // Explicit Lod or Grad samples in a fragment shader: the coarse quad differences of the
  // coordinates as for implicit LOD (ddx, ddy above hold the Grad operands or nothing). An
  // anisotropic sampler's filter shape comes from them in lavapipe whatever the LOD operands
  // (Mesa gallivm lp_build_sample_aniso). Null otherwise.
  const float* quad_ddx[3] = {};
  const float* quad_ddy[3] = {};

  const float* dref = nullptr;     // depth reference (Dref variants)
  const float* lod = nullptr;      // explicit Lod operand (float), or Fetch/QuerySizeLod level
  const int32_t* ilod = nullptr;   // Fetch / QuerySizeLod level as integer
  const float* bias = nullptr;     // Bias operand (implicit LOD only)
  const float* min_lod = nullptr;  // MinLod operand
  bool has_offset = false;         // ConstOffset operand
  int32_t offset[3] = {0, 0, 0};
  uint32_t gather_component = 0;

  // Storage images. Write: the texel's components (32-bit patterns). Atomic: `texel[0]` is the
  // Value operand, `comparator` the CompareExchange Comparator; the old value goes to out[0].
  const uint32_t* texel[4] = {};
  const uint32_t* comparator = nullptr;
  AtomicOp atomic = AtomicOp::Load;
  // The lanes whose writes and atomics take effect (active minus helper invocations, whose
  // stores "have no effect", spec "Helper Invocations").
  LaneMask writes = 0;
};

// Result channels are written as 32-bit patterns: floats for sampled float images, ints for
// integer images and size queries. out[c][lane] for c < 4; unused channels may be left alone.
class TextureSampler {
 public:
  virtual ~TextureSampler() = default;
  virtual void execute(const ImageRequest& request, uint32_t* const out[4]) = 0;
};

// Storage image accesses: Read, Write, Atomic and the size queries of storage images.
class StorageImages {
 public:
  virtual ~StorageImages() = default;
  virtual void execute(const ImageRequest& request, uint32_t* const out[4]) = 0;
};

}  // namespace tessera::shader
