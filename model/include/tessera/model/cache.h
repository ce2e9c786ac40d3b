// Generic set-associative cache: tags and dirty bits of a set are contiguous, the replacement
// policy is a template parameter (see replacement/policy.h), counters per cache and per
// requester. The cache decides hit/miss/fill/evict and keeps, per line, the cycle its data
// arrives (in-flight fills) and a bounded file of outstanding misses (MSHRs); what happens below
// it (fetch, write-back traffic, latency) is the caller's business, reported through
// CacheOutcome.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/model/access.h"
#include "tessera/model/line_table.h"
#include "tessera/model/replacement/policy.h"

#if defined(__GNUC__) || defined(__clang__)
#define TESSERA_NOINLINE __attribute__((noinline))
#else
#define TESSERA_NOINLINE
#endif

namespace tessera::model {

struct CacheConfig {
  std::string name = "cache";
  uint64_t size_bytes = 16 * 1024;
  uint32_t ways = 4;
  uint32_t line_bytes = 64;
  uint32_t hit_latency = 1;  // cycles
  uint32_t banks = 1;        // line-interleaved (bank = line mod banks); one access per bank per cycle
  uint32_t mshrs = 0;        // outstanding misses (line fills in flight); 0 = unbounded
  bool write_back = true;     // false: write-through (every write goes to the next level)
  bool write_allocate = true; // false: a write miss goes to the next level without allocating
  bool allow_bypass = false;  // policies that know the future may decline to allocate
  std::string policy = "lru"; // replacement policy name, see replacement/policies.h
  uint32_t requesters = 1;    // per-requester counters (cores, or sources of a shared level)
};

// Throws std::invalid_argument naming the cache and the problem.
void validate_cache_config(const CacheConfig& config);

struct RequesterCounters {
  uint64_t accesses = 0;
  uint64_t hits = 0;
  uint64_t misses = 0;
  RequesterCounters& operator+=(const RequesterCounters& o) {
    accesses += o.accesses;
    hits += o.hits;
    misses += o.misses;
    return *this;
  }
};

struct CacheCounters {
  uint64_t accesses = 0;   // demand accesses = hits + misses = reads + writes
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t hits = 0;            // the line was allocated (its data may still be in flight)
  uint64_t misses = 0;
  uint64_t read_misses = 0;
  uint64_t write_misses = 0;
  uint64_t fills = 0;           // lines allocated (demand misses, prefetches and installs)
  uint64_t fetches = 0;         // line reads sent to the next level
  uint64_t evictions = 0;       // valid lines replaced
  uint64_t writebacks = 0;      // dirty lines written to the next level
  uint64_t write_throughs = 0;  // writes passed to the next level (write-through, no-allocate, bypass)
  uint64_t bypasses = 0;        // misses the policy declined to allocate
  uint64_t prefetches = 0;      // prefetch requests (not demand accesses)
  uint64_t prefetch_fills = 0;  // prefetches that allocated a line
  // Demand hits on a line a prefetch allocated, the first since its fill (paper 002: a useful
  // prefetch), and those of them that waited for the prefetch's fill still in flight (late).
  uint64_t prefetch_hits = 0;
  uint64_t late_prefetch_hits = 0;
  // Lines a prefetch allocated that were evicted before any demand hit (the MTA prefetcher's early
  // evictions, schemes/prefetch-mta; not a frame metric of the model).
  uint64_t prefetch_evictions = 0;
  uint64_t invalidations = 0;
  uint64_t mshr_merges = 0;        // hits on a line whose fill was still in flight (they wait for it)
  uint64_t mshr_stall_cycles = 0;  // cycles misses waited for a free MSHR
  uint64_t dead_drops = 0;         // dirty victims dropped as dead instead of written back
  std::vector<RequesterCounters> per_requester;

