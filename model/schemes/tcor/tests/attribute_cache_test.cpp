// The Attribute Cache of TCOR (paper 003 sections III-C2 to III-C6): Primitive Buffer, Attribute
// Buffer, reads, writes, evictions, locks.
#include "tcor/attribute_cache.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace tessera::model::tcor {
namespace {

constexpr uint64_t kAttr = 0x5000'0000;  // PB-Attributes Pointer

// Primitive IDs far enough apart never to share a line.
uint64_t id(uint32_t n) { return kAttr + uint64_t{n} * 16 * 64; }

AttributeCacheConfig fullyAssociative(uint32_t ways, uint32_t attribute_lines) {
  return AttributeCacheConfig{uint64_t{attribute_lines} * 64, 64, ways, 1};
}

PrimitiveRequest req(uint64_t primitive_id, uint32_t attributes, uint32_t opt, uint32_t last_tile = 7) {
  return {primitive_id, attributes, opt, last_tile};
}

struct T {
  uint64_t addr;
  bool write;
};
std::vector<T> strip(const std::vector<PbTransfer>& below) {
  std::vector<T> out;
  for (const PbTransfer& t : below) {
    EXPECT_EQ(t.section, PbSection::Attributes);
    out.push_back({t.addr, t.write});
  }
  return out;
}
bool operator==(const T& a, const T& b) { return a.addr == b.addr && a.write == b.write; }
std::ostream& operator<<(std::ostream& os, const T& t) { return os << (t.write ? "W" : "R") << std::hex << t.addr; }

TEST(PrimitiveBuffer, GeometryFollowsThePapersAveragePrimitive) {
  // One Primitive Buffer line per three attribute lines (section III-C1), 4 ways.
  EXPECT_EQ(AttributeCacheConfig{}.primitive_sets(), 64u);                 // 48 KiB: 768 lines
  EXPECT_EQ((AttributeCacheConfig{112 * 1024, 64, 4, 0}.primitive_sets()), 128u);  // 1792 lines
  const AttributeCache c{AttributeCacheConfig{}};
  EXPECT_EQ(c.primitive_buffer().lines(), 256u);
  EXPECT_EQ(c.attribute_buffer().entries(), 768u);
}

TEST(PrimitiveBuffer, XorIndexSpreadsAStrideThatModuloPutsInOneSet) {
  // 64 primitives 64 lines apart: line mod 64 is the same for all, the XOR fold gives each its
  // own set ([12], [36]: XOR placement removes such conflicts).
  const PrimitiveBuffer pb(64, 4, 64);
  std::set<uint32_t> sets;
  for (uint32_t k = 0; k < 64; ++k) {
    const uint64_t pid = kAttr + uint64_t{k} * 64 * 64;
    EXPECT_EQ((pid / 64) % 64, 0u);
    sets.insert(pb.set_of(pid));
  }
  EXPECT_EQ(sets.size(), 64u);
  EXPECT_EQ(pb.set_of(kAttr + 5 * 64), 5u);  // consecutive lines stay consecutive
}

TEST(AttributeBuffer, LinkedListsAndFreeList) {
  AttributeBuffer ab(5);
  const uint32_t a = ab.allocate(3);
  EXPECT_EQ(ab.length(a), 3u);
  EXPECT_EQ(ab.free_entries(), 2u);
  const uint32_t b = ab.allocate(2);
  EXPECT_EQ(ab.free_entries(), 0u);
  EXPECT_THROW(ab.allocate(1), std::logic_error);
  ab.release(a);
  EXPECT_EQ(ab.free_entries(), 3u);
  EXPECT_FALSE(ab.valid(a));
  const uint32_t c = ab.allocate(3);  // the released entries, relinked
  EXPECT_EQ(ab.length(c), 3u);
  EXPECT_EQ(ab.length(b), 2u);
  ab.lock(c);
  ab.lock(c);
  ab.unlock(c);
  EXPECT_TRUE(ab.locked(c));
  ab.unlock(c);
  EXPECT_FALSE(ab.locked(c));
  EXPECT_THROW(ab.unlock(c), std::logic_error);
}

// Section III-C3: a read miss takes a line and evicts unlocked primitives by greatest OPT Number
// until the Attribute Buffer holds all the new primitive's attributes; all-locked refuses.
TEST(AttributeCache, ReadMissEvictsFarthestPrimitivesUntilTheAttributesFit) {
  AttributeCache c(fullyAssociative(4, 4));
  std::vector<PbTransfer> below;
  const uint64_t A = id(1), B = id(2), C = id(3), D = id(4), E = id(5);
  EXPECT_EQ(c.write(req(A, 2, 5), below).result, AttributeResult::WriteAllocated);
  EXPECT_EQ(c.write(req(B, 1, 7), below).result, AttributeResult::WriteAllocated);
  EXPECT_EQ(c.write(req(C, 1, 3), below).result, AttributeResult::WriteAllocated);
  EXPECT_TRUE(below.empty());  // whole lines written: nothing fetched
  EXPECT_EQ(c.attribute_buffer().free_entries(), 0u);

  // D needs 3 lines: B (OPT 7) then A (OPT 5) go, both dirty; C (OPT 3) stays.
  AttributeOutcome o = c.read(req(D, 3, 1), below);
  EXPECT_EQ(o.result, AttributeResult::Miss);
  EXPECT_EQ(o.evictions, 2u);
  EXPECT_TRUE(o.fill_pending);
  EXPECT_EQ(strip(below), (std::vector<T>{{B, true}, {A, true}, {A + 64, true}, {D, false}, {D + 64, false},
                                          {D + 128, false}}));
  EXPECT_EQ(c.attribute_buffer().length(o.abp), 3u);
  EXPECT_TRUE(c.contains(C));
  EXPECT_FALSE(c.contains(A));
  EXPECT_FALSE(c.contains(B));
  const uint32_t d_abp = o.abp;

  // D is locked (its miss is outstanding): E cannot make room from C alone. Nothing changes.
  below.clear();
  o = c.read(req(E, 2, 2), below);
  EXPECT_EQ(o.result, AttributeResult::Blocked);
  EXPECT_TRUE(below.empty());
  EXPECT_TRUE(c.contains(C));
  EXPECT_EQ(c.counters().blocked, 1u);
  EXPECT_EQ(c.counters().accesses, 4u);

  // D served and consumed by the Rasterizer: E evicts C (OPT 3, dirty) then D (OPT 1, clean).
  c.fill_serviced(D);
  c.rasterizer_read(d_abp);
  o = c.read(req(E, 2, 2), below);
  EXPECT_EQ(o.result, AttributeResult::Miss);
  EXPECT_EQ(strip(below), (std::vector<T>{{C, true}, {E, false}, {E + 64, false}}));

  const AttributeCacheCounters& k = c.counters();
  EXPECT_EQ(k.accesses, 5u);
  EXPECT_EQ(k.reads, 2u);
  EXPECT_EQ(k.read_misses, 2u);
  EXPECT_EQ(k.hits, 0u);
  EXPECT_EQ(k.evictions, 4u);
  EXPECT_EQ(k.writebacks, 4u);
  EXPECT_EQ(k.fetches, 5u);
}

// Section III-C4: a write evicts the farthest line only when it is read after the new primitive;
// equal or smaller OPT Numbers bypass to the L2.
TEST(AttributeCache, WriteEvictsOnlyLinesReadLaterElseBypasses) {
  AttributeCache c(fullyAssociative(2, 2));
  std::vector<PbTransfer> below;
  const uint64_t A = id(1), B = id(2), C = id(3), D = id(4), E = id(5), F = id(6);
  c.write(req(A, 1, 5), below);
  c.write(req(B, 1, 3), below);
  EXPECT_EQ(c.write(req(C, 1, 4), below).result, AttributeResult::WriteAllocated);  // A (5 > 4) goes
  EXPECT_EQ(strip(below), (std::vector<T>{{A, true}}));
  below.clear();
  EXPECT_EQ(c.write(req(D, 1, 4, 11), below).result, AttributeResult::WriteBypassed);  // C has 4: equal
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0].addr, D);
  EXPECT_TRUE(below[0].write);
  EXPECT_EQ(below[0].last_tile, 11u);  // the L2 line is tagged with the primitive's last tile
  below.clear();
  EXPECT_EQ(c.write(req(E, 1, 9), below).result, AttributeResult::WriteBypassed);
  below.clear();
  // F has two attributes and is read first: C (4) and then B (3) make room.
  EXPECT_EQ(c.write(req(F, 2, 0), below).result, AttributeResult::WriteAllocated);
  EXPECT_EQ(strip(below), (std::vector<T>{{C, true}, {B, true}}));
  EXPECT_EQ(c.counters().write_bypasses, 2u);
  EXPECT_EQ(c.counters().bypass_lines, 2u);
  EXPECT_EQ(c.counters().write_allocations, 4u);
  EXPECT_TRUE(c.dirty(F));
}

