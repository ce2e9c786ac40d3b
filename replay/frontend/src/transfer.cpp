#include "transfer.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstring>

#include "formats.h"

namespace tessera::frontend {

namespace cap = tessera::capture;

namespace {

// Aspects of one VkImageAspectFlags mask, as plane indices.
std::vector<Aspect> aspects_of(uint32_t mask) {
  std::vector<Aspect> out;
  if ((mask & (VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT)) != 0) {
    out.push_back(Aspect::ColorOrDepth);
  }
  if ((mask & VK_IMAGE_ASPECT_STENCIL_BIT) != 0) out.push_back(Aspect::Stencil);
  return out;
}

uint32_t layer_count(uint32_t count, uint32_t base, const Image& img) {
  if (count == VK_REMAINING_ARRAY_LAYERS) return base < img.array_layers ? img.array_layers - base : 0;
  return count;
}

uint32_t mip_depth(const Image& img, uint32_t mip) {
  return img.depth >> mip ? img.depth >> mip : 1;
}

// A region of one image subresource, in blocks, checked against the mip's extent.
struct BlockBox {
  uint32_t bx0 = 0, by0 = 0, z0 = 0, bw = 0, bh = 0, d = 0;  // origin and size in blocks
  uint64_t row = 0, slice = 0;  // the plane's pitches
  uint32_t block_bytes = 0;
};

bool block_box(const Image& img, const FormatDesc& f, Aspect a, uint32_t mip, int32_t x0,
               int32_t y0, int32_t z0, int32_t x1, int32_t y1, int32_t z1, BlockBox* out) {
  const uint32_t bb = aspect_block_bytes(f, a);
  const uint32_t bw = aspect_block_w(f, a), bh = aspect_block_h(f, a);
  if (bb == 0 || mip >= img.mip_levels) return false;
  const int64_t w = img.mip_width(mip), h = img.mip_height(mip), d = mip_depth(img, mip);
  if (x0 < 0 || y0 < 0 || z0 < 0 || x1 <= x0 || y1 <= y0 || z1 <= z0 || x1 > w || y1 > h ||
      z1 > d || x0 % bw != 0 || y0 % bh != 0) {
    return false;
  }
  out->block_bytes = bb;
  out->bx0 = static_cast<uint32_t>(x0) / bw;
  out->by0 = static_cast<uint32_t>(y0) / bh;
  out->z0 = static_cast<uint32_t>(z0);
  out->bw = (static_cast<uint32_t>(x1 - x0) + bw - 1) / bw;
  out->bh = (static_cast<uint32_t>(y1 - y0) + bh - 1) / bh;
  out->d = static_cast<uint32_t>(z1 - z0);
  out->row = ((static_cast<uint64_t>(w) + bw - 1) / bw) * bb;
  out->slice = out->row * ((static_cast<uint64_t>(h) + bh - 1) / bh);
  return true;
}

bool image_format(const Image* img, FormatDesc* f) {
  return img != nullptr && describe_format(img->format, f) && !img->planes.empty();
}

void copy_buffer_buffer(Resources& res, const cap::CmdCopyRecord& rec, SkipCounts& skipped) {
  Buffer* src = Resources::find(res.buffers, rec.src);
  Buffer* dst = Resources::find(res.buffers, rec.dst);
  if (src == nullptr || dst == nullptr) {
    skipped.add("copy buffer: unknown buffer", rec.regions.size());
    return;
  }
  const auto s = src->bytes();
  const auto d = dst->bytes();
  for (const auto& r : rec.regions) {
    if (r.src_offset_bytes > s.size() || r.size_bytes > s.size() - r.src_offset_bytes ||
        r.dst_offset_bytes > d.size() || r.size_bytes > d.size() - r.dst_offset_bytes) {
      skipped.add("copy buffer: region outside a buffer or its memory");
      continue;
    }
    if (r.size_bytes == 0) continue;
    std::memmove(d.data() + r.dst_offset_bytes, s.data() + r.src_offset_bytes,
                 static_cast<size_t>(r.size_bytes));
  }
  res.mark_known(dst->memory);
}

// Buffer <-> image ("Copying Data Between Buffers and Images"): the buffer side addressed by
// bufferRowLength / bufferImageHeight in texels (0 = tightly packed to the region).
void copy_buffer_image(Resources& res, const cap::CmdCopyRecord& rec, bool to_image,
                       SkipCounts& skipped) {
  Buffer* buf = Resources::find(res.buffers, to_image ? rec.src : rec.dst);
  Image* img = Resources::find(res.images, to_image ? rec.dst : rec.src);
  const char* what = to_image ? "copy buffer to image" : "copy image to buffer";
  FormatDesc f;
  if (buf == nullptr || img == nullptr) {
    skipped.add(std::string(what) + ": unknown " + (buf == nullptr ? "buffer" : "image"),
                rec.regions.size());
    return;
  }
  if (!image_format(img, &f)) {
    skipped.add(std::string(what) + ": image format " + std::to_string(img->format) +
                    " not supported",
                rec.regions.size());
    return;
  }
  const auto bytes = buf->bytes();
  for (const auto& r : rec.regions) {
    const uint32_t aspect_mask = to_image ? r.dst_aspect : r.src_aspect;
    const uint32_t mip = to_image ? r.dst_mip : r.src_mip;
    const uint32_t base = to_image ? r.dst_base_layer : r.src_base_layer;
    const uint32_t layers = layer_count(to_image ? r.dst_layer_count : r.src_layer_count, base, *img);
    const uint64_t off = to_image ? r.src_offset_bytes : r.dst_offset_bytes;
    const auto as = aspects_of(aspect_mask);
    BlockBox box;
    const bool ok = as.size() == 1 &&
                    (to_image ? block_box(*img, f, as[0], mip, r.dst_x0, r.dst_y0, r.dst_z0,
                                          r.dst_x1, r.dst_y1, r.dst_z1, &box)
                              : block_box(*img, f, as[0], mip, r.src_x0, r.src_y0, r.src_z0,
                                          r.src_x1, r.src_y1, r.src_z1, &box)) &&
                    base + uint64_t{layers} <= img->array_layers;
    if (!ok) {
      skipped.add(std::string(what) + ": region outside the image");
      continue;
    }
    const uint32_t bw = aspect_block_w(f, as[0]), bh = aspect_block_h(f, as[0]);
    const uint64_t row_texels = r.buffer_row_length != 0 ? r.buffer_row_length : box.bw * bw;
    const uint64_t height_texels =
        r.buffer_image_height != 0 ? r.buffer_image_height : box.bh * bh;
    const uint64_t row_pitch = (row_texels + bw - 1) / bw * box.block_bytes;
    const uint64_t slice_pitch = (height_texels + bh - 1) / bh * row_pitch;
    const uint64_t n = uint64_t{box.bw} * box.block_bytes;
    // The last byte the region touches in the buffer; hostile row lengths and heights must
    // not wrap the arithmetic.
    uint64_t span = 0, rows = 0;
    const bool wraps =
        layers == 0 || __builtin_mul_overflow(uint64_t{layers} * box.d - 1, slice_pitch, &span) ||
        __builtin_mul_overflow(uint64_t{box.bh - 1}, row_pitch, &rows) ||
        __builtin_add_overflow(span, rows + n, &span);
    if (wraps || row_pitch < n || off > bytes.size() || span > bytes.size() - off) {
      skipped.add(std::string(what) + ": region outside the buffer or its memory");
      continue;
    }
    for (uint32_t l = 0; l < layers; ++l) {
      auto& plane = img->subresource(as[0], base + l, mip);
      for (uint32_t z = 0; z < box.d; ++z) {
        for (uint32_t y = 0; y < box.bh; ++y) {
          const uint64_t b = off + (uint64_t{l} * box.d + z) * slice_pitch + y * row_pitch;
          const uint64_t p = (box.z0 + z) * box.slice + (box.by0 + y) * box.row +
                             uint64_t{box.bx0} * box.block_bytes;
          if (p + n > plane.size()) continue;  // plane not held (guarded at shape time)
          if (to_image) {
            std::memcpy(plane.data() + p, bytes.data() + b, static_cast<size_t>(n));
          } else {
            std::memcpy(bytes.data() + b, plane.data() + p, static_cast<size_t>(n));
          }
        }
      }
    }
  }
  if (to_image) {
    img->touch();
  } else {
    res.mark_known(buf->memory);
  }
}

// Image to image: texel (block) bytes copied as they are; formats must have equal block sizes
// ("Copying Data Between Images", size-compatible formats). Resolves take this path too.
void copy_image_image(Resources& res, const cap::CmdCopyRecord& rec, const char* what,
                      SkipCounts& skipped) {
  Image* src = Resources::find(res.images, rec.src);
  Image* dst = Resources::find(res.images, rec.dst);
  FormatDesc sf, df;
  if (src == nullptr || dst == nullptr) {
    skipped.add(std::string(what) + ": unknown image", rec.regions.size());
    return;
  }
  if (!image_format(src, &sf) || !image_format(dst, &df)) {
    skipped.add(std::string(what) + ": image format not supported", rec.regions.size());
    return;
  }
  for (const auto& r : rec.regions) {
    const auto sa = aspects_of(r.src_aspect);
    const auto da = aspects_of(r.dst_aspect != 0 ? r.dst_aspect : r.src_aspect);
    const uint32_t layers = layer_count(r.src_layer_count, r.src_base_layer, *src);
    bool ok = sa.size() == da.size() && !sa.empty() && layers != 0 &&
              r.src_base_layer + uint64_t{layers} <= src->array_layers &&
              r.dst_base_layer + uint64_t{layers} <= dst->array_layers;
    for (size_t i = 0; ok && i < sa.size(); ++i) {
      BlockBox s, d;
      // The extent is in source texels; the destination box covers the same blocks.
      // 64-bit: hostile offsets must not overflow before block_box rejects them.
      const int64_t ex = int64_t{r.src_x1} - r.src_x0, ey = int64_t{r.src_y1} - r.src_y0;
      const int64_t ez = int64_t{r.src_z1} - r.src_z0;
      const int64_t sbw = aspect_block_w(sf, sa[i]), sbh = aspect_block_h(sf, sa[i]);
      const int64_t dbw = aspect_block_w(df, da[i]), dbh = aspect_block_h(df, da[i]);
      const int64_t dx1 = std::min<int64_t>(r.dst_x0 + (ex + sbw - 1) / sbw * dbw,
                                            dst->mip_width(r.dst_mip));
      const int64_t dy1 = std::min<int64_t>(r.dst_y0 + (ey + sbh - 1) / sbh * dbh,
                                            dst->mip_height(r.dst_mip));
      const int64_t dz1 = r.dst_z0 + ez;
      const auto fits = [](int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
      ok = fits(dx1) && fits(dy1) && fits(dz1) &&
           block_box(*src, sf, sa[i], r.src_mip, r.src_x0, r.src_y0, r.src_z0, r.src_x1,
                     r.src_y1, r.src_z1, &s) &&
           block_box(*dst, df, da[i], r.dst_mip, r.dst_x0, r.dst_y0, r.dst_z0,
                     static_cast<int32_t>(dx1), static_cast<int32_t>(dy1),
                     static_cast<int32_t>(dz1), &d) &&
           s.block_bytes == d.block_bytes && s.bw == d.bw && s.bh == d.bh && s.d == d.d;
      if (!ok) break;
      const uint64_t n = uint64_t{s.bw} * s.block_bytes;
      // Multisampled images copy sample by sample (both have the same count: vkCmdCopyImage).
      const uint32_t samples = std::min(src->held_samples(), dst->held_samples());
      for (uint32_t l = 0; l < layers; ++l) {
        const auto& sp = src->subresource(sa[i], r.src_base_layer + l, r.src_mip);
        auto& dp = dst->subresource(da[i], r.dst_base_layer + l, r.dst_mip);
        const uint64_t s_sample = sp.size() / src->held_samples(), d_sample = dp.size() / dst->held_samples();
        for (uint32_t smp = 0; smp < samples; ++smp) {
          for (uint32_t z = 0; z < s.d; ++z) {
            for (uint32_t y = 0; y < s.bh; ++y) {
              const uint64_t so = smp * s_sample + (s.z0 + z) * s.slice + (s.by0 + y) * s.row +
                                  uint64_t{s.bx0} * s.block_bytes;
              const uint64_t doff = smp * d_sample + (d.z0 + z) * d.slice + (d.by0 + y) * d.row +
                                    uint64_t{d.bx0} * d.block_bytes;
              if (so + n > sp.size() || doff + n > dp.size()) continue;
              std::memmove(dp.data() + doff, sp.data() + so, static_cast<size_t>(n));
            }
          }
        }
      }
    }
    if (!ok) skipped.add(std::string(what) + ": region outside an image or incompatible formats");
  }
  dst->touch();
}

// vkCmdResolveImage ("Resolving Multisample Images"): each destination texel receives the
// average of the source texel's samples, taken in linear space (sRGB decoded) and converted to
// the destination format; integer formats take sample 0. A single-sample source is copied.
void resolve_image(Resources& res, const cap::CmdCopyRecord& rec, SkipCounts& skipped) {
  Image* src = Resources::find(res.images, rec.src);
  Image* dst = Resources::find(res.images, rec.dst);
  if (src == nullptr || dst == nullptr || src->held_samples() == 1) {
    copy_image_image(res, rec, "resolve", skipped);
    return;
  }
  FormatDesc sf, df;
  if (!image_format(src, &sf) || !image_format(dst, &df) || !sf.convertible || !df.convertible ||
      !sf.color || !df.color) {
    skipped.add("resolve: image format not supported", rec.regions.size());
    return;
  }
  const uint32_t samples = src->held_samples();
  const bool integer = is_integer_format(sf.format);
  for (const auto& r : rec.regions) {
    const uint32_t layers = layer_count(r.src_layer_count, r.src_base_layer, *src);
    BlockBox s, d;
    const bool ok = layers != 0 && r.src_base_layer + uint64_t{layers} <= src->array_layers &&
                    r.dst_base_layer + uint64_t{layers} <= dst->array_layers &&
                    block_box(*src, sf, Aspect::ColorOrDepth, r.src_mip, r.src_x0, r.src_y0, r.src_z0,
                              r.src_x1, r.src_y1, r.src_z1, &s) &&
                    block_box(*dst, df, Aspect::ColorOrDepth, r.dst_mip, r.dst_x0, r.dst_y0, r.dst_z0,
                              r.dst_x0 + (r.src_x1 - r.src_x0), r.dst_y0 + (r.src_y1 - r.src_y0),
                              r.dst_z0 + (r.src_z1 - r.src_z0), &d);
    if (!ok) {
      skipped.add("resolve: region outside an image");
      continue;
    }
    for (uint32_t l = 0; l < layers; ++l) {
      const auto& sp = src->subresource(Aspect::ColorOrDepth, r.src_base_layer + l, r.src_mip);
      auto& dp = dst->subresource(Aspect::ColorOrDepth, r.dst_base_layer + l, r.dst_mip);
      const uint64_t per_sample = sp.size() / samples;
      for (uint32_t z = 0; z < s.d; ++z) {
        for (uint32_t y = 0; y < s.bh; ++y) {
          for (uint32_t x = 0; x < s.bw; ++x) {
            const uint64_t so = (s.z0 + z) * s.slice + (s.by0 + y) * s.row + uint64_t{s.bx0 + x} * s.block_bytes;
            const uint64_t doff = (d.z0 + z) * d.slice + (d.by0 + y) * d.row + uint64_t{d.bx0 + x} * d.block_bytes;
            if (so + (samples - 1) * per_sample + s.block_bytes > sp.size() || doff + d.block_bytes > dp.size()) continue;
            double sum[4] = {0, 0, 0, 0};
            for (uint32_t smp = 0; smp < (integer ? 1 : samples); ++smp) {
              double v[4];
              decode_texel(sf, Aspect::ColorOrDepth, sp.data() + so + smp * per_sample, v);
              for (int c = 0; c < 4; ++c) sum[c] += v[c];
            }
            if (!integer)
              for (double& c : sum) c /= samples;
            encode_texel(df, Aspect::ColorOrDepth, sum, dp.data() + doff);
          }
        }
      }
    }
  }
  dst->touch();
}

// vkCmdBlitImage ("Image Copies With Scaling"): each destination texel centre maps back to a
// source coordinate; NEAREST takes the texel containing it, LINEAR filters the 2x2 (x, y)
// neighbourhood with CLAMP_TO_EDGE addressing, in linear space (sRGB decoded), then the
// result is converted to the destination format.
void blit(Resources& res, const cap::CmdCopyRecord& rec, SkipCounts& skipped) {
  Image* src = Resources::find(res.images, rec.src);
  Image* dst = Resources::find(res.images, rec.dst);
  FormatDesc sf, df;
  if (src == nullptr || dst == nullptr) {
    skipped.add("blit: unknown image", rec.regions.size());
    return;
  }
  if (!image_format(src, &sf) || !image_format(dst, &df) || !sf.convertible ||
      !df.convertible || sf.color != df.color ||
      (!sf.color && sf.format != df.format)) {
    skipped.add("blit: format conversion " + std::to_string(src->format) + " -> " +
                    std::to_string(dst->format) + " not supported",
                rec.regions.size());
    return;
  }
  const bool linear = rec.filter == VK_FILTER_LINEAR && sf.color;
  for (const auto& r : rec.regions) {
    const auto as = aspects_of(r.src_aspect);
    const uint32_t layers = layer_count(r.src_layer_count, r.src_base_layer, *src);
    const int32_t sw = static_cast<int32_t>(src->mip_width(r.src_mip));
    const int32_t sh = static_cast<int32_t>(src->mip_height(r.src_mip));
    const int32_t dw = static_cast<int32_t>(dst->mip_width(r.dst_mip));
    const int32_t dh = static_cast<int32_t>(dst->mip_height(r.dst_mip));
    const int32_t dx_lo = std::min(r.dst_x0, r.dst_x1), dx_hi = std::max(r.dst_x0, r.dst_x1);
    const int32_t dy_lo = std::min(r.dst_y0, r.dst_y1), dy_hi = std::max(r.dst_y0, r.dst_y1);
    const bool ok = !as.empty() && layers != 0 && r.src_mip < src->mip_levels &&
                    r.dst_mip < dst->mip_levels &&
                    r.src_base_layer + uint64_t{layers} <= src->array_layers &&
                    r.dst_base_layer + uint64_t{layers} <= dst->array_layers && dx_lo >= 0 &&
                    dy_lo >= 0 && dx_hi <= dw && dy_hi <= dh &&
                    std::min(r.src_x0, r.src_x1) >= 0 && std::max(r.src_x0, r.src_x1) <= sw &&
                    std::min(r.src_y0, r.src_y1) >= 0 && std::max(r.src_y0, r.src_y1) <= sh &&
                    r.dst_x0 != r.dst_x1 && r.dst_y0 != r.dst_y1 && src->depth == 1 &&
                    dst->depth == 1;
    if (!ok) {
      skipped.add("blit: region outside an image (or a 3-D blit)");
      continue;
    }
    const double scale_x = double(r.src_x1 - r.src_x0) / double(r.dst_x1 - r.dst_x0);
    const double scale_y = double(r.src_y1 - r.src_y0) / double(r.dst_y1 - r.dst_y0);
    for (Aspect a : as) {
      const uint32_t sb = aspect_block_bytes(sf, a), db = aspect_block_bytes(df, a);
      if (sb == 0 || db == 0) continue;
      for (uint32_t l = 0; l < layers; ++l) {
        const auto& sp = src->subresource(a, r.src_base_layer + l, r.src_mip);
        auto& dp = dst->subresource(a, r.dst_base_layer + l, r.dst_mip);
        if (sp.size() < uint64_t(sw) * sh * sb || dp.size() < uint64_t(dw) * dh * db) continue;
        auto fetch = [&](int32_t x, int32_t y, double out[4]) {
          x = std::clamp(x, 0, sw - 1);
          y = std::clamp(y, 0, sh - 1);
          decode_texel(sf, a, sp.data() + (size_t(y) * sw + x) * sb, out);
        };
        for (int32_t y = dy_lo; y < dy_hi; ++y) {
          const double v = r.src_y0 + (y + 0.5 - r.dst_y0) * scale_y;
          for (int32_t x = dx_lo; x < dx_hi; ++x) {
            const double u = r.src_x0 + (x + 0.5 - r.dst_x0) * scale_x;
            double c[4];
            if (!linear) {
              fetch(static_cast<int32_t>(std::floor(u)), static_cast<int32_t>(std::floor(v)), c);
            } else {
              const double fu = u - 0.5, fv = v - 0.5;
              const auto x0 = static_cast<int32_t>(std::floor(fu));
              const auto y0 = static_cast<int32_t>(std::floor(fv));
              const double ax = fu - x0, ay = fv - y0;
              double t00[4], t10[4], t01[4], t11[4];
              fetch(x0, y0, t00);
              fetch(x0 + 1, y0, t10);
              fetch(x0, y0 + 1, t01);
              fetch(x0 + 1, y0 + 1, t11);
              for (int i = 0; i < 4; ++i) {
                c[i] = (1 - ay) * ((1 - ax) * t00[i] + ax * t10[i]) +
                       ay * ((1 - ax) * t01[i] + ax * t11[i]);
              }
            }
            encode_texel(df, a, c, dp.data() + (size_t(y) * dw + x) * db);
          }
        }
      }
    }
  }
  dst->touch();
}

}  // namespace

void execute_copy(Resources& res, const cap::CmdCopyRecord& rec, SkipCounts& skipped) {
  switch (rec.op) {
    case cap::CmdCopyRecord::kBufferToBuffer:
      copy_buffer_buffer(res, rec, skipped);
      break;
    case cap::CmdCopyRecord::kImageToImage:
      copy_image_image(res, rec, "copy image", skipped);
      break;
    case cap::CmdCopyRecord::kBufferToImage:
      copy_buffer_image(res, rec, true, skipped);
      break;
    case cap::CmdCopyRecord::kImageToBuffer:
      copy_buffer_image(res, rec, false, skipped);
      break;
    case cap::CmdCopyRecord::kBlit:
      blit(res, rec, skipped);
      break;
    case cap::CmdCopyRecord::kResolve:
      resolve_image(res, rec, skipped);
      break;
    default:
      skipped.add("copy: unknown operation " + std::to_string(rec.op));
  }
}

void execute_clear_image(Resources& res, const cap::CmdClearImageRecord& rec,
                         SkipCounts& skipped) {
  Image* img = Resources::find(res.images, rec.image);
  FormatDesc f;
  if (img == nullptr) {
    skipped.add("clear image: unknown image");
    return;
  }
  if (!image_format(img, &f) || !f.convertible) {
    skipped.add("clear image: format " + std::to_string(img->format) + " not supported");
    return;
  }
  for (const auto& range : rec.ranges) {
    const uint32_t mips = range.mip_count == VK_REMAINING_MIP_LEVELS
                              ? (range.base_mip < img->mip_levels ? img->mip_levels - range.base_mip : 0)
                              : range.mip_count;
    const uint32_t layers = layer_count(range.layer_count, range.base_layer, *img);
    if (range.base_mip + uint64_t{mips} > img->mip_levels ||
        range.base_layer + uint64_t{layers} > img->array_layers) {
      skipped.add("clear image: range outside the image");
      continue;
    }
    for (Aspect a : aspects_of(range.aspect & format_aspects(f))) {
      const uint32_t bb = aspect_block_bytes(f, a);
      double value[4];
      clear_value_texel(f, a, rec.value, value);
      uint8_t texel[16] = {};
      encode_texel(f, a, value, texel);
      for (uint32_t l = 0; l < layers; ++l) {
        for (uint32_t m = 0; m < mips; ++m) {
          auto& plane = img->subresource(a, range.base_layer + l, range.base_mip + m);
          for (size_t o = 0; o + bb <= plane.size(); o += bb) std::memcpy(plane.data() + o, texel, bb);
        }
      }
    }
  }
  img->touch();
}

void execute_update_buffer(Resources& res, const cap::CmdUpdateBufferRecord& rec,
                           SkipCounts& skipped) {
  Buffer* b = Resources::find(res.buffers, rec.buffer);
  if (b == nullptr) {
    skipped.add("update buffer: unknown buffer");
    return;
  }
  const auto bytes = b->bytes();
  if (rec.offset > bytes.size() || rec.data.size() > bytes.size() - rec.offset) {
    skipped.add("update buffer: range outside the buffer or its memory");
    return;
  }
  // memcpy of zero bytes from an empty vector's null data is undefined: skip it.
  if (!rec.data.empty()) std::memcpy(bytes.data() + rec.offset, rec.data.data(), rec.data.size());
  res.mark_known(b->memory);
}

void execute_fill_buffer(Resources& res, const cap::CmdFillBufferRecord& rec,
                         SkipCounts& skipped) {
  Buffer* b = Resources::find(res.buffers, rec.buffer);
  if (b == nullptr) {
    skipped.add("fill buffer: unknown buffer");
    return;
  }
  const auto bytes = b->bytes();
  uint64_t size = rec.size;
  // VK_WHOLE_SIZE fills to the end, rounded down to a multiple of 4 (vkCmdFillBuffer).
  if (size == VK_WHOLE_SIZE && rec.offset <= b->size) size = (b->size - rec.offset) & ~uint64_t{3};
  if (rec.offset > bytes.size() || size > bytes.size() - rec.offset) {
    skipped.add("fill buffer: range outside the buffer or its memory");
    return;
  }
  for (uint64_t o = 0; o + 4 <= size; o += 4) {
    std::memcpy(bytes.data() + rec.offset + o, &rec.value, 4);
  }
  res.mark_known(b->memory);
}

}  // namespace tessera::frontend