  // Line transfers to the next level caused by this cache.
  uint64_t next_level_traffic() const { return fetches + writebacks + write_throughs; }
  // Adds every counter; per-requester counters are added index by index.
  CacheCounters& operator+=(const CacheCounters& o);
};

struct CacheOutcome {
  bool hit = false;
  bool fetch = false;          // read the line from the next level
  bool forward_write = false;  // pass this write to the next level
  bool writeback = false;      // write the dirty victim at writeback_addr to the next level
  uint64_t writeback_addr = 0;
  bool filled = false;         // a line was allocated for this address
  bool evicted = false;        // a valid line (dirty or not) at evicted_addr was replaced
  uint64_t evicted_addr = 0;
  // Hit: the cycle the line's data is present (after `now` for a hit under an in-flight fill).
  uint64_t ready = 0;
  // Allocated or hit line (tag-array index), for set_ready() once the caller knows the fill time.
  uint64_t slot = 0;
};

struct LineLocation {
  size_t base = 0;   // first way of the set in the tag array
  uint64_t tag = 0;  // line + 1
};

// Outstanding misses of one cache (Kroft's miss status holding registers): each entry holds the
// cycle its fill arrives (0 while never used). A miss may go below at once when some entry's fill
// has arrived by then; with every entry busy it waits for the earliest to retire. Either way it
// takes the entry that retired first, so both questions are about the earliest entry.
class MshrFile {
 public:
  explicit MshrFile(uint32_t entries) : ready_(entries, 0) {}
  // The cycle a miss arriving at `now` can be sent below (now, or when an entry frees).
  uint64_t reserve(uint64_t now) {
    if (ready_.empty()) return now;
    // A branch-free scan: register files are small (tens of entries) and which entry retires
    // first is unpredictable.
    uint64_t first = ready_[0];
    size_t earliest = 0;
    for (size_t i = 1; i < ready_.size(); ++i) {
      const uint64_t r = ready_[i];
      const bool earlier = r < first;
      first = earlier ? r : first;
      earliest = earlier ? i : earliest;
    }
    earliest_ = earliest;
    return std::max(now, first);
  }
  // The miss reserved last is in flight until `ready`.
  void commit(uint64_t ready) {
    if (!ready_.empty()) ready_[earliest_] = ready;
  }

 private:
  std::vector<uint64_t> ready_;  // per entry; empty = unbounded
  size_t earliest_ = 0;          // the entry reserve() chose
};

template <ReplacementPolicy Policy>
class SetAssocCache {
 public:
  explicit SetAssocCache(const CacheConfig& config)
      : config_(checked(config)),
        ways_(config.ways),
        sets_(static_cast<uint32_t>(config.size_bytes / (uint64_t{config.line_bytes} * config.ways))),
        line_shift_(static_cast<uint32_t>(std::countr_zero(config.line_bytes))),
        set_mask_(sets_ - 1),
        bank_mask_(config.banks - 1),
        policy_(sets_, ways_, PolicyOptions{config.allow_bypass}),
        tags_(static_cast<size_t>(sets_) * ways_, kInvalid),
        ready_(static_cast<size_t>(sets_) * ways_, 0),
        dirty_(static_cast<size_t>(sets_) * ways_, 0),
        prefetched_(static_cast<size_t>(sets_) * ways_, 0),
        bank_free_(config.banks, 0),
        mshrs_(config.mshrs),
        shared_(config.requesters > 1),
        indexed_(ways_ > kScanWays) {
    counters_.per_requester.resize(config.requesters);
    if (indexed_) {
      index_.reset(tags_.size());
      free_.resize(sets_);
      // Filled from the last way first, as the scan below does.
      for (auto& f : free_) {
        f.resize(ways_);
        for (uint32_t w = 0; w < ways_; ++w) f[w] = w;
      }
    }
  }

