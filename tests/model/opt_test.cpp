// OPT (Belady) replacement checked against an exhaustive search of the minimum number of misses
// on random small traces, with and without bypass; paper 003's OPT Numbers (next_use.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/next_use.h"
#include "tessera/model/replacement/lru/lru.h"
#include "tessera/model/replacement/mru/mru.h"
#include "tessera/model/replacement/opt/opt.h"

namespace tessera::model {
namespace {

TEST(OptHelper, FarthestNextUseAndBypass) {
  const std::vector<uint64_t> next{5, 12, kNoNextUse, 7};
  EXPECT_EQ(opt::victim(next, 3, false), 2u);
  EXPECT_EQ(opt::victim(next, 3, true), 2u);  // never-used-again line goes first
  const std::vector<uint64_t> live{5, 12, 9, 7};
  EXPECT_EQ(opt::victim(live, 3, true), 1u);
  EXPECT_EQ(opt::victim(live, 20, true), kBypass);  // incoming is used last: do not allocate
  EXPECT_EQ(opt::victim(live, 12, true), kBypass);  // equal OPT numbers bypass (paper 003 III-C4)
  EXPECT_EQ(opt::victim(live, 20, false), 1u);
}

// Belady's exact next use: result[i] = the next position with the same line as access i.
std::vector<uint64_t> next_use_positions(const std::vector<uint64_t>& addrs, uint32_t line_bytes) {
  std::vector<uint64_t> next(addrs.size(), kNoNextUse);
  std::map<uint64_t, uint64_t> seen;
  for (size_t i = addrs.size(); i-- > 0;) {
    const uint64_t line = addrs[i] / line_bytes;
    if (auto it = seen.find(line); it != seen.end()) next[i] = it->second;
    seen[line] = i;
  }
  return next;
}

// Paper 003 section III-A: an attribute write carries the first tile that reads its line; a read
// in tile k the next tile after k that reads it; a line nothing uses again carries "never". A PMD
// line appended again during binning carries that append's binning position, sooner than any tile.
TEST(TileOptNumbers, NextReadingTileOfEachAccess) {
  // Binning writes lines 1, 2, 1 (a PMD appended twice), 3; tiles 0..3 read 1 | 2, 1 | 3 | 1.
  const std::vector<TileCacheAccess> seq = {{1, kBinning}, {2, kBinning}, {1, kBinning}, {3, kBinning}, {1, 0},
                                            {2, 1},        {1, 1},        {3, 2},        {1, 3}};
  const uint64_t t = kFirstTile;
  const std::vector<uint64_t> expect = {2, t + 1, t + 0, t + 2, t + 1, kNoNextUse, t + 3, kNoNextUse, kNoNextUse};
  EXPECT_EQ(tile_opt_numbers(seq), expect);
  // The paper's OPT Numbers: tile positions (a next use during binning is before tile 0).
  EXPECT_EQ(next_tile(t + 3), 3u);
  EXPECT_EQ(next_tile(2), 0u);
  EXPECT_EQ(next_tile(kNoNextUse), kNoNextUse);
  // A line read twice in one tile (two primitives in one wide line) carries that tile itself.
  const std::vector<TileCacheAccess> twice = {{5, kBinning}, {5, 4}, {5, 4}, {5, 9}};
  EXPECT_EQ(tile_opt_numbers(twice), (std::vector<uint64_t>{t + 4, t + 4, t + 9, kNoNextUse}));
  EXPECT_TRUE(tile_opt_numbers({}).empty());
}

// Wide sets find their victim through a tournament tree (way_tree.h): the same way the scans of
// the per-set helpers choose, ties to the lower way, for OPT, LRU and MRU.
TEST(WayTree, WideSetsPickTheScansVictim) {
  constexpr uint32_t kSets = 2, kWays = 70;
  PolicyOptions bypass;
  bypass.allow_bypass = true;
  OptPolicy opt(kSets, kWays, bypass);
  LruPolicy lru(kSets, kWays, {});
  MruPolicy mru(kSets, kWays, {});
  std::vector<uint64_t> next(kSets * kWays, kNoNextUse), stamps(kSets * kWays, 0);
  uint64_t clock = 0;
  std::mt19937 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const uint32_t set = rng() % kSets, way = rng() % kWays;
    AccessInfo info;
    info.next_use = rng() % 50;  // many ties
    info.write = rng() % 2;
    const uint32_t op = rng() % 3;
    if (op == 2) {
      opt.invalidate(set, way);
      lru.invalidate(set, way);
      mru.invalidate(set, way);
    } else if (op == 1) {
      opt.touch(set, way, info);
      lru.touch(set, way, info);
      mru.touch(set, way, info);
    } else {
      opt.reset(set, way, info);
      lru.reset(set, way, info);
      mru.reset(set, way, info);
    }
    next[set * kWays + way] = op == 2 ? kNoNextUse : info.next_use;
    stamps[set * kWays + way] = op == 2 ? 0 : ++clock;
    const std::span<const uint64_t> n(&next[set * kWays], kWays), st(&stamps[set * kWays], kWays);
    ASSERT_EQ(opt.victim(set, info), opt::victim(n, info.next_use, info.write)) << "step " << i;
    ASSERT_EQ(lru.victim(set, info), lru::victim(st)) << "step " << i;
    ASSERT_EQ(mru.victim(set, info), mru::victim(st)) << "step " << i;
  }
}

// Section III-C3: a read miss is never bypassed, even when its line is used later than every
// resident one; a write in the same position bypasses (III-C4).
TEST(OptPolicy, OnlyWritesBypass) {
  CacheConfig c;
  c.size_bytes = 2 * 64;
  c.ways = 2;
  c.allow_bypass = true;
  SetAssocCache<OptPolicy> cache(c);
  AccessInfo soon, late;
  soon.next_use = 1;
  late.next_use = 9;
  late.full_line = true;
  cache.access(0, false, 0, soon);
  cache.access(64, false, 0, soon);
  const CacheOutcome w = cache.access(128, true, 0, late);
  EXPECT_FALSE(w.filled);
  EXPECT_TRUE(w.forward_write);
  const CacheOutcome r = cache.access(192, false, 0, late);
  EXPECT_TRUE(r.filled);
  EXPECT_TRUE(r.fetch);
  EXPECT_EQ(cache.counters().bypasses, 1u);
}

// Exhaustive minimum misses over every replacement choice (and, with bypass, the choice not to
// allocate), memoised on (position, cache contents).
class BruteForce {
 public:
  BruteForce(const std::vector<uint64_t>& lines, uint32_t sets, uint32_t ways, bool bypass)
      : lines_(lines), sets_(sets), ways_(ways), bypass_(bypass) {}

