// The Attribute Cache of TCOR (paper 003 section III-C2 to III-C6, Figs. 7 and 8): caches the
// PB-Attributes section at the granularity of a primitive, with OPT replacement driven by the
// OPT Numbers the Polygon List Builder put in the PMDs. A Primitive Buffer (tags, OPT Numbers,
// locks) points into an Attribute Buffer of attribute lines (48 KiB: 768 lines of 64 B; 112 KiB
// in the 128 KiB Tile Cache configuration of section V-B).
//
// Reads (Tile Fetcher, section III-C3):
//   hit  - the primitive's first attribute is locked for the Rasterizer and the line takes the
//          request's OPT Number (the next tile that reads the primitive);
//   miss - never bypassed: a line of the set is taken (an invalid one, else the unlocked line
//          with the greatest OPT Number), more unlocked primitives are evicted by greatest OPT
//          Number until the Attribute Buffer has room for all the attributes, and one line read
//          per attribute goes to the L2. The line stays locked until fill_serviced(). When every
//          candidate is locked the read is refused (Blocked) with no state changed: the Tile
//          Fetcher stalls until the Rasterizer releases primitives or an outstanding fill
//          arrives (fill_serviced), then retries.
// Writes (Polygon List Builder, section III-C4): the request carries the first tile that will
// read the primitive. With no invalid line in the set, the unlocked line with the greatest OPT
// Number is evicted if that number is greater than the request's; otherwise (smaller or equal)
// the write bypasses to the L2. Writes fill whole lines (the Polygon List Builder writes every
// attribute), so an allocated write fetches nothing.
// Evictions (section III-C5): a dirty primitive writes each of its attribute lines to the L2.
//
// Choices the paper leaves open, made here:
//   - Room in the Attribute Buffer is made by evicting the unlocked primitives with the greatest
//     OPT Numbers in the whole cache (the Attribute Buffer is shared by every set), after the
//     set's own victim; for a write only primitives read later than the request qualify, and if
//     they do not free enough the write bypasses. The choice is planned first and applied only
//     when it succeeds, so a refused access leaves the cache unchanged.
//   - Equal OPT Numbers: the lowest line index goes first.
//   - Primitive Buffer geometry: ways = 4 (the Tile Cache associativity of Table I) and sets =
//     the largest power of two <= attribute lines / (3 x ways), i.e. one line per three
//     attribute lines, the paper's average primitive (section III-C1); 48 KiB: 64 sets x 4.
//     Fully associative (ways = 0; the Attribute Cache of Figs. 1 and 11): one set of attribute
//     lines / 3 lines, 256 at 48 KiB.
//   - LRU (policy Lru; the curve Figs. 1 and 11-12 compare OPT with, and the LRU column of Fig.
//     10): the same structures at the same primitive granularity, the least recently read or
//     written unlocked primitive evicted first; a write always allocates (no bypass: only OPT
//     knows the primitive is read later than every resident one) unless every candidate is
//     locked.
//   - A read hit on a line whose fill is outstanding reports fill_pending (the data arrives with
//     that fill, an MSHR merge).
//   - A render pass rebuilds the Parameter Buffer: at its start drop_all() empties the cache
//     without write-backs (every primitive of the previous pass is dead, as in section III-D).
//     Within a pass each primitive is written once (section III-C4), so a write that finds its
//     primitive present is refused as a malformed stream.
#pragma once

#include <cstdint>
#include <vector>

#include "tcor/attribute_buffer.h"
#include "tcor/pb_transfer.h"
#include "tcor/primitive_buffer.h"

namespace tessera::model::tcor {

enum class AttributePolicy : uint8_t { Opt, Lru };

struct AttributeCacheConfig {
  uint64_t size_bytes = 48 * 1024;  // the Attribute Buffer
  uint32_t line_bytes = 64;         // one attribute per line (Fig. 4)
  uint32_t ways = 4;                // Primitive Buffer associativity; 0: fully associative
  uint32_t sets = 0;                // Primitive Buffer sets; 0: derived (see above)
  AttributePolicy policy = AttributePolicy::Opt;