  // One demand access by `requester` (index into per-requester counters) at cycle `now`. A hit
  // on a line whose fill is still in flight (its ready time is after `now`) is a hit that waits:
  // outcome.ready says until when.
  CacheOutcome access(uint64_t addr, bool write, uint32_t requester, const AccessInfo& info, uint64_t now = 0) {
    const uint64_t line = addr >> line_shift_;
    const uint32_t set = static_cast<uint32_t>(line) & set_mask_;
    if (requester >= config_.requesters) throw_bad_requester(requester);
    // Only a cache shared by several requesters counts per requester as it goes; a private one's
    // single entry is its totals (counters()). Accesses and reads are derived there too.
    RequesterCounters* rc = shared_ ? &counters_.per_requester[requester] : nullptr;
    if (rc) ++rc->accesses;
    if (write) ++counters_.writes;

    const size_t base = static_cast<size_t>(set) * ways_;
    const uint64_t tag = line + 1;
    const uint32_t w = find_way(base, tag);
    if (w != kBypass) {
      CacheOutcome out;
      out.hit = true;
      out.slot = base + w;
      out.ready = hit(set, base, w, rc, info, now);
      if (write) {
        if (config_.write_back) {
          dirty_[base + w] = 1;
        } else {
          out.forward_write = true;
          ++counters_.write_throughs;
        }
      }
      return out;
    }

    return miss(set, base, tag, write, rc, info);
  }

  // The hit path alone, for the common case of a read hit: true (and the line's ready cycle) when
  // `addr` is present, with every effect access() has on a hit; false, with no effect at all,
  // when access() must handle it (a miss, or a write to a write-through cache).
  bool try_hit(uint64_t addr, bool write, uint32_t requester, const AccessInfo& info, uint64_t now, uint64_t* ready) {
    if (write && !config_.write_back) return false;
    const uint64_t line = addr >> line_shift_;
    const uint64_t tag = line + 1;
    const uint32_t set = static_cast<uint32_t>(line) & set_mask_;
    const size_t base = static_cast<size_t>(set) * ways_;
    const uint32_t w = find_way(base, tag);
    if (w == kBypass) return false;
    if (requester >= config_.requesters) throw_bad_requester(requester);
    RequesterCounters* rc = shared_ ? &counters_.per_requester[requester] : nullptr;
    if (rc) ++rc->accesses;
    *ready = hit(set, base, w, rc, info, now);
    if (write) {
      ++counters_.writes;
      dirty_[base + w] = 1;
    }
    return true;
  }

  // Insert a line without a demand access (prefetch into L1, paper 002). No-op on a present line.
  // The caller fetches the line from below when outcome.fetch is set.
  CacheOutcome prefetch(uint64_t addr, const AccessInfo& info) {
    ++counters_.prefetches;
    CacheOutcome out = install(addr, info);
    if (out.filled) {
      out.fetch = true;
      ++counters_.fetches;
      ++counters_.prefetch_fills;
      prefetched_[out.slot] = 1;
    }
    return out;
  }

  // Put a line in with its data present at once (ready 0), neither a demand access nor a
  // prefetch and with nothing fetched: a perfect cache holding whatever is asked of it (paper
  // 002 Fig. 3a). Counts the fill and any eviction. No-op on a present line (outcome.hit).
  CacheOutcome install(uint64_t addr, const AccessInfo& info) {
    const uint64_t line = addr >> line_shift_;
    const uint32_t set = static_cast<uint32_t>(line) & set_mask_;
    const size_t base = static_cast<size_t>(set) * ways_;
    CacheOutcome out;
    const uint32_t w = find_way(base, line + 1);
    if (w != kBypass) {
      out.hit = true;
      out.slot = base + w;
      out.ready = ready_[base + w];
      return out;
    }
    allocate(set, base, line + 1, info, out);
    return out;
  }

  // Whether `addr` is allocated, and then the cycle its data is (or will be) present, without
  // touching counters or replacement state (another core's cache probed by a prefetch, DAE).
  bool probe(uint64_t addr, uint64_t* ready) const {
    const uint64_t line = addr >> line_shift_;
    const size_t base = static_cast<size_t>(static_cast<uint32_t>(line) & set_mask_) * ways_;
    const uint32_t w = find_way(base, line + 1);
    if (w == kBypass) return false;
    *ready = ready_[base + w];
    return true;
  }

  // The data of the line allocated (or hit) by `outcome` arrives at `ready` (in-flight fill).
  void set_ready(const CacheOutcome& outcome, uint64_t ready) {
    if (outcome.filled || outcome.hit) ready_[outcome.slot] = ready;
  }

