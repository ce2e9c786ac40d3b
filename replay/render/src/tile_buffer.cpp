#include "tile_buffer.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "tessera/pipeline/numeric.h"
#include "tessera/pipeline/raster.h"

namespace tessera::render {

namespace {

bool is_snorm(uint32_t f) {
  switch (f) {
    case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8G8_SNORM: case VK_FORMAT_R8G8B8_SNORM:
    case VK_FORMAT_B8G8R8_SNORM: case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_B8G8R8A8_SNORM:
    case VK_FORMAT_A8B8G8R8_SNORM_PACK32: case VK_FORMAT_A2R10G10B10_SNORM_PACK32:
    case VK_FORMAT_A2B10G10R10_SNORM_PACK32: case VK_FORMAT_R16_SNORM: case VK_FORMAT_R16G16_SNORM:
    case VK_FORMAT_R16G16B16_SNORM: case VK_FORMAT_R16G16B16A16_SNORM:
      return true;
    default:
      return false;
  }
}

bool is_sint(uint32_t f) {
  switch (f) {
    case VK_FORMAT_R8_SINT: case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R8G8B8_SINT:
    case VK_FORMAT_B8G8R8_SINT: case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_B8G8R8A8_SINT:
    case VK_FORMAT_A8B8G8R8_SINT_PACK32: case VK_FORMAT_A2R10G10B10_SINT_PACK32:
    case VK_FORMAT_A2B10G10R10_SINT_PACK32: case VK_FORMAT_R16_SINT: case VK_FORMAT_R16G16_SINT:
    case VK_FORMAT_R16G16B16_SINT: case VK_FORMAT_R16G16B16A16_SINT: case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R32G32_SINT: case VK_FORMAT_R32G32B32_SINT: case VK_FORMAT_R32G32B32A32_SINT:
      return true;
    default:
      return false;
  }
}

bool loads(uint32_t op) { return op == VK_ATTACHMENT_LOAD_OP_LOAD; }
bool stores(uint32_t op) { return op == VK_ATTACHMENT_STORE_OP_STORE; }

// The AttachmentLoad / AttachmentStore aspect (schema/access-stream.md): colour, or depth and/or
// stencil, by the attachment's format (a resolve target's format is its source's kind).
uint32_t stream_aspect(const AttachmentBuffer& a) {
  return a.color ? stream::kAspectColour : stream::kAspectDepthStencil;
}

// "Conversion from Floating-Point to Normalized Fixed-Point": clamp, scale by `max` (2^bits - 1),
// round to nearest with ties away from zero, NaN -> 0; exact in double. The code every UNORM
// store and quantization of the tile buffers takes (float_to_unorm's, without the libm call).
inline uint32_t unorm_code(float v, double max) {
  return v > 0.0f ? static_cast<uint32_t>(std::min(static_cast<double>(v), 1.0) * max + 0.5) : 0u;
}

}  // namespace

bool TileBuffers::setup(AttachmentBuffer& a, const frontend::Attachment& att, const frontend::ImageView& view,
                        frontend::SkipCounts& skipped) {
  a.desc = &att;
  if (view.image == nullptr) {
    skipped.add("attachment: no image view");
    return false;
  }
  frontend::Image& image = *view.image;
  const uint32_t format = att.format ? att.format : view.format;
  if (!pipeline::pixel_format(format, &a.format)) {
    skipped.add("attachment: format " + std::to_string(format) + " not supported");
    return false;
  }
  a.samples = image.held_samples();
  if (pipeline::standard_samples(a.samples) == nullptr) {
    skipped.add("attachment: " + std::to_string(a.samples) + " samples have no standard locations (not rendered)");
    return false;
  }
  a.image = &image;
  a.depth = a.format.depth;
  a.stencil = a.format.stencil;
  a.color = !a.depth && !a.stencil;
  a.snorm = is_snorm(format);
  a.unorm8 = format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_B8G8R8A8_UNORM ||
             format == VK_FORMAT_A8B8G8R8_UNORM_PACK32;
  if (a.unorm8)
    for (uint32_t c = 0; c < 256; ++c) {
      const uint8_t pixel[4] = {static_cast<uint8_t>(c), static_cast<uint8_t>(c), static_cast<uint8_t>(c),
                                static_cast<uint8_t>(c)};
      float rgba[4];
      pipeline::decode_color(a.format, pixel, rgba);
      a.unorm8_value[c] = rgba[0];
    }
  if (a.unorm8) {
    // Which channel lands in which byte: encode channel k as the code k + 1 and read it back.
    const float probe[4] = {1.0f / 255.0f, 2.0f / 255.0f, 3.0f / 255.0f, 4.0f / 255.0f};
    uint8_t bytes[4] = {};
    pipeline::encode_color(a.format, probe, bytes);
    for (uint32_t b = 0; b < 4; ++b) {
      if (bytes[b] < 1 || bytes[b] > 4) a.unorm8 = false;
      else a.unorm8_channel[b] = static_cast<uint8_t>(bytes[b] - 1);
    }
  }
  a.depth_bits = format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_D16_UNORM_S8_UINT ? 16
                 : format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D24_UNORM_S8_UINT ? 24
                                                                                                 : 0;
  a.layer = view.range.base_layer;
  a.mip = view.range.base_mip;
  if (a.layer >= image.array_layers || a.mip >= image.mip_levels) {
    skipped.add("attachment: view outside its image");
    return false;
  }
  a.image_width = image.mip_width(a.mip);
  a.image_height = image.mip_height(a.mip);
  // Depth/stencil formats: the depth aspect has the format's bytes, stencil one byte per texel
  // (frame.h: linear per-aspect layout).
  a.aspect_bytes[0] = a.color || a.depth ? a.format.bytes : 0;
  a.aspect_bytes[1] = 1;
  // Planes in index order (aspect * layers + layer) * mips + mip, each tightly packed with its
  // samples one after the other: the simulated address of a plane is the image base plus the
  // sizes of the planes before it.
  const uint32_t aspects = a.stencil ? 2 : 1;
  const size_t plane_count = size_t{aspects} * image.array_layers * image.mip_levels;
  uint64_t offset = 0;
  for (size_t p = 0; p < plane_count; ++p) {
    const uint32_t aspect = static_cast<uint32_t>(p / (size_t{image.array_layers} * image.mip_levels));
    const uint32_t mip = static_cast<uint32_t>(p % image.mip_levels);
    const uint32_t layer = static_cast<uint32_t>(p / image.mip_levels % image.array_layers);
    const uint64_t sample_bytes = uint64_t{image.mip_width(mip)} * image.mip_height(mip) * a.aspect_bytes[aspect];
    if (layer == a.layer && mip == a.mip) {
      a.plane[aspect] = p;
      a.plane_address[aspect] = image.address + offset;
      a.sample_bytes[aspect] = sample_bytes;
    }
    offset += sample_bytes * a.samples;
  }
  for (uint32_t aspect = 0; aspect < aspects; ++aspect) {
    if (aspect == 0 && !(a.color || a.depth)) continue;
    a.plane_fits[aspect] = a.plane[aspect] < image.planes.size() &&
                           image.planes[a.plane[aspect]].size() >= a.sample_bytes[aspect] * a.samples;
    if (!a.plane_fits[aspect]) skipped.add("attachment: image plane smaller than the pass needs (not loaded or stored)");
  }
  const size_t tile_values = size_t{tile_width_} * tile_height_ * a.samples;
  if (a.color) a.color_tile.assign(tile_values * 4, 0.0f);
  if (a.depth) a.depth_tile.assign(tile_values, 0.0f);
  if (a.stencil) a.stencil_tile.assign(tile_values, 0);
  return true;
}

void TileBuffers::configure(const frontend::RenderPassInstance& pass, uint32_t tile_width, uint32_t tile_height,
                            Held* kept, const std::string& what, frontend::SkipCounts& skipped) {
  tile_width_ = tile_width;
  tile_height_ = tile_height;
  area_x_ = pass.render_area.x;
  area_y_ = pass.render_area.y;
  area_width_ = pass.render_area.width;
  area_height_ = pass.render_area.height;
  // Resolve views that are not attachments of the pass (dynamic rendering) get their own
  // buffers after the pass's, written back with STORE.
  resolve_descs_.clear();
  std::vector<uint32_t> target(pass.attachments.size(), frontend::Subpass::kUnused);
  for (uint32_t i = 0; i < pass.attachments.size(); ++i) {
    const frontend::ImageView* r = pass.attachments[i].resolve;
    if (r == nullptr) continue;
    for (uint32_t j = 0; j < pass.attachments.size() && target[i] == frontend::Subpass::kUnused; ++j)
      if (pass.attachments[j].view == r) target[i] = j;
    if (target[i] != frontend::Subpass::kUnused) continue;
    frontend::Attachment& d = resolve_descs_.emplace_back();
    d.view = const_cast<frontend::ImageView*>(r);
    d.format = r->format;
    d.load_op = d.stencil_load_op = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    d.store_op = d.stencil_store_op = VK_ATTACHMENT_STORE_OP_STORE;
    target[i] = static_cast<uint32_t>(pass.attachments.size() + resolve_descs_.size() - 1);
  }
  buffers_.assign(pass.attachments.size() + resolve_descs_.size(), AttachmentBuffer{});
  for (uint32_t i = 0; i < buffers_.size(); ++i) {
    AttachmentBuffer& a = buffers_[i];
    a.index = i;
    const frontend::Attachment& att = i < pass.attachments.size() ? pass.attachments[i]
                                                                   : resolve_descs_[i - pass.attachments.size()];
    if (att.view == nullptr) {
      skipped.add("attachment: no image view");
      continue;
    }
    a.usable = setup(a, att, *att.view, skipped);
  }
  const size_t area_pixels = size_t{area_width_} * area_height_;
  if (kept != nullptr) {
    // Taken before anything is allocated: a render area of 32768 x 32768 with 16 samples keeps
    // 16 GiB of colour alone.
    uint64_t bytes = 0;
    for (const AttachmentBuffer& a : buffers_) {
      if (!a.usable) continue;
      const uint64_t values = uint64_t{area_pixels} * a.samples;
      bytes += values * ((a.color ? 4 * sizeof(float) : 0) + (a.depth ? sizeof(float) : 0) + (a.stencil ? 1 : 0));
    }
    kept->take(bytes, what);
  }
  for (uint32_t i = 0; i < buffers_.size(); ++i) {
    AttachmentBuffer& a = buffers_[i];
    if (!a.usable) continue;
    if (i < target.size() && target[i] != frontend::Subpass::kUnused) {
      AttachmentBuffer& t = buffers_[target[i]];
      if (!t.usable) {
        skipped.add("pass: resolve attachment not written (its view is unusable)");
      } else if (a.samples == 1 || t.samples != 1 || t.color != a.color) {
        skipped.add("pass: resolve of a single-sample attachment or into a multisampled one (not written)");
      } else {
        a.resolve_target = &t;
      }
    }
    if (kept != nullptr) {
      if (a.color) a.color_keep.assign(area_pixels * a.samples * 4, 0.0f);
      if (a.depth) a.depth_keep.assign(area_pixels * a.samples, 0.0f);
      if (a.stencil) a.stencil_keep.assign(area_pixels * a.samples, 0);
    }
  }
}

float TileBuffers::quantize_depth(const AttachmentBuffer& a, float z) {
  if (a.depth_bits == 0) return pipeline::quantize_depth(a.format, z);
  // The format's code, then back as the format's decode does.
  return pipeline::unorm_to_float(unorm_code(z, static_cast<double>((1u << a.depth_bits) - 1)), a.depth_bits);
}

void TileBuffers::write_color(AttachmentBuffer& a, size_t value, const float rgba[4]) const {
  if (a.unorm8) {
    // The format's encode's code (unorm_code), kept as the value it decodes to.
    float* dst = &a.color_tile[value * 4];
    for (int c = 0; c < 4; ++c) dst[c] = a.unorm8_value[unorm_code(rgba[c], 255.0)];
    return;
  }
  uint8_t bytes[32];
  pipeline::encode_color(a.format, rgba, bytes);
  pipeline::decode_color(a.format, bytes, &a.color_tile[value * 4]);
}

void TileBuffers::clear_color_value(const AttachmentBuffer& a, const capture::ClearValue& v,
                                    float out[4]) const {
  for (int c = 0; c < 4; ++c) {
    // VkClearColorValue: float32 for float and normalized formats, int32/uint32 for integer
    // formats, whose tile values are the integers as floats.
    if (!a.format.integer) out[c] = std::bit_cast<float>(v.words[c]);
    else if (is_sint(a.format.format)) out[c] = static_cast<float>(static_cast<int32_t>(v.words[c]));
    else out[c] = static_cast<float>(v.words[c]);
  }
}

void TileBuffers::clear(AttachmentBuffer& a, uint32_t aspects, const capture::ClearValue& value,
                        const pipeline::PixelRect& r) {
  const int32_t x0 = std::max(r.x0, rect_.x0), x1 = std::min(r.x1, rect_.x1);
  const int32_t y0 = std::max(r.y0, rect_.y0), y1 = std::min(r.y1, rect_.y1);
  if (x0 >= x1 || y0 >= y1) return;
  float rgba[4];
  if (a.color && (aspects & VK_IMAGE_ASPECT_COLOR_BIT)) {
    clear_color_value(a, value, rgba);
    // Round once, then copy.
    const size_t first = pixel(x0, y0) * a.samples;
    write_color(a, first, rgba);
    std::copy_n(&a.color_tile[first * 4], 4, rgba);
  }
  const float depth = a.depth ? quantize_depth(a, std::clamp(std::bit_cast<float>(value.words[0]), 0.0f, 1.0f)) : 0.0f;
  const auto stencil = static_cast<uint8_t>(value.words[1]);
  const bool color = a.color && (aspects & VK_IMAGE_ASPECT_COLOR_BIT);
  const bool depth_aspect = a.depth && (aspects & VK_IMAGE_ASPECT_DEPTH_BIT);
  const bool stencil_aspect = a.stencil && (aspects & VK_IMAGE_ASPECT_STENCIL_BIT);
  // A row's values (every sample of its pixels) are consecutive in the tile arrays.
  for (int32_t y = y0; y < y1; ++y) {
    const size_t v0 = pixel(x0, y) * a.samples, v1 = pixel(x1 - 1, y) * a.samples + a.samples;
    if (color)
      for (size_t v = v0; v < v1; ++v) std::copy_n(rgba, 4, &a.color_tile[v * 4]);
    if (depth_aspect) std::fill(a.depth_tile.begin() + static_cast<ptrdiff_t>(v0), a.depth_tile.begin() + static_cast<ptrdiff_t>(v1), depth);
    if (stencil_aspect)
      std::fill(a.stencil_tile.begin() + static_cast<ptrdiff_t>(v0), a.stencil_tile.begin() + static_cast<ptrdiff_t>(v1), stencil);
  }
}

TileBuffers::ImageRow TileBuffers::image_row(const AttachmentBuffer& a, uint32_t aspect, uint32_t s, int32_t y) const {
  const int64_t iy = int64_t{y} + area_y_;
  ImageRow r;
  if (iy < 0 || iy >= a.image_height) return r;
  r.ix0 = std::max<int64_t>(int64_t{rect_.x0} + area_x_, 0);
  r.ix1 = std::min<int64_t>(int64_t{rect_.x1} + area_x_, a.image_width);
  r.offset = s * a.sample_bytes[aspect] +
             (static_cast<uint64_t>(iy) * a.image_width + static_cast<uint64_t>(r.ix0)) * a.aspect_bytes[aspect];
  return r;
}

// Reads aspect `aspect` (0 colour/depth, 1 stencil) of the current tile from the image, one
// AttachmentLoad per tile row when `record` (rows are contiguous in the linear layout).
void TileBuffers::load_attachment(AttachmentBuffer& a, bool record, uint32_t aspect,
                                  stream::StreamWriter* out, RenderStats& stats) {
  if (!a.plane_fits[aspect]) {
    // Nothing is read from a plane smaller than the pass needs (see plane_fits): the tile starts
    // as zeros, what contents never captured read as.
    const size_t values = size_t{tile_width_} * tile_height_ * a.samples;
    if (aspect == 1) std::fill_n(a.stencil_tile.begin(), values, uint8_t{0});
    else if (a.depth) std::fill_n(a.depth_tile.begin(), values, 0.0f);
    else std::fill_n(a.color_tile.begin(), values * 4, 0.0f);
    return;
  }
  const std::vector<uint8_t>& plane = a.image->planes[a.plane[aspect]];
  const uint32_t bpp = a.aspect_bytes[aspect];
  for (uint32_t s = 0; s < a.samples; ++s)
    for (int32_t y = rect_.y0; y < rect_.y1; ++y) {
      const ImageRow row = image_row(a, aspect, s, y);
      const int64_t ix0 = row.ix0, ix1 = row.ix1;
      if (ix0 >= ix1) continue;
      const uint64_t row_offset = row.offset;
      const auto row_bytes = static_cast<uint32_t>((ix1 - ix0) * bpp);
      if (record) {
        if (out) out->attachment_load(a.plane_address[aspect] + row_offset, row_bytes, a.index, stream_aspect(a));
        ++stats.attachment_loads;
      }
      for (int64_t ix = ix0; ix < ix1; ++ix) {
        const size_t v = pixel(static_cast<int32_t>(ix - area_x_), y) * a.samples + s;
        const uint64_t at = row_offset + static_cast<uint64_t>(ix - ix0) * bpp;
        // Contents never captured read as zeros.
        static constexpr uint8_t kZeros[32] = {};
        const uint8_t* src = at + bpp <= plane.size() ? plane.data() + at : kZeros;
        if (aspect == 1) a.stencil_tile[v] = src[0];
        else if (a.depth) a.depth_tile[v] = pipeline::decode_depth(a.format, src);
        else pipeline::decode_color(a.format, src, &a.color_tile[v * 4]);
      }
    }
}

void TileBuffers::load(stream::StreamWriter* out, RenderStats& stats) {
  for (AttachmentBuffer& a : buffers_) {
    if (!a.usable) continue;
    const frontend::Attachment& d = *a.desc;
    if (a.color || a.depth) {
      if (d.load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
        clear(a, VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT, d.clear, rect_);
      else
        load_attachment(a, loads(d.load_op), 0, out, stats);
    }
    if (a.stencil) {
      if (d.stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR)
        clear(a, VK_IMAGE_ASPECT_STENCIL_BIT, d.clear, rect_);
      else
        load_attachment(a, loads(d.stencil_load_op), 1, out, stats);
    }
  }
}

void TileBuffers::store(stream::StreamWriter* out, RenderStats& stats) {
  for (AttachmentBuffer& a : buffers_) {
    if (!a.usable) continue;
    for (uint32_t aspect = 0; aspect < 2; ++aspect) {
      if (aspect == 0 && !(a.color || a.depth)) continue;
      if (aspect == 1 && !a.stencil) continue;
      if (!stores(aspect == 0 ? a.desc->store_op : a.desc->stencil_store_op) || !a.plane_fits[aspect]) continue;
      std::vector<uint8_t>& plane = a.image->planes[a.plane[aspect]];
      const uint32_t bpp = a.aspect_bytes[aspect];
      for (uint32_t s = 0; s < a.samples; ++s)
        for (int32_t y = rect_.y0; y < rect_.y1; ++y) {
          const ImageRow row = image_row(a, aspect, s, y);
          const int64_t ix0 = row.ix0, ix1 = row.ix1;
          if (ix0 >= ix1) continue;
          const uint64_t row_offset = row.offset;
          if (out)
            out->attachment_store(a.plane_address[aspect] + row_offset, static_cast<uint32_t>((ix1 - ix0) * bpp), a.index,
                                  stream_aspect(a));
          ++stats.attachment_stores;
          const size_t row_value = pixel(static_cast<int32_t>(ix0 - area_x_), y) * a.samples + s;
          const auto n = static_cast<size_t>(ix1 - ix0);
          const size_t step = a.samples;
          uint8_t* const row_dst = plane.data() + row_offset;
          // One loop per kind of value, the kind chosen once per row.
          if (aspect == 1) {
            for (size_t k = 0; k < n; ++k) row_dst[k] = a.stencil_tile[row_value + k * step];
          } else if (a.unorm8) {
            for (size_t k = 0; k < n; ++k) {
              const float* c = &a.color_tile[(row_value + k * step) * 4];
              uint8_t* dst = row_dst + k * 4;
              // float_to_unorm(v, 8), the rounding write_color uses.
              for (uint32_t b = 0; b < 4; ++b) {
                const float f = c[a.unorm8_channel[b]];
                dst[b] = static_cast<uint8_t>(unorm_code(f, 255.0));
              }
            }
          } else if (a.depth && a.depth_bits != 0 && bpp <= 4) {
            // pipeline::encode_depth of a UNORM depth format: the field's code (unorm_code, the
            // rounding of quantize_depth above) in the aspect's low bits, little-endian,
            // the bytes above it 0 (X8_D24's high byte).
            const double max = static_cast<double>((1u << a.depth_bits) - 1);
            for (size_t k = 0; k < n; ++k) {
              const uint32_t code = unorm_code(a.depth_tile[row_value + k * step], max);
              const uint8_t bytes[4] = {static_cast<uint8_t>(code), static_cast<uint8_t>(code >> 8),
                                        static_cast<uint8_t>(code >> 16), static_cast<uint8_t>(code >> 24)};
              std::memcpy(row_dst + k * bpp, bytes, bpp);
            }
          } else if (a.depth) {
            for (size_t k = 0; k < n; ++k) pipeline::encode_depth(a.format, a.depth_tile[row_value + k * step], row_dst + k * bpp);
          } else {
            for (size_t k = 0; k < n; ++k)
              pipeline::encode_color(a.format, &a.color_tile[(row_value + k * step) * 4], row_dst + k * bpp);
          }
        }
      a.stored = true;
    }
  }
}

void TileBuffers::keep() {
  for (AttachmentBuffer& a : buffers_) {
    if (!a.usable) continue;
    const size_t n = a.samples;
    for (int32_t y = rect_.y0; y < rect_.y1; ++y)
      for (int32_t x = rect_.x0; x < rect_.x1; ++x) {
        const size_t p = pixel(x, y) * n, k = (static_cast<size_t>(y) * area_width_ + static_cast<size_t>(x)) * n;
        if (a.color) std::copy_n(&a.color_tile[p * 4], 4 * n, &a.color_keep[k * 4]);
        if (a.depth) std::copy_n(&a.depth_tile[p], n, &a.depth_keep[k]);
        if (a.stencil) std::copy_n(&a.stencil_tile[p], n, &a.stencil_keep[k]);
      }
  }
}

void TileBuffers::restore() {
  for (AttachmentBuffer& a : buffers_) {
    if (!a.usable) continue;
    const size_t n = a.samples;
    for (int32_t y = rect_.y0; y < rect_.y1; ++y)
      for (int32_t x = rect_.x0; x < rect_.x1; ++x) {
        const size_t p = pixel(x, y) * n, k = (static_cast<size_t>(y) * area_width_ + static_cast<size_t>(x)) * n;
        if (a.color) std::copy_n(&a.color_keep[k * 4], 4 * n, &a.color_tile[p * 4]);
        if (a.depth) std::copy_n(&a.depth_keep[k], n, &a.depth_tile[p]);
        if (a.stencil) std::copy_n(&a.stencil_keep[k], n, &a.stencil_tile[p]);
      }
  }
}

namespace {

// One resolved value of `n` samples (spec VkResolveModeFlagBits): SAMPLE_ZERO, AVERAGE, MIN, MAX.
template <typename T>
float combine(uint32_t mode, const T* v, size_t n, size_t stride) {
  float r = static_cast<float>(v[0]);
  for (size_t s = 1; s < n; ++s) {
    const float x = static_cast<float>(v[s * stride]);
    switch (mode) {
      case VK_RESOLVE_MODE_AVERAGE_BIT: r += x; break;
      case VK_RESOLVE_MODE_MIN_BIT: r = std::min(r, x); break;
      case VK_RESOLVE_MODE_MAX_BIT: r = std::max(r, x); break;
      default: return r;  // SAMPLE_ZERO
    }
  }
  return mode == VK_RESOLVE_MODE_AVERAGE_BIT ? r / static_cast<float>(n) : r;
}

}  // namespace

void TileBuffers::resolve() {
  for (AttachmentBuffer& a : buffers_) {
    if (!a.usable || a.resolve_target == nullptr) continue;
    AttachmentBuffer& t = *a.resolve_target;
    // Colour: the average of the samples (linear values; sRGB was decoded on load), sample 0
    // for integer formats (spec "Render Pass Operations": "each sample ... resolved by the
    // average"; integer formats take one sample).
    const uint32_t color_mode = a.format.integer ? VK_RESOLVE_MODE_SAMPLE_ZERO_BIT : VK_RESOLVE_MODE_AVERAGE_BIT;
    const uint32_t depth_mode = a.desc->resolve_mode, stencil_mode = a.desc->stencil_resolve_mode;
    const size_t n = a.samples;
    for (int32_t y = rect_.y0; y < rect_.y1; ++y)
      for (int32_t x = rect_.x0; x < rect_.x1; ++x) {
        const size_t p = pixel(x, y);
        if (a.color && t.color) {
          float rgba[4];
          for (size_t c = 0; c < 4; ++c) rgba[c] = combine(color_mode, &a.color_tile[p * n * 4 + c], n, 4);
          write_color(t, p, rgba);
        }
        if (a.depth && t.depth && depth_mode != 0)
          t.depth_tile[p] = quantize_depth(t, combine(depth_mode, &a.depth_tile[p * n], n, 1));
        if (a.stencil && t.stencil && stencil_mode != 0)
          t.stencil_tile[p] = static_cast<uint8_t>(combine(stencil_mode, &a.stencil_tile[p * n], n, 1));
      }
  }
}

namespace {

// Calls f(plane) for each plane a store op of `a` writes.
template <typename F>
void for_each_stored_plane(AttachmentBuffer& a, F f) {
  if (!a.usable) return;
  for (uint32_t aspect = 0; aspect < 2; ++aspect) {
    if (aspect == 0 && !(a.color || a.depth)) continue;
    if (aspect == 1 && !a.stencil) continue;
    if (!stores(aspect == 0 ? a.desc->store_op : a.desc->stencil_store_op) || !a.plane_fits[aspect]) continue;
    f(a.image->planes[a.plane[aspect]]);
  }
}

}  // namespace

std::vector<std::vector<uint8_t>> TileBuffers::stored_planes(Held& held, const std::string& what) {
  std::vector<std::vector<uint8_t>> copies;
  for (AttachmentBuffer& a : buffers_)
    for_each_stored_plane(a, [&](std::vector<uint8_t>& plane) {
      held.take(plane.size(), what);
      copies.push_back(plane);
    });
  return copies;
}

void TileBuffers::restore_planes(std::vector<std::vector<uint8_t>>& copies) {
  size_t next = 0;
  for (AttachmentBuffer& a : buffers_)
    for_each_stored_plane(a, [&](std::vector<uint8_t>& plane) { plane.swap(copies.at(next++)); });
}

void TileBuffers::add_stored(const TileBuffers& other) {
  for (size_t i = 0; i < buffers_.size() && i < other.buffers_.size(); ++i)
    buffers_[i].stored = buffers_[i].stored || other.buffers_[i].stored;
}

void TileBuffers::finish() {
  for (AttachmentBuffer& a : buffers_)
    if (a.usable && a.stored) a.image->touch();
  free_kept();
}

void TileBuffers::free_kept() {
  // Given back to the budget when the pass ends (Renderer): freed with it.
  for (AttachmentBuffer& a : buffers_) {
    a.color_keep = {};
    a.depth_keep = {};
    a.stencil_keep = {};
  }
}

}  // namespace tessera::render