// Section III-C3/5: a hit locks the primitive for the Rasterizer and takes the request's OPT
// Number; a locked line is never a victim, whatever its OPT Number.
TEST(AttributeCache, HitUpdatesOptNumberAndLockProtects) {
  AttributeCache c(fullyAssociative(2, 2));
  std::vector<PbTransfer> below;
  const uint64_t A = id(1), B = id(2), C = id(3);
  c.write(req(A, 1, 0), below);
  c.write(req(B, 1, 1), below);
  const AttributeOutcome hit = c.read(req(A, 1, 9), below);
  EXPECT_EQ(hit.result, AttributeResult::Hit);
  EXPECT_FALSE(hit.fill_pending);
  EXPECT_EQ(c.opt_number(A), 9u);
  // A (9) is farther than B (1) but queued for the Rasterizer: B goes.
  const AttributeOutcome miss = c.read(req(C, 1, 2), below);
  EXPECT_EQ(miss.result, AttributeResult::Miss);
  EXPECT_TRUE(c.contains(A));
  EXPECT_FALSE(c.contains(B));
  // Both locked now: a further miss waits.
  EXPECT_EQ(c.read(req(B, 1, 3), below).result, AttributeResult::Blocked);
  c.rasterizer_read(hit.abp);
  EXPECT_EQ(c.read(req(B, 1, 3), below).result, AttributeResult::Miss);  // A unlocked: evicted
  EXPECT_FALSE(c.contains(A));
}

