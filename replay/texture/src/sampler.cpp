#include "tessera/texture/sampler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace tessera::texture {

namespace {

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
  } else {
    ++fp.dropped;
  }
}

[[gnu::always_inline]] inline void footprint_end_probe(Footprint& fp, FootprintCase fc, uint32_t texels, uint32_t level) {
  // Not reached by the sampler (at most kMaxProbes per level and slice): counted, not recorded.
  if (fp.probe_count == Footprint::kMaxProbeRecords) {
    ++fp.dropped;
    return;
  }
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

// The rest of sampling, shared by every dimensionality: the mip level(s) of `sel` and their blend
// ("Texel Mipmap Filtering" as lavapipe does it: gallivm's lp_build_sample_mipmap samples level0
// and, where the weight is positive, level1, and blends v0 + w (v1 - v0)). Magnified samples
// use magFilter on level0 alone (lp_build_sample_general: the mag branch has no mip filter).
// probe(level, filter, s, t, r) filters once. Forced inline: an Rgba returned from a call comes
// back through the stack, and reading it as one vector stalls on the two halves just stored.
template <typename Probe>
[[gnu::always_inline]] inline Rgba filter_levels(const SamplerState& sampler, const LodSelection& sel, float s, float t,
                                                 float r, Probe probe) {
  const VkFilter filter = sel.magnify ? sampler.mag_filter : sampler.min_filter;
  if (!(sel.weight > 0.0f) || sel.level1 == sel.level0) return probe(sel.level0, filter, s, t, r);
  // Two statements so the footprint lists the finer level first.
  const Rgba hi = probe(sel.level0, filter, s, t, r);
  const Rgba lo = probe(sel.level1, filter, s, t, r);
  return lerp(hi, lo, sel.weight);
}

// The modelled texture unit's anisotropic filter (LodSelection's probes and hw_ levels): N probes
// along the major axis on each level, averaged with equal weights, the levels blended by
// hw_weight. Its footprint is what the access stream gets for every anisotropic sample.
template <typename Probe>
[[gnu::always_inline]] inline Rgba filter_unit_probes(const SamplerState& sampler, const LodSelection& sel, float s,
                                                      float t, float r, Probe probe) {
  const VkFilter filter = sel.hw_magnify ? sampler.mag_filter : sampler.min_filter;
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
  if (!(sel.hw_weight > 0.0f) || sel.hw_level1 == sel.hw_level0) return level_sample(sel.hw_level0);
  // Two statements so the footprint lists the finer level first.
  const Rgba hi = level_sample(sel.hw_level0);
  const Rgba lo = level_sample(sel.hw_level1);
  return lerp(hi, lo, sel.hw_weight);
}

// Bits of a float as gallivm's lp_build_extract_exponent / lp_build_extract_mantissa read them.
uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// lp_build_extract_exponent(x, 0): the biased exponent field minus 127 (floor(log2 |x|) for a
// normal x; -127 for zero).
int32_t exponent_of(float x) { return static_cast<int32_t>((float_bits(x) >> 23) & 0xffu) - 127; }

// lp_build_extract_mantissa: x's mantissa with the exponent of 1.0, in [1, 2).
float mantissa_of(float x) { return pattern((float_bits(x) & 0x007fffffu) | 0x3f800000u); }

// Float to int as the x86 conversions gallivm emits give it, made defined for every input: NaN
// and values beyond +-2^30 clamp (they only ever meet a clamp to the level range after this).
int32_t to_int(float x) {
  if (!(x == x)) return 0;
  return static_cast<int32_t>(std::clamp(x, -1073741824.0f, 1073741824.0f));
}

}  // namespace

// Mesa gallivm's lp_build_fast_log2 (lp_bld_arit.c): with x = m 2^e, m in [1, 2), log2 x is
// taken as e + (m - 1), exact at powers of two and linear between them (at most 0.086 low).
float gallivm_fast_log2(float x) { return static_cast<float>(exponent_of(x) - 1) + mantissa_of(x); }

// Mesa gallivm's lp_build_ilog2_sqrt (lp_bld_sample.c): round(log2 sqrt(x)) as
// (exponent(x) + 1) >> 1, so level n for x in [2^(2n - 1), 2^(2n + 1)): rho = sqrt(x) rounds
// to n exactly at 2^(n + 1/2).
int32_t gallivm_ilog2_sqrt(float x) { return (exponent_of(x) + 1) >> 1; }

