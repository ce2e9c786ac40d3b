// The memory hierarchy of the baseline mobile tile-based GPU (papers 000, 001, 003): one private
// L1 texture cache per shader core, a vertex cache per vertex processor, a tile cache for the
// Parameter Buffer, a shared banked L2 and main memory. Every access returns its latency and
// the cycle the structure accepted it, so a timing model can schedule around both.
//
// In-flight fills: a miss allocates its line at once but records when the line's data arrives
// (from L2 or main memory); a later request to that line waits for the fill instead of hitting
// at hit latency (counted as `mshr_merges`). Each cache has a bounded file of outstanding misses
// (`<cache>.mshrs`); a miss that finds it full waits for the earliest fill, and so does its
// requester (MemResponse::accept_delay). Prefetched lines become usable at their fill time.
//
// Seams for the schemes:
//  - TextureOrganisation: replaces how a texture request is served above L2 (DTM-NUCA remote L1
//    access over a mesh, paper 000; a buffer in front of L1, TFM paper 004). The baseline
//    private-L1 path is built in and runs without any virtual call when no organisation is set.
//  - prefetch_texture(): fills an L1 from the tile queue without a demand access (DAE, paper 002).
//  - tile cache policy `opt` + MemRequest::next_use: TCOR OPT numbers (paper 003).
//  - AccessInfo::priority_class reaches the L2 policy: L2 dead-line priority classes (paper 003).
//  - access_below_l1(): the shared L2 + DRAM path, public, so new first-level structures reuse it.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "tessera/model/busy_calendar.h"
#include "tessera/model/dram.h"
#include "tessera/model/params.h"
#include "tessera/model/replacement/policies.h"

namespace tessera::model {

// The interconnect between the first-level caches (texture, vertex, tile) and the shared L2
// (paper 000 section IV-A: "each Fragment Processor can only access its private Texture Cache,
// which is connected by a common bus to the shared L2 cache"). Every L2 request crosses it: a
// request channel carries one address flit (and a write's data), a response channel carries a
// read's line back, width_bytes per flit and cycle, `latency` cycles per traversal. A bus has one
// pair of channels for every requester; a crossbar one pair per L2 bank (requests to different
// banks do not contend). Colour flushes and attachment loads do not cross it (paper 003 Fig. 2:
// the tile buffers reach main memory directly).
struct InterconnectConfig {
  enum class Topology : uint8_t { Bus, Crossbar };
  Topology topology = Topology::Bus;
  uint32_t width_bytes = 64;
  uint32_t latency = 1;
};

struct InterconnectCounters {
  uint64_t request_flits = 0;
  uint64_t response_flits = 0;
  uint64_t wait_cycles = 0;  // cycles requests and responses waited for a busy channel
  uint64_t flits() const { return request_flits + response_flits; }
};

struct HierarchyConfig {
  uint32_t shader_cores = 4;
  uint32_t vertex_processors = 1;
  CacheConfig l1tex;
  CacheConfig vertex;
  CacheConfig tile;
  CacheConfig l2;
  DramConfig dram;
  InterconnectConfig interconnect;
  bool track_replication = true;

