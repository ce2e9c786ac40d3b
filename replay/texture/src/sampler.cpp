#include "tessera/texture/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::texture {

namespace {

// The spec's maxSamplerLodBias limit (lavapipe and most desktop devices report 16).
constexpr float kMaxSamplerLodBias = 16.0f;

// VK_EXT_custom_border_color values, named here so the header does not depend on the extension.
constexpr VkBorderColor kFloatCustom = static_cast<VkBorderColor>(1000287003);
constexpr VkBorderColor kIntCustom = static_cast<VkBorderColor>(1000287004);
constexpr uint32_t kNonSeamlessCubeBit = 0x4;  // VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT

// Texel index from a texel-space coordinate. Shaders can hand over NaN, infinities or huge
// values: clamp before converting (the cast would be undefined), NaN -> 0. Any index beyond
// +-2^30 wraps or clamps like a far-away one.
int32_t texel_index(float u) {
  if (!(u == u)) return 0;
  // floor() as truncation, one less below a negative non-integer: exact within +-2^30, where
  // the truncated value is itself a float (and without SSE4.1 std::floor is a long sequence).
  const float c = std::clamp(u, -1073741824.0f, 1073741824.0f);
  const int32_t i = static_cast<int32_t>(c);
  return c < static_cast<float>(i) ? i - 1 : i;
}

int32_t mirror(int32_t n) { return n >= 0 ? n : -(1 + n); }

int32_t positive_mod(int32_t a, int32_t m) {
  // Power-of-two sizes (most textures): the two's-complement mask is the positive remainder,
  // negative a included, without a division.
  if ((m & (m - 1)) == 0) return a & (m - 1);
  const int32_t r = a % m;
  return r < 0 ? r + m : r;
}

// wrap_texel's body, visible here so the filter loops inline it.
int32_t wrap(int32_t i, int32_t size, VkSamplerAddressMode mode) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: return positive_mod(i, size);
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT:
      return (size - 1) - mirror(positive_mod(i, 2 * size) - size);
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE: return std::clamp(i, 0, size - 1);
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: return std::clamp(mirror(i), 0, size - 1);
    default: return (i < 0 || i >= size) ? -1 : i;  // CLAMP_TO_BORDER
  }
}

float pattern(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// The border texel of `tex` for the sampler's borderColor: "Border Color B" (custom colours
// included; integer formats take integer patterns, like every texel of such a format), then
// "Texel Replacement": only the format's components take B, the others are what "Conversion to
// RGBA" gives (0, and 1 for alpha).
Rgba border_texel(const SamplerState& s, const FormatInfo& f) {
  Rgba b;
  switch (s.border_color) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: b = {0.0f, 0.0f, 0.0f, 1.0f}; break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: b = {1.0f, 1.0f, 1.0f, 1.0f}; break;
    default:
      if (s.border_color == kFloatCustom || s.border_color == kIntCustom) {
        for (uint32_t k = 0; k < 4; ++k) b[k] = pattern(s.custom_border[k]);
        if (s.border_color == kIntCustom && !f.integer)
          for (uint32_t k = 0; k < 4; ++k) b[k] = static_cast<float>(static_cast<int32_t>(s.custom_border[k]));
        break;
      }
      b = {0.0f, 0.0f, 0.0f, 0.0f};
  }
  const bool custom = s.border_color == kFloatCustom || s.border_color == kIntCustom;
  if (f.integer && !(custom && s.border_color == kIntCustom))
    for (float& v : b) v = pattern(static_cast<uint32_t>(v));
  const float one = f.integer ? pattern(1) : 1.0f;
  for (uint32_t k = f.components; k < 4; ++k) b[k] = k == 3 ? one : (f.integer ? pattern(0) : 0.0f);
  return b;
}

bool compare(VkCompareOp op, float ref, float d) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return ref < d;
    case VK_COMPARE_OP_EQUAL: return ref == d;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return ref <= d;
    case VK_COMPARE_OP_GREATER: return ref > d;
    case VK_COMPARE_OP_NOT_EQUAL: return ref != d;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return ref >= d;
    default: return true;  // ALWAYS
  }
}

// Footprint::add_line and Footprint::end_probe, here so the filter loops inline them.
[[gnu::always_inline]] inline void footprint_add_line(Footprint& fp, uint64_t address, uint32_t level) {
  for (uint32_t k = 0; k < fp.line_count; ++k)
    if (fp.lines[k] == address) return;
  if (fp.line_count < Footprint::kMaxLines) {
    fp.lines[fp.line_count] = address;
    fp.line_level[fp.line_count] = static_cast<uint8_t>(level);
    ++fp.line_count;
  }
}

[[gnu::always_inline]] inline void footprint_end_probe(Footprint& fp, FootprintCase fc, uint32_t texels, uint32_t level) {
  if (fp.probe_count == Footprint::kMaxProbeRecords) return;  // not reached: kMaxProbeRecords bounds the sampler's probes
  const uint32_t first = fp.open_probe_first();
  const uint32_t n = fp.block_count - first;
  // Algorithm 2 looks up 1, 2, 2 or 4 blocks for cases 1..4; a footprint with another count of
  // distinct blocks (border texels, cube corners) is Irregular.
  static constexpr uint32_t kLookups[5] = {0, 1, 2, 2, 4};
  ProbeKind kind;
  if (n == 0) kind = ProbeKind::None;
  else if (texels == 1) kind = ProbeKind::SingleTexel;
  else if (texels == 4 && fc != FootprintCase::None && n == kLookups[static_cast<int>(fc)]) kind = static_cast<ProbeKind>(fc);
  else kind = ProbeKind::Irregular;
  fp.probes[fp.probe_count] =
      ProbeRecord{kind, static_cast<uint8_t>(level), static_cast<uint16_t>(first), static_cast<uint16_t>(n)};
  if (fp.probe_count == 0) fp.first_case = fc;
  ++fp.probe_count;
  ++fp.case_count[static_cast<int>(fc)];
}

