// The interface the SPIR-V interpreter calls for every image instruction (OpImageSample*,
// OpImageFetch, OpImageGather, OpImageQuery*). One call serves all active lanes of a batch, so
// the virtual-call cost is amortised the same way instruction dispatch is.
//
// The texture unit (replay/texture, built separately) implements this; it also records the
// texel-block footprint of each sample for the access stream.
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
};

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

  // Coordinates after the projective divide (Proj variants), layer last when arrayed.
  // For Fetch the integer coordinates are in `icoord`.
  uint32_t coord_components = 0;
  const float* coord[4] = {};
  const int32_t* icoord[4] = {};

  // Implicit LOD: d(coord)/dx and d(coord)/dy taken across the 2x2 quad (helper lanes
  // included), per lane. Explicit Grad: the shader's operands. Null when not applicable.
  const float* ddx[3] = {};
  const float* ddy[3] = {};

  const float* dref = nullptr;     // depth reference (Dref variants)
  const float* lod = nullptr;      // explicit Lod operand (float), or Fetch/QuerySizeLod level
  const int32_t* ilod = nullptr;   // Fetch / QuerySizeLod level as integer
  const float* bias = nullptr;     // Bias operand (implicit LOD only)
  const float* min_lod = nullptr;  // MinLod operand
  bool has_offset = false;         // ConstOffset operand
  int32_t offset[3] = {0, 0, 0};
  uint32_t gather_component = 0;
};

// Result channels are written as 32-bit patterns: floats for sampled float images, ints for
// integer images and size queries. out[c][lane] for c < 4; unused channels may be left alone.
class TextureSampler {
 public:
  virtual ~TextureSampler() = default;
  virtual void execute(const ImageRequest& request, uint32_t* const out[4]) = 0;
};

}  // namespace tessera::shader
