#include "tessera/pipeline/numeric.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tessera::pipeline {

float unorm_to_float(uint32_t c, uint32_t bits) {
  const uint32_t max = (1u << bits) - 1;
  // Both operands are exact in float (bits <= 24), so the single division is correctly rounded.
  return static_cast<float>(c & max) / static_cast<float>(max);
}

float snorm_to_float(uint32_t c, uint32_t bits) {
  const uint32_t field = c & ((1u << bits) - 1);
  const int32_t value = (field & (1u << (bits - 1))) ? static_cast<int32_t>(field) - (1 << bits)
                                                      : static_cast<int32_t>(field);
  const int32_t max = (1 << (bits - 1)) - 1;
  return std::max(static_cast<float>(value) / static_cast<float>(max), -1.0f);
}

uint32_t float_to_unorm(float f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  const double max = static_cast<double>((1u << bits) - 1);
  // In double, f * max is exact for every float f and bits <= 24: no double rounding.
  return static_cast<uint32_t>(std::lround(std::clamp(static_cast<double>(f), 0.0, 1.0) * max));
}

uint32_t float_to_snorm(float f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  const double max = static_cast<double>((1u << (bits - 1)) - 1);
  const long value = std::lround(std::clamp(static_cast<double>(f), -1.0, 1.0) * max);
  return static_cast<uint32_t>(value) & ((1u << bits) - 1);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t float_to_half(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t exponent = (bits >> 23) & 0xffu;
  const uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) {
    // Infinity stays infinity; NaN keeps its top payload bits and is forced quiet so that a
    // payload living only in the dropped low bits does not turn into infinity.
    if (mantissa == 0) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | 0x7e00u | (mantissa >> 13));
  }
  // Unbiased exponent; half normals have -14 <= e <= 15.
  const int32_t e = static_cast<int32_t>(exponent) - 127;
  if (e > 15) return static_cast<uint16_t>(sign | 0x7c00u);
  // Significand with its implicit bit (24 bits), shifted right by `shift` into the half field.
  // Normals keep 11 bits (shift 13); subnormals (e < -14) lose one more bit per step below -14.
  uint32_t significand = exponent == 0 ? mantissa : (mantissa | 0x800000u);
  uint32_t shift = 13;
  uint32_t half_exponent = 0;
  if (e >= -14) {
    half_exponent = static_cast<uint32_t>(e + 15);
    significand &= 0x7fffffu;  // the implicit bit is carried by the exponent field
  } else {
    const int32_t extra = -14 - e;
    if (extra > 11) return sign;  // below half the smallest subnormal: rounds to zero
    shift += static_cast<uint32_t>(extra);
  }
  uint32_t result = (half_exponent << 10) | (significand >> shift);
  const uint32_t remainder = significand & ((1u << shift) - 1);
  const uint32_t halfway = 1u << (shift - 1);
  // Round to nearest even. A carry out of the mantissa correctly bumps the exponent (and turns
  // 65520 and above into infinity, 0x7c00).
  if (remainder > halfway || (remainder == halfway && (result & 1u))) ++result;
  return static_cast<uint16_t>(sign | result);
}

float srgb_to_linear(float c) {
  if (c <= 0.04045f) return c / 12.92f;
  return static_cast<float>(std::pow((static_cast<double>(c) + 0.055) / 1.055, 2.4));
}

float linear_to_srgb(float linear) {
  if (linear <= 0.0031308f) return linear * 12.92f;
  return static_cast<float>(1.055 * std::pow(static_cast<double>(linear), 1.0 / 2.4) - 0.055);
}

}  // namespace tessera::pipeline
