// Out-of-line members of the front end / renderer contract (frame.h).
#include "tessera/frontend/frame.h"

#include <algorithm>

namespace tessera::frontend {

std::span<std::byte> Buffer::bytes() const {
  if (memory == nullptr || memory_offset >= memory->bytes.size()) return {};
  const uint64_t n = std::min<uint64_t>(size, memory->bytes.size() - memory_offset);
  return {memory->bytes.data() + memory_offset, static_cast<size_t>(n)};
}

namespace {
// Out-of-range subresources (an image whose contents are not held) read as empty.
std::vector<uint8_t>& empty_plane() {
  thread_local std::vector<uint8_t> empty;
  empty.clear();
  return empty;
}
}  // namespace

std::vector<uint8_t>& Image::subresource(Aspect aspect, uint32_t layer, uint32_t mip) {
  const size_t i =
      (static_cast<size_t>(aspect) * array_layers + layer) * mip_levels + mip;
  if (layer >= array_layers || mip >= mip_levels || i >= planes.size()) return empty_plane();
  return planes[i];
}

const std::vector<uint8_t>& Image::subresource(Aspect aspect, uint32_t layer,
                                               uint32_t mip) const {
  return const_cast<Image*>(this)->subresource(aspect, layer, mip);
}

namespace {

void count(std::vector<std::pair<std::string, uint64_t>>& counts, const std::string& reason, uint64_t n) {
  for (auto& [r, c] : counts) {
    if (r == reason) {
      c += n;
      return;
    }
  }
  counts.emplace_back(reason, n);
}

uint64_t sum(const std::vector<std::pair<std::string, uint64_t>>& counts) {
  uint64_t t = 0;
  for (const auto& r : counts) t += r.second;
  return t;
}

}  // namespace

void SkipCounts::add(const std::string& reason, uint64_t n) { count(reasons, reason, n); }

void SkipCounts::approximate(const std::string& reason, uint64_t n) { count(approximations, reason, n); }

void SkipCounts::merge(const SkipCounts& other) {
  for (const auto& [reason, n] : other.reasons) count(reasons, reason, n);
  for (const auto& [reason, n] : other.approximations) count(approximations, reason, n);
}

uint64_t SkipCounts::total() const { return sum(reasons); }

uint64_t SkipCounts::approximated() const { return sum(approximations); }

}  // namespace tessera::frontend