namespace {

// pipe_sampler_state's limit below which lp_sampler_static_sampler_state applies maxLod
// (lp_bld_sample.c: max_lod < PIPE_MAX_TEXTURE_LEVELS - 1, PIPE_MAX_TEXTURE_LEVELS = 16).
constexpr float kGalliumMaxLodLimit = 15.0f;

// What lavapipe's sampler makes of a VkSamplerCreateInfo (its pipe_sampler_state and gallivm's
// lp_sampler_static_sampler_state): max_anisotropy is maxAnisotropy when anisotropy is
// enabled, else 1, and "aniso" means more than 1; min_max_lod_equal when minLod == maxLod (the
// LOD is then minLod, nothing else); apply_min_lod when minLod > 0; apply_max_lod when maxLod
// < 15 (VK_LOD_CLAMP_NONE, 1000, is never applied); lod_bias_non_zero when mipLodBias != 0.
struct GalliumSampler {
  bool aniso, min_max_lod_equal, apply_min_lod, apply_max_lod, lod_bias_non_zero, linear_mip;
  float max_aniso;
};

GalliumSampler gallium_sampler(const SamplerState& s) {
  GalliumSampler g{};
  g.max_aniso = s.anisotropy_enable ? s.max_anisotropy : 1.0f;
  g.aniso = g.max_aniso > 1.0f;
  g.min_max_lod_equal = s.min_lod == s.max_lod;
  g.apply_min_lod = !g.min_max_lod_equal && s.min_lod > 0.0f;
  g.apply_max_lod = !g.min_max_lod_equal && s.max_lod < kGalliumMaxLodLimit;
  g.lod_bias_non_zero = s.mip_lod_bias != 0.0f;
  g.linear_mip = s.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
  return g;
}

// rho^2 of derivatives `d` (normalised coordinates) on a base level of w x h x depth texels, as
// gallivm computes it for lavapipe (Mesa lp_bld_sample.c; lavapipe runs with GALLIVM_PERF unset,
// so its rho_approx option is off, lp_bld_sample_soa.c: no_rho_approx):
//  - isotropic samplers (lp_build_rho, no_rho_approx): rho^2 = max(|d/dx|^2, |d/dy|^2) of the
//    texel-space derivative vectors (s, t and r for 3D): the spec's rho, squared, no sqrt;
//    non-finite values of explicit (Grad) derivatives read 0.
//  - anisotropic samplers (lp_build_pmin): rho^2 = min(|d/dx|^2, |d/dy|^2) of the s, t vectors.
//    gallivm then replaces pmin2 by pmax2 / maxAniso^2 where pmin2 > pmin2 x maxAniso^2, which
//    no finite pmin2 >= 0 satisfies for maxAniso > 1: the LOD follows the minor axis whatever
//    the ratio, where the spec's "Texel Anisotropic Filtering" takes log2(rho_max / min(ratio,
//    maxAniso)).
float gallivm_rho2(const Derivatives& d, float w, float h, float depth, bool three_d, bool explicit_derivatives,
                   const GalliumSampler& g) {
  const float sx = d.dsdx * w, tx = d.dtdx * h, sy = d.dsdy * w, ty = d.dtdy * h;
  float px2 = sx * sx + tx * tx, py2 = sy * sy + ty * ty;
  if (g.aniso) {
    float pmin2 = std::min(px2, py2);
    const float pmax2 = std::max(px2, py2);
    const float max_aniso2 = g.max_aniso * g.max_aniso;
    if (pmin2 > pmin2 * max_aniso2) pmin2 = pmax2 / max_aniso2;  // never true: see above
    return pmin2;
  }
  if (three_d) {
    const float rx = d.drdx * depth, ry = d.drdy * depth;
    px2 += rx * rx;
    py2 += ry * ry;
  }
  float rho2 = std::max(px2, py2);
  if (explicit_derivatives && !std::isfinite(rho2)) rho2 = 0.0f;
  return rho2;
}

// The LOD of a request as lavapipe computes it (Mesa gallivm lp_build_lod_selector,
// lp_bld_sample.c), before it becomes levels. `ipart`/`fpart` are set when a fast path made
// them directly (then `fast` and `lod` is unset).
struct GalliumLod {
  float lod = 0;            // after biases and clamps
  float unclamped = 0;      // after biases, before the min/max clamps (OpImageQueryLod's y)
  bool fast = false;
  int32_t ipart = 0;
  float fpart = 0;
  bool positive = false;    // minified (lod > 0, or rho^2 > 1 on the fast path)
};

GalliumLod gallium_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
                       const Derivatives& d, const GalliumSampler& g, bool query) {
  GalliumLod out;
  if (g.min_max_lod_equal && !query) {
    // "User is forcing sampling from a particular mipmap level": lod = minLod, no bias at all.
    out.lod = out.unclamped = sampler.min_lod;
    out.positive = out.lod > 0.0f;
    return out;
  }
  float lod;
  if (req.explicit_lod) {
    lod = req.lod;
  } else {
    const bool unnorm = sampler.unnormalized_coordinates;
    const float w = unnorm ? 1.0f : static_cast<float>(tex.width(0));
    const float h = unnorm ? 1.0f : static_cast<float>(tex.height(0));
    const float depth = unnorm ? 1.0f : static_cast<float>(tex.depth(0));
    const float rho2 = gallivm_rho2(d, w, h, depth, tex.is_3d() && req.dim != SampleDim::Cube,
                                    req.explicit_derivatives, g);
    // NEAREST mipmapping with no adjustment after the log2 (no Bias operand -- its presence,
    // whatever its value --, no sampler bias, no min/max LOD to apply, not anisotropic, not a
    // query): the level comes from rho^2's exponent, exactly rounded (lp_build_ilog2_sqrt).
    const bool adjusted = req.has_bias || req.min_lod > 0.0f || query || g.aniso || g.lod_bias_non_zero ||
                          g.apply_max_lod || g.apply_min_lod;
    if (!adjusted && !g.linear_mip) {
      out.fast = true;
      out.ipart = gallivm_ilog2_sqrt(rho2);
      out.positive = rho2 > 1.0f;
      return out;
    }
    // lod = 0.5 fast_log2(rho^2) (lp_build_fast_log2: piecewise linear between powers of two).
    lod = gallivm_fast_log2(rho2) * 0.5f;
    if (req.has_bias) lod += req.bias;  // the instruction's Bias, before the sampler's
  }
  if (g.lod_bias_non_zero) lod += sampler.mip_lod_bias;  // the sampler's bias, unclamped
  out.unclamped = lod;
  // Clamps: maxLod first, then minLod (so minLod wins when minLod > maxLod), then the
  // instruction's MinLod operand.
  if (g.apply_max_lod) lod = std::min(lod, sampler.max_lod);
  if (g.apply_min_lod) lod = std::max(lod, sampler.min_lod);
  if (req.min_lod > 0.0f) lod = std::max(lod, req.min_lod);
  out.lod = lod;
  out.positive = lod > 0.0f;
  return out;
}

