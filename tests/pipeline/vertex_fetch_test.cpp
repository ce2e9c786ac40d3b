// Vertex fetch: every numeric format's conversion (spec "Fixed-Point Data Conversions"), component
// order of the BGRA and packed formats, the (0, 0, 0, 1) fill, and the unsupported formats.
#include "tessera/pipeline/vertex_fetch.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <bit>
#include <cstring>
#include <vector>

namespace tessera::pipeline {
namespace {

constexpr uint32_t kOneF = 0x3f800000;  // 1.0f

uint32_t f(float v) { return std::bit_cast<uint32_t>(v); }

struct Fetched {
  bool ok = false;
  uint32_t v[4] = {0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef};
};

Fetched fetch(VkFormat format, const std::vector<uint8_t>& bytes) {
  Fetched out;
  out.ok = fetch_vertex_attribute(format, reinterpret_cast<const std::byte*>(bytes.data()), out.v);
  return out;
}

void expect_values(const Fetched& got, uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  ASSERT_TRUE(got.ok);
  EXPECT_EQ(got.v[0], r);
  EXPECT_EQ(got.v[1], g);
  EXPECT_EQ(got.v[2], b);
  EXPECT_EQ(got.v[3], a);
}

TEST(VertexFetch, FormatBytes) {
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R8_UNORM), 1u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R8G8B8_SNORM), 3u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_B8G8R8A8_UNORM), 4u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_A2B10G10R10_UNORM_PACK32), 4u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R16G16B16_SFLOAT), 6u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R16G16B16A16_SINT), 8u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R32G32B32_SFLOAT), 12u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R32G32B32A32_UINT), 16u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_UNDEFINED), 0u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R8G8B8A8_SRGB), 0u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_D32_SFLOAT), 0u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_BC1_RGB_UNORM_BLOCK), 0u);
  EXPECT_EQ(vertex_format_bytes(VK_FORMAT_R64_SFLOAT), 0u);
}

TEST(VertexFetch, UnsupportedFormatFailsAndLeavesOutputAlone) {
  const Fetched got = fetch(VK_FORMAT_R8G8B8A8_SRGB, {1, 2, 3, 4});
  EXPECT_FALSE(got.ok);
  EXPECT_EQ(got.v[0], 0xdeadbeefu);
  EXPECT_EQ(got.v[3], 0xdeadbeefu);
}

TEST(VertexFetch, Unorm8AllValues) {
  for (uint32_t c = 0; c < 256; ++c) {
    const Fetched got = fetch(VK_FORMAT_R8_UNORM, {static_cast<uint8_t>(c)});
    expect_values(got, f(static_cast<float>(c) / 255.0f), 0, 0, kOneF);
  }
  expect_values(fetch(VK_FORMAT_R8_UNORM, {255}), kOneF, 0, 0, kOneF);
}

TEST(VertexFetch, Snorm8AllValuesAndMinusOneTwice) {
  // -128 and -127 both map to -1.0 (the max(., -1) of the spec).
  expect_values(fetch(VK_FORMAT_R8_SNORM, {0x80}), f(-1.0f), 0, 0, kOneF);
  expect_values(fetch(VK_FORMAT_R8_SNORM, {0x81}), f(-1.0f), 0, 0, kOneF);
  expect_values(fetch(VK_FORMAT_R8_SNORM, {0x7f}), kOneF, 0, 0, kOneF);
  expect_values(fetch(VK_FORMAT_R8_SNORM, {0x00}), 0, 0, 0, kOneF);
  for (int c = -127; c <= 127; ++c) {
    const Fetched got = fetch(VK_FORMAT_R8_SNORM, {static_cast<uint8_t>(c)});
    ASSERT_TRUE(got.ok);
    EXPECT_EQ(got.v[0], f(static_cast<float>(c) / 127.0f)) << c;
  }
}

TEST(VertexFetch, Rgba8SnormComponents) {
  expect_values(fetch(VK_FORMAT_R8G8B8A8_SNORM, {0x80, 0x40, 0x7f, 0xc0}), f(-1.0f), f(64.0f / 127.0f), kOneF,
                f(-64.0f / 127.0f));
}

TEST(VertexFetch, Unorm16AndSnorm16) {
  // Little-endian: 0xffff, 0x8000.
  expect_values(fetch(VK_FORMAT_R16G16_UNORM, {0xff, 0xff, 0x00, 0x80}), kOneF, f(32768.0f / 65535.0f), 0, kOneF);
  expect_values(fetch(VK_FORMAT_R16G16_SNORM, {0x00, 0x80, 0xff, 0x7f}), f(-1.0f), kOneF, 0, kOneF);
}

