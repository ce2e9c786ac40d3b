// Numeric conversions shared by vertex fetch and the colour/depth attachment formats: Vulkan spec
// "Fixed-Point Data Conversions", "16-Bit Floating-Point Numbers" and the sRGB transfer functions
// ("sRGB transfer functions", Khronos Data Format Specification section 13.3).
#pragma once

#include <cstdint>

namespace tessera::pipeline {

// "Conversion from Normalized Fixed-Point to Floating-Point": f = c / (2^b - 1) for UNORM;
// f = max(c / (2^(b-1) - 1), -1) for SNORM (so both -2^(b-1) and -2^(b-1)+1 give -1.0).
// `c` holds the b-bit field; snorm_to_float sign-extends it. 1 <= b <= 24 (exact in float).
float unorm_to_float(uint32_t c, uint32_t bits);
float snorm_to_float(uint32_t c, uint32_t bits);

// "Conversion from Floating-Point to Normalized Fixed-Point": clamp to [0, 1] ([-1, 1] for
// SNORM), scale by 2^b - 1 (2^(b-1) - 1) and round to nearest (halfway cases away from zero).
// NaN converts to 0. The SNORM result is the b-bit two's complement field.
uint32_t float_to_unorm(float f, uint32_t bits);
uint32_t float_to_snorm(float f, uint32_t bits);

// IEEE 754 binary16 <-> binary32. half_to_float is exact (subnormals, inf, NaN keep their
// meaning); float_to_half rounds to nearest even, overflows to infinity, keeps NaN a (quiet) NaN
// and produces half subnormals.
float half_to_float(uint16_t h);
uint16_t float_to_half(float f);

// sRGB EOTF (decode, non-linear -> linear) and OETF (encode, linear -> non-linear), on [0, 1]:
//   linear = c / 12.92 for c <= 0.04045, else ((c + 0.055) / 1.055)^2.4
//   c = 12.92 * linear for linear <= 0.0031308, else 1.055 * linear^(1/2.4) - 0.055
float srgb_to_linear(float c);
float linear_to_srgb(float linear);

}  // namespace tessera::pipeline