// One texel after wrapping: its value (border colour or decoded texel, then the depth compare)
// and, when it is read from memory, its line address recorded in the footprint.
struct TexelRead {
  Rgba value;
  int32_t x, y;  // wrapped coordinates, -1 for border
};

struct Context {
  const Texture& tex;
  const SamplerState& sampler;
  const SampleRequest& req;
  Footprint* fp;
  bool do_compare;
  float dref;
};

Context make_context(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, Footprint* fp) {
  if (fp) fp->block_bytes = tex.format().block_bytes;
  // "If the image being sampled has an unsigned normalized fixed-point format, then Dref is
  // clamped to [0,1] before the compare operation."
  return {tex, sampler, req, fp, sampler.compare_enable && req.has_dref,
          tex.format().kind == FormatKind::Unorm16Depth ? std::clamp(req.dref, 0.0f, 1.0f) : req.dref};
}

Rgba compared(const Context& c, const Rgba& v) {
  return {compare(c.sampler.compare_op, c.dref, v[0]) ? 1.0f : 0.0f, 0.0f, 0.0f, 1.0f};
}

// Reads the texel at wrapped coordinates (x, y) of `level` (either negative: the border).
TexelRead read_wrapped(const Context& c, const LevelView& lv, uint32_t level, int32_t x, int32_t y) {
  TexelRead r;
  if (x < 0 || y < 0) {
    r.value = border_texel(c.sampler, c.tex.format());
    r.x = r.y = -1;
  } else {
    r.x = x;
    r.y = y;
    r.value = lv.texel(static_cast<uint32_t>(x), static_cast<uint32_t>(y));
    if (c.fp) {
      const auto ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
      c.fp->add_texel(lv.byte_address(ux, uy) / kLineBytes * kLineBytes, lv.block_address(ux, uy), level);
    }
  }
  if (c.do_compare) r.value = compared(c, r.value);
  return r;
}

// Paper 004 Algorithm 2: compare the block coordinates of the texels actually read.
FootprintCase classify(const TexelRead* texels, int n) {
  int32_t bx[4], by[4];
  int distinct = 0;
  for (int k = 0; k < n; ++k) {
    if (texels[k].x < 0) continue;
    const int32_t x = texels[k].x / static_cast<int32_t>(kBlockDim);
    const int32_t y = texels[k].y / static_cast<int32_t>(kBlockDim);
    bool seen = false;
    for (int m = 0; m < distinct; ++m) seen |= (bx[m] == x && by[m] == y);
    if (!seen) {
      bx[distinct] = x;
      by[distinct] = y;
      ++distinct;
    }
  }
  if (distinct == 0) return FootprintCase::None;
  if (distinct == 1) return FootprintCase::SingleBlock;
  if (distinct == 2) return bx[0] == bx[1] ? FootprintCase::TwoBlocksVertical : FootprintCase::TwoBlocksHorizontal;
  return FootprintCase::FourBlocks;
}

// Texels of a footprint read from memory (border texels are not).
uint32_t texels_read(const TexelRead* texels, int n) {
  uint32_t k = 0;
  for (int i = 0; i < n; ++i) k += texels[i].x >= 0 ? 1u : 0u;
  return k;
}

// `texels`: the texels read from memory (1 for nearest or fetch, 4 for a whole bilinear footprint).
void note_probe(Footprint* fp, FootprintCase fc, uint32_t texels, uint32_t level) {
  if (!fp) return;
  footprint_end_probe(*fp, fc, texels, level);
}

void note_level(Footprint* fp, uint32_t level) {
  if (!fp) return;
  for (uint32_t k = 0; k < fp->level_count; ++k)
    if (fp->levels[k] == level) return;
  if (fp->level_count < 2) fp->levels[fp->level_count++] = level;
}

// Texel-space coordinate on `level`: normalised coordinates scale by the level size.
void texel_space(const Context& c, uint32_t level, float s, float t, float* u, float* v) {
  if (c.sampler.unnormalized_coordinates) {
    *u = s;
    *v = t;
  } else {
    *u = s * static_cast<float>(c.tex.width(level));
    *v = t * static_cast<float>(c.tex.height(level));
  }
}

