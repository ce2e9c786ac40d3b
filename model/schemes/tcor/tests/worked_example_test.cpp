// The worked example of paper 003 section III-C7 (Figs. 9 and 10): 3 primitives, 9 tiles, a
// fully associative cache with room for two primitives, OPT (TCOR's Attribute Cache) against
// LRU, state by state over the 3 writes of the Polygon List Builder and the 9 reads of the Tile
// Fetcher.
//
// What the text fixes:
//   - 3 primitives, 9 tiles, scanline order, each tile overlapped by exactly one primitive, so
//     3 writes then 9 reads; fully associative, room for two primitives; initially empty;
//   - the third write is the pink primitive, whose OPT Number is 3: it bypasses under OPT (3 is
//     greater than both cached OPT Numbers) and causes a write-back on eviction under LRU;
//   - tile 2 reads yellow: an L2 read and write under LRU (dirty pink evicted), a hit under OPT;
//     yellow is never read again;
//   - tile 3 reads pink: an L2 read and write under both; OPT evicts yellow, LRU keeps it;
//   - tile 4 reads blue: another L2 read under LRU only.
// What follows from it: LRU evicts yellow at the pink write (else yellow would not miss at tile
// 2), so yellow is written before blue: the writes are yellow, blue, pink. No L2 read occurs
// before tile 2, so tiles 0 and 1 read blue (pink's first tile is 3, yellow's only tile is 2).
// Our own choices (Fig. 9 itself is not in the text): tiles 5-8 are blue, pink, pink, blue
// (blue = tiles 0 1 4 5 8, a diagonal band; yellow = tile 2; pink = tiles 3 6 7); one attribute
// (one 64 B line) per primitive, so "room for two primitives" is two Primitive Buffer lines and
// two Attribute Buffer lines for TCOR and two lines for the LRU cache; each primitive is taken
// by the Rasterizer before the next read (locks never bind).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tcor/attribute_cache.h"
#include "tcor/lower_bound.h"
#include "tcor/tile_id_field.h"
#include "tessera/model/next_use.h"
#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::tcor {
namespace {

constexpr uint32_t kYellow = 0, kBlue = 1, kPink = 2;
const char* const kName[] = {"Y", "B", "P"};
const std::vector<std::vector<uint32_t>> kTiles = {{2}, {0, 1, 4, 5, 8}, {3, 6, 7}};
constexpr uint32_t kReadOrder[9] = {kBlue, kBlue, kYellow, kPink, kBlue, kBlue, kPink, kPink, kBlue};
uint64_t pid(uint32_t p) { return 0x5000'0000 + uint64_t{p} * 64; }

// The OPT Numbers of the example's 12 accesses (the model's, tessera/model/next_use.h): the three
// writes, then the nine reads in scanline order, encoded in the 12-bit field (4095 = never).
std::vector<uint32_t> example_opt_numbers() {
  std::vector<TileCacheAccess> seq;
  for (uint32_t p : {kYellow, kBlue, kPink}) seq.push_back({pid(p), kBinning});
  for (uint32_t tile = 0; tile < 9; ++tile) seq.push_back({pid(kReadOrder[tile]), tile});
  const TileIdField field(12);
  std::vector<uint32_t> encoded;
  for (uint64_t n : tile_opt_numbers(seq)) encoded.push_back(field.opt_number(next_tile(n)));
  return encoded;
}

// One of the twelve states of Fig. 10: the two lines, then the L2 traffic of that step.
struct Step {
  std::string lines;  // OPT: per way "name:OPT[*]" (N = never, * = dirty, - = empty); LRU: contents
  bool l2_read;
  bool l2_write;
};

std::string optState(const AttributeCache& c) {
  std::string s;
  for (uint32_t w = 0; w < 2; ++w) {
    const PrimitiveBufferLine& l = c.primitive_buffer().line(w);
    if (!s.empty()) s += ' ';
    if (!l.valid) {
      s += '-';
      continue;
    }
    for (uint32_t p = 0; p < 3; ++p)
      if (l.tag == pid(p) / 64) s += kName[p];
    s += ':' + (l.opt_number == 4095 ? std::string("N") : std::to_string(l.opt_number)) + (l.dirty ? "*" : "");
  }
  return s;
}

// Runs the example's three writes and nine reads through `cache` (each primitive taken by the
// Rasterizer before the next read), recording after each access the state `state` prints and
// whether it sent an L2 read or write.
template <class State>
std::vector<Step> run_example(AttributeCache& cache, State&& state) {
  const std::vector<uint32_t> numbers = example_opt_numbers();
  std::vector<Step> got;
  std::vector<PbTransfer> below;
  auto record = [&] {
    bool r = false, w = false;
    for (const PbTransfer& t : below) (t.write ? w : r) = true;
    got.push_back({state(cache), r, w});
    below.clear();
  };
  size_t access = 0;
  for (uint32_t p : {kYellow, kBlue, kPink}) {
    cache.write({pid(p), 1, numbers[access++], kTiles[p].back()}, below);
    record();
  }
  for (uint32_t tile = 0; tile < 9; ++tile) {
    const uint32_t p = kReadOrder[tile];
    const AttributeOutcome o = cache.read({pid(p), 1, numbers[access++], kTiles[p].back()}, below);
    EXPECT_NE(o.result, AttributeResult::Blocked);
    if (o.result == AttributeResult::Miss) cache.fill_serviced(pid(p));
    cache.rasterizer_read(o.abp);
    record();
  }
  return got;
}

void expect_steps(const std::vector<Step>& got, const std::vector<Step>& expect) {
  ASSERT_EQ(got.size(), expect.size());
  for (size_t i = 0; i < expect.size(); ++i) {
    EXPECT_EQ(got[i].lines, expect[i].lines) << "state " << i + 1;
    EXPECT_EQ(got[i].l2_read, expect[i].l2_read) << "state " << i + 1;
    EXPECT_EQ(got[i].l2_write, expect[i].l2_write) << "state " << i + 1;
  }
}

TEST(WorkedExample, OptAttributeCacheStateByState) {
  AttributeCache cache(AttributeCacheConfig{2 * 64, 64, 2, 1});
  const std::vector<Step> expect = {
      // Writes: yellow (first read at tile 2), blue (tile 0), pink (tile 3: bypass).
      {"Y:2* -", false, false},
      {"Y:2* B:0*", false, false},
      {"Y:2* B:0*", false, true},
      // Reads of tiles 0..8.
      {"Y:2* B:1*", false, false},
      {"Y:2* B:4*", false, false},
      {"Y:N* B:4*", false, false},  // tile 2: yellow hits (LRU misses here)
      {"P:6 B:4*", true, true},     // tile 3: pink misses, dead yellow written back
      {"P:6 B:5*", false, false},   // tile 4: blue hits (LRU misses here)
      {"P:6 B:8*", false, false},
      {"P:7 B:8*", false, false},
      {"P:N B:8*", false, false},
      {"P:N B:N*", false, false},
  };
  expect_steps(run_example(cache, optState), expect);
  const AttributeCacheCounters& k = cache.counters();
  EXPECT_EQ(k.read_misses, 1u);
  EXPECT_EQ(k.write_bypasses, 1u);
  EXPECT_EQ(k.fetches + k.writebacks + k.bypass_lines, 3u);  // 1 L2 read, 2 L2 writes
  // 3 compulsory writes + 1 read miss: OPT meets the section V-A lower bound, 3 + (3 - 2).
  EXPECT_EQ(k.writes + k.read_misses, miss_lower_bound(3, 2));
}

TEST(WorkedExample, LruCacheOfTheSameSize) {
  CacheConfig cfg;
  cfg.name = "example-lru";
  cfg.size_bytes = 2 * 64;
  cfg.ways = 2;  // one set: fully associative
  SetAssocCache<LruPolicy> cache(cfg);
  AccessInfo full_line;
  full_line.full_line = true;  // the Polygon List Builder writes whole attribute lines
  const std::vector<Step> expect = {
      {"Y", false, false},
      {"BY", false, false},
      {"BP", false, true},   // pink evicts the least recently used, dirty yellow
      {"BP", false, false},
      {"BP", false, false},
      {"BY", true, true},    // tile 2: yellow misses; dirty pink evicted
      {"PY", true, true},    // tile 3: pink misses; dirty blue evicted, yellow kept
      {"BP", true, false},   // tile 4: blue misses; clean yellow evicted
      {"BP", false, false},
      {"BP", false, false},
      {"BP", false, false},
      {"BP", false, false},
  };
  std::vector<Step> got;
  auto record = [&](const CacheOutcome& o) {
    std::string s;
    for (uint32_t p : {kBlue, kPink, kYellow})
      if (cache.contains(pid(p))) s += kName[p];
    got.push_back({s, o.fetch, o.writeback || o.forward_write});
  };
  for (uint32_t p : {kYellow, kBlue, kPink}) record(cache.access(pid(p), true, 0, full_line));
  for (uint32_t tile = 0; tile < 9; ++tile) record(cache.access(pid(kReadOrder[tile]), false, 0, AccessInfo{}));
  expect_steps(got, expect);
  // LRU's extra read misses are tiles 2 and 4: three against OPT's one.
  EXPECT_EQ(cache.counters().read_misses, 3u);
  EXPECT_EQ(cache.counters().fetches, 3u);
  EXPECT_EQ(cache.counters().writebacks, 3u);
}

// The same example through TCOR's structures with tcor.policy=lru (the primitive-granular LRU
// Attribute Cache Figs. 1 and 11-12 compare OPT with): one-attribute primitives make it the line
// cache above, so Fig. 10's LRU column comes out state by state, with its write-backs.
TEST(WorkedExample, LruAttributeCacheStateByState) {
  AttributeCache cache(AttributeCacheConfig{2 * 64, 64, 2, 1, AttributePolicy::Lru});
  const std::vector<Step> expect = {
      {"Y", false, false},   {"BY", false, false}, {"BP", false, true}, {"BP", false, false},
      {"BP", false, false},  {"BY", true, true},   {"PY", true, true},  {"BP", true, false},
      {"BP", false, false},  {"BP", false, false}, {"BP", false, false}, {"BP", false, false},
  };
  const auto contents = [](const AttributeCache& c) {
    std::string s;
    for (uint32_t p : {kBlue, kPink, kYellow})
      if (c.contains(pid(p))) s += kName[p];
    return s;
  };
  expect_steps(run_example(cache, contents), expect);
  const AttributeCacheCounters& k = cache.counters();
  EXPECT_EQ(k.read_misses, 3u);
  EXPECT_EQ(k.write_bypasses, 0u);
  EXPECT_EQ(k.fetches, 3u);
  EXPECT_EQ(k.writebacks, 3u);
}

}  // namespace
}  // namespace tessera::model::tcor