// The modelled GPU's anisotropic texture unit (Tessera's model, as before the replay's colour
// followed lavapipe; "Texel Anisotropic Filtering" leaves the footprint to the implementation):
// eta = min(rho_max / rho_min, maxAnisotropy), N = ceil(eta) probes along the major axis, lambda =
// log2(rho_max / eta) + clamp(bias) clamped to [minLod, maxLod], the levels of "Image Level(s)
// Selection" (NEAREST: ceil(d' + 0.5) - 1; LINEAR: floor(d') and floor(d') + 1 by frac(d')).
// lavapipe's EWA reads every texel of the pixel's ellipse, one at a time; charging those as
// probes would make the GPU model pay for how lavapipe computes a colour.
constexpr float kMaxSamplerLodBias = 16.0f;

void unit_anisotropy(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, const Derivatives& d,
                     LodSelection* sel) {
  float lambda_base;
  float eta = 1.0f;
  if (req.explicit_lod) {
    lambda_base = req.lod;
  } else {
    const float w = static_cast<float>(tex.width(0)), h = static_cast<float>(tex.height(0));
    const float ux = d.dsdx * w, vx = d.dtdx * h, uy = d.dsdy * w, vy = d.dtdy * h;
    float mx2 = ux * ux + vx * vx, my2 = uy * uy + vy * vy;
    if (tex.is_3d() && req.dim != SampleDim::Cube) {
      const float depth = static_cast<float>(tex.depth(0));
      const float wx = d.drdx * depth, wy = d.drdy * depth;
      mx2 += wx * wx;
      my2 += wy * wy;
    }
    const float mx = std::sqrt(mx2), my = std::sqrt(my2);
    const float rho_max = std::max(mx, my), rho_min = std::min(mx, my);
    if (rho_max > 0.0f) {
      eta = rho_min > 0.0f ? std::min(rho_max / rho_min, sampler.max_anisotropy) : sampler.max_anisotropy;
      // ceil(eta) <= maxAnisotropy <= 16 (maxSamplerAnisotropy); NaN derivatives make 1 probe.
      const float n = std::ceil(eta);
      sel->probes = n >= 1.0f ? std::min<uint32_t>(Footprint::kMaxProbes, static_cast<uint32_t>(n)) : 1u;
      sel->major_ds = mx >= my ? d.dsdx : d.dsdy;
      sel->major_dt = mx >= my ? d.dtdx : d.dtdy;
      sel->major_dr = mx >= my ? d.drdx : d.drdy;
    }
    lambda_base = std::log2(rho_max / eta);  // log2(0) = -inf: a constant coordinate magnifies
  }
  const float bias = std::clamp(sampler.mip_lod_bias + req.bias, -kMaxSamplerLodBias, kMaxSamplerLodBias);
  const float min_lod = std::max(sampler.min_lod, req.min_lod);
  float lambda = std::min(std::max(lambda_base + bias, min_lod), sampler.max_lod);
  if (!(lambda == lambda)) lambda = min_lod;
  sel->hw_magnify = lambda <= 0.0f;
  const float q = static_cast<float>(tex.levels() - 1);
  const float dp = std::clamp(lambda, 0.0f, q);
  if (sampler.mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST) {
    sel->hw_level0 = sel->hw_level1 = static_cast<uint32_t>(std::min(q, std::max(0.0f, std::ceil(dp + 0.5f) - 1.0f)));
    sel->hw_weight = 0.0f;
  } else {
    const float fl = std::floor(dp);
    sel->hw_level0 = static_cast<uint32_t>(fl);
    sel->hw_level1 = std::min(sel->hw_level0 + 1, tex.levels() - 1);
    sel->hw_weight = dp - fl;
  }
}

