// The best way of a set by a per-way key, for sets too wide to scan on every miss (a fully
// associative tile cache of 4096 lines, paper 003 Figs. 1 and 11): a tournament tree per set whose
// leaves are the ways and whose inner nodes hold the better of their two children, so a key
// change costs log2(ways) comparisons and the victim is the root. Ties go to the lower way, as the
// policies' scans choose (lru::victim, opt::victim). Policies keep their keys; the tree reads them.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace tessera::model {

// Better(a, b): key a is strictly better than key b (the victim is the best).
template <class Better>
class WayTree {
 public:
  static constexpr uint32_t kNoWay = 0xffffffffu;

  // keys: sets x ways, contiguous per set (the policy's array), all equal at first.
  void reset(uint32_t sets, uint32_t ways) {
    ways_ = ways;
    leaves_ = std::bit_ceil(ways);
    nodes_.assign(size_t{sets} * 2 * leaves_, kNoWay);
    for (uint32_t s = 0; s < sets; ++s) {
      uint32_t* n = node(s);
      for (uint32_t w = 0; w < ways; ++w) n[leaves_ + w] = w;
      // Equal keys: the lower way wins every match.
      for (uint32_t i = leaves_ - 1; i >= 1; --i) n[i] = n[2 * i] != kNoWay ? n[2 * i] : n[2 * i + 1];
    }
  }
  bool active() const { return !nodes_.empty(); }

  // The key of `way` changed (set_keys: the set's keys).
  void update(uint32_t set, uint32_t way, const uint64_t* set_keys) {
    uint32_t* n = node(set);
    for (uint32_t i = (leaves_ + way) >> 1; i >= 1; i >>= 1) {
      const uint32_t a = n[2 * i], b = n[2 * i + 1];
      n[i] = b != kNoWay && (a == kNoWay || Better{}(set_keys[b], set_keys[a])) ? b : a;
    }
  }
  uint32_t best(uint32_t set) const { return nodes_[size_t{set} * 2 * leaves_ + 1]; }

 private:
  uint32_t* node(uint32_t set) { return nodes_.data() + size_t{set} * 2 * leaves_; }

  uint32_t ways_ = 0, leaves_ = 0;
  std::vector<uint32_t> nodes_;  // per set: 2 x leaves_ entries, root at 1, leaves from leaves_
};

// Sets wider than this keep a tree; narrower ones are scanned (cheaper than the upkeep).
inline constexpr uint32_t kTreeWays = 32;

}  // namespace tessera::model
