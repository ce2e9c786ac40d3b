// Content hashes and checksums used by the capture format (XXH3, the hash zstd's own frame
// checksum family comes from; libxxhash is the Debian package).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace tessera::capture {

// 128-bit content hash of a blob: large enough that accidental collisions across every
// texture of every capture are not a practical concern.
struct Hash128 {
  uint64_t lo = 0;
  uint64_t hi = 0;
  friend auto operator<=>(const Hash128&, const Hash128&) = default;
  bool is_zero() const { return lo == 0 && hi == 0; }
  std::string hex() const;  // 32 hex digits, hi first
};

Hash128 hash128(std::span<const std::byte> bytes);
uint64_t hash64(std::span<const std::byte> bytes);

}  // namespace tessera::capture

template <>
struct std::hash<tessera::capture::Hash128> {
  size_t operator()(const tessera::capture::Hash128& h) const noexcept {
    return static_cast<size_t>(h.lo ^ (h.hi * 0x9e3779b97f4a7c15ull));
  }
};