  uint64_t minMisses() { return solve(0, std::vector<std::vector<uint64_t>>(sets_)); }

 private:
  uint64_t solve(size_t i, std::vector<std::vector<uint64_t>> state) {
    if (i == lines_.size()) return 0;
    for (auto& s : state) std::sort(s.begin(), s.end());
    auto key = std::make_pair(i, state);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const uint64_t line = lines_[i];
    auto& set = state[line % sets_];
    uint64_t best;
    if (std::find(set.begin(), set.end(), line) != set.end()) {
      best = solve(i + 1, state);
    } else if (set.size() < ways_) {
      // Filling an empty way is never worse than bypassing.
      set.push_back(line);
      best = 1 + solve(i + 1, state);
    } else {
      best = UINT64_MAX;
      if (bypass_) best = 1 + solve(i + 1, state);
      for (size_t w = 0; w < set.size(); ++w) {
        auto next = state;
        next[line % sets_][w] = line;
        best = std::min(best, 1 + solve(i + 1, next));
      }
    }
    memo_[key] = best;
    return best;
  }

  std::vector<uint64_t> lines_;
  uint32_t sets_, ways_;
  bool bypass_;
  std::map<std::pair<size_t, std::vector<std::vector<uint64_t>>>, uint64_t> memo_;
};

template <class Policy>
uint64_t simulate(const std::vector<uint64_t>& lines, uint32_t sets, uint32_t ways, bool bypass) {
  CacheConfig c;
  c.size_bytes = uint64_t{sets} * ways * 64;
  c.ways = ways;
  c.allow_bypass = bypass;
  SetAssocCache<Policy> cache(c);
  std::vector<uint64_t> addrs;
  for (uint64_t l : lines) addrs.push_back(l * 64);
  const std::vector<uint64_t> next = next_use_positions(addrs, 64);
  for (size_t i = 0; i < addrs.size(); ++i) {
    AccessInfo info;
    info.next_use = next[i];
    // Only writes may bypass (a read miss always allocates): with bypass, whole-line writes.
    info.full_line = bypass;
    cache.access(addrs[i], bypass, 0, info);
  }
  EXPECT_EQ(cache.counters().hits + cache.counters().misses, lines.size());
  return cache.counters().misses;
}

struct Shape {
  uint32_t sets, ways, distinct, length;
  bool bypass;
};

class OptVsBruteForce : public ::testing::TestWithParam<Shape> {};

TEST_P(OptVsBruteForce, MatchesMinimumMisses) {
  const Shape s = GetParam();
  std::mt19937 rng(1234 + s.sets * 100 + s.ways * 10 + s.distinct + (s.bypass ? 7 : 0));
  std::uniform_int_distribution<uint64_t> pick(0, s.distinct - 1);
  uint64_t lru_worse = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<uint64_t> lines(s.length);
    for (auto& l : lines) l = pick(rng);
    const uint64_t best = BruteForce(lines, s.sets, s.ways, s.bypass).minMisses();
    const uint64_t opt_misses = simulate<OptPolicy>(lines, s.sets, s.ways, s.bypass);
    const uint64_t lru_misses = simulate<LruPolicy>(lines, s.sets, s.ways, false);
    ASSERT_EQ(opt_misses, best) << "trial " << trial;
    EXPECT_GE(lru_misses, opt_misses);
    lru_worse += lru_misses > opt_misses ? 1 : 0;
  }
  // The traces are not trivial: LRU loses on some of them.
  EXPECT_GT(lru_worse, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    RandomTraces, OptVsBruteForce,
    ::testing::Values(Shape{1, 2, 4, 14, false}, Shape{1, 3, 6, 14, false}, Shape{2, 2, 8, 16, false},
                      Shape{1, 2, 5, 14, true}, Shape{1, 3, 6, 14, true}, Shape{2, 2, 8, 16, true}));

}  // namespace
}  // namespace tessera::model
