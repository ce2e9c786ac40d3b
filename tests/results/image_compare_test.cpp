// Frame comparison: PSNR on images with a known MSE, identical images, and the conversion of
// read-back formats to RGBA8 in their stored encoding.
#include "image_compare.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tessera::image {
namespace {

std::vector<uint8_t> gradient(size_t pixels) {
  std::vector<uint8_t> rgba(pixels * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>((i * 37) % 251);
  return rgba;
}

TEST(Psnr, IdenticalImagesAreInfinite) {
  const std::vector<uint8_t> a = gradient(100);
  const PsnrResult r = psnr_rgb(a.data(), a.data(), 100);
  EXPECT_EQ(r.psnr_db, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.mse, 0.0);
  EXPECT_EQ(r.pixels, 100u);
  EXPECT_EQ(r.max_abs_diff, 0u);
}

TEST(Psnr, OneChannelOffByOneEverywhere) {
  std::vector<uint8_t> a = gradient(64);
  std::vector<uint8_t> b = a;
  for (size_t p = 0; p < 64; ++p) b[p * 4 + 1] = a[p * 4 + 1] == 255 ? 254 : static_cast<uint8_t>(a[p * 4 + 1] + 1);
  const PsnrResult r = psnr_rgb(a.data(), b.data(), 64);
  // Squared error 1 on one of three samples per pixel: MSE = 1/3.
  EXPECT_DOUBLE_EQ(r.mse, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(r.psnr_db, 10.0 * std::log10(255.0 * 255.0 / (1.0 / 3.0)));
  EXPECT_EQ(r.max_abs_diff, 1u);
}

TEST(Psnr, KnownErrorsAndAlphaIgnored) {
  // Pixel 0: R off by 3; pixel 1: G off by 4; alpha differs everywhere by 200.
  const std::vector<uint8_t> a = {10, 20, 30, 0, 40, 50, 60, 0};
  const std::vector<uint8_t> b = {13, 20, 30, 200, 40, 46, 60, 200};
  const PsnrResult r = psnr_rgb(a.data(), b.data(), 2);
  EXPECT_DOUBLE_EQ(r.mse, 25.0 / 6.0);  // (9 + 16) / 6 samples
  EXPECT_DOUBLE_EQ(r.psnr_db, 10.0 * std::log10(65025.0 * 6.0 / 25.0));
  EXPECT_EQ(r.max_abs_diff, 4u);
  EXPECT_EQ(r.pixels, 2u);
  // Black against white: MSE 255^2, PSNR 0 dB.
  const std::vector<uint8_t> black = {0, 0, 0, 255}, white = {255, 255, 255, 255};
  const PsnrResult worst = psnr_rgb(black.data(), white.data(), 1);
  EXPECT_EQ(worst.psnr_db, 0.0);
  EXPECT_EQ(worst.max_abs_diff, 255u);
}

TEST(Psnr, ZeroPixels) {
  const PsnrResult r = psnr_rgb(nullptr, nullptr, 0);
  EXPECT_EQ(r.psnr_db, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.pixels, 0u);
}

TEST(ToRgba8, EightBitFormatsKeepTheStoredBytes) {
  const std::vector<uint8_t> bgra = {1, 2, 3, 4, 250, 251, 252, 253};
  std::vector<uint8_t> out;
  std::string error;
  for (VkFormat f : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB}) {
    ASSERT_TRUE(to_rgba8(f, 2, 1, bgra, &out, &error)) << error;
    EXPECT_EQ(out, (std::vector<uint8_t>{3, 2, 1, 4, 252, 251, 250, 253}));
  }
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB}) {
    ASSERT_TRUE(to_rgba8(f, 1, 2, bgra, &out, &error)) << error;
    EXPECT_EQ(out, bgra);
  }
}

TEST(ToRgba8, TenBitAndHalfFloat) {
  // A2B10G10R10: R = 1023, G = 0, B = 512 (512 * 255 / 1023 = 127.6 -> 128), A = 1 (-> 85).
  const uint32_t word = 1023u | (512u << 20) | (1u << 30);
  const std::vector<uint8_t> packed = {static_cast<uint8_t>(word), static_cast<uint8_t>(word >> 8),
                                       static_cast<uint8_t>(word >> 16), static_cast<uint8_t>(word >> 24)};
  std::vector<uint8_t> out;
  std::string error;
  ASSERT_TRUE(to_rgba8(VK_FORMAT_A2B10G10R10_UNORM_PACK32, 1, 1, packed, &out, &error)) << error;
  EXPECT_EQ(out, (std::vector<uint8_t>{255, 0, 128, 85}));
  // RGBA16F (1.0, 0.5, 2.0, -1.0): 0.5 -> 127.5 -> 128; out-of-range values clamp.
  const std::vector<uint8_t> half = {0x00, 0x3c, 0x00, 0x38, 0x00, 0x40, 0x00, 0xbc};
  ASSERT_TRUE(to_rgba8(VK_FORMAT_R16G16B16A16_SFLOAT, 1, 1, half, &out, &error)) << error;
  EXPECT_EQ(out, (std::vector<uint8_t>{255, 128, 255, 0}));
}

TEST(ToRgba8, SrgbThroughFloatsKeepsCodes) {
  // R8_SRGB goes through decode + OETF: the stored code comes back, G, B = 0, A = 255.
  std::vector<uint8_t> codes(256);
  for (size_t i = 0; i < 256; ++i) codes[i] = static_cast<uint8_t>(i);
  std::vector<uint8_t> out;
  std::string error;
  ASSERT_TRUE(to_rgba8(VK_FORMAT_R8_SRGB, 16, 16, codes, &out, &error)) << error;
  for (size_t i = 0; i < 256; ++i) {
    EXPECT_EQ(out[i * 4], i);
    EXPECT_EQ(out[i * 4 + 1], 0);
    EXPECT_EQ(out[i * 4 + 3], 255);
  }
}

TEST(ToRgba8, RefusesBadInputWithOneLine) {
  std::vector<uint8_t> out;
  std::string error;
  const std::vector<uint8_t> bytes(64, 0);
  EXPECT_FALSE(to_rgba8(VK_FORMAT_BC1_RGB_UNORM_BLOCK, 2, 2, bytes, &out, &error));
  EXPECT_NE(error.find("format 131"), std::string::npos) << error;
  EXPECT_FALSE(to_rgba8(VK_FORMAT_R32_UINT, 2, 2, bytes, &out, &error));
  EXPECT_NE(error.find("format 98"), std::string::npos) << error;
  EXPECT_FALSE(to_rgba8(VK_FORMAT_D32_SFLOAT, 2, 2, bytes, &out, &error));
  EXPECT_FALSE(to_rgba8(VK_FORMAT_B8G8R8A8_UNORM, 5, 4, bytes, &out, &error));
  EXPECT_EQ(error, "to_rgba8: 5x4 format 44 needs 80 bytes, got 64");
  EXPECT_EQ(error.find('\n'), std::string::npos);
  // (2^32 - 1)^2 pixels x 16 B wraps a 64-bit product to a small number; still refused.
  EXPECT_FALSE(to_rgba8(VK_FORMAT_R32G32B32A32_SFLOAT, 0xffffffffu, 0xffffffffu, bytes, &out, &error));
  EXPECT_NE(error.find("needs more than 2^64 bytes"), std::string::npos) << error;
  EXPECT_FALSE(to_rgba8(VK_FORMAT_B8G8R8A8_UNORM, 0xffffffffu, 0xffffffffu, bytes, &out, &error));
  EXPECT_NE(error.find("needs"), std::string::npos);
}

}  // namespace
}  // namespace tessera::image