// One probe on one slice of one level with the given filter ("Texel Filtering"), at texel-space
// (u, v). Inlined into its callers: it is the hot loop of 2D sampling.
[[gnu::always_inline]] inline Rgba filter_2d(const Context& c, const LevelView& lv, uint32_t level, VkFilter filter, float u, float v) {
  const auto lw = static_cast<int32_t>(lv.width), lh = static_cast<int32_t>(lv.height);
  if (filter == VK_FILTER_NEAREST) {
    const TexelRead r = read_wrapped(c, lv, level, wrap(texel_index(u) + c.req.offset_x, lw, c.sampler.address_u),
                                     wrap(texel_index(v) + c.req.offset_y, lh, c.sampler.address_v));
    note_probe(c.fp, classify(&r, 1), 1, level);
    return r.value;
  }
  const float uu = u - 0.5f, vv = v - 0.5f;
  const int32_t fu = texel_index(uu), fv = texel_index(vv);
  // Weights in [0, 1] even for non-finite coordinates.
  const auto weight = [](float w) { return w >= 0.0f ? std::min(w, 1.0f) : 0.0f; };  // NaN -> 0
  const float alpha = weight(uu - static_cast<float>(fu));
  const float beta = weight(vv - static_cast<float>(fv));
  const int32_t i0 = fu + c.req.offset_x, j0 = fv + c.req.offset_y;
  // The footprint has two columns and two rows: wrap each once.
  const int32_t x0 = wrap(i0, lw, c.sampler.address_u), x1 = wrap(i0 + 1, lw, c.sampler.address_u);
  const int32_t y0 = wrap(j0, lh, c.sampler.address_v), y1 = wrap(j0 + 1, lh, c.sampler.address_v);
  if (!c.do_compare && x0 >= 0 && x1 >= 0 && y0 >= 0 && y1 >= 0) {
    // The common case (no border texel, no depth compare): read the four texels in place. Same
    // read order, lines, classification (Algorithm 2 on two columns and two rows) and weights as
    // the general path below.
    const auto ux0 = static_cast<uint32_t>(x0), ux1 = static_cast<uint32_t>(x1);
    const auto uy0 = static_cast<uint32_t>(y0), uy1 = static_cast<uint32_t>(y1);
    const Rgba& t0 = lv.texel(ux0, uy0);
    const Rgba& t1 = lv.texel(ux1, uy0);
    const Rgba& t2 = lv.texel(ux0, uy1);
    const Rgba& t3 = lv.texel(ux1, uy1);
    if (c.fp) {
      // add_line keeps the first of equal lines: a line already added by this footprint's
      // earlier texels is not searched for again (the four often share one line).
      const uint64_t l0 = lv.byte_address(ux0, uy0) / kLineBytes * kLineBytes;
      const uint64_t l1 = lv.byte_address(ux1, uy0) / kLineBytes * kLineBytes;
      const uint64_t l2 = lv.byte_address(ux0, uy1) / kLineBytes * kLineBytes;
      const uint64_t l3 = lv.byte_address(ux1, uy1) / kLineBytes * kLineBytes;
      footprint_add_line(*c.fp, l0, level);
      if (l1 != l0) footprint_add_line(*c.fp, l1, level);
      if (l2 != l0 && l2 != l1) footprint_add_line(*c.fp, l2, level);
      if (l3 != l0 && l3 != l1 && l3 != l2) footprint_add_line(*c.fp, l3, level);
      const bool same_x = ux0 / kBlockDim == ux1 / kBlockDim, same_y = uy0 / kBlockDim == uy1 / kBlockDim;
      // Algorithm 2's lookups: the block of t1, then t3 (case 2) or t2 (case 3), or all four.
      c.fp->add_block(lv.block_address(ux0, uy0));
      if (!same_x) c.fp->add_block(lv.block_address(ux1, uy0));
      if (!same_y) c.fp->add_block(lv.block_address(ux0, uy1));
      if (!same_x && !same_y) c.fp->add_block(lv.block_address(ux1, uy1));
      note_probe(c.fp, same_x && same_y ? FootprintCase::SingleBlock
                       : same_x         ? FootprintCase::TwoBlocksVertical
                       : same_y         ? FootprintCase::TwoBlocksHorizontal
                                        : FootprintCase::FourBlocks, 4, level);
    }
    Rgba out;
    for (int k = 0; k < 4; ++k) {
      out[k] = (1 - alpha) * (1 - beta) * t0[k] + alpha * (1 - beta) * t1[k] +
               (1 - alpha) * beta * t2[k] + alpha * beta * t3[k];
    }
    return out;
  }
  // Read order t1..t4 of paper 004 Fig. 4: (i0,j0), (i1,j0), (i0,j1), (i1,j1).
  const TexelRead r[4] = {read_wrapped(c, lv, level, x0, y0), read_wrapped(c, lv, level, x1, y0),
                          read_wrapped(c, lv, level, x0, y1), read_wrapped(c, lv, level, x1, y1)};
  note_probe(c.fp, classify(r, 4), texels_read(r, 4), level);
  Rgba out;
  for (int k = 0; k < 4; ++k) {
    out[k] = (1 - alpha) * (1 - beta) * r[0].value[k] + alpha * (1 - beta) * r[1].value[k] +
             (1 - alpha) * beta * r[2].value[k] + alpha * beta * r[3].value[k];
  }
  return out;
}

Rgba lerp(const Rgba& a, const Rgba& b, float w) {
  return {a[0] + (b[0] - a[0]) * w, a[1] + (b[1] - a[1]) * w, a[2] + (b[2] - a[2]) * w, a[3] + (b[3] - a[3]) * w};
}

// A 1D, 2D or array probe on `level` (whose view is lv) at normalised (s, t); texel_space with
// the level's size from the view.
[[gnu::always_inline]] inline Rgba probe_2d(const Context& c, const LevelView& lv, uint32_t level, VkFilter filter,
                                            float s, float t) {
  note_level(c.fp, level);
  float u = s, v = t;
  if (!c.sampler.unnormalized_coordinates) {
    u = s * static_cast<float>(lv.width);
    v = t * static_cast<float>(lv.height);
  }
  return filter_2d(c, lv, level, filter, u, v);
}

