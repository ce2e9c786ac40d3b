#include "tessera/capture/hash.h"

#include <xxhash.h>

namespace tessera::capture {

std::string Hash128::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s(32, '0');
  for (size_t i = 0; i < 16; ++i) {
    s[i] = kDigits[(hi >> (60 - 4 * i)) & 0xf];
    s[16 + i] = kDigits[(lo >> (60 - 4 * i)) & 0xf];
  }
  return s;
}

Hash128 hash128(std::span<const std::byte> bytes) {
  const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  return Hash128{h.low64, h.high64};
}

uint64_t hash64(std::span<const std::byte> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

}  // namespace tessera::capture