  // MSHRs: the cycle a miss at `now` may go below, counting the wait; then commit its fill time.
  uint64_t reserve_mshr(uint64_t now) {
    const uint64_t start = mshrs_.reserve(now);
    counters_.mshr_stall_cycles += start - now;
    return start;
  }
  void commit_mshr(uint64_t ready) { mshrs_.commit(ready); }

  // Where a line would live: for probing several caches of the same geometry.
  LineLocation locate(uint64_t addr) const {
    const uint64_t line = addr >> line_shift_;
    return {static_cast<size_t>(static_cast<uint32_t>(line) & set_mask_) * ways_, line + 1};
  }
  bool holds(const LineLocation& loc) const {
    const uint64_t* t = tags_.data() + loc.base;
    switch (ways_) {
      case 4: return any<4>(t, loc.tag);
      case 8: return any<8>(t, loc.tag);
      default: break;
    }
    return find_way(loc.base, loc.tag) != kBypass;
  }

  bool contains(uint64_t addr) const {
    const uint64_t line = addr >> line_shift_;
    const size_t base = static_cast<size_t>(static_cast<uint32_t>(line) & set_mask_) * ways_;
    return find_way(base, line + 1) != kBypass;
  }

  // Drop a line; returns true when it was dirty (the caller decides whether to write it back).
  bool invalidate(uint64_t addr) {
    const uint64_t line = addr >> line_shift_;
    const uint32_t set = static_cast<uint32_t>(line) & set_mask_;
    const size_t base = static_cast<size_t>(set) * ways_;
    const uint32_t way = find_way(base, line + 1);
    if (way == kBypass) return false;
    const bool was_dirty = dirty_[base + way] != 0;
    if (indexed_) {
      index_.erase(tags_[base + way]);
      free_[set].push_back(way);
    }
    tags_[base + way] = kInvalid;
    dirty_[base + way] = 0;
    ready_[base + way] = 0;
    prefetched_[base + way] = 0;
    policy_.invalidate(set, way);
    ++counters_.invalidations;
    return was_dirty;
  }

  // Drops every line without writing any back: their data is dead (a Parameter Buffer the next
  // render pass rebuilds, paper 003 section III-D). Dirty lines dropped count as dead_drops;
  // returns how many there were.
  uint64_t drop_all() {
    uint64_t dirty = 0;
    for (size_t i = 0; i < tags_.size(); ++i) {
      if (tags_[i] == kInvalid) continue;
      const auto set = static_cast<uint32_t>(i / ways_), way = static_cast<uint32_t>(i % ways_);
      dirty += dirty_[i];
      if (indexed_) {
        index_.erase(tags_[i]);
        free_[set].push_back(way);
      }
      tags_[i] = kInvalid;
      dirty_[i] = 0;
      ready_[i] = 0;
      policy_.invalidate(set, way);
      ++counters_.invalidations;
    }
    counters_.dead_drops += dirty;
    return dirty;
  }

  // Bank arbitration: the cycle at which an access to `addr` arriving at `now` can start; each
  // bank accepts one access per cycle (paper 000 Table I: L2 with 8 banks). Banks interleave
  // lines: with at least as many sets as banks the bank is the set index's low bits; a cache
  // with fewer sets (a fully associative one has a single set) still spreads consecutive lines.
  uint64_t reserve_bank(uint64_t addr, uint64_t now) {
    const uint32_t bank = static_cast<uint32_t>(addr >> line_shift_) & bank_mask_;
    const uint64_t start = std::max(now, bank_free_[bank]);
    bank_free_[bank] = start + 1;
    return start;
  }

  // Counters restart (a new frame of a run whose cache contents carry over); contents, in-flight
  // fills and bank state are kept.
  void clear_counters() {
    const size_t requesters = counters_.per_requester.size();
    counters_ = CacheCounters{};
    counters_.per_requester.resize(requesters);
  }

