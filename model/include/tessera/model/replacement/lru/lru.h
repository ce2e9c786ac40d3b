// Least recently used replacement.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"
#include "tessera/model/replacement/way_tree.h"

namespace tessera::model {

namespace lru {
// Per-set decision: the way with the oldest last-touch stamp (stamps are unique and non-zero
// for valid lines). Ties cannot occur among valid lines; the lowest way wins otherwise.
inline uint32_t victim(std::span<const uint64_t> stamps) {
  uint32_t best = 0;
  for (uint32_t w = 1; w < stamps.size(); ++w) {
    if (stamps[w] < stamps[best]) best = w;
  }
  return best;
}
}  // namespace lru

class LruPolicy {
 public:
  static constexpr std::string_view kName = "lru";

  LruPolicy(uint32_t sets, uint32_t ways, const PolicyOptions& /*options*/)
      : ways_(ways), stamps_(static_cast<size_t>(sets) * ways, 0) {
    if (ways > kTreeWays) tree_.reset(sets, ways);
  }

  // A fill at the LRU position (AccessInfo::insert_at_lru) takes a stamp below every stamp a
  // touch or normal fill has given, and below every earlier LRU insertion: the last line put at
  // the bottom of the stack is the first victim.
  void reset(uint32_t set, uint32_t way, const AccessInfo& info) {
    stamp(set, way, info.insert_at_lru ? --low_clock_ : ++clock_);
  }
  void touch(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { stamp(set, way, ++clock_); }
  void invalidate(uint32_t set, uint32_t way) { stamp(set, way, 0); }
  uint32_t victim(uint32_t set, const AccessInfo& /*info*/) const {
    if (tree_.active()) return tree_.best(set);
    return lru::victim(std::span<const uint64_t>(&stamps_[index(set, 0)], ways_));
  }

 private:
  struct Older {
    bool operator()(uint64_t a, uint64_t b) const { return a < b; }
  };
  size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }
  void stamp(uint32_t set, uint32_t way, uint64_t value) {
    stamps_[index(set, way)] = value;
    if (tree_.active()) tree_.update(set, way, &stamps_[index(set, 0)]);
  }

  uint32_t ways_;
  // Stamps of touches and normal fills count up from kMiddle, those of LRU insertions down from
  // it: unique and non-zero for 2^63 of each.
  static constexpr uint64_t kMiddle = uint64_t{1} << 63;
  uint64_t clock_ = kMiddle;
  uint64_t low_clock_ = kMiddle;
  std::vector<uint64_t> stamps_;  // last-touch time per line, contiguous per set
  WayTree<Older> tree_;           // wide sets only
};

}  // namespace tessera::model