TEST(VertexFetch, ScaledFormatsGiveFloatsOfTheInteger) {
  expect_values(fetch(VK_FORMAT_R8G8B8A8_USCALED, {0, 1, 2, 255}), 0, kOneF, f(2.0f), f(255.0f));
  // -300 = 0xfed4.
  expect_values(fetch(VK_FORMAT_R16_SSCALED, {0xd4, 0xfe}), f(-300.0f), 0, 0, kOneF);
  expect_values(fetch(VK_FORMAT_R8G8_SSCALED, {0x80, 0x7f}), f(-128.0f), f(127.0f), 0, kOneF);
}

TEST(VertexFetch, IntegerFormatsGiveIntegerBitsAndIntegerOne) {
  expect_values(fetch(VK_FORMAT_R8G8_UINT, {200, 7}), 200, 7, 0, 1);
  expect_values(fetch(VK_FORMAT_R8_SINT, {0xff}), 0xffffffffu, 0, 0, 1);
  expect_values(fetch(VK_FORMAT_R16_SINT, {0xfe, 0xff}), 0xfffffffeu, 0, 0, 1);
  expect_values(fetch(VK_FORMAT_R16_UINT, {0xfe, 0xff}), 0xfffeu, 0, 0, 1);
  expect_values(fetch(VK_FORMAT_R32G32_SINT, {0x01, 0x00, 0x00, 0x80, 0x05, 0, 0, 0}), 0x80000001u, 5, 0, 1);
  expect_values(fetch(VK_FORMAT_R32G32B32A32_UINT, {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}), 1, 2, 3, 4);
}

TEST(VertexFetch, FloatFormats) {
  // 0x3c00 = 1.0, 0xc000 = -2.0, 0x7c00 = +inf, 0x0001 = 2^-24 (smallest subnormal).
  expect_values(fetch(VK_FORMAT_R16G16B16A16_SFLOAT, {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c, 0x01, 0x00}), kOneF,
                f(-2.0f), 0x7f800000u, f(0x1p-24f));
  expect_values(fetch(VK_FORMAT_R16_SFLOAT, {0x55, 0x35}), f(0.333251953125f), 0, 0, kOneF);
  const float xyz[3] = {1.5f, -0.0f, 3.25e-20f};
  std::vector<uint8_t> bytes(12);
  std::memcpy(bytes.data(), xyz, 12);
  expect_values(fetch(VK_FORMAT_R32G32B32_SFLOAT, bytes), f(1.5f), 0x80000000u, f(3.25e-20f), kOneF);
}

TEST(VertexFetch, BgraAndPackedComponentOrder) {
  // B8G8R8A8: memory B, G, R, A.
  expect_values(fetch(VK_FORMAT_B8G8R8A8_UNORM, {0, 51, 255, 102}), kOneF, f(51.0f / 255.0f), 0, f(102.0f / 255.0f));
  // A2B10G10R10: R bits 0..9 = 1023, G = 0, B bits 20..29 = 512, A bits 30..31 = 1.
  const uint32_t word = 1023u | (512u << 20) | (1u << 30);
  const std::vector<uint8_t> packed = {static_cast<uint8_t>(word), static_cast<uint8_t>(word >> 8),
                                       static_cast<uint8_t>(word >> 16), static_cast<uint8_t>(word >> 24)};
  expect_values(fetch(VK_FORMAT_A2B10G10R10_UNORM_PACK32, packed), kOneF, 0, f(512.0f / 1023.0f), f(1.0f / 3.0f));
  // The same word as A2R10G10B10: B is in bits 0..9.
  expect_values(fetch(VK_FORMAT_A2R10G10B10_UNORM_PACK32, packed), f(512.0f / 1023.0f), 0, kOneF, f(1.0f / 3.0f));
  // SNORM: R = 0x200 (-512) -> -1, B = 0x1ff (511) -> 1, A = 2 (-2) -> -1 (clamped), G = 0.
  const uint32_t snorm = 0x200u | (0x1ffu << 20) | (2u << 30);
  const std::vector<uint8_t> packed_snorm = {static_cast<uint8_t>(snorm), static_cast<uint8_t>(snorm >> 8),
                                             static_cast<uint8_t>(snorm >> 16), static_cast<uint8_t>(snorm >> 24)};
  expect_values(fetch(VK_FORMAT_A2B10G10R10_SNORM_PACK32, packed_snorm), f(-1.0f), 0, kOneF, f(-1.0f));
  expect_values(fetch(VK_FORMAT_A2B10G10R10_UINT_PACK32, packed), 1023, 0, 512, 1);
}

TEST(VertexFetch, ReadsUnalignedAttributes) {
  std::vector<uint8_t> buffer(9, 0);
  const float value = -7.5f;
  std::memcpy(buffer.data() + 1, &value, 4);
  uint32_t out[4];
  ASSERT_TRUE(fetch_vertex_attribute(VK_FORMAT_R32_SFLOAT, reinterpret_cast<const std::byte*>(buffer.data()) + 1, out));
  EXPECT_EQ(out[0], f(-7.5f));
  EXPECT_EQ(out[3], kOneF);
}

}  // namespace
}  // namespace tessera::pipeline