  // Throws std::invalid_argument naming the problem.
  void validate() const;
  uint32_t attribute_lines() const { return static_cast<uint32_t>(size_bytes / line_bytes); }
  uint32_t primitive_sets() const;
  uint32_t primitive_ways() const;
};

// One access: the fields of the PMD (section III-C3: "the ID of the primitive, the number of
// attributes of this primitive, and the OPT Number") plus the last-tile tag the attribute lines
// carry to the L2 (section III-D1).
struct PrimitiveRequest {
  uint64_t primitive_id = 0;  // address of the first attribute
  uint32_t attributes = 1;
  uint32_t opt_number = 0;    // encoded; for a write, the first tile that reads the primitive
  uint32_t last_tile = dead_line::kNeverDead;
};

enum class AttributeResult : uint8_t { Hit, Miss, Blocked, WriteAllocated, WriteBypassed };

struct AttributeOutcome {
  AttributeResult result = AttributeResult::Hit;
  uint32_t abp = AttributeBuffer::kNull;  // reads: what the Tile Fetcher queues for the Rasterizer
  bool fill_pending = false;              // a hit whose data is still on its way
  uint32_t evictions = 0;                 // primitives evicted by this access
};

struct AttributeCacheCounters {
  uint64_t accesses = 0;  // reads + writes (refused reads are not accesses: they are retried)
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t hits = 0;
  uint64_t read_misses = 0;
  uint64_t write_allocations = 0;
  uint64_t write_bypasses = 0;
  uint64_t evictions = 0;   // primitives
  uint64_t writebacks = 0;  // attribute lines written to the L2 by evictions
  uint64_t fetches = 0;     // attribute lines read from the L2
  uint64_t bypass_lines = 0;  // attribute lines written to the L2 by bypassed writes
  uint64_t blocked = 0;     // reads refused because every candidate was locked
  uint64_t dead_drops = 0;  // dirty primitives dropped by drop_all (no write-back)
};

class AttributeCache {
 public:
  // Throws std::invalid_argument for a geometry that cannot be built.
  explicit AttributeCache(const AttributeCacheConfig& config);

  // Lines to move to or from the L2 are appended to `below`.
  AttributeOutcome read(const PrimitiveRequest& request, std::vector<PbTransfer>& below);
  // Throws std::invalid_argument when the primitive is already cached (written twice in a pass).
  AttributeOutcome write(const PrimitiveRequest& request, std::vector<PbTransfer>& below);
  // Start of a render pass: every cached primitive is dead; dropped without write-back.
  void drop_all();
  // The L2 replies for a read miss have all arrived: the Primitive Buffer line is unlocked.
  void fill_serviced(uint64_t primitive_id);
  // The Rasterizer read the primitive's attributes through its ABP and unlocks them.
  void rasterizer_read(uint32_t abp) { attribute_buffer_.unlock(abp); }
  // The Attribute Buffer Pointer of a cached primitive (throws std::invalid_argument when absent).
  uint32_t abp_of(uint64_t primitive_id) const;
  // A new frame's counters (contents carry over).
  void clear_counters() { counters_ = AttributeCacheCounters{}; }

  bool contains(uint64_t primitive_id) const { return primitive_buffer_.find(primitive_id) != primitive_set::kNone; }
  // The OPT Number the cached primitive carries (throws std::invalid_argument when absent).
  uint32_t opt_number(uint64_t primitive_id) const;
  bool dirty(uint64_t primitive_id) const;

  const AttributeCacheConfig& config() const { return config_; }
  const AttributeCacheCounters& counters() const { return counters_; }
  const PrimitiveBuffer& primitive_buffer() const { return primitive_buffer_; }
  const AttributeBuffer& attribute_buffer() const { return attribute_buffer_; }

 private:
  void check_request(const PrimitiveRequest& request) const;
  bool evictable(const PrimitiveBufferLine& line) const {
    return !line.lock && !attribute_buffer_.locked(line.abp);
  }
  // Whether `a` is evicted before `b`: OPT, the farther next read; LRU, the older last access.
  bool evicted_before(const PrimitiveBufferLine& a, const PrimitiveBufferLine& b) const {
    return config_.policy == AttributePolicy::Lru ? a.last_use < b.last_use : a.opt_number > b.opt_number;
  }
  // Chooses the line for a new primitive of `attributes` attributes in `set` and the primitives to
  // evict (victims_); with `bounded`, only primitives whose OPT Number exceeds `bound`. Returns
  // the line index, or kNone when no such choice exists (nothing is changed).
  uint32_t plan_room(uint32_t set, uint32_t attributes, bool bounded, uint32_t bound);
  void evict(uint32_t index, std::vector<PbTransfer>& below);
  // Fills line `index` with the request's primitive and its Attribute Buffer entries; returns the ABP.
  uint32_t install(uint32_t index, const PrimitiveRequest& request, bool dirty, bool lock);
  void append_lines(const PrimitiveRequest& request, bool write, std::vector<PbTransfer>& below) const;
  uint32_t checked_find(uint64_t primitive_id) const;

  AttributeCacheConfig config_;
  PrimitiveBuffer primitive_buffer_;
  AttributeBuffer attribute_buffer_;
  AttributeCacheCounters counters_;
  std::vector<uint32_t> victims_;  // scratch of plan_room
  uint64_t clock_ = 0;             // accesses so far (LRU stamps)
};

}  // namespace tessera::model::tcor
