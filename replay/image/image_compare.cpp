#include "image_compare.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "tessera/pipeline/pixel_format.h"

namespace tessera::image {
namespace {

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

bool to_rgba8(uint32_t vk_format, uint32_t width, uint32_t height, std::span<const uint8_t> pixels,
              std::vector<uint8_t>* rgba8, std::string* error) {
  const std::string what = "format " + std::to_string(vk_format);
  pipeline::PixelFormat format;
  if (!pipeline::pixel_format(vk_format, &format))
    return fail(error, "to_rgba8: " + what + " is not a supported colour format");
  if (format.integer || format.depth || format.stencil)
    return fail(error, "to_rgba8: " + what + " is an integer, depth or stencil format, not a displayable image");
  const uint64_t count = static_cast<uint64_t>(width) * height;
  // count * bytes can exceed 2^64 (4 GiB x 4 GiB x 16 B): compare by division instead.
  const bool too_large = count > std::numeric_limits<uint64_t>::max() / format.bytes;
  const uint64_t needed = too_large ? 0 : count * format.bytes;
  if (too_large || pixels.size() < needed)
    return fail(error, "to_rgba8: " + std::to_string(width) + "x" + std::to_string(height) + " " + what + " needs " +
                           (too_large ? std::string("more than 2^64") : std::to_string(needed)) + " bytes, got " +
                           std::to_string(pixels.size()));
  if (rgba8 == nullptr) return fail(error, "to_rgba8: no output image");
  rgba8->resize(static_cast<size_t>(count * 4));
  const uint8_t* src = pixels.data();
  uint8_t* dst = rgba8->data();
  switch (vk_format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
      std::copy_n(src, count * 4, dst);
      return true;
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
      for (uint64_t i = 0; i < count; ++i, src += 4, dst += 4) {
        dst[0] = src[2];
        dst[1] = src[1];
        dst[2] = src[0];
        dst[3] = src[3];
      }
      return true;
    default:
      break;
  }
  // Through floats: exact for every UNORM width (round to nearest of c * 255 / (2^b - 1)), and for
  // sRGB formats the OETF restores the stored code that the decode linearised.
  pipeline::PixelFormat out_format;
  pipeline::pixel_format(format.srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM, &out_format);
  for (uint64_t i = 0; i < count; ++i, src += format.bytes, dst += 4) {
    float rgba[4];
    pipeline::decode_color(format, src, rgba);
    pipeline::encode_color(out_format, rgba, dst);
  }
  return true;
}

PsnrResult psnr_rgb(const uint8_t* a_rgba8, const uint8_t* b_rgba8, size_t pixel_count) {
  PsnrResult result{std::numeric_limits<double>::infinity(), 0.0, pixel_count, 0};
  if (pixel_count == 0) return result;
  // Exact integer sum: at most 3 * 255^2 per pixel, so 2^64 is reached only beyond 9e13 pixels.
  uint64_t sum = 0;
  uint32_t max_diff = 0;
  for (size_t p = 0; p < pixel_count; ++p) {
    for (size_t c = 0; c < 3; ++c) {
      const auto diff = static_cast<uint32_t>(std::abs(int{a_rgba8[p * 4 + c]} - int{b_rgba8[p * 4 + c]}));
      sum += diff * diff;
      if (diff > max_diff) max_diff = diff;
    }
  }
  result.max_abs_diff = max_diff;
  result.mse = static_cast<double>(sum) / (3.0 * static_cast<double>(pixel_count));
  if (sum != 0) result.psnr_db = 10.0 * std::log10(255.0 * 255.0 / result.mse);
  return result;
}

}  // namespace tessera::image