// A 3D probe on `level`: the slice(s) k along w, each filtered in 2D, blended by gamma
// ("Texel Linear Filtering": 8 texels for 3D). A border slice (CLAMP_TO_BORDER in w) is all border
// texels and reads no memory.
Rgba probe_3d(const Context& c, uint32_t level, VkFilter filter, float s, float t, float r) {
  note_level(c.fp, level);
  float u, v;
  texel_space(c, level, s, t, &u, &v);
  const float w = c.sampler.unnormalized_coordinates ? r : r * static_cast<float>(c.tex.depth(level));
  const auto ld = static_cast<int32_t>(c.tex.depth(level));
  const auto slice = [&](int32_t k) {
    if (k < 0) {
      note_probe(c.fp, FootprintCase::None, filter == VK_FILTER_NEAREST ? 1 : 4, level);
      const Rgba b = border_texel(c.sampler, c.tex.format());
      return c.do_compare ? compared(c, b) : b;
    }
    return filter_2d(c, c.tex.level_view(c.req.layer, level, static_cast<uint32_t>(k)), level, filter, u, v);
  };
  if (filter == VK_FILTER_NEAREST) return slice(wrap(texel_index(w) + c.req.offset_z, ld, c.sampler.address_w));
  const float ww = w - 0.5f;
  const int32_t k0 = texel_index(ww);
  const float g = ww - static_cast<float>(k0);
  const float gamma = g >= 0.0f ? std::min(g, 1.0f) : 0.0f;
  const Rgba near = slice(wrap(k0 + c.req.offset_z, ld, c.sampler.address_w));
  const Rgba far = slice(wrap(k0 + 1 + c.req.offset_z, ld, c.sampler.address_w));
  return lerp(near, far, gamma);
}

// ---- Cube maps -----------------------------------------------------------------------------

// Face f's direction for face coordinates (sc, tc) and major-axis magnitude ma: the inverse of
// the spec's table "Cube Map Face and Coordinate Selection".
void face_direction(uint32_t f, int64_t sc, int64_t tc, int64_t ma, int64_t r[3]) {
  switch (f) {
    case 0: r[0] = ma, r[1] = -tc, r[2] = -sc; break;   // +X: sc = -rz, tc = -ry
    case 1: r[0] = -ma, r[1] = -tc, r[2] = sc; break;   // -X: sc = +rz, tc = -ry
    case 2: r[0] = sc, r[1] = ma, r[2] = tc; break;     // +Y: sc = +rx, tc = +rz
    case 3: r[0] = sc, r[1] = -ma, r[2] = -tc; break;   // -Y: sc = +rx, tc = -rz
    case 4: r[0] = sc, r[1] = -tc, r[2] = ma; break;    // +Z: sc = +rx, tc = -ry
    default: r[0] = -sc, r[1] = -tc, r[2] = -ma; break; // -Z: sc = -rx, tc = -ry
  }
}

// The table itself on an integer direction: face, sc, tc, ma (= |rc|).
void select_face(const int64_t r[3], uint32_t* f, int64_t* sc, int64_t* tc, int64_t* ma) {
  const int64_t ax = r[0] < 0 ? -r[0] : r[0], ay = r[1] < 0 ? -r[1] : r[1], az = r[2] < 0 ? -r[2] : r[2];
  if (az >= ax && az >= ay) {
    *f = r[2] < 0 ? 5 : 4;
    *sc = r[2] < 0 ? -r[0] : r[0];
    *tc = -r[1];
    *ma = az;
  } else if (ay >= ax) {
    *f = r[1] < 0 ? 3 : 2;
    *sc = r[0];
    *tc = r[1] < 0 ? -r[2] : r[2];
    *ma = ay;
  } else {
    *f = r[0] < 0 ? 1 : 0;
    *sc = r[0] < 0 ? r[2] : -r[2];
    *tc = -r[1];
    *ma = ax;
  }
}

}  // namespace

CubeTexel cube_edge_texel(uint32_t face, int32_t i, int32_t j, int32_t n) {
  // "Cube Map Edge Texel": the texel centre, as a direction scaled by n so every coordinate is an
  // integer (sc = 2i + 1 - n, tc = 2j + 1 - n, ma = n), lies beyond the face on exactly one axis
  // (|sc| or |tc| = n + 1 > n): selecting the face of that direction finds the neighbouring face,
  // and its (sc, tc) / ma there the adjacent texel, exactly.
  int64_t r[3];
  face_direction(face, 2 * int64_t{i} + 1 - n, 2 * int64_t{j} + 1 - n, n, r);
  CubeTexel t;
  int64_t sc, tc, ma;
  select_face(r, &t.face, &sc, &tc, &ma);
  // s = 0.5 sc / ma + 0.5, texel = floor(s n) = floor(n (sc + ma) / (2 ma)), with sc + ma >= 0.
  t.i = static_cast<int32_t>(std::clamp<int64_t>(n * (sc + ma) / (2 * ma), 0, n - 1));
  t.j = static_cast<int32_t>(std::clamp<int64_t>(n * (tc + ma) / (2 * ma), 0, n - 1));
  return t;
}

