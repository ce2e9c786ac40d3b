// OPT (Belady) replacement for structures whose stream supplies next-use information: the TCOR
// Attribute Cache (paper 003 section III) replaces "the line whose next access is the farthest
// away, out of the lines in the same set", using the OPT Number stored with each line and
// refreshed by every access that carries one.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"
#include "tessera/model/replacement/way_tree.h"

namespace tessera::model {

namespace opt {
// Per-set decision. next_use holds the OPT number of every (valid) way. Returns the way whose
// next use is farthest; with allow_bypass, returns kBypass when the incoming block's next use is
// not sooner than that farthest one (paper 003 section III-C4: equal OPT numbers bypass too).
// The policy passes allow_bypass only for writes: a read miss is never bypassed (III-C3).
inline uint32_t victim(std::span<const uint64_t> next_use, uint64_t incoming, bool allow_bypass) {
  uint32_t best = 0;
  for (uint32_t w = 1; w < next_use.size(); ++w) {
    if (next_use[w] > next_use[best]) best = w;
  }
  if (allow_bypass && incoming >= next_use[best]) return kBypass;
  return best;
}
}  // namespace opt

class OptPolicy {
 public:
  static constexpr std::string_view kName = "opt";

  OptPolicy(uint32_t sets, uint32_t ways, const PolicyOptions& options)
      : ways_(ways), allow_bypass_(options.allow_bypass),
        next_use_(static_cast<size_t>(sets) * ways, kNoNextUse) {
    if (ways > kTreeWays) tree_.reset(sets, ways);
  }

  void reset(uint32_t set, uint32_t way, const AccessInfo& info) { number(set, way, info.next_use); }
  void touch(uint32_t set, uint32_t way, const AccessInfo& info) { number(set, way, info.next_use); }
  void invalidate(uint32_t set, uint32_t way) { number(set, way, kNoNextUse); }
  uint32_t victim(uint32_t set, const AccessInfo& info) const {
    if (tree_.active()) {
      const uint32_t best = tree_.best(set);
      return allow_bypass_ && info.write && info.next_use >= next_use_[index(set, best)] ? kBypass : best;
    }
    return opt::victim(std::span<const uint64_t>(&next_use_[index(set, 0)], ways_), info.next_use,
                       allow_bypass_ && info.write);
  }

 private:
  struct Farther {
    bool operator()(uint64_t a, uint64_t b) const { return a > b; }
  };
  size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }
  void number(uint32_t set, uint32_t way, uint64_t value) {
    next_use_[index(set, way)] = value;
    if (tree_.active()) tree_.update(set, way, &next_use_[index(set, 0)]);
  }

  uint32_t ways_;
  bool allow_bypass_;
  std::vector<uint64_t> next_use_;  // OPT number per line, contiguous per set
  WayTree<Farther> tree_;           // wide sets only
};

}  // namespace tessera::model
