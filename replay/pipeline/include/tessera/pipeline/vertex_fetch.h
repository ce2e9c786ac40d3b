// Vertex fetch: one vertex attribute from its bytes in a vertex buffer to the four 32-bit values
// the vertex shader's input variable receives. Vulkan spec "Vertex Input Extraction" (missing
// components filled with (0, 0, 0, 1)) and "Fixed-Point Data Conversions".
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::pipeline {

// Bytes one attribute of `vk_format` occupies in the buffer; 0 = not a vertex format this stage
// supports. Supported: the 8-bit families R8 .. R8G8B8A8, B8G8R8, B8G8R8A8 and A8B8G8R8_PACK32,
// the 16-bit families R16 .. R16G16B16A16, A2R10G10B10 / A2B10G10R10 (_PACK32), each in UNORM,
// SNORM, USCALED, SSCALED, UINT and SINT, SFLOAT for 16 and 32 bits, R32 .. R32G32B32A32 UINT /
// SINT / SFLOAT, and R5G6B5 / B5G6R5 UNORM_PACK16. sRGB formats are not vertex formats (they lack
// VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT on every driver we replay), so they return 0.
uint32_t vertex_format_bytes(uint32_t vk_format);

// Converts the attribute at `src` (vertex_format_bytes(vk_format) bytes, any alignment) to
// out[0..3] = R, G, B, A as bit patterns:
//   UNORM, SNORM      -> float bits, c / (2^b - 1) and max(c / (2^(b-1) - 1), -1)
//   USCALED, SSCALED  -> float bits of the integer value
//   SFLOAT            -> float bits (16-bit values widened exactly)
//   UINT              -> the unsigned value; SINT -> the value sign-extended to 32 bits
// Missing components are 0, 0 and 1, where 1 is 1.0f (0x3f800000) for the float-valued formats
// and the integer 1 for UINT / SINT. Returns false (out untouched) for an unsupported format.
bool fetch_vertex_attribute(uint32_t vk_format, const std::byte* src, uint32_t out[4]);

}  // namespace tessera::pipeline