CubeCoord cube_coord(float rx, float ry, float rz, const Derivatives& d) {
  // "Cube Map Face Selection" (ties: rz wins over ry and rx, ry over rx, the spec's recommended
  // rules) with the coordinates and derivatives of tables "Cube Map Face and Coordinate
  // Selection" and "Cube Map Derivative Selection"; dma is the derivative of |rc|.
  const float ax = std::fabs(rx), ay = std::fabs(ry), az = std::fabs(rz);
  CubeCoord c;
  float sc, tc, ma, dscx, dscy, dtcx, dtcy, dmax, dmay;
  if (az >= ax && az >= ay) {
    const bool neg = std::signbit(rz);
    c.face = neg ? 5 : 4;
    sc = neg ? -rx : rx, tc = -ry, ma = az;
    dscx = neg ? -d.dsdx : d.dsdx, dscy = neg ? -d.dsdy : d.dsdy;
    dtcx = -d.dtdx, dtcy = -d.dtdy;
    dmax = neg ? -d.drdx : d.drdx, dmay = neg ? -d.drdy : d.drdy;
  } else if (ay >= ax) {
    const bool neg = std::signbit(ry);
    c.face = neg ? 3 : 2;
    sc = rx, tc = neg ? -rz : rz, ma = ay;
    dscx = d.dsdx, dscy = d.dsdy;
    dtcx = neg ? -d.drdx : d.drdx, dtcy = neg ? -d.drdy : d.drdy;
    dmax = neg ? -d.dtdx : d.dtdx, dmay = neg ? -d.dtdy : d.dtdy;
  } else {
    const bool neg = std::signbit(rx);
    c.face = neg ? 1 : 0;
    sc = neg ? rz : -rz, tc = -ry, ma = ax;
    dscx = neg ? d.drdx : -d.drdx, dscy = neg ? d.drdy : -d.drdy;
    dtcx = -d.dtdx, dtcy = -d.dtdy;
    dmax = neg ? -d.dsdx : d.dsdx, dmay = neg ? -d.dsdy : d.dsdy;
  }
  // "Cube Map Coordinate Transformation" and its derivatives:
  // s_face = sc / (2 |rc|) + 1/2, d(s_face)/dx = (|rc| dsc/dx - sc d|rc|/dx) / (2 rc^2).
  c.s = 0.5f * sc / ma + 0.5f;
  c.t = 0.5f * tc / ma + 0.5f;
  const float k = 0.5f / (ma * ma);
  c.derivatives.dsdx = k * (ma * dscx - sc * dmax);
  c.derivatives.dsdy = k * (ma * dscy - sc * dmay);
  c.derivatives.dtdx = k * (ma * dtcx - tc * dmax);
  c.derivatives.dtdy = k * (ma * dtcy - tc * dmay);
  return c;
}

