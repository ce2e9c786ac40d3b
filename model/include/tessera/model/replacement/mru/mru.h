// Most recently used replacement: evicts the line touched last. The sensitivity study of the TCOR
// paper (003 section V-A, Fig. 13) runs it beside LRU, DRRIP and OPT on the L1 Attribute Cache;
// MRU keeps the oldest lines, which suits scans longer than the cache and little else.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"
#include "tessera/model/replacement/way_tree.h"

namespace tessera::model {

namespace mru {
// Per-set decision: the way with the newest last-touch stamp (stamps are unique and non-zero for
// valid lines, the victim is only asked for when every way is valid).
inline uint32_t victim(std::span<const uint64_t> stamps) {
  uint32_t best = 0;
  for (uint32_t w = 1; w < stamps.size(); ++w) {
    if (stamps[w] > stamps[best]) best = w;
  }
  return best;
}
}  // namespace mru

class MruPolicy {
 public:
  static constexpr std::string_view kName = "mru";

  MruPolicy(uint32_t sets, uint32_t ways, const PolicyOptions& /*options*/)
      : ways_(ways), stamps_(static_cast<size_t>(sets) * ways, 0) {
    if (ways > kTreeWays) tree_.reset(sets, ways);
  }

  void reset(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { stamp(set, way, ++clock_); }
  void touch(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { stamp(set, way, ++clock_); }
  void invalidate(uint32_t set, uint32_t way) { stamp(set, way, 0); }
  uint32_t victim(uint32_t set, const AccessInfo& /*info*/) const {
    if (tree_.active()) return tree_.best(set);
    return mru::victim(std::span<const uint64_t>(&stamps_[index(set, 0)], ways_));
  }

 private:
  struct Newer {
    bool operator()(uint64_t a, uint64_t b) const { return a > b; }
  };
  size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }
  void stamp(uint32_t set, uint32_t way, uint64_t value) {
    stamps_[index(set, way)] = value;
    if (tree_.active()) tree_.update(set, way, &stamps_[index(set, 0)]);
  }

  uint32_t ways_;
  uint64_t clock_ = 0;
  std::vector<uint64_t> stamps_;  // last-touch time per line, contiguous per set
  WayTree<Newer> tree_;           // wide sets only
};

}  // namespace tessera::model
