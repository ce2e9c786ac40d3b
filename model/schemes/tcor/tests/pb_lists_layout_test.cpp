// PB-Lists layouts: the baseline of Fig. 3 and the interleaved layout of Fig. 6 (paper 003).
#include "tcor/pb_lists_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "frame.h"
#include "tcor/primitive_list_cache.h"
#include "tessera/model/cache.h"

namespace tessera::model::tcor {
namespace {

constexpr uint64_t kBase = 0x4000'0000;

TEST(PbListsLayout, BaselineAddresses) {
  const PbListsLayout l(PbListsLayoutKind::Baseline, 1488);
  // Fig. 3: 16 PMDs of 4 B per line, 1024 PMDs (64 lines) per tile.
  EXPECT_EQ(l.pmd_address(0, 0), kBase);
  EXPECT_EQ(l.pmd_address(0, 15), kBase + 60);
  EXPECT_EQ(l.pmd_address(0, 16), kBase + 64);
  EXPECT_EQ(l.pmd_address(1, 0), kBase + 64 * 64);
  EXPECT_EQ(l.pmd_address(7, 1023), kBase + 7 * 4096 + 4092);
  // Past the 1024th PMD: the overflow area after the lists, one line per tile per section.
  EXPECT_EQ(l.pmd_address(7, 1024), kBase + 1488ull * 4096 + 7 * 64);
  EXPECT_EQ(l.pmd_address(7, 1040), kBase + 1488ull * 4096 + (1488 + 7) * 64);
  EXPECT_EQ(l.slot_of_line(kBase + 7 * 4096 + 4092), 7u);
  EXPECT_EQ(l.slot_of_line(kBase + 1488ull * 4096 + (1488 + 7) * 64), 7u);
}

TEST(PbListsLayout, InterleavedAddresses) {
  const PbListsLayout l(PbListsLayoutKind::Interleaved, 1488);
  // Fig. 6: section s holds line s of every list, one line per tile.
  EXPECT_EQ(l.pmd_address(0, 0), kBase);
  EXPECT_EQ(l.pmd_address(1, 0), kBase + 64);
  EXPECT_EQ(l.pmd_address(1, 15), kBase + 64 + 60);
  EXPECT_EQ(l.pmd_address(1, 16), kBase + (1488 + 1) * 64);
  EXPECT_EQ(l.pmd_address(1487, 5000), kBase + (312ull * 1488 + 1487) * 64 + 8 * 4);
  // The L2 recovers the tile with a subtraction and a modulo (section III-D1).
  EXPECT_EQ(l.slot_of_line(kBase + (312ull * 1488 + 1487) * 64), 1487u);
  EXPECT_THROW((void)l.pmd_address(1488, 0), std::out_of_range);
  EXPECT_THROW((void)l.slot_of_line(kBase - 64), std::out_of_range);
  EXPECT_EQ(parse_layout("interleaved"), PbListsLayoutKind::Interleaved);
  EXPECT_EQ(layout_name(PbListsLayoutKind::Baseline), "baseline");
  EXPECT_THROW(parse_layout("zigzag"), std::invalid_argument);
}

using Lists = std::vector<std::vector<uint32_t>>;

// Lines of every list of the frame, in list order.
std::vector<uint64_t> list_lines(const PbListsLayout& layout, const Lists& lists) {
  std::vector<uint64_t> lines;
  for (uint32_t pos = 0; pos < lists.size(); ++pos) {
    const auto count = static_cast<uint32_t>(lists[pos].size());
    for (uint32_t line = 0; line * 16 < count; ++line) lines.push_back(layout.line_address(pos, line));
  }
  return lines;
}

TEST(PbListsLayout, EveryLineMapsBackToItsTile) {
  const test::Frame f = test::constructed_frame(4000);
  const Lists lists = test::lists_by_position(f, test::z_order(f.tiles_x, f.tiles_y));
  for (PbListsLayoutKind kind : {PbListsLayoutKind::Baseline, PbListsLayoutKind::Interleaved}) {
    const PbListsLayout layout(kind, f.tiles());
    for (uint32_t pos = 0; pos < f.tiles(); ++pos)
      for (uint32_t line = 0; line * 16 < lists[pos].size(); ++line)
        ASSERT_EQ(layout.slot_of_line(layout.line_address(pos, line) + 17), pos);
  }
}

// Section III-B: the baseline maps the lists of consecutive tiles 64 lines apart, so their first
// lines crowd into a few sets of the Primitive List Cache (16 KiB, 4 ways, 64 sets); the
// interleaved layout spreads them evenly. Measured on the constructed mobile4 frame.
TEST(PbListsLayout, InterleavedLayoutSpreadsLinesOverTheSets) {
  const test::Frame f = test::constructed_frame(4000);
  const Lists lists = test::lists_by_position(f, test::z_order(f.tiles_x, f.tiles_y));
  uint32_t longest = 0;
  for (const auto& l : lists) longest = std::max<uint32_t>(longest, static_cast<uint32_t>((l.size() + 15) / 16));

  auto per_set = [&](PbListsLayoutKind kind) {
    std::vector<uint64_t> sets(64, 0);
    for (uint64_t addr : list_lines(PbListsLayout(kind, f.tiles()), lists)) ++sets[(addr / 64) % 64];
    return sets;
  };
  const std::vector<uint64_t> base = per_set(PbListsLayoutKind::Baseline);
  const std::vector<uint64_t> inter = per_set(PbListsLayoutKind::Interleaved);
  const uint64_t total = list_lines(PbListsLayout(PbListsLayoutKind::Baseline, f.tiles()), lists).size();
  ASSERT_EQ(f.tiles(), 1488u);
  ASSERT_GE(longest, 2u);  // some lists need a second line
  ASSERT_LT(longest, 64u);

  // Baseline: only sets 0 .. longest-1 are used, and set 0 holds the first line of every tile.
  EXPECT_EQ(base[0], 1488u);
  EXPECT_EQ(std::count_if(base.begin(), base.end(), [](uint64_t c) { return c > 0; }), longest);
  EXPECT_EQ(*std::min_element(base.begin(), base.end()), 0u);

  // Interleaved: every set used, the fullest within 1.31 of the emptiest. Section 0 (the first
  // line of all 1488 tiles, consecutive) gives every set 23 or 24 lines; the second lines of the
  // busier tiles come on top, where those tiles are.
  const auto [lo, hi] = std::minmax_element(inter.begin(), inter.end());
  std::printf("PB-Lists lines %llu over 64 sets: baseline min %llu max %llu, interleaved min %llu max %llu\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(base[longest]),
              static_cast<unsigned long long>(base[0]), static_cast<unsigned long long>(*lo),
              static_cast<unsigned long long>(*hi));
  EXPECT_EQ(*lo, 26u);
  EXPECT_EQ(*hi, 34u);
  EXPECT_EQ(total, 1897u);
}

// What the spread buys: the Polygon List Builder appends each primitive's PMD to the open line
// of every tile it overlaps, so the open lines of all tiles compete for the Primitive List Cache.
// In the baseline they compete for 4 ways of one set and lines are evicted between appends.
// The first PMD of a line begins it without a fetch (1897 lines: one miss each, the cache being
// cold); a PMD appended to a line evicted since then fetches it back, so every other miss
// fetches.
TEST(PbListsLayout, InterleavedLayoutKeepsOpenListLinesInTheCache) {
  const test::Frame f = test::constructed_frame(4000);
  const std::vector<uint32_t> order = test::z_order(f.tiles_x, f.tiles_y);
  std::vector<uint32_t> position(order.size());
  for (uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  struct Counts {
    uint64_t misses = 0, fetches = 0;
  };
  auto write_misses = [&](PbListsLayoutKind kind) {
    const PbListsLayout layout(kind, f.tiles());
    PrimitiveListCache plc(16 * 1024);
    std::vector<uint32_t> count(f.tiles(), 0);
    uint64_t appended_misses = 0;  // misses of PMDs that are not their line's first
    for (uint32_t p = 0; p < f.tiles_of.size(); ++p)
      for (uint32_t t : f.tiles_of[p]) {
        const uint32_t pos = position[t];
        const uint64_t addr = layout.pmd_address(pos, count[pos]++);
        const CacheOutcome o = plc.write_pmd(addr);
        appended_misses += !o.hit && addr % 64 != 0;
        EXPECT_EQ(o.fetch, !o.hit && addr % 64 != 0);
      }
    EXPECT_EQ(plc.counters().fetches, appended_misses);
    EXPECT_EQ(plc.counters().misses - plc.counters().fetches, 1897u);  // the first PMD of each line
    return Counts{plc.counters().misses, plc.counters().fetches};
  };
  uint64_t pmds = 0;
  for (const auto& t : f.tiles_of) pmds += t.size();
  const Counts base = write_misses(PbListsLayoutKind::Baseline);
  const Counts inter = write_misses(PbListsLayoutKind::Interleaved);
  std::printf("PMD writes %llu: Primitive List Cache misses (fetches) baseline %llu (%llu), interleaved %llu (%llu)\n",
              static_cast<unsigned long long>(pmds), static_cast<unsigned long long>(base.misses),
              static_cast<unsigned long long>(base.fetches), static_cast<unsigned long long>(inter.misses),
              static_cast<unsigned long long>(inter.fetches));
  EXPECT_EQ(pmds, 18214u);
  EXPECT_EQ(base.misses, 14809u);
  EXPECT_EQ(base.fetches, 12912u);
  EXPECT_EQ(inter.misses, 6931u);
  EXPECT_EQ(inter.fetches, 5034u);
}

// A PMD line begun without a fetch, evicted between two appends (written back partly filled),
// then appended to again: the append fetches the line back, so the Tile Fetcher's read finds
// every PMD. A 2-line Primitive List Cache (1 set of 2 ways).
TEST(PbListsLayout, AppendToAnEvictedLineFetchesIt) {
  PrimitiveListCache plc(128, 2);
  CacheOutcome o = plc.write_pmd(kBase);  // PMD 0 of line A: a fresh line
  EXPECT_FALSE(o.hit);
  EXPECT_FALSE(o.fetch);
  plc.write_pmd(kBase + 64);   // line B
  o = plc.write_pmd(kBase + 128);  // line C evicts A, dirty: written back with its one PMD
  EXPECT_TRUE(o.writeback);
  EXPECT_EQ(o.writeback_addr, kBase);
  o = plc.write_pmd(kBase + 4);  // PMD 1 of line A: the line is fetched, PMD 0 with it
  EXPECT_FALSE(o.hit);
  EXPECT_TRUE(o.fetch);
  EXPECT_TRUE(plc.read_line(kBase).hit);
  EXPECT_EQ(plc.counters().misses, 4u);
  EXPECT_EQ(plc.counters().fetches, 1u);
  EXPECT_EQ(plc.counters().writebacks, 2u);  // A, then B for A's return
}

}  // namespace
}  // namespace tessera::model::tcor
