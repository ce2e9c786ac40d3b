#include "tessera/texture/shader_texture_unit.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::texture {

using shader::ImageDim;
using shader::ImageOp;

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Array layer selection (Vulkan spec "(u,v,w,a) to (i,j,k,l,n) Transformation and Array Layer
// Selection"): layer = clamp(RNE(a), 0, layers - 1); RNE is the default rounding mode.
uint32_t select_layer(float a, uint32_t layers) {
  const float r = std::nearbyint(a);
  if (!(r > 0.0f)) return 0;
  return std::min(static_cast<uint32_t>(r), layers - 1);
}

// What select_lod reads of a 2D request besides the texture and the sampler ("Scale Factor
// Operation", "LOD Operation"), as bit patterns: equal keys select the same LOD.
struct LodKey {
  uint32_t bits[15] = {};
  bool operator==(const LodKey&) const = default;
};

LodKey lod_key_of(const SampleRequest& s) {
  LodKey k;
  const float f[9] = {s.derivatives.dsdx, s.derivatives.dtdx, s.derivatives.dsdy, s.derivatives.dtdy,
                      s.derivatives.drdx, s.derivatives.drdy, s.lod, s.bias, s.min_lod};
  std::memcpy(k.bits, f, sizeof f);
  k.bits[9] = s.explicit_lod ? 1u : 0u;
  k.bits[10] = (s.has_bias ? 1u : 0u) | (s.explicit_derivatives ? 2u : 0u) | (s.has_quad_derivatives ? 4u : 0u);
  // The anisotropic filter's shape of an explicit Lod or Grad sample (2D: s, t only).
  const float q[4] = {s.quad_derivatives.dsdx, s.quad_derivatives.dtdx, s.quad_derivatives.dsdy,
                      s.quad_derivatives.dtdy};
  std::memcpy(k.bits + 11, q, sizeof q);
  return k;
}

}  // namespace

void ShaderTextureUnit::bind_texture(uint32_t resource, uint32_t array_element, const Texture* texture,
                                     bool contents_known) {
  for (TextureBinding& b : textures_) {
    if (b.resource == resource && b.element == array_element) {
      b.texture = texture;
      b.contents_known = contents_known;
      return;
    }
  }
  textures_.push_back({resource, array_element, texture, contents_known});
}

void ShaderTextureUnit::bind_sampler(uint32_t resource, uint32_t array_element, const SamplerState* sampler) {
  for (SamplerBinding& b : samplers_) {
    if (b.resource == resource && b.element == array_element) {
      b.sampler = sampler;
      return;
    }
  }
  samplers_.push_back({resource, array_element, sampler});
}

void ShaderTextureUnit::bind_texel_buffer(uint32_t resource, uint32_t array_element, const TexelBuffer& buffer) {
  for (TexelBufferBinding& b : texel_buffers_) {
    if (b.resource == resource && b.element == array_element) {
      b.buffer = buffer;
      return;
    }
  }
  texel_buffers_.push_back({resource, array_element, buffer});
}

// Texel buffers (spec "Texel Buffers", "Texel Coordinate Systems"): texel i is at byte
// i x texel size of the view; a coordinate outside the view reads zeros (robust buffer access);
// OpImageQuerySize gives the view's texel count.
void ShaderTextureUnit::execute_texel_buffer(const shader::ImageRequest& req, uint32_t* const out[4]) {
  const TexelBuffer* buf = nullptr;
  for (const TexelBufferBinding& b : texel_buffers_)
    if (b.resource == req.image_resource && b.element == req.array_element) buf = &b.buffer;
  for (uint32_t c = 0; c < 4; ++c)
    for (uint32_t l = 0; l < req.lane_count; ++l) out[c][l] = 0;
  if (buf == nullptr) {
    ++unbound_;
    return;
  }
  const uint32_t texel_bytes = buf->format.texel_bytes;
  const uint64_t count = texel_bytes ? buf->size / texel_bytes : 0;
  if (req.op == ImageOp::QuerySize) {
    for (uint32_t l = 0; l < req.lane_count; ++l)
      if ((req.active >> l) & 1u) out[0][l] = static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX));
    return;
  }
  if (req.op != ImageOp::Fetch || texel_bytes == 0 || req.icoord[0] == nullptr) {
    ++unsupported_;
    return;
  }
  Footprint fp;
  fp.dependent = req.dependent;
  for (uint32_t l = 0; l < req.lane_count; ++l) {
    if (!((req.active >> l) & 1u)) continue;
    fp.clear();
    const int32_t i = req.icoord[0][l];
    if (i >= 0 && static_cast<uint64_t>(i) < count) {
      const uint64_t offset = static_cast<uint64_t>(i) * texel_bytes;
      const Rgba c = decode_texel(buf->format, buf->data + offset);
      for (uint32_t k = 0; k < 4; ++k) out[k][l] = bits(c[k]);
      // One texel, one line: a single-texel probe of level 0, as `fetch` on an image. A buffer
      // has no 4x4 texel blocks (paper 004 section III); its block is the 64 B line the texel is in.
      const uint64_t line = (buf->address + offset) / kLineBytes * kLineBytes;
      fp.levels[0] = 0;
      fp.level_count = 1;
      fp.block_bytes = kLineBytes;
      fp.add_texel(line, line, 0);
      fp.end_probe(FootprintCase::SingleBlock, 1, 0);
    }
    ++lanes_sampled_;
    if (sink_) sink_(l, fp);
  }
}

