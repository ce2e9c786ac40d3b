// A map from a line number to a 32-bit value for the model's per-line bookkeeping (the L1s
// holding each texture line, paper 000 Fig. 1; where a tag lives in a cache too wide to scan,
// paper 003 Figs. 1 and 11): open addressing with linear probing and backward-shift deletion, load
// factor at most 1/2, so a lookup is one short probe run and nothing is allocated per entry.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::model {

class LineTable {
 public:
  // Room for `entries` lines at once (any line number but the all-ones one).
  explicit LineTable(size_t entries = 0) { reset(entries); }
  void reset(size_t entries) {
    size_t n = 16;
    while (n < 2 * entries) n *= 2;
    keys_.assign(n, 0);
    values_.assign(n, 0);
    mask_ = n - 1;
    shift_ = static_cast<uint32_t>(64 - std::countr_zero(n));
  }

  // The value of `line`, or nullptr when absent.
  uint32_t* find(uint64_t line) {
    for (size_t i = home(line);; i = (i + 1) & mask_) {
      if (keys_[i] == line + 1) return &values_[i];
      if (keys_[i] == 0) return nullptr;
    }
  }
  const uint32_t* find(uint64_t line) const { return const_cast<LineTable*>(this)->find(line); }
  // The value of `line`, inserted as 0 when absent.
  uint32_t& at(uint64_t line) {
    size_t i = home(line);
    while (keys_[i] != 0 && keys_[i] != line + 1) i = (i + 1) & mask_;
    if (keys_[i] == 0) {
      keys_[i] = line + 1;
      values_[i] = 0;
    }
    return values_[i];
  }
  void erase(uint64_t line) {
    size_t i = home(line);
    while (keys_[i] != line + 1) {
      if (keys_[i] == 0) return;
      i = (i + 1) & mask_;
    }
    // Backward shift: entry j may fill the hole when its home is not cyclically in (hole, j].
    size_t hole = i;
    for (size_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
      const size_t h = home(keys_[j] - 1);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      keys_[hole] = keys_[j];
      values_[hole] = values_[j];
      hole = j;
    }
    keys_[hole] = 0;
  }

 private:
  size_t home(uint64_t line) const { return static_cast<size_t>((line * 0x9E3779B97F4A7C15ull) >> shift_); }
  std::vector<uint64_t> keys_;  // line + 1; 0 = empty
  std::vector<uint32_t> values_;
  size_t mask_ = 0;
  uint32_t shift_ = 0;
};

}  // namespace tessera::model
