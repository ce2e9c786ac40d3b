// Replacement policy interface, in the spirit of gem5 replacement_policies/base.hh:
// a policy owns the per-line replacement state of every line of one cache (private to it) and
// answers five questions. The cache is a template on the policy, so the per-access calls are
// inlined (no virtual call in the hot path); policies are selected by name in policies.h.
//
//   Policy(uint32_t sets, uint32_t ways, const PolicyOptions&)   gem5 instantiateEntry, for all lines
//   void reset(set, way, const AccessInfo&)      a line was just filled
//   void touch(set, way, const AccessInfo&)      a line was hit
//   void invalidate(set, way)                    a line was invalidated or evicted
//   uint32_t victim(set, const AccessInfo&)      all ways valid: which one to replace, or kBypass
//                                               (only policies that know the future, and only if
//                                               PolicyOptions::allow_bypass)
//
// Per-set decisions live in free functions over a span of per-way state (lru::victim,
// opt::victim) with no simulator dependency, so they can be tested alone (ChampSim style).
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <string_view>

#include "tessera/model/access.h"

namespace tessera::model {

inline constexpr uint32_t kBypass = std::numeric_limits<uint32_t>::max();

struct PolicyOptions {
  // A policy that knows the future may decline to allocate an incoming written line whose next
  // use is not sooner than that of every resident line (TCOR paper 003 section III-C4: such
  // writes bypass the Attribute Cache and go to L2; read misses always allocate, III-C3).
  bool allow_bypass = false;
};

template <class P>
concept ReplacementPolicy =
    std::constructible_from<P, uint32_t, uint32_t, const PolicyOptions&> &&
    requires(P p, const P cp, uint32_t set, uint32_t way, const AccessInfo& info) {
      { P::kName } -> std::convertible_to<std::string_view>;
      p.reset(set, way, info);
      p.touch(set, way, info);
      p.invalidate(set, way);
      { cp.victim(set, info) } -> std::same_as<uint32_t>;
    };

}  // namespace tessera::model
