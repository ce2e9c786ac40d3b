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

// Array layer selection (Vulkan spec "Cube Map Face Selection and Transformations" / layer):
// layer = clamp(RNE(a), 0, layers - 1).
uint32_t select_layer(float a, uint32_t layers) {
  const float r = std::nearbyint(a);
  if (!(r > 0.0f)) return 0;
  return std::min(static_cast<uint32_t>(r), layers - 1);
}

}  // namespace

void ShaderTextureUnit::bind_texture(uint32_t resource, uint32_t array_element, const Texture* texture) {
  for (TextureBinding& b : textures_) {
    if (b.resource == resource && b.element == array_element) {
      b.texture = texture;
      return;
    }
  }
  textures_.push_back({resource, array_element, texture});
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

void ShaderTextureUnit::execute(const shader::ImageRequest& req, uint32_t* const out[4]) {
  const Texture* tex = nullptr;
  for (const TextureBinding& b : textures_)
    if (b.resource == req.image_resource && b.element == req.array_element) tex = b.texture;
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
  const bool is_query = req.op == ImageOp::QuerySize || req.op == ImageOp::QuerySizeLod ||
                        req.op == ImageOp::QueryLevels;
  if (!is_query && req.dim != ImageDim::Dim2D && req.dim != ImageDim::Dim1D && req.dim != ImageDim::Rect) {
    ++unsupported_;
    zero_all();
    return;
  }
  const bool needs_sampler = req.op != ImageOp::Fetch && !is_query;
  if (needs_sampler && smp == nullptr) {
    ++unbound_;
    zero_all();
    return;
  }
  // Coordinate index of the array layer: after the spatial coordinates.
  const uint32_t spatial = req.dim == ImageDim::Dim1D ? 1 : 2;
  Footprint fp;

  for (uint32_t l = 0; l < req.lane_count; ++l) {
    if (!((req.active >> l) & 1u)) continue;
    const auto put = [&](const Rgba& c) {
      for (uint32_t k = 0; k < 4; ++k) out[k][l] = bits(c[k]);
    };
    switch (req.op) {
      case ImageOp::QuerySize:
      case ImageOp::QuerySizeLod: {
        const uint32_t level = req.ilod ? std::min<uint32_t>(static_cast<uint32_t>(std::max(0, req.ilod[l])), tex->levels() - 1) : 0;
        out[0][l] = tex->width(level);
        out[1][l] = req.dim == ImageDim::Dim1D ? tex->layers() : tex->height(level);
        out[2][l] = tex->layers();
        continue;
      }
      case ImageOp::QueryLevels: out[0][l] = tex->levels(); continue;
      case ImageOp::Fetch: {
        const int32_t x = req.icoord[0] ? req.icoord[0][l] : 0;
        const int32_t y = spatial > 1 && req.icoord[1] ? req.icoord[1][l] : 0;
        const int32_t a = req.arrayed && req.icoord[spatial] ? req.icoord[spatial][l] : 0;
        const int32_t level = req.ilod ? req.ilod[l] : 0;
        const uint32_t layer = a < 0 ? tex->layers() : static_cast<uint32_t>(a);  // out of range -> zero
        const uint32_t lvl = level < 0 ? tex->levels() : static_cast<uint32_t>(level);
        const int32_t ox = req.has_offset ? req.offset[0] : 0, oy = req.has_offset ? req.offset[1] : 0;
        if (tex->format().integer) {
          out[0][l] = fetch_uint(*tex, layer, lvl, x + ox, y + oy, &fp);
          out[1][l] = out[2][l] = 0;
          out[3][l] = 1;  // missing alpha of an integer format is integer 1
        } else {
          put(fetch(*tex, layer, lvl, x + ox, y + oy, &fp));
        }
        break;
      }
      default: {
        SampleRequest s;
        s.s = req.coord[0] ? req.coord[0][l] : 0.0f;
        s.t = spatial > 1 && req.coord[1] ? req.coord[1][l] : 0.0f;
        if (req.arrayed && req.coord[spatial]) s.layer = select_layer(req.coord[spatial][l], tex->layers());
        if (req.ddx[0]) {
          s.derivatives.dsdx = req.ddx[0][l];
          s.derivatives.dsdy = req.ddy[0][l];
        }
        if (spatial > 1 && req.ddx[1]) {
          s.derivatives.dtdx = req.ddx[1][l];
          s.derivatives.dtdy = req.ddy[1][l];
        }
        const bool explicit_op = req.op == ImageOp::SampleExplicitLod || req.op == ImageOp::SampleDrefExplicitLod;
        if (explicit_op && req.lod) {
          s.explicit_lod = true;
          s.lod = req.lod[l];
        }
        if (req.bias) s.bias = req.bias[l];
        if (req.min_lod) s.min_lod = req.min_lod[l];
        if (req.dref) {
          s.has_dref = true;
          s.dref = req.dref[l];
        }
        if (req.has_offset) {
          s.offset_x = req.offset[0];
          s.offset_y = req.offset[1];
        }
        if (req.op == ImageOp::QueryLod) {
          const LodSelection sel = select_lod(*tex, *smp, s);
          put({sel.d, sel.lambda, 0.0f, 0.0f});
          continue;
        }
        if (req.op == ImageOp::Gather || req.op == ImageOp::DrefGather) {
          put(gather(*tex, *smp, s, req.gather_component, &fp));
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
