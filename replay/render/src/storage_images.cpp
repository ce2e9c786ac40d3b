#include "storage_images.h"

#include <vulkan/vulkan_core.h>

#include <bit>
#include <cstring>

#include "tessera/pipeline/pixel_format.h"
#include "tessera/texture/format.h"

namespace tessera::render {

using shader::ImageDim;
using shader::ImageOp;

void StorageImageUnit::bind(uint32_t resource, uint32_t array_element, frontend::ImageView* view) {
  for (Binding& b : bindings_)
    if (b.resource == resource && b.element == array_element) {
      b.view = view;
      return;
    }
  bindings_.push_back({resource, array_element, view});
}

namespace {

// Texel output of an integer format (spec "Texel Output Format Conversion": integer values are
// preserved, bits that do not fit are the undefined part): each component truncated to its size.
void encode_integer_texel(const texture::FormatInfo& f, const uint32_t v[4], uint8_t* dst) {
  const uint32_t bytes = f.texel_bytes / f.components;
  for (uint32_t c = 0; c < f.components; ++c) std::memcpy(dst + c * bytes, &v[c], bytes);  // little-endian
}

// One lane's access to its texel (spec "Image Operations"): a read decodes it, a write encodes
// the lane's texel into it (spec "Texel Output Format Conversion"), an atomic returns the old value
// and stores the new one. True when the texel was written.
[[gnu::always_inline]] inline bool access_texel(const shader::ImageRequest& req, uint32_t l, const texture::FormatInfo& f,
                                                const pipeline::PixelFormat& pf, uint8_t* texel, uint32_t* const out[4]) {
  const bool store = ((req.writes >> l) & 1u) != 0;
  switch (req.op) {
    case ImageOp::Read: {
      const texture::Rgba c = texture::decode_texel(f, texel);
      for (uint32_t k = 0; k < 4; ++k) out[k][l] = std::bit_cast<uint32_t>(c[k]);
      break;
    }
    case ImageOp::Write: {
      if (!store) return false;
      uint32_t v[4];
      for (uint32_t k = 0; k < 4; ++k) v[k] = req.texel[k] ? req.texel[k][l] : 0;
      if (f.integer) {
        encode_integer_texel(f, v, texel);
      } else {
        const float c[4] = {std::bit_cast<float>(v[0]), std::bit_cast<float>(v[1]), std::bit_cast<float>(v[2]),
                            std::bit_cast<float>(v[3])};
        pipeline::encode_color(pf, c, texel);
      }
      return true;
    }
    default: {  // Atomic on a 32-bit integer texel
      uint32_t old;
      std::memcpy(&old, texel, 4);
      out[0][l] = old;
      if (!store || req.atomic == shader::AtomicOp::Load) return false;
      const uint32_t now = shader::atomic_result(req.atomic, old, req.texel[0] ? req.texel[0][l] : 0,
                                                 req.comparator ? req.comparator[l] : 0);
      std::memcpy(texel, &now, 4);
      return true;
    }
  }
  return false;
}

}  // namespace

void StorageImageUnit::execute(const shader::ImageRequest& req, uint32_t* const out[4]) {
  frontend::ImageView* view = nullptr;
  for (const Binding& b : bindings_)
    if (b.resource == req.image_resource && b.element == req.array_element) view = b.view;
  const auto zero_all = [&] {
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t l = 0; l < req.lane_count; ++l) out[c][l] = 0;
  };
  if (view == nullptr || view->image == nullptr) {
    ++unbound_;
    zero_all();
    return;
  }
  frontend::Image& image = *view->image;
  const capture::SubresourceRange& range = view->range;
  const uint32_t mip = range.base_mip;
  const uint32_t w = image.mip_width(mip), h = image.mip_height(mip);
  const uint32_t d = image.image_type == VK_IMAGE_TYPE_3D ? (image.depth >> mip ? image.depth >> mip : 1) : 1;
  const uint32_t layers = range.layer_count ? range.layer_count : 1;
  const bool cube = req.dim == ImageDim::Cube;
  if (req.op == ImageOp::QuerySize || req.op == ImageOp::QuerySizeLod) {
    // OpImageQuerySize: the size per dimension, then the array size (cubes for cube arrays).
    const uint32_t dims = req.dim == ImageDim::Dim1D ? 1 : req.dim == ImageDim::Dim3D ? 3 : 2;
    const uint32_t size[3] = {w, h, d};
    for (uint32_t l = 0; l < req.lane_count; ++l) {
      if (!((req.active >> l) & 1u)) continue;
      for (uint32_t k = 0; k < 4; ++k) out[k][l] = k < dims ? size[k] : 0;
      if (req.arrayed) out[dims][l] = cube ? layers / 6 : layers;
    }
    return;
  }
  texture::FormatInfo f;
  pipeline::PixelFormat pf;
  const bool known = texture::format_info(static_cast<VkFormat>(view->format), &f) && !f.compressed && !f.depth;
  const bool writes = req.op == ImageOp::Write || req.op == ImageOp::Atomic;
  const bool encodable = f.integer ? f.kind != texture::FormatKind::Packed
                                   : pipeline::pixel_format(view->format, &pf) && !pf.depth && !pf.stencil;
  // Image atomics need VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT: R32_UINT / R32_SINT.
  const bool atomic_ok = view->format == VK_FORMAT_R32_UINT || view->format == VK_FORMAT_R32_SINT;
  if (!known || req.dim == ImageDim::Buffer || req.dim == ImageDim::SubpassData || (writes && !encodable) ||
      (req.op == ImageOp::Atomic && !atomic_ok) || (req.op != ImageOp::Read && !writes)) {
    ++unsupported_;
    zero_all();
    return;
  }
  // Integer coordinates per Dim (spec "Texel Coordinate Systems"): (i [, j] [, k] [, layer]);
  // cube images are 2D arrays of faces: the third coordinate is the face (the layer-face,
  // 6 * cube + face, for cube arrays).
  const uint32_t spatial = req.dim == ImageDim::Dim1D ? 1 : req.dim == ImageDim::Dim3D ? 3 : 2;
  const uint32_t layer_coord = cube ? 2 : spatial;
  const bool layered = req.arrayed || cube;
  const uint32_t bytes = f.texel_bytes;
  bool wrote = false;
  for (uint32_t l = 0; l < req.lane_count; ++l) {
    if (!((req.active >> l) & 1u)) continue;
    const auto coord = [&](uint32_t k) { return req.icoord[k] ? req.icoord[k][l] : 0; };
    const int32_t x = coord(0), y = spatial > 1 ? coord(1) : 0, z = spatial > 2 ? coord(2) : 0;
    const int32_t a = layered ? coord(layer_coord) : 0;
    for (uint32_t k = 0; k < 4; ++k) out[k][l] = 0;
    // "Integer Texel Coordinate Validation": outside, reads are zero and writes have no effect.
    if (x < 0 || y < 0 || z < 0 || a < 0 || static_cast<uint32_t>(x) >= w || static_cast<uint32_t>(y) >= h ||
        static_cast<uint32_t>(z) >= d || static_cast<uint32_t>(a) >= layers)
      continue;
    const size_t plane = (static_cast<size_t>(range.base_layer) + static_cast<uint32_t>(a)) * image.mip_levels + mip;
    const size_t at = ((static_cast<size_t>(z) * h + static_cast<uint32_t>(y)) * w + static_cast<uint32_t>(x)) * bytes;
    if (plane >= image.planes.size() || image.planes[plane].size() < at + bytes) {
      ++unsupported_;  // an image whose contents the front end does not hold
      continue;
    }
    wrote = access_texel(req, l, f, pf, image.planes[plane].data() + at, out) || wrote;
  }
  if (wrote) image.touch();
}

}  // namespace tessera::render
