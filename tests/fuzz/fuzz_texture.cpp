// libFuzzer target for the texture decoders a capture's image bytes go through: every format the
// texture unit supports (packed, float, integer, depth, BC1-BC7), decoded texel by texel and
// block by block, uploaded into a texture of the input's extent and sampled, gathered and fetched
// at the input's coordinates. Any bytes must decode to some colour, never a crash or a read past
// the block.
//
// Input: byte 0 picks the format among those supported, bytes 1-3 the extent, levels and
// layers, byte 4 the sampler, bytes 5-20 four sample coordinates; the rest is texel data.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/texture/format.h"
#include "tessera/texture/sampler.h"
#include "tessera/texture/texture.h"

using namespace tessera::texture;

namespace {

std::vector<VkFormat> supported_formats() {
  std::vector<VkFormat> out;
  FormatInfo info;
  // Core formats, then the extension ranges a capture may hold (VK_EXT_4444_formats,
  // VK_KHR_maintenance5's A1B5G5R5 and A8).
  for (uint32_t f = 1; f < 300; ++f)
    if (format_info(static_cast<VkFormat>(f), &info)) out.push_back(static_cast<VkFormat>(f));
  for (uint32_t f : {1000340000u, 1000340001u, 1000470000u, 1000470001u})
    if (format_info(static_cast<VkFormat>(f), &info)) out.push_back(static_cast<VkFormat>(f));
  return out;
}

float coord(const uint8_t* p) {
  int16_t v;
  std::memcpy(&v, p, 2);
  return static_cast<float>(v) / 4096.0f;  // about -8..8: wraps, clamps and borders all occur
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<VkFormat> formats = supported_formats();
  constexpr size_t kHeader = 21;
  if (size < kHeader || formats.empty()) return 0;
  const VkFormat format = formats[data[0] % formats.size()];
  FormatInfo info;
  if (!format_info(format, &info)) return 0;
  const uint8_t* payload = data + kHeader;
  const size_t payload_size = size - kHeader;

  // The decoders on the raw bytes, as many texels or blocks as the input holds.
  if (info.compressed) {
    Rgba texels[16];
    Rgba8 texels8[16];
    for (size_t at = 0; at + info.block_bytes <= payload_size; at += info.block_bytes) {
      decode_bc_block(info, payload + at, texels);
      if (info.block_bytes == 16) decode_bc7_block(payload + at, texels8);
    }
  } else if (info.texel_bytes != 0) {
    for (size_t at = 0; at + info.texel_bytes <= payload_size; at += info.texel_bytes)
      (void)decode_texel(info, payload + at);
  }

  // A texture of the input's shape, every level filled from the payload (repeated as needed).
  const uint32_t width = 1u + data[1] % 24u, height = 1u + data[2] % 24u;
  const uint32_t levels = 1u + (data[3] & 3u), layers = 1u + ((data[3] >> 2) & 1u);
  Texture tex;
  std::string error;
  if (!tex.create(format, width, height, levels, layers, 0x4000'0000, &error)) return 0;
  for (uint32_t layer = 0; layer < tex.layers(); ++layer) {
    for (uint32_t level = 0; level < tex.levels(); ++level) {
      std::vector<uint8_t> bytes(tex.level_linear_bytes(level));
      for (size_t i = 0; i < bytes.size() && payload_size != 0; ++i) bytes[i] = payload[i % payload_size];
      if (!tex.upload(level, layer, bytes.data(), bytes.size(), &error)) return 0;
    }
  }
  const uint32_t swizzle[4] = {data[4] % 7u, (data[4] >> 1) % 7u, (data[4] >> 2) % 7u, (data[4] >> 3) % 7u};
  tex.set_swizzle(swizzle);

  SamplerState sampler;
  const uint8_t mode = data[4];
  sampler.mag_filter = mode & 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.min_filter = mode & 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.mipmap_mode = mode & 4 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.address_u = static_cast<VkSamplerAddressMode>((mode >> 3) % 5);
  sampler.address_v = static_cast<VkSamplerAddressMode>((mode >> 5) % 5);
  sampler.anisotropy_enable = (mode & 0x80) != 0;
  sampler.max_anisotropy = 16.0f;
  sampler.compare_enable = info.depth && (mode & 0x40) != 0;
  sampler.compare_op = VK_COMPARE_OP_LESS;
  // Integer formats are only sampled with NEAREST (spec "Texel Filtering").
  if (info.integer) sampler.mag_filter = sampler.min_filter = VK_FILTER_NEAREST;

  for (int k = 0; k < 4; ++k) {
    const uint8_t* c = data + 5 + 4 * k;
    SampleRequest req;
    req.s = coord(c);
    req.t = coord(c + 2);
    req.layer = static_cast<uint32_t>(k) % tex.layers();
    req.derivatives.dsdx = std::abs(req.s) / 16.0f;
    req.derivatives.dtdy = std::abs(req.t) / 2.0f;
    req.derivatives.dtdx = req.derivatives.dsdy = 0.01f * static_cast<float>(k);
    req.has_dref = sampler.compare_enable;
    req.dref = 0.5f;
    req.offset_x = (c[0] & 7) - 4;
    req.offset_y = (c[1] & 7) - 4;
    Footprint fp;
    (void)sample(tex, sampler, req, &fp);
    (void)gather(tex, sampler, req, static_cast<uint32_t>(k), &fp);
    (void)fetch(tex, req.layer, static_cast<uint32_t>(k) % tex.levels(), static_cast<int32_t>(req.s * 8),
                static_cast<int32_t>(req.t * 8), &fp);
  }
  return 0;
}
