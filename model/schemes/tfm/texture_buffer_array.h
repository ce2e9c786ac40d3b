// The Texture Buffer Array with its two address-comparator groups (paper 004 section IV, Fig. 7):
// two sets of four block buffers, each buffer holding one 4x4-texel block (16 texel registers),
// each set with four block-address registers compared in parallel on a lookup. The TBA address
// is 7 bits: set (1), buffer (2), texel offset (4). Data is not modelled, only which blocks are
// held.
//
// Replacement [choice: the paper does not name it]: LRU within a set by default, FIFO selectable
// (tfm.replacement). LRU because a set holds the neighbourhood of the current footprint: a
// block just looked up is the most likely to be looked up by the next sample along the scanline
// (section III: consecutive pixels map to neighbouring texels), and with four entries LRU costs
// two bits per buffer. FIFO would evict the oldest-filled block even while it is still in use,
// for example the upper block of a footprint walking down a column of blocks. A lookup hit
// refreshes its block; a direct access reads the block the previous lookup refreshed, so it
// changes no order.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tessera::model::tfm {

enum class TbaReplacement : uint8_t { Lru, Fifo };
// "lru" or "fifo"; throws std::invalid_argument otherwise.
TbaReplacement tba_replacement(std::string_view name);

// A buffer of the array.
struct TbaSlot {
  uint8_t set = 0;
  uint8_t buffer = 0;
};

struct TbaFill {
  uint32_t buffer = 0;
  bool evicted = false;
  uint64_t evicted_block = 0;
};

class TextureBufferArray {
 public:
  static constexpr uint32_t kSets = 2;
  static constexpr uint32_t kBuffersPerSet = 4;
  static constexpr uint32_t kTexelsPerBuffer = 16;  // a 4x4 block
  static constexpr uint32_t kAddressBits = 7;       // 1 set + 2 buffer + 4 offset bits

  explicit TextureBufferArray(TbaReplacement replacement = TbaReplacement::Lru) : replacement_(replacement) {}

  // Compares `block` with the four block addresses of `set`: the buffer holding it, or nothing.
  // A hit refreshes the block under LRU.
  std::optional<uint32_t> lookup(uint32_t set, uint64_t block);
  // Moves `block` (not held in `set`) from L1 into a free buffer of `set`, else the victim's.
  TbaFill fill(uint32_t set, uint64_t block);
  bool holds(uint32_t set, uint64_t block) const;
  // The cycle the block in `buffer` of `set` is present: its L1 read may still be in flight when
  // a later quad looks it up (0 until set_ready, the fill's own sample waits for its L1 read).
  uint64_t ready(uint32_t set, uint32_t buffer) const { return sets_.at(set).at(buffer).ready; }
  void set_ready(uint32_t set, uint32_t buffer, uint64_t cycle) { sets_.at(set).at(buffer).ready = cycle; }
  // Drops every block (start of a frame).
  void clear();

  TbaReplacement replacement() const { return replacement_; }

 private:
  struct Buffer {
    uint64_t tag = 0;    // block + 1; 0 = empty
    uint64_t stamp = 0;  // LRU: last use; FIFO: fill time
    uint64_t ready = 0;  // cycle the block's L1 read completes
  };
  std::array<std::array<Buffer, kBuffersPerSet>, kSets> sets_{};
  uint64_t clock_ = 0;
  TbaReplacement replacement_;
};

}  // namespace tessera::model::tfm
