// The replacement policies selectable by name (ChampSim style: one folder per policy). Adding a
// policy = a folder with its header + one entry in CachePolicyVariant below.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"
#include "tessera/model/replacement/opt/opt.h"

namespace tessera::model {

using CachePolicyVariant = std::variant<SetAssocCache<LruPolicy>, SetAssocCache<OptPolicy>>;

// Names accepted for CacheConfig::policy, in variant order.
std::vector<std::string_view> replacementPolicyNames();

// A cache whose policy is chosen at run time by name. Each call dispatches once on the variant
// index (a jump, not a virtual call); hot loops that want none can visit() once and run the
// concrete SetAssocCache<P> inside.
class AnyCache {
 public:
  // Throws std::invalid_argument for an invalid configuration or an unknown policy name.
  explicit AnyCache(const CacheConfig& config);

  CacheOutcome access(uint64_t addr, bool write, uint32_t requester, const AccessInfo& info) {
    return std::visit([&](auto& c) { return c.access(addr, write, requester, info); }, cache_);
  }
  CacheOutcome prefetch(uint64_t addr, const AccessInfo& info) {
    return std::visit([&](auto& c) { return c.prefetch(addr, info); }, cache_);
  }
  bool contains(uint64_t addr) const {
    return std::visit([&](const auto& c) { return c.contains(addr); }, cache_);
  }
  bool invalidate(uint64_t addr) {
    return std::visit([&](auto& c) { return c.invalidate(addr); }, cache_);
  }
  uint64_t reserveBank(uint64_t addr, uint64_t now) {
    return std::visit([&](auto& c) { return c.reserveBank(addr, now); }, cache_);
  }
  const CacheCounters& counters() const {
    return std::visit([](const auto& c) -> const CacheCounters& { return c.counters(); }, cache_);
  }
  const CacheConfig& config() const {
    return std::visit([](const auto& c) -> const CacheConfig& { return c.config(); }, cache_);
  }
  template <class F>
  decltype(auto) visit(F&& f) { return std::visit(std::forward<F>(f), cache_); }

 private:
  static CachePolicyVariant make(const CacheConfig& config);
  CachePolicyVariant cache_;
};

}  // namespace tessera::model