  const CacheConfig& config() const { return config_; }
  // The counters, with what is derived on reading: accesses and reads, and for a cache with one
  // requester its per-requester entry.
  const CacheCounters& counters() const {
    counters_.accesses = counters_.hits + counters_.misses;
    counters_.reads = counters_.accesses - counters_.writes;
    if (!shared_) counters_.per_requester[0] = {counters_.accesses, counters_.hits, counters_.misses};
    return counters_;
  }
  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  const Policy& policy() const { return policy_; }
  Policy& policy() { return policy_; }

 private:
  static constexpr uint64_t kInvalid = 0;  // tags store line + 1, so 0 marks an invalid way

  static const CacheConfig& checked(const CacheConfig& config) {
    validate_cache_config(config);
    return config;
  }

  // What a demand hit on way w does in every case; returns the cycle the line's data is present.
  uint64_t hit(uint32_t set, size_t base, uint32_t w, RequesterCounters* rc, const AccessInfo& info, uint64_t now) {
    ++counters_.hits;
    if (rc) ++rc->hits;
    const uint64_t ready = ready_[base + w];
    counters_.mshr_merges += ready > now;  // no branch: whether a fill is in flight is unpredictable
    // The first demand hit on a prefetched line: useful, and late when its fill is in flight.
    const uint64_t prefetched = prefetched_[base + w];
    counters_.prefetch_hits += prefetched;
    counters_.late_prefetch_hits += prefetched & static_cast<uint64_t>(ready > now);
    prefetched_[base + w] = 0;
    if (info.update_replacement) policy_.touch(set, w, info);
    return ready;
  }

  // The miss path, out of line so the hit path above stays small enough to inline.
  TESSERA_NOINLINE CacheOutcome miss(uint32_t set, size_t base, uint64_t tag, bool write, RequesterCounters* rc,
                                     const AccessInfo& info) {
    CacheOutcome out;
    ++counters_.misses;
    if (rc) ++rc->misses;
    if (write) ++counters_.write_misses; else ++counters_.read_misses;
    if (write && !config_.write_allocate) {
      out.forward_write = true;
      ++counters_.write_throughs;
      return out;
    }
    AccessInfo policy_info = info;
    policy_info.write = write;
    const uint32_t way = allocate(set, base, tag, policy_info, out);
    if (way == kBypass) {
      ++counters_.bypasses;
      if (write) {
        out.forward_write = true;
        ++counters_.write_throughs;
      } else {
        out.fetch = true;
        ++counters_.fetches;
      }
      return out;
    }
    if (!(write && info.full_line)) {
      out.fetch = true;
      ++counters_.fetches;
    }
    if (write) {
      if (config_.write_back) {
        dirty_[base + way] = 1;
      } else {
        out.forward_write = true;
        ++counters_.write_throughs;
      }
    }
    return out;
  }

  [[noreturn]] TESSERA_NOINLINE void throw_bad_requester(uint32_t requester) const {
    throw std::out_of_range("cache '" + config_.name + "': requester " + std::to_string(requester) + " of " +
                            std::to_string(config_.requesters));
  }

  // Scans every way without an early exit: which way matches is unpredictable, and a
  // mispredicted loop exit per access costs more than the few extra compares. The common
  // associativities get a fully unrolled scan.
  uint32_t find_way(size_t base, uint64_t tag) const {
    const uint64_t* t = tags_.data() + base;
    switch (ways_) {
      case 1: return scan<1>(t, tag);
      case 2: return scan<2>(t, tag);
      case 4: return scan<4>(t, tag);
      case 8: return scan<8>(t, tag);
      case 16: return scan<16>(t, tag);
      default: break;
    }
    if (indexed_) return find_indexed(base, tag);
    uint32_t found = kBypass;
    for (uint32_t w = 0; w < ways_; ++w) found = t[w] == tag ? w : found;
    return found;
  }
  // Out of line, so find_way stays small enough to inline into the hit path.
  TESSERA_NOINLINE uint32_t find_indexed(size_t base, uint64_t tag) const {
    const uint32_t* slot = index_.find(tag);
    return slot ? static_cast<uint32_t>(*slot - base) : kBypass;
  }
  template <uint32_t N>
  static bool any(const uint64_t* t, uint64_t tag) {
    bool found = false;
    for (uint32_t w = 0; w < N; ++w) found |= t[w] == tag;
    return found;
  }
  template <uint32_t N>
  static uint32_t scan(const uint64_t* t, uint64_t tag) {
    // A bit per matching way, then the highest one (a tag matches at most once; of several
    // invalid ways the last is taken): compares and a select, no branch per way.
    uint32_t match = 0;
    for (uint32_t w = 0; w < N; ++w) match |= static_cast<uint32_t>(t[w] == tag) << w;
    return match != 0 ? static_cast<uint32_t>(std::bit_width(match)) - 1 : kBypass;
  }

