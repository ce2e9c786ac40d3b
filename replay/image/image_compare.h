// Frame comparison for `tessera replay`: a read-back attachment or swapchain image converted to
// 8-bit RGBA, and the PSNR between two such images.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::image {

// Converts `width` x `height` tightly packed pixels of `vk_format` to 8-bit RGBA (R, G, B, A per
// pixel, rows as given). The result keeps the image's stored encoding: no colour-space conversion,
// so an sRGB image stays sRGB-encoded (the bytes as stored) and a UNORM image stays as the
// application wrote it; two images are compared in the encoding they were stored in.
//   R8G8B8A8 / B8G8R8A8 UNORM and SRGB: the stored bytes (BGRA swizzled to RGBA).
//   A2B10G10R10 / A2R10G10B10_UNORM_PACK32: each 10-bit value rounded to 8 bits, alpha 0..3 ->
//     0, 85, 170, 255.
//   R16G16B16A16_SFLOAT and every other non-integer colour format of pipeline/pixel_format.h:
//     decoded, clamped to [0, 1] and rounded to 8 bits (sRGB formats re-encoded with the sRGB
//     OETF, which returns their stored 8-bit codes); missing G, B -> 0, missing A -> 255.
// Integer, depth and stencil formats are refused. `pixels` must hold at least
// width * height * bytes-per-pixel bytes (extra bytes are ignored). On failure returns false with
// a one-line *error naming the format (its VkFormat number) and the problem.
bool to_rgba8(uint32_t vk_format, uint32_t width, uint32_t height, std::span<const uint8_t> pixels,
              std::vector<uint8_t>* rgba8, std::string* error);

struct PsnrResult {
  double psnr_db;         // 10 log10(255^2 / mse); +infinity when mse == 0 (identical images)
  double mse;             // mean squared difference over the R, G and B samples
  uint64_t pixels;        // pixel_count
  uint32_t max_abs_diff;  // largest |a - b| over the R, G and B samples
};

// PSNR of two 8-bit RGBA images of `pixel_count` pixels (each pointer to pixel_count * 4 bytes,
// e.g. two to_rgba8 results of the same extent) over R, G and B. Alpha is ignored: the
// alpha of a swapchain image is often undefined (VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR) and differs
// between a driver and the replayer without any visible difference. Identical images (and zero
// pixels) give psnr_db = +infinity; callers that must store a finite number (SQLite REAL holds
// inf, JSON does not) decide how to cap it.
PsnrResult psnr_rgb(const uint8_t* a_rgba8, const uint8_t* b_rgba8, size_t pixel_count);

}  // namespace tessera::image
