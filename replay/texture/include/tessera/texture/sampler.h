// Texture sampling: Vulkan sampler state, level-of-detail selection, filtering, and the memory
// footprint of every sample (the texel-block addresses the GPU model replays).
//
// Rules followed (Vulkan spec, chapter "Image Operations"):
//  - "Scale Factor Operation, LOD Operation and Image Level(s) Selection" as lavapipe (Mesa
//    gallivm, lp_bld_sample.c) implements it, since the replayed captures come from lavapipe:
//    rho^2 = max(|d/dx|^2, |d/dy|^2) in texels; lambda = 0.5 fast_log2(rho^2) (piecewise-linear
//    log2) plus the instruction's then the sampler's bias, clamped to maxLod then minLod;
//    LINEAR mipmapping blends floor and floor + 1, NEAREST rounds; without any bias or clamp a
//    NEAREST level comes straight from rho^2's exponent. replay/texture/README.md has each rule.
//  - "Wrapping Operation" for the five address modes (u, v and w); CLAMP_TO_BORDER texels are
//    replaced per "Texel Replacement": only the format's components take the border colour
//    (custom colours included), the rest follow "Conversion to RGBA".
//  - "Texel Filtering": NEAREST i = floor(u), LINEAR i0 = floor(u - 0.5), alpha = frac(u - 0.5).
//  - "Depth Compare Operation": each texel is replaced by (Dref OP D) before filtering.
//  - sRGB decode happens when texels are decoded, i.e. before filtering ("Format Conversion").
//  - Anisotropy ("Texel Anisotropic Filtering" leaves the footprint to the implementation) as
//    lavapipe does it: the LOD of the minor axis, truncated to one level, and an elliptical
//    weighted average (Gaussian weights) over the texels of the pixel's ellipse on that level,
//    for the colour only: the footprint (what the GPU model charges) is the modelled texture
//    unit's N = min(ceil(ratio), maxAnisotropy) bilinear probes along the major axis
//    (LodSelection::probes).
//  - "Cube Map Face Selection and Transformations": face by the major axis (ties: z over y over
//    x, the spec's recommended rule), (s_face, t_face) = 0.5 (sc, tc) / |rc| + 0.5, derivatives
//    through the spec's derivative table for the LOD; "Cube Map Edge Handling": NEAREST clamps to
//    the face's edge, LINEAR reads texels beyond an edge from the adjacent face and replaces a
//    corner texel by the average of its three adjacent texels (unless the sampler has
//    VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT: then the address modes apply per face).
//  - 3D images: w wraps with addressModeW, LINEAR filtering is trilinear within a level (two
//    bilinear probes, one per slice, blended by gamma = frac(w - 0.5)), LINEAR mipmapping blends
//    two such levels; the LOD includes |dr/dx| * depth.
//  - "Component Swizzle" of the image view (Texture::swizzle) on every sample, gather and fetch.
// Supported: 1D, 2D, 3D and cube images and their arrays. Not modelled: reduction modes
// (min/max), cubic filtering, sparse residency.
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
  VkSamplerAddressMode address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  float mip_lod_bias = 0.0f;
  bool anisotropy_enable = false;
  float max_anisotropy = 1.0f;
  bool compare_enable = false;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  float min_lod = 0.0f;
  float max_lod = 1000.0f;  // VK_LOD_CLAMP_NONE
  VkBorderColor border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  // VkSamplerCustomBorderColorCreateInfoEXT::customBorderColor as 32-bit words (floats for
  // FLOAT_CUSTOM_EXT, integers for INT_CUSTOM_EXT).
  uint32_t custom_border[4] = {0, 0, 0, 0};
  bool unnormalized_coordinates = false;
  bool non_seamless_cube = false;  // VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT

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

// What one filter probe read, as paper 004's Texture Filter Memory sees it (Algorithm 2, Fig. 4).
// Kinds 1..4 are bilinear footprints whose distinct blocks are exactly those Algorithm 2 looks up
// (1, 2, 2 or 4), in its lookup order: the blocks of t1..t4 in order of first appearance.
enum class ProbeKind : uint8_t {
  None = 0,           // every texel was a border texel: no memory read
  SingleBlock = 1,    // FootprintCase 1..4, numbered alike
  TwoBlocksVertical = 2,
  TwoBlocksHorizontal = 3,
  FourBlocks = 4,
  SingleTexel = 5,    // nearest filtering or a texel fetch: one texel, one block
  Irregular = 6,      // a bilinear probe whose texels do not form Algorithm 2's footprint (two
                      // or three border texels, or a cube corner averaging texels of three
                      // faces): its distinct blocks in read order
};

struct ProbeRecord {
  ProbeKind kind = ProbeKind::None;
  uint8_t level = 0;        // mip level of the probe
  uint16_t first_block = 0; // index into Footprint::blocks
  uint16_t block_count = 0;
};