namespace {

// The texels of one cube level: the six faces of the cube whose +X face is layer `base`.
struct CubeLevel {
  LevelView face[6];
  int32_t n;
  uint32_t level;
};

CubeLevel cube_level(const Texture& tex, uint32_t base, uint32_t level) {
  CubeLevel cl;
  for (uint32_t f = 0; f < 6; ++f) cl.face[f] = tex.level_view(base + f, level);
  cl.n = static_cast<int32_t>(tex.width(level));
  cl.level = level;
  return cl;
}

Rgba cube_read_inside(const Context& c, const CubeLevel& cl, uint32_t face, int32_t i, int32_t j) {
  const LevelView& lv = cl.face[face];
  const auto x = static_cast<uint32_t>(i), y = static_cast<uint32_t>(j);
  if (c.fp) c.fp->add_texel(lv.byte_address(x, y) / kLineBytes * kLineBytes, lv.block_address(x, y), cl.level);
  return c.do_compare ? compared(c, lv.texel(x, y)) : lv.texel(x, y);
}

// Texel (i, j) of `face`, which may lie beyond the face ("Cube Map Edge Handling"): an edge
// texel is read from the neighbouring face, a corner texel is the average of the three texels
// adjacent to the corner, one in each incident face.
Rgba cube_read(const Context& c, const CubeLevel& cl, uint32_t face, int32_t i, int32_t j) {
  const int32_t n = cl.n;
  const bool out_i = i < 0 || i >= n, out_j = j < 0 || j >= n;
  if (!out_i && !out_j) return cube_read_inside(c, cl, face, i, j);
  if (out_i != out_j) {
    const CubeTexel t = cube_edge_texel(face, i, j, n);
    return cube_read_inside(c, cl, t.face, t.i, t.j);
  }
  const int32_t ci = std::clamp(i, 0, n - 1), cj = std::clamp(j, 0, n - 1);
  const CubeTexel a = cube_edge_texel(face, i, cj, n), b = cube_edge_texel(face, ci, j, n);
  const Rgba t0 = cube_read_inside(c, cl, face, ci, cj);
  const Rgba t1 = cube_read_inside(c, cl, a.face, a.i, a.j);
  const Rgba t2 = cube_read_inside(c, cl, b.face, b.i, b.j);
  Rgba out;
  for (int k = 0; k < 4; ++k) out[k] = (t0[k] + t1[k] + t2[k]) / 3.0f;
  return out;
}

// Algorithm 2 on the face grid: texels beyond the face are in other blocks than those inside.
FootprintCase classify_cube(int32_t i0, int32_t j0, int32_t n) {
  const auto block = [n](int32_t i) { return i < 0 ? -1 : i >= n ? n : i / static_cast<int32_t>(kBlockDim); };
  const bool c0 = block(i0) != block(i0 + 1), c1 = block(j0) != block(j0 + 1);
  return c0 && c1 ? FootprintCase::FourBlocks
         : c0     ? FootprintCase::TwoBlocksHorizontal
         : c1     ? FootprintCase::TwoBlocksVertical
                  : FootprintCase::SingleBlock;
}

// The four texels of the LINEAR footprint at face coordinates (s, t), in paper 004's read order
// (i0,j0), (i1,j0), (i0,j1), (i1,j1), with the weights alpha, beta.
void cube_footprint(const Context& c, const CubeLevel& cl, uint32_t face, float s, float t, Rgba texels[4],
                    float* alpha, float* beta) {
  const float uu = s * static_cast<float>(cl.n) - 0.5f, vv = t * static_cast<float>(cl.n) - 0.5f;
  const int32_t i0 = texel_index(uu), j0 = texel_index(vv);
  const auto weight = [](float w) { return w >= 0.0f ? std::min(w, 1.0f) : 0.0f; };
  *alpha = weight(uu - static_cast<float>(i0));
  *beta = weight(vv - static_cast<float>(j0));
  texels[0] = cube_read(c, cl, face, i0, j0);
  texels[1] = cube_read(c, cl, face, i0 + 1, j0);
  texels[2] = cube_read(c, cl, face, i0, j0 + 1);
  texels[3] = cube_read(c, cl, face, i0 + 1, j0 + 1);
  note_probe(c.fp, classify_cube(i0, j0, cl.n), 4, cl.level);
}

// A seamless cube probe on `level` of face `face` ("Cube map edge handling"): NEAREST behaves as
// CLAMP_TO_EDGE within the face, LINEAR reads across edges and corners.
Rgba probe_cube(const Context& c, uint32_t face, uint32_t level, VkFilter filter, float s, float t) {
  note_level(c.fp, level);
  const CubeLevel cl = cube_level(c.tex, c.req.layer, level);
  if (filter == VK_FILTER_NEAREST) {
    const int32_t i = std::clamp(texel_index(s * static_cast<float>(cl.n)), 0, cl.n - 1);
    const int32_t j = std::clamp(texel_index(t * static_cast<float>(cl.n)), 0, cl.n - 1);
    // The texel is read before the probe is closed: a probe's blocks are those read since the
    // previous probe ended.
    const Rgba texel = cube_read_inside(c, cl, face, i, j);
    note_probe(c.fp, FootprintCase::SingleBlock, 1, level);
    return texel;
  }
  Rgba r[4];
  float alpha, beta;
  cube_footprint(c, cl, face, s, t, r, &alpha, &beta);
  Rgba out;
  for (int k = 0; k < 4; ++k) {
    out[k] = (1 - alpha) * (1 - beta) * r[0][k] + alpha * (1 - beta) * r[1][k] + (1 - alpha) * beta * r[2][k] +
             alpha * beta * r[3][k];
  }
  return out;
}

// The rest of sampling, shared by every dimensionality: anisotropic probes along the major axis
// and the mip level(s) ("Texel Mipmap Filtering"). probe(level, filter, s, t, r) filters once.
// Forced inline, with its level_sample: an Rgba returned from a call comes back through the
// stack, and reading it as one vector stalls on the two halves just stored.
template <typename Probe>
[[gnu::always_inline]] inline Rgba filter_levels(const Texture& tex, const SamplerState& sampler, const LodSelection& sel,
                                                 float s, float t, float r, Probe probe) {
  const VkFilter filter = sel.magnify ? sampler.mag_filter : sampler.min_filter;
  const uint32_t q = tex.levels() - 1;
  auto level_sample = [&](uint32_t level) __attribute__((always_inline)) {
    if (sel.probes <= 1) return probe(level, filter, s, t, r);
    Rgba sum = {0, 0, 0, 0};
    for (uint32_t p = 0; p < sel.probes; ++p) {
      const float f = (static_cast<float>(p) + 0.5f) / static_cast<float>(sel.probes) - 0.5f;
      const Rgba v = probe(level, filter, s + f * sel.major_ds, t + f * sel.major_dt, r + f * sel.major_dr);
      for (int k = 0; k < 4; ++k) sum[k] += v[k];
    }
    for (float& v : sum) v /= static_cast<float>(sel.probes);
    return sum;
  };
  if (sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST || sampler.unnormalized_coordinates) {
    const uint32_t d = std::min(q, static_cast<uint32_t>(std::max(0.0f, std::ceil(sel.d + 0.5f) - 1.0f)));
    return level_sample(d);
  }
  const uint32_t d_hi = static_cast<uint32_t>(std::floor(sel.d));
  const uint32_t d_lo = std::min(d_hi + 1, q);
  const float delta = sel.d - static_cast<float>(d_hi);
  if (delta == 0.0f || d_lo == d_hi) return level_sample(d_hi);
  // Two statements so the footprint lists the finer level first.
  const Rgba hi = level_sample(d_hi);
  const Rgba lo = level_sample(d_lo);
  return lerp(hi, lo, delta);
}

// Scale Factor and LOD Operations on derivatives `d` (normalised coordinates of a face for cube
// maps).
LodSelection select_lod_from(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
                             const Derivatives& d) {
  LodSelection sel;
  float lambda_base;
  if (req.explicit_lod) {
    lambda_base = req.lod;
  } else {
    // Scale Factor Operation: derivatives in texel space of the base level.
    const bool unnorm = sampler.unnormalized_coordinates;
    const float w = unnorm ? 1.0f : static_cast<float>(tex.width(0));
    const float h = unnorm ? 1.0f : static_cast<float>(tex.height(0));
    const float ux = d.dsdx * w, vx = d.dtdx * h, uy = d.dsdy * w, vy = d.dtdy * h;
    float mx2 = ux * ux + vx * vx, my2 = uy * uy + vy * vy;
    if (tex.is_3d() && req.dim != SampleDim::Cube) {
      const float depth = unnorm ? 1.0f : static_cast<float>(tex.depth(0));
      const float wx = d.drdx * depth, wy = d.drdy * depth;
      mx2 += wx * wx;
      my2 += wy * wy;
    }
    const float mx = std::sqrt(mx2);  // the spec's m_x, m_y (no hypot: speed)
    const float my = std::sqrt(my2);
    const float rho_max = std::max(mx, my), rho_min = std::min(mx, my);
    if (sampler.anisotropy_enable && sampler.max_anisotropy > 1.0f && rho_max > 0.0f) {
      sel.eta = rho_min > 0.0f ? std::min(rho_max / rho_min, sampler.max_anisotropy) : sampler.max_anisotropy;
      sel.probes = std::min<uint32_t>(Footprint::kMaxProbes, static_cast<uint32_t>(std::ceil(sel.eta)));
      sel.major_ds = mx >= my ? d.dsdx : d.dsdy;
      sel.major_dt = mx >= my ? d.dtdx : d.dtdy;
      sel.major_dr = mx >= my ? d.drdx : d.drdy;
    }
    // log2(0) = -inf: a constant coordinate magnifies.
    lambda_base = std::log2(rho_max / sel.eta);
  }
  const float bias = std::clamp(sampler.mip_lod_bias + req.bias, -kMaxSamplerLodBias, kMaxSamplerLodBias);
  const float lambda_prime = lambda_base + bias;
  const float min_lod = std::max(sampler.min_lod, req.min_lod);
  sel.lambda = std::min(std::max(lambda_prime, min_lod), sampler.max_lod);
  if (!(sel.lambda == sel.lambda)) sel.lambda = min_lod;  // NaN derivatives or LOD operand
  sel.magnify = sel.lambda <= 0.0f;
  const float q = static_cast<float>(tex.levels() - 1);
  sel.d = sampler.unnormalized_coordinates ? 0.0f : std::clamp(sel.lambda, 0.0f, q);
  return sel;
}

// The face-local request of a cube request (face selected, coordinates and derivatives on it).
SampleRequest on_face(const SampleRequest& req, const CubeCoord& cc) {
  SampleRequest f = req;
  f.dim = SampleDim::D2;
  f.s = cc.s;
  f.t = cc.t;
  f.r = 0;
  f.derivatives = cc.derivatives;
  return f;
}

}  // namespace