  // An invalid way of the set (the last one, as the scan finds it), or kBypass when the set is full.
  uint32_t free_way(uint32_t set, size_t base) {
    if (!indexed_) return find_way(base, kInvalid);
    std::vector<uint32_t>& f = free_[set];
    if (f.empty()) return kBypass;
    const uint32_t way = f.back();
    f.pop_back();
    return way;
  }

  // Choose a way for `tag` (an invalid one first, else the policy's victim), evicting and
  // reporting a dirty victim. Returns kBypass when the policy declines to allocate.
  uint32_t allocate(uint32_t set, size_t base, uint64_t tag, const AccessInfo& info, CacheOutcome& out) {
    uint32_t way = free_way(set, base);
    if (way == kBypass) {
      way = policy_.victim(set, info);
      if (way == kBypass) return kBypass;
      ++counters_.evictions;
      counters_.prefetch_evictions += prefetched_[base + way];
      out.evicted = true;
      out.evicted_addr = (tags_[base + way] - 1) << line_shift_;
      if (dirty_[base + way]) {
        // A policy that knows a line is dead (TCOR's L2, paper 003 section III-D) drops it
        // without writing it back: nobody reads it again.
        bool write_back = true;
        if constexpr (requires(const Policy& p) { p.writes_back(set, way, true); }) {
          write_back = policy_.writes_back(set, way, true);
        }
        if (write_back) {
          out.writeback = true;
          out.writeback_addr = out.evicted_addr;
          ++counters_.writebacks;
        } else {
          ++counters_.dead_drops;
        }
      }
      policy_.invalidate(set, way);
      if (indexed_) index_.erase(tags_[base + way]);
    }
    if (indexed_) index_.at(tag) = static_cast<uint32_t>(base + way);
    tags_[base + way] = tag;
    dirty_[base + way] = 0;
    ready_[base + way] = 0;
    prefetched_[base + way] = 0;
    policy_.reset(set, way, info);
    ++counters_.fills;
    out.filled = true;
    out.slot = base + way;
    return way;
  }

  CacheConfig config_;
  uint32_t ways_;
  uint32_t sets_;
  uint32_t line_shift_;
  uint32_t set_mask_;
  uint32_t bank_mask_;
  Policy policy_;
  std::vector<uint64_t> tags_;   // sets x ways, contiguous per set
  std::vector<uint64_t> ready_;  // sets x ways: cycle the line's data arrives (in-flight fills)
  std::vector<uint8_t> dirty_;   // sets x ways
  std::vector<uint8_t> prefetched_;  // sets x ways: allocated by a prefetch, no demand hit yet
  std::vector<uint64_t> bank_free_;
  MshrFile mshrs_;
  bool shared_;                    // several requesters: per-requester counters kept as it goes
  mutable CacheCounters counters_;  // accesses, reads and a private cache's requester derived on reading
  // Beyond kScanWays ways a tag is found through an index and a free way from a list per set
  // (fully associative caches of any size); below, scanning the set is cheaper.
  static constexpr uint32_t kScanWays = 32;
  bool indexed_;
  LineTable index_;  // tag -> tag-array index
  std::vector<std::vector<uint32_t>> free_;  // per set: invalid ways
};

}  // namespace tessera::model