// The memory footprint of one sample. Lines are the distinct 64 B line addresses read (for RGBA8
// one line is one block), each tagged with its mip level. Probes are every filter probe in filter
// order with its distinct 4x4-texel blocks (paper 004 section III: the block is 4x4 texels for
// every format; block_bytes long, it lives in the line(s) it overlaps).
struct Footprint {
  static constexpr uint32_t kMaxProbes = 16;
  static constexpr uint32_t kMaxLines = kMaxProbes * 2 * 4 * 2;  // probes x levels x texels x lines/texel
  // Probe records: kMaxProbes per level, two levels, two slices for 3D.
  static constexpr uint32_t kMaxProbeRecords = kMaxProbes * 2 * 2;
  static constexpr uint32_t kMaxBlocksPerProbe = 12;  // a cube-corner bilinear probe: 4 texels x 3 faces
  static constexpr uint32_t kMaxBlocks = 512;

  uint32_t line_count = 0;
  uint64_t lines[kMaxLines];
  uint8_t line_level[kMaxLines];
  uint32_t level_count = 0;       // 1 or 2 (trilinear)
  uint32_t levels[2] = {0, 0};
  uint32_t probe_count = 0;       // filter probes: 1 per level, N per level when anisotropic
  uint32_t case_count[5] = {};    // probes per FootprintCase
  FootprintCase first_case = FootprintCase::None;  // the case of the first probe
  ProbeRecord probes[kMaxProbeRecords];  // probe_count of them
  uint32_t block_count = 0;
  uint64_t blocks[kMaxBlocks];    // block byte addresses, per probe (ProbeRecord)
  uint32_t block_bytes = 0;       // bytes of one 4x4 block of the sampled format
  // The sample's coordinates came from an earlier sample (a dependent read, paper 002 section 3).
  bool dependent = false;
  // Probes and lines beyond kMaxProbeRecords / kMaxLines, not recorded (0 unless a caller makes
  // more probes than the texture unit's N <= kMaxProbes per level and slice).
  uint32_t dropped = 0;

  void clear() {
    dropped = 0;
    line_count = 0;
    level_count = 0;
    probe_count = 0;
    for (uint32_t& c : case_count) c = 0;
    first_case = FootprintCase::None;
    block_count = 0;
    block_bytes = 0;
  }
  void add_line(uint64_t address, uint32_t level);
  // A texel read: its line (add_line) and its block, among the current probe's blocks.
  void add_texel(uint64_t line, uint64_t block, uint32_t level) {
    add_line(line, level);
    add_block(block);
  }
  // A block of the current probe (once: a block seen before in this probe is ignored).
  void add_block(uint64_t block) {
    // A probe beyond the records kept keeps no blocks (counted in dropped by end_probe).
    if (probe_count == kMaxProbeRecords) return;
    const uint32_t first = open_probe_first();
    for (uint32_t k = first; k < block_count; ++k)
      if (blocks[k] == block) return;
    if (block_count - first < kMaxBlocksPerProbe && block_count < kMaxBlocks) blocks[block_count++] = block;
  }
  // Closes the current probe (the texels read since the previous one): `texels` = the texels it
  // read from memory (1 for nearest or fetch, 4 for a whole bilinear footprint, fewer when some
  // are border texels), classified `fc` by Algorithm 2. One texel is a SingleTexel probe; four in
  // Algorithm 2's blocks are its case; anything else is Irregular.
  void end_probe(FootprintCase fc, uint32_t texels, uint32_t level);
  // Index of the first block of the probe being read.
  uint32_t open_probe_first() const {
    return probe_count == 0 ? 0 : probes[probe_count - 1].first_block + probes[probe_count - 1].block_count;
  }
};

struct Derivatives {
  float dsdx = 0, dtdx = 0, dsdy = 0, dtdy = 0;  // normalised coordinates per pixel
  float drdx = 0, drdy = 0;                      // 3D r, or the cube direction's z
};

// How the coordinates of a request are read: (s) for 1D, (s, t) for 2D, (s, t, r) for 3D, the
// direction (rx, ry, rz) = (s, t, r) for a cube.
enum class SampleDim : uint8_t { D1, D2, D3, Cube };

// Result of the LOD selection: the level(s) a sample reads and how they are blended, as
// lavapipe selects them (select_lod; replay/texture/README.md, "LOD selection").
struct LodSelection {
  float lambda = 0;     // the LOD after biases and clamps (on gallivm's fast paths, which never
                        // form it, the integer level they selected)
  float d = 0;          // level0 + weight
  bool magnify = false; // not minified: magFilter on level0 alone
  uint32_t level0 = 0, level1 = 0;  // the level(s) read, level1 = level0 + 1 when blending
  float weight = 0;     // level1's weight (0: level0 alone)
  bool ewa = false;     // anisotropic: an elliptical weighted average on level0
  float dudx = 0, dudy = 0, dvdx = 0, dvdy = 0;  // texel-space derivatives on level 0 (EWA)
  // Anisotropic samplers: what the modelled GPU's texture unit reads, the footprint handed to the
  // access stream (the colour is lavapipe's EWA above): N = min(ceil(rho_max / rho_min),
  // maxAnisotropy) bilinear probes along the major axis (offsets ((i + 0.5) / N - 0.5) times its
  // derivative) on the level(s) of lambda = log2(rho_max / eta) + bias, clamped ("Texel
  // Anisotropic Filtering"). For other samplers probes = 1 and the hw_ levels are those above.
  uint32_t probes = 1;
  float major_ds = 0, major_dt = 0, major_dr = 0;  // major-axis derivative (normalised coordinates)
  uint32_t hw_level0 = 0, hw_level1 = 0;
  float hw_weight = 0;
  bool hw_magnify = false;
  bool unit_anisotropic = false;  // an anisotropic sampler (unnormalised coordinates excepted)
};

