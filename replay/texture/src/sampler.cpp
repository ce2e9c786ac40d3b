#include "tessera/texture/sampler.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::texture {

namespace {

// The spec's maxSamplerLodBias limit (lavapipe and most desktop devices report 16).
constexpr float kMaxSamplerLodBias = 16.0f;

// Texel index from a texel-space coordinate. Shaders can hand over NaN, infinities or huge
// values: clamp before converting (the cast would be undefined), NaN -> 0. Any index beyond
// +-2^30 wraps or clamps like a far-away one.
int32_t texel_index(float u) {
  if (!(u == u)) return 0;
  return static_cast<int32_t>(std::floor(std::clamp(u, -1073741824.0f, 1073741824.0f)));
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

Rgba int_pattern(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  Rgba out;
  const uint32_t v[4] = {r, g, b, a};
  std::memcpy(out.data(), v, sizeof v);
  return out;
}

// Border colours (VkBorderColor); for integer formats the INT colours are integer patterns,
// like every texel of such a format (format.h).
Rgba border_color(VkBorderColor c, bool integer) {
  if (integer) {
    if (c == VK_BORDER_COLOR_INT_OPAQUE_WHITE || c == VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE) return int_pattern(1, 1, 1, 1);
    if (c == VK_BORDER_COLOR_INT_OPAQUE_BLACK || c == VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK) return int_pattern(0, 0, 0, 1);
    return int_pattern(0, 0, 0, 0);
  }
  switch (c) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: return {0.0f, 0.0f, 0.0f, 1.0f};
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: return {1.0f, 1.0f, 1.0f, 1.0f};
    default: return {0.0f, 0.0f, 0.0f, 0.0f};
  }
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

// Reads the texel at wrapped coordinates (x, y) of `level` (either negative: the border).
TexelRead read_wrapped(const Context& c, const LevelView& lv, uint32_t level, int32_t x, int32_t y) {
  TexelRead r;
  if (x < 0 || y < 0) {
    r.value = border_color(c.sampler.border_color, c.tex.format().integer);
    r.x = r.y = -1;
  } else {
    r.x = x;
    r.y = y;
    r.value = lv.texel(static_cast<uint32_t>(x), static_cast<uint32_t>(y));
    if (c.fp) c.fp->add_line(lv.byte_address(static_cast<uint32_t>(x), static_cast<uint32_t>(y)) / kLineBytes * kLineBytes, level);
  }
  if (c.do_compare) r.value = {compare(c.sampler.compare_op, c.dref, r.value[0]) ? 1.0f : 0.0f, 0.0f, 0.0f, 1.0f};
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

void note_probe(Footprint* fp, FootprintCase fc) {
  if (!fp) return;
  if (fp->probe_count == 0) fp->first_case = fc;
  ++fp->probe_count;
  ++fp->case_count[static_cast<int>(fc)];
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

// One probe on one level with the given filter ("Texel Filtering").
Rgba filter_level(const Context& c, uint32_t level, VkFilter filter, float s, float t) {
  note_level(c.fp, level);
  float u, v;
  texel_space(c, level, s, t, &u, &v);
  const LevelView lv = c.tex.level_view(c.req.layer, level);
  const auto lw = static_cast<int32_t>(lv.width), lh = static_cast<int32_t>(lv.height);
  if (filter == VK_FILTER_NEAREST) {
    const TexelRead r = read_wrapped(c, lv, level, wrap(texel_index(u) + c.req.offset_x, lw, c.sampler.address_u),
                                     wrap(texel_index(v) + c.req.offset_y, lh, c.sampler.address_v));
    note_probe(c.fp, classify(&r, 1));
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
      c.fp->add_line(lv.byte_address(ux0, uy0) / kLineBytes * kLineBytes, level);
      c.fp->add_line(lv.byte_address(ux1, uy0) / kLineBytes * kLineBytes, level);
      c.fp->add_line(lv.byte_address(ux0, uy1) / kLineBytes * kLineBytes, level);
      c.fp->add_line(lv.byte_address(ux1, uy1) / kLineBytes * kLineBytes, level);
      const bool same_x = ux0 / kBlockDim == ux1 / kBlockDim, same_y = uy0 / kBlockDim == uy1 / kBlockDim;
      note_probe(c.fp, same_x && same_y ? FootprintCase::SingleBlock
                       : same_x         ? FootprintCase::TwoBlocksVertical
                       : same_y         ? FootprintCase::TwoBlocksHorizontal
                                        : FootprintCase::FourBlocks);
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
  note_probe(c.fp, classify(r, 4));
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

}  // namespace

SamplerState SamplerState::from_create_info(const VkSamplerCreateInfo& info) {
  SamplerState s;
  s.mag_filter = info.magFilter;
  s.min_filter = info.minFilter;
  s.mipmap_mode = info.mipmapMode;
  s.address_u = info.addressModeU;
  s.address_v = info.addressModeV;
  s.mip_lod_bias = info.mipLodBias;
  s.anisotropy_enable = info.anisotropyEnable == VK_TRUE;
  s.max_anisotropy = info.maxAnisotropy;
  s.compare_enable = info.compareEnable == VK_TRUE;
  s.compare_op = info.compareOp;
  s.min_lod = info.minLod;
  s.max_lod = info.maxLod;
  s.border_color = info.borderColor;
  s.unnormalized_coordinates = info.unnormalizedCoordinates == VK_TRUE;
  return s;
}

void Footprint::add_line(uint64_t address, uint32_t level) {
  for (uint32_t k = 0; k < line_count; ++k)
    if (lines[k] == address) return;
  if (line_count < kMaxLines) {
    lines[line_count] = address;
    line_level[line_count] = static_cast<uint8_t>(level);
    ++line_count;
  }
}

int32_t wrap_texel(int32_t i, int32_t size, VkSamplerAddressMode mode) { return wrap(i, size, mode); }


LodSelection select_lod(const Texture& tex, const SamplerState& sampler, const SampleRequest& req) {
  LodSelection sel;
  float lambda_base;
  if (req.explicit_lod) {
    lambda_base = req.lod;
  } else {
    // Scale Factor Operation: derivatives in texel space of the base level.
    const float w = sampler.unnormalized_coordinates ? 1.0f : static_cast<float>(tex.width(0));
    const float h = sampler.unnormalized_coordinates ? 1.0f : static_cast<float>(tex.height(0));
    const Derivatives& d = req.derivatives;
    const float ux = d.dsdx * w, vx = d.dtdx * h, uy = d.dsdy * w, vy = d.dtdy * h;
    const float mx = std::sqrt(ux * ux + vx * vx);  // the spec's m_x, m_y (no hypot: speed)
    const float my = std::sqrt(uy * uy + vy * vy);
    const float rho_max = std::max(mx, my), rho_min = std::min(mx, my);
    if (sampler.anisotropy_enable && sampler.max_anisotropy > 1.0f && rho_max > 0.0f) {
      sel.eta = rho_min > 0.0f ? std::min(rho_max / rho_min, sampler.max_anisotropy) : sampler.max_anisotropy;
      sel.probes = std::min<uint32_t>(Footprint::kMaxProbes, static_cast<uint32_t>(std::ceil(sel.eta)));
      sel.major_ds = mx >= my ? d.dsdx : d.dsdy;
      sel.major_dt = mx >= my ? d.dtdx : d.dtdy;
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

Rgba sample(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, Footprint* fp) {
  if (fp) fp->clear();
  const Context c{tex, sampler, req, fp, sampler.compare_enable && req.has_dref,
                  tex.format().kind == FormatKind::Unorm16Depth ? std::clamp(req.dref, 0.0f, 1.0f) : req.dref};
  const LodSelection sel = select_lod(tex, sampler, req);
  const VkFilter filter = sel.magnify ? sampler.mag_filter : sampler.min_filter;
  const uint32_t q = tex.levels() - 1;

  auto level_sample = [&](uint32_t level) {
    if (sel.probes <= 1) return filter_level(c, level, filter, req.s, req.t);
    Rgba sum = {0, 0, 0, 0};
    for (uint32_t p = 0; p < sel.probes; ++p) {
      const float f = (static_cast<float>(p) + 0.5f) / static_cast<float>(sel.probes) - 0.5f;
      const Rgba r = filter_level(c, level, filter, req.s + f * sel.major_ds, req.t + f * sel.major_dt);
      for (int k = 0; k < 4; ++k) sum[k] += r[k];
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

Rgba gather(const Texture& tex, const SamplerState& sampler, const SampleRequest& req, uint32_t component,
            Footprint* fp) {
  if (fp) fp->clear();
  const Context c{tex, sampler, req, fp, sampler.compare_enable && req.has_dref,
                  tex.format().kind == FormatKind::Unorm16Depth ? std::clamp(req.dref, 0.0f, 1.0f) : req.dref};
  note_level(fp, 0);
  float u, v;
  texel_space(c, 0, req.s, req.t, &u, &v);
  const int32_t i0 = texel_index(u - 0.5f) + req.offset_x;
  const int32_t j0 = texel_index(v - 0.5f) + req.offset_y;
  const LevelView lv = tex.level_view(req.layer, 0);
  const auto lw = static_cast<int32_t>(lv.width), lh = static_cast<int32_t>(lv.height);
  const int32_t x0 = wrap(i0, lw, sampler.address_u), x1 = wrap(i0 + 1, lw, sampler.address_u);
  const int32_t y0 = wrap(j0, lh, sampler.address_v), y1 = wrap(j0 + 1, lh, sampler.address_v);
  const TexelRead r[4] = {read_wrapped(c, lv, 0, x0, y1), read_wrapped(c, lv, 0, x1, y1),
                          read_wrapped(c, lv, 0, x1, y0), read_wrapped(c, lv, 0, x0, y0)};
  note_probe(fp, classify(r, 4));
  const uint32_t k = c.do_compare ? 0 : std::min(component, 3u);
  return {r[0].value[k], r[1].value[k], r[2].value[k], r[3].value[k]};
}

namespace {
bool fetch_in_range(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y) {
  return level < tex.levels() && layer < tex.layers() && x >= 0 && y >= 0 &&
         static_cast<uint32_t>(x) < tex.width(level) && static_cast<uint32_t>(y) < tex.height(level);
}
void fetch_footprint(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp) {
  if (!fp) return;
  fp->clear();
  note_level(fp, level);
  const auto ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
  fp->add_line(tex.address(layer, level, ux, uy).byte / kLineBytes * kLineBytes, level);
  note_probe(fp, FootprintCase::SingleBlock);
}
}  // namespace

Rgba fetch(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp) {
  if (fp) fp->clear();
  if (!fetch_in_range(tex, layer, level, x, y)) return {0.0f, 0.0f, 0.0f, 0.0f};
  fetch_footprint(tex, layer, level, x, y, fp);
  return tex.texel(layer, level, static_cast<uint32_t>(x), static_cast<uint32_t>(y));
}

uint32_t fetch_uint(const Texture& tex, uint32_t layer, uint32_t level, int32_t x, int32_t y, Footprint* fp) {
  if (fp) fp->clear();
  if (!fetch_in_range(tex, layer, level, x, y)) return 0;
  fetch_footprint(tex, layer, level, x, y, fp);
  return tex.texel_uint(layer, level, static_cast<uint32_t>(x), static_cast<uint32_t>(y));
}

}  // namespace tessera::texture