// The LOD selection of lavapipe (Mesa gallivm lp_build_lod_selector, lp_build_nearest_mip_level,
// lp_build_linear_mip_levels; lp_bld_sample.c), on derivatives `d` (normalised coordinates of a
// face for cube maps). The Vulkan spec ("Scale Factor Operation, LOD Operation and Image Level(s)
// Selection") leaves the log2's precision, the rounding and the clamps' details to the
// implementation; see gallivm_rho2, gallium_lod and replay/texture/README.md for each choice.
LodSelection select_lod_from(const Texture& tex, const SamplerState& sampler, const SampleRequest& req,
                             const Derivatives& d) {
  const GalliumSampler g = gallium_sampler(sampler);
  const GalliumLod gl = gallium_lod(tex, sampler, req, d, g, false);
  LodSelection sel;
  sel.magnify = !gl.positive;
  const auto last = static_cast<int32_t>(tex.levels() - 1);
  int32_t ipart = gl.ipart;
  float fpart = gl.fpart;
  sel.lambda = gl.fast ? static_cast<float>(gl.ipart) : gl.lod;
  if (!gl.fast) {
    if (g.aniso) {
      ipart = to_int(std::trunc(gl.lod));  // lp_build_itrunc
    } else if (g.linear_mip) {
      // lp_build_ifloor_fract (brilinear is off: GALLIVM_PERF's brilinear option is unset).
      const float fl = std::floor(gl.lod);
      ipart = to_int(fl);
      fpart = gl.lod - fl;
      if (!(fpart == fpart)) fpart = 0.0f;
    } else {
      ipart = to_int(std::nearbyint(gl.lod));  // lp_build_iround: to nearest, ties to even
    }
  }
  if (sampler.unnormalized_coordinates) {
    ipart = 0;
    fpart = 0.0f;
  }
  if (g.linear_mip && !g.aniso) {
    // lp_build_linear_mip_levels: level0 = ipart, level1 = ipart + 1, both clamped to the view's
    // levels with the weight zeroed at either end.
    if (ipart < 0) {
      ipart = 0;
      fpart = 0.0f;
    }
    if (ipart >= last) {
      ipart = last;
      fpart = 0.0f;
    }
    sel.level0 = static_cast<uint32_t>(ipart);
    sel.level1 = static_cast<uint32_t>(std::min(ipart + 1, last));
    sel.weight = fpart > 0.0f && !sel.magnify ? fpart : 0.0f;
  } else {
    // lp_build_nearest_mip_level: clamp(ipart, first, last).
    sel.level0 = sel.level1 = static_cast<uint32_t>(std::clamp(ipart, 0, last));
  }
  sel.d = static_cast<float>(sel.level0) + sel.weight;
  sel.hw_level0 = sel.level0;
  sel.hw_level1 = sel.level1;
  sel.hw_weight = sel.weight;
  sel.hw_magnify = sel.magnify;
  if (g.aniso && !sampler.unnormalized_coordinates) {
    unit_anisotropy(tex, sampler, req, d, &sel);
    // 3D and seamless cube samples are not given lavapipe's EWA (gallivm runs it on the nearest
    // slice and on face coordinates): the unit's filter gives their colour as well, on its
    // levels (Tessera's anisotropic filter before the colour followed lavapipe).
    sel.unit_anisotropic = true;
  }
  if (g.aniso && req.dim == SampleDim::D2 && !tex.is_3d() && !sampler.unnormalized_coordinates) {
    // lp_build_sample_aniso: an elliptical weighted average on level0 whether minified or not,
    // its ellipse from the quad's implicit coordinate differences even for an explicit Lod or
    // Grad (gallivm derives them from the coordinates there, not from the LOD operands).
    const bool quad = (req.explicit_lod || req.explicit_derivatives) && req.has_quad_derivatives;
    const Derivatives& e = quad ? req.quad_derivatives : d;
    sel.ewa = true;
    sel.dudx = e.dsdx * static_cast<float>(tex.width(0));
    sel.dudy = e.dsdy * static_cast<float>(tex.width(0));
    sel.dvdx = e.dtdx * static_cast<float>(tex.height(0));
    sel.dvdy = e.dtdy * static_cast<float>(tex.height(0));
  }
  return sel;
}