SamplerState SamplerState::from_create_info(const VkSamplerCreateInfo& info) {
  SamplerState s;
  s.mag_filter = info.magFilter;
  s.min_filter = info.minFilter;
  s.mipmap_mode = info.mipmapMode;
  s.address_u = info.addressModeU;
  s.address_v = info.addressModeV;
  s.address_w = info.addressModeW;
  s.mip_lod_bias = info.mipLodBias;
  s.anisotropy_enable = info.anisotropyEnable == VK_TRUE;
  s.max_anisotropy = info.maxAnisotropy;
  s.compare_enable = info.compareEnable == VK_TRUE;
  s.compare_op = info.compareOp;
  s.min_lod = info.minLod;
  s.max_lod = info.maxLod;
  s.border_color = info.borderColor;
  s.unnormalized_coordinates = info.unnormalizedCoordinates == VK_TRUE;
  s.non_seamless_cube = (info.flags & kNonSeamlessCubeBit) != 0;
  return s;
}

void Footprint::add_line(uint64_t address, uint32_t level) { footprint_add_line(*this, address, level); }

void Footprint::end_probe(FootprintCase fc, uint32_t texels, uint32_t level) {
  footprint_end_probe(*this, fc, texels, level);
}

int32_t wrap_texel(int32_t i, int32_t size, VkSamplerAddressMode mode) { return wrap(i, size, mode); }

LodSelection select_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req) {
  if (req.dim == SampleDim::Cube && !req.explicit_lod)
    return select_lod_from(tex, sampler, req, cube_coord(req.s, req.t, req.r, req.derivatives).derivatives);
  return select_lod_from(tex, sampler, req, req.derivatives);
}

namespace {

// Cube, 3D and 1D sampling, out of the way of the 2D path.
[[gnu::noinline]] Rgba sample_other(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
                                    Footprint* fp) {
  if (req.dim == SampleDim::Cube) {
    const CubeCoord cc = cube_coord(req.s, req.t, req.r, req.derivatives);
    SampleRequest face = on_face(req, cc);
    if (sampler.non_seamless_cube) {
      // VK_EXT_non_seamless_cube_map: the face is a 2D layer with the sampler's address modes.
      face.layer = req.layer + cc.face;
      return sample(tex, sampler, face, fp);
    }
    if (fp) fp->clear();
    const Context c = make_context(tex, sampler, face, fp);
    const LodSelection sel = select_lod_from(tex, sampler, face, face.derivatives);
    return tex.swizzle(filter_levels(tex, sampler, sel, face.s, face.t, 0.0f,
                                     [&](uint32_t level, VkFilter filter, float s, float t, float) {
                                       return probe_cube(c, cc.face, level, filter, s, t);
                                     }));
  }
  if (req.dim == SampleDim::D1) {
    // 1D images have one row: v is the centre of texel row 0, so CLAMP_TO_BORDER in v never
    // blends in a border texel (only i is a coordinate of a 1D image).
    SampleRequest row = req;
    row.dim = SampleDim::D2;
    row.t = 0.5f;
    return sample(tex, sampler, row, fp);
  }
  if (fp) fp->clear();
  const Context c = make_context(tex, sampler, req, fp);
  const LodSelection sel = select_lod_from(tex, sampler, req, req.derivatives);
  return tex.swizzle(filter_levels(tex, sampler, sel, req.s, req.t, req.r,
                                   [&](uint32_t level, VkFilter filter, float s, float t, float r) {
                                     return probe_3d(c, level, filter, s, t, r);
                                   }));
}

}  // namespace

