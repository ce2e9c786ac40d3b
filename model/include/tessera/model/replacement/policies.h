// The replacement policies selectable by name (ChampSim style: one folder per policy). Adding a
// policy = a folder with its header + one entry in CachePolicyVariant below and in
// replacement_policy_names() (src/cache.cpp).
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/dead_line/dead_line.h"
#include "tessera/model/replacement/drrip/drrip.h"
#include "tessera/model/replacement/lru/lru.h"
#include "tessera/model/replacement/mru/mru.h"
#include "tessera/model/replacement/opt/opt.h"

namespace tessera::model {

using CachePolicyVariant = std::variant<SetAssocCache<LruPolicy>, SetAssocCache<OptPolicy>, SetAssocCache<MruPolicy>,
                                        SetAssocCache<DrripPolicy>, SetAssocCache<DeadLinePolicy>>;

// Names accepted for CacheConfig::policy, in variant order.
std::vector<std::string_view> replacement_policy_names();

// A cache whose policy is chosen at run time by name. Each call dispatches once on the variant
// index (a jump, not a virtual call); hot loops that want none can visit() once and run the
// concrete SetAssocCache<P> inside.
class AnyCache {
 public:
  // Throws std::invalid_argument for an invalid configuration or an unknown policy name.
  explicit AnyCache(const CacheConfig& config);

  // Calls f with the concrete cache. An if-chain on the index (the policy never changes, so the
  // branch is always predicted) instead of std::visit's table: measurably cheaper per access.
  template <class F>
  decltype(auto) visit(F&& f) { return dispatch<0>(cache_, f); }
  template <class F>
  decltype(auto) visit(F&& f) const { return dispatch<0>(cache_, f); }

  // Implementation of visit (public only because visit's deduced return type needs it first).
  template <size_t I, class V, class F>
  static decltype(auto) dispatch(V& v, F& f) {
    if constexpr (I + 1 == std::variant_size_v<CachePolicyVariant>) {
      return f(*std::get_if<I>(&v));
    } else {
      if (v.index() == I) return f(*std::get_if<I>(&v));
      return dispatch<I + 1>(v, f);
    }
  }

  CacheOutcome access(uint64_t addr, bool write, uint32_t requester, const AccessInfo& info, uint64_t now = 0) {
    return visit([&](auto& c) { return c.access(addr, write, requester, info, now); });
  }
  CacheOutcome prefetch(uint64_t addr, const AccessInfo& info) {
    return visit([&](auto& c) { return c.prefetch(addr, info); });
  }
  CacheOutcome install(uint64_t addr, const AccessInfo& info) {
    return visit([&](auto& c) { return c.install(addr, info); });
  }
  void set_ready(const CacheOutcome& outcome, uint64_t ready) {
    visit([&](auto& c) { c.set_ready(outcome, ready); });
  }
  uint64_t reserve_mshr(uint64_t now) {
    return visit([&](auto& c) { return c.reserve_mshr(now); });
  }
  void commit_mshr(uint64_t ready) {
    visit([&](auto& c) { c.commit_mshr(ready); });
  }
  bool contains(uint64_t addr) const {
    return visit([&](const auto& c) { return c.contains(addr); });
  }
  bool probe(uint64_t addr, uint64_t* ready) const {
    return visit([&](const auto& c) { return c.probe(addr, ready); });
  }
  bool invalidate(uint64_t addr) {
    return visit([&](auto& c) { return c.invalidate(addr); });
  }
  uint64_t reserve_bank(uint64_t addr, uint64_t now) {
    return visit([&](auto& c) { return c.reserve_bank(addr, now); });
  }
  void clear_counters() {
    visit([](auto& c) { c.clear_counters(); });
  }
  const CacheCounters& counters() const {
    return visit([](const auto& c) -> const CacheCounters& { return c.counters(); });
  }
  const CacheConfig& config() const {
    return visit([](const auto& c) -> const CacheConfig& { return c.config(); });
  }
  // The Tile Fetcher's signals to the L2 (paper 003 section III-D1: "Every time the Tile Fetcher
  // finishes processing a tile, it sends a signal to the L2"; a render pass's binning starts a new
  // Parameter Buffer). The model sends them to its L2 whatever the policy; a policy that reads
  // the Tile Fetcher's progress (the dead-line L2) takes them, any other ignores them.
  void tile_finished() {
    visit([](auto& c) {
      if constexpr (requires { c.policy().tile_finished(); }) c.policy().tile_finished();
    });
  }
  void pass_begin() {
    visit([](auto& c) {
      if constexpr (requires { c.policy().pass_begin(); }) c.policy().pass_begin();
    });
  }
  // The policy when the cache's policy is P, else nullptr (tests that look inside a policy).
  template <class P>
  P* policy_as() {
    auto* c = std::get_if<SetAssocCache<P>>(&cache_);
    return c ? &c->policy() : nullptr;
  }
  template <class P>
  const P* policy_as() const {
    const auto* c = std::get_if<SetAssocCache<P>>(&cache_);
    return c ? &c->policy() : nullptr;
  }
  // The concrete cache when its type is C, else nullptr.
  template <class C>
  C* as() { return std::get_if<C>(&cache_); }
  template <class C>
  const C* as() const { return std::get_if<C>(&cache_); }

 private:
  static CachePolicyVariant make(const CacheConfig& config);
  CachePolicyVariant cache_;
};

}  // namespace tessera::model
