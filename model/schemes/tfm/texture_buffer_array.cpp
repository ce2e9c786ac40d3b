#include "tfm/texture_buffer_array.h"

#include <span>
#include <stdexcept>
#include <string>

#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::tfm {

TbaReplacement tba_replacement(std::string_view name) {
  if (name == "lru") return TbaReplacement::Lru;
  if (name == "fifo") return TbaReplacement::Fifo;
  throw std::invalid_argument("TFM: unknown Texture Buffer Array replacement '" + std::string(name) + "' (lru, fifo)");
}

std::optional<uint32_t> TextureBufferArray::lookup(uint32_t set, uint64_t block) {
  auto& buffers = sets_.at(set);
  for (uint32_t b = 0; b < kBuffersPerSet; ++b) {
    if (buffers[b].tag == block + 1) {
      if (replacement_ == TbaReplacement::Lru) buffers[b].stamp = ++clock_;
      return b;
    }
  }
  return std::nullopt;
}

bool TextureBufferArray::holds(uint32_t set, uint64_t block) const {
  for (const Buffer& b : sets_.at(set)) {
    if (b.tag == block + 1) return true;
  }
  return false;
}

TbaFill TextureBufferArray::fill(uint32_t set, uint64_t block) {
  auto& buffers = sets_.at(set);
  TbaFill out;
  std::array<uint64_t, kBuffersPerSet> stamps;
  for (uint32_t b = 0; b < kBuffersPerSet; ++b) stamps[b] = buffers[b].tag ? buffers[b].stamp : 0;
  // Empty buffers carry stamp 0, so the oldest-stamp rule (model/replacement/lru) takes them first.
  out.buffer = lru::victim(std::span<const uint64_t>(stamps));
  if (buffers[out.buffer].tag != 0) {
    out.evicted = true;
    out.evicted_block = buffers[out.buffer].tag - 1;
  }
  buffers[out.buffer] = Buffer{block + 1, ++clock_, 0};
  return out;
}

void TextureBufferArray::clear() {
  sets_ = {};
  clock_ = 0;
}

}  // namespace tessera::model::tfm