  // From a parameter set (params.h). Throws ParamError naming the parameter group on an
  // inconsistent configuration (for example sets not a power of two).
  static HierarchyConfig from_params(const ParamSet& params);
};

// Which first-level structure a request goes to.
enum class Stream : uint8_t { Texture = 0, Vertex = 1, Tile = 2 };

// Where a request was finally served from.
enum class ServedBy : uint8_t { L1 = 0, Remote = 1, L2 = 2, Dram = 3 };

inline constexpr uint32_t kNoPrimitive = 0xffffffffu;

struct MemRequest {
  uint64_t addr = 0;
  uint64_t next_use = kNoNextUse;  // OPT number (only future-aware policies read it)
  uint16_t unit = 0;               // shader core (Texture) or vertex processor (Vertex)
  Stream stream = Stream::Texture;
  bool write = false;              // only the tile cache (Parameter Buffer) is written
  bool full_line = false;
  uint8_t priority_class = 0;      // passed to the L2 policy
  // Parameter Buffer requests (Stream::Tile), as the stream records them: the primitive
  // (kNoPrimitive for a PB-Lists line read), its section (0 PB-Lists, 1 PB-Attributes) and the
  // tile: for a read the reading tile's position in the processing order, for a write the tile
  // index (ty * tiles_x + tx) the binner listed it in.
  uint32_t primitive = kNoPrimitive;
  uint32_t tile = 0;
  uint8_t section = 0;
  // Texture requests (Stream::Texture), as the texture unit sends them: the warp (the thread slot
  // of the shader core holding the quad, 0 .. core.max_quads - 1), the texture instruction (`pc`:
  // the quad's draw << 16 | the instruction's index in the quad's shader; the stream records no
  // static program counter) and the request's place among the L1 requests of that instruction
  // (0: its first). Only a prefetcher that trains per warp and instruction reads them (MTA,
  // schemes/prefetch-mta).
  uint32_t warp = 0;
  uint32_t access_line = 0;
  uint64_t pc = 0;
};

struct MemResponse {
  uint32_t latency = 0;       // cycles from issue to data
  ServedBy served_by = ServedBy::L1;
  // Cycles from issue until the first structure took the request (a busy bank, a full MSHR
  // file): the requester cannot send its next request before then.
  uint32_t accept_delay = 0;
  // Tile-cache organisations only (TileCacheOrganisation):
  // the request's primitive was served whole -- its other attribute lines need no request of
  // their own (TCOR's Attribute Cache works per primitive, paper 003 section III-C3);
  bool primitive_served = false;
  // the structure cannot take the request now (every line it could use is locked, section
  // III-C5): nothing changed, and the requester retries once the Rasterizer has taken a primitive
  // or, when retry_after is not 0, that many cycles after issue (a line's outstanding fill
  // arrives and unlocks it).
  bool refused = false;
  uint32_t retry_after = 0;
};

class MemoryHierarchy;

// How many private L1 texture caches hold each line, kept up to date on every L1 fill and
// eviction, so the replication degree of a serviced block (paper 000 Fig. 1) costs one lookup
// instead of a probe of every L1 (32 of them in mobile32); a line leaves the table when its last
// holder evicts it.
class LineHolders {
 public:
  explicit LineHolders(size_t max_lines) : table_(max_lines) {}
  uint32_t get(uint64_t line) const {
    const uint32_t* n = table_.find(line);
    return n ? *n : 0;
  }
  uint32_t increment(uint64_t line) { return ++table_.at(line); }  // returns the new count
  void decrement(uint64_t line) {
    uint32_t* n = table_.find(line);
    if (n && --*n == 0) table_.erase(line);  // absent: not tracked (cannot happen while every fill is counted)
  }

 private:
  LineTable table_;
};

// A replacement for the baseline texture path above L2 (see the seams above).
class TextureOrganisation {
 public:
  virtual ~TextureOrganisation() = default;
  virtual MemResponse access(MemoryHierarchy& hierarchy, const MemRequest& request, uint64_t now) = 0;
};

// A replacement for the unified tile cache (the Parameter Buffer's first level): TCOR's Primitive
// List Cache and Attribute Cache (paper 003 section III-C). It serves every Stream::Tile request
// and reaches L2 through access_below_l1(l2_requester_tile(), ...).
class TileCacheOrganisation {
 public:
  virtual ~TileCacheOrganisation() = default;
  virtual MemResponse access(MemoryHierarchy& hierarchy, const MemRequest& request, uint64_t now) = 0;
  // The Rasterizer took from the Tile Fetcher's queue a primitive the fetcher read at tile
  // position `tile` (section III-C3, "Rasterizer Read": its attributes may be unlocked).
  virtual void rasterizer_read(MemoryHierarchy& /*hierarchy*/, uint32_t /*primitive*/, uint32_t /*tile*/,
                               uint64_t /*now*/) {}
};

class MemoryHierarchy {
 public:
  // Throws std::invalid_argument on an invalid configuration.
  explicit MemoryHierarchy(const HierarchyConfig& config);
  ~MemoryHierarchy();
  MemoryHierarchy(const MemoryHierarchy&) = delete;
  MemoryHierarchy& operator=(const MemoryHierarchy&) = delete;