// The EWA table of llvmpipe (WEIGHT_LUT_SIZE = 1024 entries, weight(i) = exp(-2 i / 1023), as
// softpipe's create_filter_table): a Gaussian of the ellipse's normalised radius squared.
constexpr uint32_t kEwaLutSize = 1024;
const float* ewa_weights() {
  static const auto table = [] {
    std::array<float, kEwaLutSize> t{};
    for (uint32_t i = 0; i < kEwaLutSize; ++i)
      t[i] = static_cast<float>(std::exp(-2.0 * static_cast<double>(static_cast<float>(i) /
                                                                  static_cast<float>(kEwaLutSize - 1))));
    return t;
  }();
  return table.data();
}

// Anisotropic filtering as lavapipe does it (Mesa lp_bld_sample_soa.c lp_build_sample_aniso, a
// port of softpipe's img_filter_2d_ewa: Heckbert's elliptical weighted average). On `level`, the
// texel-space derivatives (scaled by 2^-level) define the ellipse A u^2 + B u v + C v^2 = F with
// A = vx^2 + vy^2 + 1, B = -2 (ux vx + uy vy), C = ux^2 + uy^2 + 1, F = A C - B^2 / 4; every
// texel centre of its bounding box is weighted by the table at q = trunc(1023 (A U^2 + B U V +
// C V^2) / F) (q accumulated incrementally along each row, as gallivm does), texels with q >
// 1023 weigh 0, each texel read NEAREST with the address modes; the sum is divided by the
// weights' sum, and a bilinear sample of the level replaces it when that is 0. No mip blend:
// one level, that of trunc(lod). The spec leaves the anisotropic footprint to the implementation
// ("Texel Anisotropic Filtering").
Rgba ewa_2d(const Context& c, const LevelView& lv, uint32_t level, const LodSelection& sel, float s, float t) {
  note_level(c.fp, level);
  const float scaling = 1.0f / static_cast<float>(1u << std::min(level, 30u));
  const float ux = sel.dudx * scaling, uy = sel.dudy * scaling;
  const float vx = sel.dvdx * scaling, vy = sel.dvdy * scaling;
  float A = vx * vx + vy * vy + 1.0f;
  float B = (ux * vx + uy * vy) * -2.0f;
  float C = ux * ux + uy * uy + 1.0f;
  const float F = A * C - B * B / 4.0f;
  const float det = (0.0f - B * B) + A * C * 4.0f;
  const float box_u = 2.0f / det * std::sqrt(det * C * F);
  const float box_v = 2.0f / det * std::sqrt(A * det * F);
  const float form_scale = static_cast<float>(kEwaLutSize - 1) / F;
  A *= form_scale;
  B *= form_scale;
  C *= form_scale;
  const float ddq = A * 2.0f;
  const float width = static_cast<float>(c.tex.width(0)) * scaling;
  const float height = static_cast<float>(c.tex.height(0)) * scaling;
  const float tex_u = s * width + -0.5f;
  const float tex_v = t * height + -0.5f;
  const float lo_u = std::floor(tex_u - box_u), hi_u = std::ceil(tex_u + box_u);
  const float lo_v = std::floor(tex_v - box_v), hi_v = std::ceil(tex_v + box_v);
  // The replay's guard, not gallivm's: a box beyond 2^16 texels a side (non-finite or absurd
  // derivatives) takes the bilinear sample instead of looping for minutes.
  constexpr float kMaxBox = 65536.0f;
  const bool sane = hi_u - lo_u <= kMaxBox && hi_v - lo_v <= kMaxBox;  // false for NaN
  Rgba sum = {0, 0, 0, 0};
  float den = 0.0f;
  if (sane) {
    const float* table = ewa_weights();
    const int32_t u0 = to_int(lo_u), u1 = to_int(hi_u), v0 = to_int(lo_v), v1 = to_int(hi_v);
    const float U = static_cast<float>(u0) - tex_u;
    const float dq_base = (U * 2.0f + 1.0f) * A;
    const float q_base = U * U * A;
    const auto lw = static_cast<int32_t>(lv.width), lh = static_cast<int32_t>(lv.height);
    const float level_w = static_cast<float>(lv.width), level_h = static_cast<float>(lv.height);
    for (int32_t v = v0; v <= v1; ++v) {
      const float V = static_cast<float>(v) - tex_v;
      float dq = V * B + dq_base;
      float q = (C * V + B * U) * V + q_base;
      // The row's texels inside the ellipse: A U^2 + B V U + C V^2 <= 1023 (scaled form), solved
      // in double for q <= 2047 (twice the bound: room for the float accumulation's error) and
      // widened by two texels; the texels before it only advance q and dq (no reads), so every
      // weight is the one gallivm's walk of the whole box gives.
      int32_t first = u0, last = u1;
      {
        const double a = A, b = static_cast<double>(B) * V, k = static_cast<double>(C) * V * V - 2047.0;
        const double disc = b * b - 4.0 * a * k;
        if (a > 0.0 && disc < 0.0) continue;  // the row misses the ellipse
        if (a > 0.0 && std::isfinite(disc)) {
          const double root = std::sqrt(disc);
          const double lo = (-b - root) / (2.0 * a) + tex_u - 2.0, hi = (-b + root) / (2.0 * a) + tex_u + 2.0;
          if (lo > static_cast<double>(u0)) first = static_cast<int32_t>(std::min(lo, static_cast<double>(u1) + 1.0));
          if (hi < static_cast<double>(u1)) last = static_cast<int32_t>(std::max(hi, static_cast<double>(u0) - 1.0));
        }
      }
      for (int32_t u = u0; u < first; ++u) {
        q += dq;
        dq += ddq;
      }
      for (int32_t u = first; u <= last; ++u) {
        const int32_t qi = to_int(q);
        if (qi <= static_cast<int32_t>(kEwaLutSize - 1)) {
          const float weight = table[std::max(qi, 0)];
          // The texel: NEAREST at normalised (u / width, v / height) of the level, as gallivm
          // re-enters its nearest sampler with those coordinates.
          const float cu = static_cast<float>(u) / level_w * level_w;
          const float cv = static_cast<float>(v) / level_h * level_h;
          const TexelRead r = read_wrapped(c, lv, level, wrap(texel_index(cu) + c.req.offset_x, lw, c.sampler.address_u),
                                           wrap(texel_index(cv) + c.req.offset_y, lh, c.sampler.address_v));
          for (int k = 0; k < 4; ++k) sum[k] += r.value[k] * weight;
          den += weight;
        }
        q += dq;
        dq += ddq;
      }
    }
  }
  if (!(den > 0.0f)) {
    float u = s * static_cast<float>(lv.width), v = t * static_cast<float>(lv.height);
    return filter_2d(c, lv, level, VK_FILTER_LINEAR, u, v);
  }
  for (float& x : sum) x /= den;
  return sum;
}

