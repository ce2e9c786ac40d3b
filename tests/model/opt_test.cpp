// OPT (Belady) replacement checked against an exhaustive search of the minimum number of misses
// on random small traces, with and without bypass.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/next_use.h"
#include "tessera/model/replacement/lru/lru.h"
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

TEST(NextUse, Positions) {
  const std::vector<uint64_t> addrs{0, 64, 10, 128, 70, 0};
  const std::vector<uint64_t> next = next_use_positions(addrs, 64);
  const std::vector<uint64_t> expect{2, 4, 5, kNoNextUse, kNoNextUse, kNoNextUse};
  EXPECT_EQ(next, expect);
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
    cache.access(addrs[i], false, 0, info);
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
