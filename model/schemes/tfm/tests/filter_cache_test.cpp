// The 512 B filter caches of paper 004 Fig. 8 (cases 3 and 4), built from the project's
// SetAssocCache: geometry, conflict behaviour, tag comparisons.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tfm/filter_cache.h"

namespace tessera::model::tfm {
namespace {

// One texel read of an RGBA8 block (one 64 B line) at cycle 0.
bool read(FilterCaches& f, uint32_t core, uint64_t line) {
  std::vector<FilterFill> fills;
  uint64_t ready = 0;
  return f.texel(core, line, 64, 0, &ready, fills);
}

std::string run(FilterCaches& f, std::initializer_list<uint64_t> lines) {
  std::string s;
  for (uint64_t l : lines) s += read(f, 0, l * 64) ? 'H' : 'M';
  return s;
}

TEST(FilterCache, Geometry) {
  FilterCaches dm(FilterKind::DirectMapped512, 2), fa(FilterKind::FullyAssociative512, 2);
  EXPECT_EQ(dm.cache(0).sets(), 8u);
  EXPECT_EQ(dm.cache(0).ways(), 1u);
  EXPECT_EQ(fa.cache(0).sets(), 1u);
  EXPECT_EQ(fa.cache(0).ways(), 8u);
}

TEST(FilterCache, ConflictsAndCapacity) {
  FilterCaches dm(FilterKind::DirectMapped512, 1), fa(FilterKind::FullyAssociative512, 1);
  // Lines 0 and 8 share a direct-mapped set.
  EXPECT_EQ(run(dm, {0, 8, 0, 8}), "MMMM");
  EXPECT_EQ(run(fa, {0, 8, 0, 8}), "MMHH");
  // Nine lines in a cycle: LRU over 8 entries thrashes; direct-mapped loses only the pair 0 / 8.
  FilterCaches dm9(FilterKind::DirectMapped512, 1), fa9(FilterKind::FullyAssociative512, 1);
  const auto cycle = {0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  std::string d, f;
  for (uint64_t l : cycle) {
    d += read(dm9, 0, l * 64) ? 'H' : 'M';
    f += read(fa9, 0, l * 64) ? 'H' : 'M';
  }
  EXPECT_EQ(d, "MMMMMMMMMMHHHHHHHM");
  EXPECT_EQ(f, std::string(18, 'M'));
  EXPECT_EQ(dm9.counters().tag_compares, 18u);
  EXPECT_EQ(fa9.counters().tag_compares, 18u * 8);
  EXPECT_EQ(dm9.counters().fills, 11u);
}

TEST(FilterCache, PerCore) {
  FilterCaches fa(FilterKind::FullyAssociative512, 2);
  EXPECT_FALSE(read(fa, 0, 64));
  EXPECT_FALSE(read(fa, 1, 64));  // each core has its own
  EXPECT_TRUE(read(fa, 0, 64));
  fa.reset(2);
  EXPECT_FALSE(read(fa, 0, 64));
  EXPECT_EQ(fa.counters().accesses, 4u);
}

}  // namespace
}  // namespace tessera::model::tfm