// The face-local request of a cube request (face selected, coordinates and derivatives on it).
SampleRequest on_face(const SampleRequest& req, const CubeCoord& cc) {
  SampleRequest f = req;
  f.dim = SampleDim::D2;
  f.s = cc.s;
  f.t = cc.t;
  f.r = 0;
  f.derivatives = cc.derivatives;
  // The quad's differences on the same face (cube_coord selects the face from s, t, r alone).
  if (req.has_quad_derivatives) f.quad_derivatives = cube_coord(req.s, req.t, req.r, req.quad_derivatives).derivatives;
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

QueryLod query_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req) {
  const Derivatives d = req.dim == SampleDim::Cube && !req.explicit_lod
                            ? cube_coord(req.s, req.t, req.r, req.derivatives).derivatives
                            : req.derivatives;
  const GalliumSampler g = gallium_sampler(sampler);
  const GalliumLod gl = gallium_lod(tex, sampler, req, d, g, true);
  QueryLod q;
  q.y = gl.unclamped;
  // lp_build_sample_common, is_lodq: NEAREST rounds (lp_build_round: to nearest, ties to even),
  // then both modes clamp to [0, last level].
  const float x = g.linear_mip ? gl.lod : std::nearbyint(gl.lod);
  q.x = std::min(std::max(x, 0.0f), static_cast<float>(tex.levels() - 1));
  return q;
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
    const auto probe = [&](uint32_t level, VkFilter filter, float s, float t, float) {
      return probe_cube(c, cc.face, level, filter, s, t);
    };
    // Anisotropic: the texture unit's probes give the colour too (see unit_anisotropy).
    return tex.swizzle(sel.unit_anisotropic ? filter_unit_probes(sampler, sel, face.s, face.t, 0.0f, probe)
                                            : filter_levels(sampler, sel, face.s, face.t, 0.0f, probe));
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
  const auto probe = [&](uint32_t level, VkFilter filter, float s, float t, float r) {
    return probe_3d(c, level, filter, s, t, r);
  };
  return tex.swizzle(sel.unit_anisotropic ? filter_unit_probes(sampler, sel, req.s, req.t, req.r, probe)
                                          : filter_levels(sampler, sel, req.s, req.t, req.r, probe));
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
  if (sel.ewa) {
    // The colour is lavapipe's (its EWA, read without a footprint); the footprint is the modelled
    // texture unit's N probes (unit_anisotropy), whose colour is dropped.
    const Context colour = make_context(tex, sampler, req, nullptr);
    Rgba e = ewa_2d(colour, tex.level_view(req.layer, sel.level0), sel.level0, sel, req.s, req.t);
    if (fp) {
      uint32_t unit_level = UINT32_MAX;
      LevelView unit_view;
      filter_unit_probes(sampler, sel, req.s, req.t, 0.0f, [&](uint32_t level, VkFilter filter, float s, float t, float) {
        if (level != unit_level) {
          unit_view = tex.level_view(req.layer, level);
          unit_level = level;
        }
        return probe_2d(c, unit_view, level, filter, s, t);
      });
    }
    if (!tex.identity_swizzle()) e = tex.swizzle(e);
    return e;
  }
  // The probe is forced inline (see filter_levels). The level's view is looked up once for the
  // probes on it.
  uint32_t view_level = UINT32_MAX;
  LevelView view;
  Rgba v = filter_levels(sampler, sel, req.s, req.t, 0.0f,
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