void ShaderTextureUnit::execute(const shader::ImageRequest& req, uint32_t* const out[4]) {
  if (req.dim == ImageDim::Buffer) {
    execute_texel_buffer(req, out);
    return;
  }
  const Texture* tex = nullptr;
  bool contents_known = true;
  for (const TextureBinding& b : textures_)
    if (b.resource == req.image_resource && b.element == req.array_element) {
      tex = b.texture;
      contents_known = b.contents_known;
    }
  const SamplerState* smp = nullptr;
  for (const SamplerBinding& b : samplers_)
    if (b.resource == req.sampler_resource && b.element == req.array_element) smp = b.sampler;

  const auto zero_all = [&] {
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t l = 0; l < req.lane_count; ++l) out[c][l] = 0;
  };
  if (tex == nullptr) {
    ++unbound_;
    zero_all();
    return;
  }
  // The image view's type must match the instruction's Dim (spec "Instruction/Sampler/Image View
  // Validation"); a mismatch, texel buffers and subpass inputs are counted and return zeros.
  const bool cube = req.dim == ImageDim::Cube;
  const bool dim_ok = req.dim == ImageDim::Dim1D || req.dim == ImageDim::Dim2D || req.dim == ImageDim::Rect
                          ? !tex->is_3d()
                      : req.dim == ImageDim::Dim3D ? tex->is_3d()
                      : cube ? tex->layers() % 6 == 0 && tex->width() == tex->height() && !tex->is_3d()
                             : false;
  if (!dim_ok) {
    ++unsupported_;
    zero_all();
    return;
  }
  const bool is_query = req.op == ImageOp::QuerySize || req.op == ImageOp::QuerySizeLod ||
                        req.op == ImageOp::QueryLevels;
  const bool needs_sampler = req.op != ImageOp::Fetch && !is_query;
  if (needs_sampler && smp == nullptr) {
    ++unbound_;
    zero_all();
    return;
  }
  if (!contents_known && !is_query && req.op != ImageOp::QueryLod) ++unknown_contents_;
  // Coordinates per Dim (spec "Texel Coordinate Systems"): 1D s, 2D (s, t), 3D (s, t, r), cube
  // the direction (s, t, r); the array layer follows them.
  const uint32_t spatial = req.dim == ImageDim::Dim1D ? 1 : req.dim == ImageDim::Dim3D || cube ? 3 : 2;
  const SampleDim sample_dim = req.dim == ImageDim::Dim1D ? SampleDim::D1
                               : req.dim == ImageDim::Dim3D ? SampleDim::D3
                               : cube                       ? SampleDim::Cube
                                                            : SampleDim::D2;
  // Cube arrays count cubes, not faces.
  const uint32_t array_size = cube ? tex->layers() / 6 : tex->layers();
  Footprint fp;
  fp.dependent = req.dependent;
  // LOD selection shared by lanes whose LOD inputs are bit for bit those of the lane that made
  // it: select_lod is a function of them (and of the texture and sampler) alone.
  const bool reuse_lod = sample_dim == SampleDim::D2 && !tex->is_3d() && req.op != ImageOp::QueryLod &&
                         req.op != ImageOp::Gather && req.op != ImageOp::DrefGather;
  LodKey lod_key;
  LodSelection lod;
  bool have_lod = false;

  for (uint32_t l = 0; l < req.lane_count; ++l) {
    if (!((req.active >> l) & 1u)) continue;
    const auto put = [&](const Rgba& c) {
      for (uint32_t k = 0; k < 4; ++k) out[k][l] = bits(c[k]);
    };
    switch (req.op) {
      case ImageOp::QuerySize:
      case ImageOp::QuerySizeLod: {
        // OpImageQuerySize(Lod): the level's size in each dimension, then the array size.
        const uint32_t level = req.ilod ? std::min<uint32_t>(static_cast<uint32_t>(std::max(0, req.ilod[l])), tex->levels() - 1) : 0;
        const uint32_t size[3] = {tex->width(level), tex->height(level), tex->depth(level)};
        const uint32_t dims = req.dim == ImageDim::Dim1D ? 1 : req.dim == ImageDim::Dim3D ? 3 : 2;
        for (uint32_t k = 0; k < 4; ++k) out[k][l] = 0;
        for (uint32_t k = 0; k < dims; ++k) out[k][l] = size[k];
        if (req.arrayed) out[dims][l] = array_size;
        continue;
      }
      case ImageOp::QueryLevels: out[0][l] = tex->levels(); continue;
      case ImageOp::Fetch: {
        const auto coord = [&](uint32_t k) { return k < spatial && req.icoord[k] ? req.icoord[k][l] : 0; };
        const int32_t a = req.arrayed && req.icoord[spatial] ? req.icoord[spatial][l] : 0;
        const int32_t level = req.ilod ? req.ilod[l] : 0;
        const uint32_t layer = a < 0 ? tex->layers() : static_cast<uint32_t>(a);  // out of range -> zero
        const uint32_t lvl = level < 0 ? tex->levels() : static_cast<uint32_t>(level);
        const int32_t ox = req.has_offset ? req.offset[0] : 0, oy = req.has_offset ? req.offset[1] : 0;
        const int32_t oz = req.has_offset ? req.offset[2] : 0;
        put(fetch(*tex, layer, lvl, coord(0) + ox, coord(1) + oy, coord(2) + oz, &fp));
        break;
      }
      default: {
        SampleRequest s;
        s.dim = sample_dim;
        s.s = req.coord[0] ? req.coord[0][l] : 0.0f;
        s.t = spatial > 1 && req.coord[1] ? req.coord[1][l] : 0.0f;
        s.r = spatial > 2 && req.coord[2] ? req.coord[2][l] : 0.0f;
        if (req.arrayed && req.coord[spatial]) {
          s.layer = select_layer(req.coord[spatial][l], array_size);
          if (cube) s.layer *= 6;
        }
        if (req.ddx[0]) {
          s.derivatives.dsdx = req.ddx[0][l];
          s.derivatives.dsdy = req.ddy[0][l];
        }
        if (spatial > 1 && req.ddx[1]) {
          s.derivatives.dtdx = req.ddx[1][l];
          s.derivatives.dtdy = req.ddy[1][l];
        }
        if (spatial > 2 && req.ddx[2]) {
          s.derivatives.drdx = req.ddx[2][l];
          s.derivatives.drdy = req.ddy[2][l];
        }
        const bool explicit_op = req.op == ImageOp::SampleExplicitLod || req.op == ImageOp::SampleDrefExplicitLod;
        if (explicit_op && req.quad_ddx[0]) {
          Derivatives& qd = s.quad_derivatives;
          s.has_quad_derivatives = true;
          qd.dsdx = req.quad_ddx[0][l];
          qd.dsdy = req.quad_ddy[0][l];
          if (spatial > 1 && req.quad_ddx[1]) {
            qd.dtdx = req.quad_ddx[1][l];
            qd.dtdy = req.quad_ddy[1][l];
          }
          if (spatial > 2 && req.quad_ddx[2]) {
            qd.drdx = req.quad_ddx[2][l];
            qd.drdy = req.quad_ddy[2][l];
          }
        }
        if (explicit_op && req.lod) {
          s.explicit_lod = true;
          s.lod = req.lod[l];
        }
        s.explicit_derivatives = explicit_op && !req.lod && req.ddx[0] != nullptr;
        if (req.bias) {
          s.has_bias = true;
          s.bias = req.bias[l];
        }
        if (req.min_lod) s.min_lod = req.min_lod[l];
        if (req.dref) {
          s.has_dref = true;
          s.dref = req.dref[l];
        }
        if (req.has_offset) {
          s.offset_x = req.offset[0];
          s.offset_y = req.offset[1];
          s.offset_z = req.offset[2];
        }
        if (req.op == ImageOp::QueryLod) {
          const QueryLod q = query_lod(*tex, *smp, s);
          put({q.x, q.y, 0.0f, 0.0f});
          continue;
        }
        if (req.op == ImageOp::Gather || req.op == ImageOp::DrefGather) {
          put(gather(*tex, *smp, s, req.gather_component, &fp));
        } else if (reuse_lod) {
          const LodKey key = lod_key_of(s);
          if (!have_lod || !(key == lod_key)) {
            lod = select_lod(*tex, *smp, s);
            lod_key = key;
            have_lod = true;
          }
          put(sample_2d(*tex, *smp, s, lod, &fp));
        } else {
          put(sample(*tex, *smp, s, &fp));
        }
        break;
      }
    }
    ++lanes_sampled_;
    if (sink_) sink_(l, fp);
  }
}

}  // namespace tessera::texture