  // One request issued at cycle `now`.
  MemResponse access(const MemRequest& request, uint64_t now) {
    if (request.stream == Stream::Texture) return access_texture(request, now);
    return access_other(request, now);
  }

  // Baseline texture path: private L1 of request.unit, then L2 and DRAM.
  MemResponse access_private_l1(const MemRequest& request, uint64_t now) {
    return l1tex_[checked_core(request.unit)].visit(
        [&](auto& l1) { return serve_private_l1(l1, request, now); });
  }

  // Baseline Parameter Buffer path: the unified tile cache, then L2 and DRAM (what a Stream::Tile
  // request takes without a tile-cache organisation), for an organisation that serves some
  // requests itself and passes the others on.
  MemResponse access_tile_cache(const MemRequest& request, uint64_t now);

  // Prefetch a texture line into the L1 of `core` (DAE, paper 002); returns the cycle the line's
  // data is present (its in-flight fill). Counts as a prefetch, not a demand access.
  uint64_t prefetch_texture(uint32_t core, uint64_t addr, uint64_t now) {
    return prefetch_texture(core, addr, now, kNoSourceCore, 0).ready;
  }
  // The same with a predicted source (paper 002 section 3, the prefetch queue's Source field): on
  // a miss in the L1 of `core`, the line is asked of the L1 of `source` (another core) over the
  // interconnect, `remote_latency` cycles there and back; when that L1 holds it (or its fill is in
  // flight) it arrives from there, else the request goes on to L2 once the answer is back.
  // kNoSourceCore: straight to L2.
  static constexpr uint32_t kNoSourceCore = 0xffffffffu;
  struct PrefetchOutcome {
    uint64_t ready = 0;                 // the cycle the line's data is in the L1 of `core`
    ServedBy served_by = ServedBy::L1;  // L1: already allocated; Remote: from `source`; L2 / Dram
    bool remote_miss = false;           // `source` was asked and did not hold the line
  };
  PrefetchOutcome prefetch_texture(uint32_t core, uint64_t addr, uint64_t now, uint32_t source,
                                   uint32_t remote_latency);

  // The shared path below the first level: L2 access by `l2_requester` (see l2_requester_*), and
  // a DRAM access on a miss. Dirty L2 victims are written to DRAM as posted writes. Returns the
  // latency from `now`.
  MemResponse access_below_l1(uint32_t l2_requester, uint64_t addr, bool write, const AccessInfo& info, uint64_t now);

  // Color buffer flush of a finished tile straight to the frame buffer in memory (paper 003
  // Fig. 2: the Color Buffer writes main memory directly). One call per line.
  uint64_t flush_color_line(uint64_t addr, uint64_t now);

  void set_texture_organisation(std::unique_ptr<TextureOrganisation> organisation);
  void set_tile_organisation(std::unique_ptr<TileCacheOrganisation> organisation);
  TileCacheOrganisation* tile_organisation() const { return tile_organisation_.get(); }

  // A new frame of the same run: every counter restarts; cache contents, in-flight fills, open
  // DRAM rows and the page map carry over (the papers simulate frame sequences with warm caches).
  void begin_frame();

  // Per-requester index of the L2 counters.
  uint32_t l2_requester_texture(uint32_t core) const { return core; }
  uint32_t l2_requester_vertex(uint32_t vp) const { return config_.shader_cores + vp; }
  uint32_t l2_requester_tile() const { return config_.shader_cores + config_.vertex_processors; }
  uint32_t l2_requesters() const { return config_.shader_cores + config_.vertex_processors + 1; }