Rgba sample(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, Footprint* fp) {
  if (req.dim != SampleDim::D2 || tex.is_3d()) return sample_other(tex, sampler, req, fp);
  return sample_2d(tex, sampler, req, select_lod_from(tex, sampler, req, req.derivatives), fp);
}

Rgba sample_2d(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, const LodSelection& sel,
               Footprint* fp) {
  if (fp) fp->clear();
  const Context c = make_context(tex, sampler, req, fp);
  // The probe is forced inline (see filter_levels). The level's view is looked up once for the
  // probes on it (anisotropic filtering makes up to 16).
  uint32_t view_level = UINT32_MAX;
  LevelView view;
  Rgba v = filter_levels(tex, sampler, sel, req.s, req.t, 0.0f,
                         [&](uint32_t level, VkFilter filter, float s, float t, float) __attribute__((always_inline)) {
                           if (level != view_level) {
                             view = tex.level_view(req.layer, level);
                             view_level = level;
                           }
                           return probe_2d(c, view, level, filter, s, t);
                         });
  if (!tex.identity_swizzle()) v = tex.swizzle(v);
  return v;
}

Rgba gather(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, uint32_t component,
            Footprint* fp) {
  if (fp) fp->clear();
  note_level(fp, 0);
  Rgba texel[4];  // (i0,j1), (i1,j1), (i1,j0), (i0,j0): the spec's gather order
  if (req.dim == SampleDim::Cube && !sampler.non_seamless_cube) {
    const CubeCoord cc = cube_coord(req.s, req.t, req.r, req.derivatives);
    const SampleRequest face = on_face(req, cc);
    const Context c = make_context(tex, sampler, face, fp);
    Rgba r[4];
    float alpha, beta;
    cube_footprint(c, cube_level(tex, req.layer, 0), cc.face, cc.s, cc.t, r, &alpha, &beta);
    texel[0] = r[2], texel[1] = r[3], texel[2] = r[1], texel[3] = r[0];
  } else {
    SampleRequest flat = req;
    if (req.dim == SampleDim::Cube) {
      const CubeCoord cc = cube_coord(req.s, req.t, req.r, req.derivatives);
      flat = on_face(req, cc);
      flat.layer = req.layer + cc.face;
    }
    const Context c = make_context(tex, sampler, flat, fp);
    float u, v;
    texel_space(c, 0, flat.s, flat.t, &u, &v);
    const int32_t i0 = texel_index(u - 0.5f) + flat.offset_x;
    const int32_t j0 = texel_index(v - 0.5f) + flat.offset_y;
    const LevelView lv = tex.level_view(flat.layer, 0);
    const auto lw = static_cast<int32_t>(lv.width), lh = static_cast<int32_t>(lv.height);
    const int32_t x0 = wrap(i0, lw, sampler.address_u), x1 = wrap(i0 + 1, lw, sampler.address_u);
    const int32_t y0 = wrap(j0, lh, sampler.address_v), y1 = wrap(j0 + 1, lh, sampler.address_v);
    // Read (and recorded) in paper 004 Fig. 4's order t1..t4, as the probe records promise;
    // returned in the gather order.
    const TexelRead r[4] = {read_wrapped(c, lv, 0, x0, y0), read_wrapped(c, lv, 0, x1, y0),
                            read_wrapped(c, lv, 0, x0, y1), read_wrapped(c, lv, 0, x1, y1)};
    note_probe(fp, classify(r, 4), texels_read(r, 4), 0);
    texel[0] = r[2].value, texel[1] = r[3].value, texel[2] = r[1].value, texel[3] = r[0].value;
  }
  // The component is taken from the swizzled texels ("Texel Gathering"); OpImageDrefGather
  // returns the four compare results.
  if (sampler.compare_enable && req.has_dref) return {texel[0][0], texel[1][0], texel[2][0], texel[3][0]};
  const uint32_t src = tex.swizzle_source(component);
  if (src >= 4) {
    const float v = src == 5 ? tex.one() : (tex.format().integer ? pattern(0) : 0.0f);
    return {v, v, v, v};
  }
  return {texel[0][src], texel[1][src], texel[2][src], texel[3][src]};
}

Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp) {
  return fetch(tex, layer, level, x, y, 0, fp);
}

Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, int32_t z, Footprint* fp) {
  if (fp) fp->clear();
  // "Integer Texel Coordinate Validation": out-of-range texels read zero (robustImageAccess2).
  if (level >= tex.levels() || layer >= tex.layers() || x < 0 || y < 0 || z < 0 ||
      static_cast<uint32_t>(x) >= tex.width(level) || static_cast<uint32_t>(y) >= tex.height(level) ||
      static_cast<uint32_t>(z) >= tex.depth(level))
    return {0.0f, 0.0f, 0.0f, 0.0f};
  const auto ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y), uz = static_cast<uint32_t>(z);
  if (fp) {
    note_level(fp, level);
    const TexelAddress a = tex.address(layer, level, ux, uy, uz);
    fp->block_bytes = tex.format().block_bytes;
    fp->add_texel(a.byte / kLineBytes * kLineBytes, a.block, level);
    note_probe(fp, FootprintCase::SingleBlock, 1, level);
  }
  return tex.swizzle(tex.texel(layer, level, ux, uy, uz));
}

}  // namespace tessera::texture
