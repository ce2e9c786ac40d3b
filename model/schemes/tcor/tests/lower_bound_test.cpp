// The lower bound on Attribute Cache misses (paper 003 section V-A).
#include "tcor/lower_bound.h"

#include <gtest/gtest.h>

#include <vector>

#include "tcor/attribute_cache.h"
#include "tcor/tile_id_field.h"
#include "tessera/model/next_use.h"

namespace tessera::model::tcor {
namespace {

TEST(LowerBound, TheTextsExample) {
  // "if we have 1000 primitives and the Attribute Cache has a capacity for 128 primitives, there
  // will be at least 872 (1000-128) read misses", plus the 1000 compulsory writes.
  EXPECT_EQ(minimum_read_misses(1000, 128), 872u);
  EXPECT_EQ(miss_lower_bound(1000, 128), 1872u);
  // CP >= TP: only the compulsory writes.
  EXPECT_EQ(miss_lower_bound(1000, 1000), 1000u);
  EXPECT_EQ(miss_lower_bound(1000, 4096), 1000u);
  EXPECT_EQ(miss_lower_bound(0, 128), 0u);
}

TEST(LowerBound, CapacityInPrimitivesTakesTheSmallestFirst) {
  // 10 primitives of 1 attribute, 5 of 2, 3 of 3; 16 attribute lines: the ten 1s and three 2s.
  const std::vector<uint64_t> histogram = {0, 10, 5, 3};
  EXPECT_EQ(max_primitives_held(histogram, 16, 1000), 13u);
  EXPECT_EQ(max_primitives_held(histogram, 16, 11), 11u);   // Primitive Buffer lines bind first
  EXPECT_EQ(max_primitives_held(histogram, 1000, 1000), 18u);
  EXPECT_EQ(max_primitives_held(histogram, 0, 1000), 0u);
  // 48 KiB of 3-attribute primitives: 256 of them (the Primitive Buffer has 256 lines as well).
  const std::vector<uint64_t> threes = {0, 0, 0, 1000};
  EXPECT_EQ(miss_lower_bound(1000, max_primitives_held(threes, 768, 256)), 1000u + 744u);
}

// Fig. 11 like for like: a fully associative Attribute Cache, OPT (TCOR) against LRU at the
// primitive's granularity, each against the section V-A bound at the same capacity. The stream:
// kBackgrounds primitives read by every tile, then a band of kBand primitives, band p read by
// tiles p and p + 1 (so tiles 0 .. kBand); 3 attributes each, written in that order.
//   OPT keeps the backgrounds and the band primitives read first; once a band primitive has been
//   read in its second tile it is dead and makes room for the next. It meets the bound as soon as
//   one band primitive fits beside the backgrounds: capacity kBackgrounds + 1 primitives. With
//   kBackgrounds or fewer the band's first read must evict a background read again in the next
//   tile, and the misses cascade.
//   LRU allocates every write, so when binning ends it holds the last primitives written, and the
//   first tile's background reads evict one another: it meets the bound only when every primitive
//   fits (capacity TP).
TEST(LowerBound, Figure11FullyAssociativeOptReachesTheBoundBesideTheBackgrounds) {
  constexpr uint32_t kBackgrounds = 5, kBand = 20, kTp = kBackgrounds + kBand, kAttributes = 3;
  const auto pid = [](uint32_t p) { return 0x5000'0000 + uint64_t{p} * kAttributes * 64; };
  std::vector<TileCacheAccess> seq;
  for (uint32_t p = 0; p < kTp; ++p) seq.push_back({pid(p), kBinning});
  std::vector<uint32_t> reads;  // primitives in read order
  for (uint32_t tile = 0; tile <= kBand; ++tile) {
    for (uint32_t b = 0; b < kBackgrounds; ++b) reads.push_back(b);
    if (tile >= 1) reads.push_back(kBackgrounds + tile - 1);
    if (tile < kBand) reads.push_back(kBackgrounds + tile);
    for (size_t i = seq.size(); i < kTp + reads.size(); ++i) seq.push_back({pid(reads[i - kTp]), tile});
  }
  const TileIdField field(12);
  std::vector<uint32_t> numbers;
  for (uint64_t n : tile_opt_numbers(seq)) numbers.push_back(field.opt_number(next_tile(n)));

  const auto misses = [&](uint32_t capacity, AttributePolicy policy) {
    AttributeCache cache(AttributeCacheConfig{uint64_t{capacity} * kAttributes * 64, 64, 0, 0, policy});
    EXPECT_EQ(cache.primitive_buffer().sets(), 1u);
    EXPECT_EQ(cache.primitive_buffer().lines(), capacity);  // one line per three attribute lines
    std::vector<PbTransfer> below;
    for (uint32_t p = 0; p < kTp; ++p) cache.write({pid(p), kAttributes, numbers[p]}, below);
    for (size_t i = 0; i < reads.size(); ++i) {
      const AttributeOutcome o = cache.read({pid(reads[i]), kAttributes, numbers[kTp + i]}, below);
      EXPECT_NE(o.result, AttributeResult::Blocked);
      if (o.result == AttributeResult::Miss) cache.fill_serviced(pid(reads[i]));
      cache.rasterizer_read(o.abp);
    }
    return cache.counters().writes + cache.counters().read_misses;
  };
  const std::vector<uint64_t> histogram = {0, 0, 0, kTp};
  for (uint32_t capacity = 1; capacity <= kTp + 2; ++capacity) {
    SCOPED_TRACE(capacity);
    const uint64_t lb = miss_lower_bound(kTp, max_primitives_held(histogram, capacity * kAttributes, capacity));
    const uint64_t opt = misses(capacity, AttributePolicy::Opt), lru = misses(capacity, AttributePolicy::Lru);
    EXPECT_GE(opt, lb);
    EXPECT_GE(lru, opt);
    EXPECT_EQ(opt == lb, capacity >= kBackgrounds + 1);
    EXPECT_EQ(lru == lb, capacity >= kTp);
  }
}

}  // namespace
}  // namespace tessera::model::tcor