TEST(AttributeCache, OutstandingMissAndRepeatedReads) {
  AttributeCache c(fullyAssociative(2, 4));
  std::vector<PbTransfer> below;
  const uint64_t X = id(1);
  const AttributeOutcome m = c.read(req(X, 2, 4), below);
  ASSERT_EQ(m.result, AttributeResult::Miss);
  const AttributeOutcome h = c.read(req(X, 2, 6), below);  // the next tile, fill still on its way
  EXPECT_EQ(h.result, AttributeResult::Hit);
  EXPECT_TRUE(h.fill_pending);
  EXPECT_EQ(h.abp, m.abp);
  c.fill_serviced(X);
  EXPECT_THROW(c.fill_serviced(X), std::logic_error);
  EXPECT_FALSE(c.read(req(X, 2, 8), below).fill_pending);
  // Three queued references, three Rasterizer reads; a fourth is a caller error.
  for (int i = 0; i < 3; ++i) c.rasterizer_read(m.abp);
  EXPECT_THROW(c.rasterizer_read(m.abp), std::logic_error);
  EXPECT_EQ(below.size(), 2u);  // the one fetch of two lines
}

TEST(AttributeCache, PassEndDropsDeadPrimitivesAndBadRequestsAreRefused) {
  AttributeCache c(fullyAssociative(2, 2));
  std::vector<PbTransfer> below;
  c.write(req(id(1), 1, 0), below);
  EXPECT_THROW(c.write(req(id(1), 1, 0), below), std::invalid_argument);  // written twice
  EXPECT_THROW(c.read(req(id(2), 3, 0), below), std::invalid_argument);   // 3 attributes > 2 lines
  EXPECT_THROW(c.read(req(id(2), 0, 0), below), std::invalid_argument);
  c.read(req(id(3), 1, 0), below);
  c.drop_all();
  EXPECT_EQ(c.counters().dead_drops, 1u);  // the dirty one; no write-back
  EXPECT_FALSE(c.contains(id(1)));
  EXPECT_EQ(c.attribute_buffer().free_entries(), 2u);
  EXPECT_THROW(AttributeCache(AttributeCacheConfig{100, 64, 4, 0}), std::invalid_argument);
  EXPECT_THROW(AttributeCache(AttributeCacheConfig{1024, 64, 4, 3}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::tcor