  AnyCache& l1tex(uint32_t core) { return l1tex_[core]; }
  const AnyCache& l1tex(uint32_t core) const { return l1tex_[core]; }
  AnyCache& vertex_cache(uint32_t vp) { return vertex_[vp]; }
  const AnyCache& vertex_cache(uint32_t vp) const { return vertex_[vp]; }
  AnyCache& tile_cache() { return tile_[0]; }
  const AnyCache& tile_cache() const { return tile_[0]; }
  AnyCache& l2() { return l2_[0]; }
  const AnyCache& l2() const { return l2_[0]; }
  Dram& dram() { return dram_; }
  // Every L2 bank's and DRAM bank's busy cycles also go to `timeline` (null: none).
  void set_timeline(Timeline* timeline) {
    timeline_ = timeline;
    dram_.set_timeline(timeline);
  }
  const Dram& dram() const { return dram_; }
  const HierarchyConfig& config() const { return config_; }
  const InterconnectCounters& interconnect() const { return interconnect_counters_; }

  // Paper 000 Fig. 1: replication_histogram()[k] = texture requests after whose service the
  // block resided in exactly k private L1 texture caches (k = 0 .. shader_cores).
  const std::vector<uint64_t>& replication_histogram() const { return replication_; }
  // Records the replication degree of the block at `addr` now (called by organisations that
  // replace the baseline path, after serving a request).
  void record_replication(uint64_t addr);

  // Paper 002 section 3: demand misses of the private L1s whose line another core's L1 held at that
  // moment (allocated, possibly still filling). Counted only while the holder counts are kept
  // (stats.replication=true and no texture organisation): tracks_remote_residency().
  uint64_t l1tex_misses_remote_resident() const { return misses_remote_resident_; }
  bool tracks_remote_residency() const { return holders_ != nullptr; }

  // Sums over the L1 texture caches and over the vertex caches.
  CacheCounters l1tex_totals() const;
  CacheCounters vertex_totals() const;

  // Line reads L2 sent to DRAM on behalf of each L2 requester (l2_requester_*): attributes main
  // memory traffic to its source (Parameter Buffer DRAM accesses, TCOR paper 003 Fig. 13).
  uint64_t dram_fetches_for(uint32_t l2_requester) const { return dram_fetches_[l2_requester]; }
  // Line writes L2 sent to DRAM for each requester: write-backs of lines it last wrote, and its
  // writes passed through (dirty Parameter Buffer lines, TCOR paper 003 Figs. 16-17).
  uint64_t dram_writes_for(uint32_t l2_requester) const { return dram_writes_[l2_requester]; }

