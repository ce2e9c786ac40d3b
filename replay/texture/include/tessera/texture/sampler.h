// Texture sampling: Vulkan sampler state, level-of-detail selection, filtering, and the memory
// footprint of every sample (the texel-block addresses the GPU model replays).
//
// Rules followed (Vulkan spec, chapter "Image Operations"):
//  - "Scale Factor Operation, LOD Operation and Image Level(s) Selection": rho from the texel-
//    space derivatives, lambda = log2(rho_max / eta) + clamp(bias), clamped to [minLod, maxLod],
//    magFilter when lambda <= 0, level d' = clamp(lambda, 0, q); NEAREST mipmapMode picks
//    ceil(d' + 0.5) - 1, LINEAR blends floor(d') and floor(d') + 1 by frac(d').
//  - "Wrapping Operation" for the five address modes, border colour for CLAMP_TO_BORDER.
//  - "Texel Filtering": NEAREST i = floor(u), LINEAR i0 = floor(u - 0.5), alpha = frac(u - 0.5).
//  - "Depth Compare Operation": each texel is replaced by (Dref OP D) before filtering.
//  - sRGB decode happens when texels are decoded, i.e. before filtering ("Format Conversion").
//  - Anisotropy ("Texel Anisotropic Filtering" leaves the footprint to the implementation).
//    Tessera's approximation: eta = min(rho_max / rho_min, maxAnisotropy), lambda uses
//    rho_max / eta, and N = ceil(eta) trilinear (or bilinear) probes are taken at equal steps
//    along the major axis of the pixel footprint, at offsets ((i + 0.5) / N - 0.5) times the
//    major-axis derivative, and averaged with equal weights.
// Supported: 2D and 2D array images. Not modelled: cube maps, 3D images, custom border colours.
#pragma once

#include <cstdint>

#include "tessera/texture/texture.h"

namespace tessera::texture {

struct SamplerState {
  VkFilter mag_filter = VK_FILTER_NEAREST;
  VkFilter min_filter = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode address_u = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  VkSamplerAddressMode address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  float mip_lod_bias = 0.0f;
  bool anisotropy_enable = false;
  float max_anisotropy = 1.0f;
  bool compare_enable = false;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  float min_lod = 0.0f;
  float max_lod = 1000.0f;  // VK_LOD_CLAMP_NONE
  VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  bool unnormalized_coordinates = false;

  static SamplerState from_create_info(const VkSamplerCreateInfo& info);
};

// How many distinct 4x4 blocks one bilinear 2x2 footprint touches: the four cases of paper 004
// Algorithm 2 (case 2: c0 = 0, c1 = 1, the two rows lie in vertically adjacent blocks; case 3:
// c0 = 1, c1 = 0, horizontally adjacent blocks). None: every texel was a border texel.
enum class FootprintCase : uint8_t {
  None = 0,
  SingleBlock = 1,
  TwoBlocksVertical = 2,
  TwoBlocksHorizontal = 3,
  FourBlocks = 4,
};

// The memory footprint of one sample. Lines are the distinct 64 B line addresses read (for RGBA8
// one line is one block), each tagged with its mip level.
struct Footprint {
  static constexpr uint32_t kMaxProbes = 16;
  static constexpr uint32_t kMaxLines = kMaxProbes * 2 * 4 * 2;  // probes x levels x texels x lines/texel

  uint32_t line_count = 0;
  uint64_t lines[kMaxLines];
  uint8_t line_level[kMaxLines];
  uint32_t level_count = 0;       // 1 or 2 (trilinear)
  uint32_t levels[2] = {0, 0};
  uint32_t probe_count = 0;       // filter probes: 1 per level, N per level when anisotropic
  uint32_t case_count[5] = {};    // probes per FootprintCase
  FootprintCase first_case = FootprintCase::None;  // the case of the first probe

  void clear() {
    line_count = 0;
    level_count = 0;
    probe_count = 0;
    for (uint32_t& c : case_count) c = 0;
    first_case = FootprintCase::None;
  }
  void add_line(uint64_t address, uint32_t level);
};

struct Derivatives {
  float dsdx = 0, dtdx = 0, dsdy = 0, dtdy = 0;  // normalised coordinates per pixel
};

// Result of the LOD operation (also what OpImageQueryLod reports).
struct LodSelection {
  float lambda = 0;     // after bias and clamping
  float d = 0;          // d' = clamp(lambda, 0, q)
  bool magnify = false; // lambda <= 0: magFilter applies
  float eta = 1;        // anisotropic ratio used
  uint32_t probes = 1;
  float major_ds = 0, major_dt = 0;  // major-axis derivative (normalised coordinates)
};

struct SampleRequest {
  float s = 0, t = 0;
  uint32_t layer = 0;           // array layer (already rounded and clamped by the caller)
  Derivatives derivatives;      // implicit LOD or explicit Grad
  bool explicit_lod = false;    // use `lod` instead of derivatives
  float lod = 0;
  float bias = 0;               // shader Bias operand
  float min_lod = 0;            // shader MinLod operand
  bool has_dref = false;
  float dref = 0;
  int32_t offset_x = 0, offset_y = 0;  // ConstOffset
};

LodSelection select_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req);

// Filtered sample; footprint may be null.
Rgba sample(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, Footprint* fp);

// OpImageGather: component `component` of the four texels of the bilinear footprint on the base
// level, in the spec's order (i0,j1), (i1,j1), (i1,j0), (i0,j0). With has_dref, the compare results.
Rgba gather(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
            uint32_t component, Footprint* fp);

// OpImageFetch: texel (x, y) of `level` without filtering; out-of-range gives zero (robust access).
Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp);
uint32_t fetch_uint(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp);

// Wrapping Operation of the spec: the wrapped texel index, or -1 for a border texel.
int32_t wrap_texel(int32_t i, int32_t size, VkSamplerAddressMode mode);

}  // namespace tessera::texture