struct SampleRequest {
  SampleDim dim = SampleDim::D2;
  float s = 0, t = 0, r = 0;
  // Array layer, already rounded and clamped by the caller; for a cube (array) the layer of the
  // cube's +X face (6 x the cube index).
  uint32_t layer = 0;
  Derivatives derivatives;      // implicit LOD or explicit Grad
  bool explicit_lod = false;    // use `lod` instead of derivatives
  float lod = 0;
  bool explicit_derivatives = false;  // Grad operand (not implicit derivatives)
  // Explicit Lod or Grad: the quad's implicit coordinate differences, when the caller has them
  // (a fragment shader's quad). lavapipe's anisotropic filter (lp_build_sample_aniso) shapes
  // its ellipse from these, not from the Grad operands, and has them for an explicit Lod too.
  bool has_quad_derivatives = false;
  Derivatives quad_derivatives;
  bool has_bias = false;        // the instruction has a Bias operand (whatever its value)
  float bias = 0;               // shader Bias operand
  float min_lod = 0;            // shader MinLod operand
  bool has_dref = false;
  float dref = 0;
  int32_t offset_x = 0, offset_y = 0, offset_z = 0;  // ConstOffset
};

// Cube map face selection (spec "Cube Map Face Selection"): face 0..5 = +X, -X, +Y, -Y, +Z, -Z,
// (s_face, t_face) in [0, 1], and the face derivatives of the request's direction derivatives.
struct CubeCoord {
  uint32_t face = 0;
  float s = 0, t = 0;
  Derivatives derivatives;  // of (s_face, t_face)
};
CubeCoord cube_coord(float rx, float ry, float rz, const Derivatives& d);

// "Cube Map Edge Texel": texel (i, j) of `face` of a cube whose faces are n x n texels, beyond
// the face in exactly one of i, j, is texel (i', j') of the neighbouring face.
struct CubeTexel {
  uint32_t face;
  int32_t i, j;
};
CubeTexel cube_edge_texel(uint32_t face, int32_t i, int32_t j, int32_t n);

LodSelection select_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req);

// OpImageQueryLod as lavapipe answers it (Mesa gallivm lp_build_sample_common's lodq path): y is
// the LOD after the instruction's and the sampler's biases, before the sampler's min/max LOD
// clamps; x is the clamped LOD (rounded to nearest, ties to even, for NEAREST mipmapping),
// clamped to [0, levels - 1]. Both use the fast log2 (no level fast paths).
struct QueryLod {
  float x = 0, y = 0;
};
QueryLod query_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req);

// Mesa gallivm's log2 approximations (lp_bld_arit.c), used by select_lod:
// lp_build_fast_log2: with x = m 2^e, m in [1, 2), e + (m - 1).
float gallivm_fast_log2(float x);
// lp_build_ilog2_sqrt: round(log2 sqrt(x)) as (exponent(x) + 1) >> 1.
int32_t gallivm_ilog2_sqrt(float x);

// Filtered sample; footprint may be null.
Rgba sample(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, Footprint* fp);
// sample() of a 2D request (dim D2) on a texture that is not 3D, with `sel` = select_lod(tex,
// sampler, req) made by the caller: the LOD is a function of the derivatives, the LOD operands
// and the sampler alone, so a caller whose requests share them (the lanes of a quad share coarse
// derivatives) selects it once. The same result and footprint as sample().
Rgba sample_2d(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, const LodSelection& sel,
               Footprint* fp);

// OpImageGather: component `component` (of the swizzled texels) of the four texels of the
// bilinear footprint on the base level, in the spec's order (i0,j1), (i1,j1), (i1,j0), (i0,j0).
// With has_dref, the compare results. 2D, 2D array and cube (with edge handling).
Rgba gather(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
            uint32_t component, Footprint* fp);

// OpImageFetch: texel (x, y, z) of `level` without filtering, swizzled; out-of-range gives zero
// (robustImageAccess2). Integer formats give their bit patterns.
Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp);
Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, int32_t z, Footprint* fp);

// Wrapping Operation of the spec: the wrapped texel index, or -1 for a border texel.
int32_t wrap_texel(int32_t i, int32_t size, VkSamplerAddressMode mode);

}  // namespace tessera::texture