 private:
  MemResponse access_texture(const MemRequest& request, uint64_t now) {
    if (organisation_) return organisation_->access(*this, request, now);
    return access_private_l1(request, now);
  }
  MemResponse access_other(const MemRequest& request, uint64_t now);
  uint32_t checked_core(uint32_t core) const {
    if (core >= config_.shader_cores) throw_no_such_core(core);
    return core;
  }
  // A read or write-back hit is handled inline (the common case, about 9 in 10 texture requests)
  // and does nothing else; everything that is not (misses, write-throughs, replication
  // statistics) goes out of line so the hit path needs few registers. Cache is the concrete
  // SetAssocCache<P> of every L1 (they share the policy).
  template <class Cache>
  MemResponse serve_private_l1(Cache& l1, const MemRequest& request, uint64_t now) {
    const uint64_t start = l1tex_banked_ ? l1.reserve_bank(request.addr, now) : now;
    uint64_t ready = 0;
    if (!config_.track_replication &&
        l1.try_hit(request.addr, request.write, 0, AccessInfo{request.next_use, request.priority_class, request.full_line},
                   start, &ready)) {
      const uint64_t t = start + config_.l1tex.hit_latency;
      return {static_cast<uint32_t>(std::max(t, ready) - now), ServedBy::L1, static_cast<uint32_t>(start - now)};
    }
    return serve_private_l1_access(l1, request, start, now);
  }
  template <class Cache>
  TESSERA_NOINLINE MemResponse serve_private_l1_access(Cache& l1, const MemRequest& request, uint64_t start,
                                                       uint64_t now) {
    const AccessInfo info{request.next_use, request.priority_class, request.full_line};
    const CacheOutcome o = l1.access(request.addr, request.write, 0, info, start);
    if (config_.track_replication) record_replication(l1, o, request.addr);
    const uint64_t t = start + config_.l1tex.hit_latency;
    if (!o.hit || o.forward_write) return l1tex_miss(o, request, t, now);
    return {static_cast<uint32_t>(std::max(t, o.ready) - now), ServedBy::L1, static_cast<uint32_t>(start - now)};
  }
  // The replication degree of the block just served (paper 000 Fig. 1), from the holder counts
  // kept on every fill and eviction, or by probing every L1 once an organisation may bypass them.
  template <class Cache>
  void record_replication(Cache& l1, const CacheOutcome& o, uint64_t addr) {
    if (holders_) {
      const uint64_t line = addr >> l1_line_shift_;
      if (o.evicted) holders_->decrement(o.evicted_addr >> l1_line_shift_);
      const uint32_t holders = o.filled ? holders_->increment(line) : holders_->get(line);
      // A demand miss just allocated the line here: any other holder is another core's L1.
      misses_remote_resident_ += o.filled && holders > 1;
      ++replication_[holders];
      return;
    }
    // All L1s share one geometry: locate the set once, then scan it in each cache.
    const LineLocation loc = l1.locate(addr);
    uint32_t holders = 0;
    for (AnyCache& c : l1tex_) holders += c.as<Cache>()->holds(loc) ? 1 : 0;
    ++replication_[holders];
  }
  [[noreturn]] void throw_no_such_core(uint32_t core) const;
  // The L1-to-L2 interconnect: books `flits` on the request (or response) channel that serves
  // `addr` from cycle `t`; returns the cycle the last flit has arrived at the other end.
  uint64_t cross(bool response, uint64_t addr, uint32_t flits, uint64_t t);
  // The L1 miss path below the tag lookup.
  MemResponse l1tex_miss(const CacheOutcome& o, const MemRequest& request, uint64_t t, uint64_t now);
  // The part of a first-level access below a miss (or a write passed through) that reached the
  // structure's tag lookup at cycle t: write-backs, the MSHR, the fill from L2 and the line's
  // fill time. Cache is a concrete SetAssocCache<P>; latency and accept delay count from now.
  template <class Cache>
  MemResponse first_level_miss(Cache& cache, const CacheOutcome& o, uint32_t l2_requester, const MemRequest& request,
                               uint64_t t, uint64_t now);
  template <class Cache>
  MemResponse serve_first_level(Cache& cache, const CacheConfig& config, uint32_t l2_requester,
                                const MemRequest& request, uint64_t now);

  HierarchyConfig config_;
  std::vector<AnyCache> l1tex_;
  std::vector<AnyCache> vertex_;
  std::vector<AnyCache> tile_;
  std::vector<AnyCache> l2_;
  Dram dram_;
  // Request and response channels: one each for a bus, one each per L2 bank for a crossbar.
  std::vector<BusyCalendar> request_channels_, response_channels_;
  // L2 banks: one access per bank per cycle (line-interleaved). A calendar, not a "free from"
  // cycle, since the cores' requests reach L2 out of time order (busy_calendar.h).
  std::vector<BusyCalendar> l2_banks_;
  Timeline* timeline_ = nullptr;
  uint32_t line_flits_ = 1;
  InterconnectCounters interconnect_counters_;
  std::unique_ptr<TextureOrganisation> organisation_;
  std::unique_ptr<TileCacheOrganisation> tile_organisation_;
  std::vector<uint64_t> replication_;
  uint64_t misses_remote_resident_ = 0;
  std::vector<uint64_t> dram_fetches_;
  std::vector<uint64_t> dram_writes_;
  // Per L2 line (tag-array slot): the requester that last wrote it, so its write-back is counted
  // as that requester's DRAM traffic.
  static constexpr uint16_t kNoWriter = 0xffff;
  std::vector<uint16_t> l2_writer_;
  // Incremental holder counts while every L1 fill and eviction passes through this class (no
  // texture organisation installed: an organisation may touch the L1s directly).
  std::unique_ptr<LineHolders> holders_;
  uint32_t l1_line_shift_ = 6;
  bool l1tex_banked_ = false;
};

}  // namespace tessera::model
