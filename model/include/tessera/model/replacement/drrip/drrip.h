// Dynamic Re-Reference Interval Prediction (DRRIP), Jaleel, Theobald, Steely and Emer, "High
// performance cache replacement using re-reference interval prediction (RRIP)", ISCA 2010 — the
// state-of-the-art policy the TCOR paper (003 section V-A, Fig. 13) compares against OPT, LRU and
// MRU on the L1 Attribute Cache. Parameters, all as in the RRIP paper:
//   - M = 2-bit re-reference prediction value (RRPV) per line: 0 near ... 3 distant;
//   - SRRIP-HP: insert with RRPV 2 ("long"), a hit sets RRPV 0 (hit priority);
//   - BRRIP: insert with RRPV 3 ("distant"), and with RRPV 2 once every 32 insertions
//     (bimodal throttle epsilon = 1/32; a counter instead of a random draw, so runs are exact);
//   - victim: the first way (from way 0) with RRPV 3, after ageing every way of the set by the
//     amount that brings the largest RRPV to 3 (the same as the paper's "increment all and
//     search again" loop);
//   - set dueling (Qureshi et al., ISCA 2007): 32 leader sets per policy and a 10-bit saturating
//     PSEL; a miss in an SRRIP leader increments PSEL, a miss in a BRRIP leader decrements it;
//     follower sets use BRRIP while PSEL's most significant bit is set.
// Choices the RRIP paper leaves to us (its caches have 2048+ sets): with fewer than 128 sets the
// leaders per policy are sets / 4, so at most half the sets lead; below 4 sets (a fully
// associative cache) there are no leaders and every set runs SRRIP. Leaders are picked by
// complement select: the sets are cut into as many equal constituencies as there are leaders,
// constituency i leads SRRIP with its set (i mod S) and BRRIP with its set ((i + S/2) mod S),
// S = sets per constituency. PSEL starts at 511 (MSB clear: followers begin with SRRIP).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"

namespace tessera::model {

namespace rrip {
inline constexpr uint8_t kDistant = 3;  // 2^M - 1
inline constexpr uint8_t kLong = 2;     // 2^M - 2

// Per-set victim search: ages `rrpv` in place until some way predicts a distant re-reference and
// returns the first such way.
inline uint32_t victim(std::span<uint8_t> rrpv) {
  const uint8_t top = *std::max_element(rrpv.begin(), rrpv.end());
  const auto age = static_cast<uint8_t>(kDistant - top);
  uint32_t first = 0;
  for (uint32_t w = static_cast<uint32_t>(rrpv.size()); w-- > 0;) {
    rrpv[w] = static_cast<uint8_t>(rrpv[w] + age);
    if (rrpv[w] == kDistant) first = w;
  }
  return first;
}
}  // namespace rrip

namespace drrip {
inline constexpr uint32_t kLeadersPerPolicy = 32;
inline constexpr uint32_t kPselBits = 10;
inline constexpr uint32_t kPselMax = (1u << kPselBits) - 1;
inline constexpr uint32_t kPselInit = (1u << (kPselBits - 1)) - 1;
inline constexpr uint32_t kBrripLongEvery = 32;  // epsilon = 1/32

enum class SetRole : uint8_t { Follower, SrripLeader, BrripLeader };

// Role of `set` in a cache of `sets` sets (a power of two), by complement select (see above).
inline SetRole role(uint32_t set, uint32_t sets) {
  const uint32_t leaders = std::min(kLeadersPerPolicy, sets / 4);
  if (leaders == 0) return SetRole::Follower;
  const uint32_t span = sets / leaders;
  const uint32_t constituency = set / span, offset = set % span;
  if (offset == constituency % span) return SetRole::SrripLeader;
  if (offset == (constituency + span / 2) % span) return SetRole::BrripLeader;
  return SetRole::Follower;
}
}  // namespace drrip

class DrripPolicy {
 public:
  static constexpr std::string_view kName = "drrip";

  DrripPolicy(uint32_t sets, uint32_t ways, const PolicyOptions& /*options*/)
      : ways_(ways), rrpv_(static_cast<size_t>(sets) * ways, rrip::kDistant), roles_(sets) {
    for (uint32_t s = 0; s < sets; ++s) roles_[s] = drrip::role(s, sets);
  }

  // A fill is a miss: leader sets steer PSEL, then the set's policy picks the insertion RRPV.
  void reset(uint32_t set, uint32_t way, const AccessInfo& /*info*/) {
    const drrip::SetRole r = roles_[set];
    if (r == drrip::SetRole::SrripLeader && psel_ < drrip::kPselMax) ++psel_;
    if (r == drrip::SetRole::BrripLeader && psel_ > 0) --psel_;
    rrpv_[index(set, way)] = uses_brrip(set) ? brrip_insertion() : rrip::kLong;
  }
  void touch(uint32_t set, uint32_t way, const AccessInfo& /*info*/) { rrpv_[index(set, way)] = 0; }
  void invalidate(uint32_t set, uint32_t way) { rrpv_[index(set, way)] = rrip::kDistant; }
  // The victim search ages the set (as gem5's getVictim does through its replacement data): the
  // RRPVs are mutable so the interface's const victim() can run the paper's search unchanged.
  uint32_t victim(uint32_t set, const AccessInfo& /*info*/) const {
    return rrip::victim(std::span<uint8_t>(&rrpv_[index(set, 0)], ways_));
  }

  // Whether `set` inserts as BRRIP now (its leader role, else PSEL's most significant bit).
  bool uses_brrip(uint32_t set) const {
    if (roles_[set] != drrip::SetRole::Follower) return roles_[set] == drrip::SetRole::BrripLeader;
    return psel_ > drrip::kPselMax / 2;
  }
  uint32_t psel() const { return psel_; }
  drrip::SetRole role(uint32_t set) const { return roles_[set]; }
  uint8_t rrpv(uint32_t set, uint32_t way) const { return rrpv_[index(set, way)]; }

 private:
  size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }
  uint8_t brrip_insertion() {
    return ++brrip_fills_ % drrip::kBrripLongEvery == 0 ? rrip::kLong : rrip::kDistant;
  }

  uint32_t ways_;
  mutable std::vector<uint8_t> rrpv_;  // contiguous per set
  std::vector<drrip::SetRole> roles_;
  uint32_t psel_ = drrip::kPselInit;
  uint64_t brrip_fills_ = 0;
};

}  // namespace tessera::model
