// The TCOR Tile Cache in the GPU model (paper 003 section III-C, Fig. 7): the organisation that
// replaces the unified tile cache (hierarchy.h TileCacheOrganisation). Every Parameter Buffer
// request of the timing model arrives here with its primitive, section and tile:
//   - PB-Lists (section 0) go to the Primitive List Cache (LRU) at the address the configured
//     layout gives them (Figs. 3 / 6): a PMD write of tile t is the next entry of t's list, a line
//     read in tile k the next line of k's list;
//   - PB-Attributes (section 1) go to the Attribute Cache per primitive: the first attribute line
//     of a primitive decides (write: allocate or bypass; read: hit, or miss with one L2 read per
//     attribute), the rest follow that decision. A read is served whole by its first request
//     (MemResponse::primitive_served): a hit costs the Tile Fetcher one cycle, and it queues the
//     Attribute Buffer Pointer, not the attributes. A read whose set is locked is refused
//     (MemResponse::refused) until the Rasterizer takes a primitive (rasterizer_read) or the
//     earliest outstanding fill arrives (MemResponse::retry_after).
// The OPT Number of each access is the model's (MemRequest::next_use, tessera/model/next_use.h),
// encoded in the tcor.opt_bits field. Each line sent to the L2 carries its section and last tile
// (section III-D1) for the dead-line policy.
//
// Timing: the Primitive List Cache is a first-level cache with MSHRs (tile.mshrs); an Attribute
// Cache miss sends its lines to the L2 one per cycle through an MSHR file of tile.mshrs entries
// and its Primitive Buffer line stays locked until the last one arrives. Write-backs and bypassed
// writes are posted. Hit latency tile.latency.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tcor/attribute_cache.h"
#include "tcor/pb_lists_layout.h"
#include "tcor/primitive_list_cache.h"
#include "tcor/scheme.h"
#include "tcor/tile_id_field.h"
#include "tessera/model/cache.h"
#include "tessera/model/hierarchy.h"
#include "tessera/model/hooks.h"

namespace tessera::model::tcor {

// What the split Tile Cache did in a frame, beyond its two structures' counters.
struct TcorCounters {
  uint64_t l2_reads = 0, l2_writes = 0;  // lines it sent to the L2
  uint64_t attribute_reads = 0;          // attribute lines the Rasterizer read from the Attribute Buffer
  uint64_t attribute_writes = 0;         // attribute lines written into it (Polygon List Builder, fills)
  uint64_t fill_waits = 0;               // reads that hit a primitive whose fill was still on its way
  uint64_t mshr_stall_cycles = 0;
  uint64_t lower_bound = 0;              // section V-A, summed over the frame's subpasses
};

class TcorTileCache final : public TileCacheOrganisation {
 public:
  // Throws std::invalid_argument for a configuration whose structures cannot be built.
  explicit TcorTileCache(const TcorConfig& config);

  MemResponse access(MemoryHierarchy& hierarchy, const MemRequest& request, uint64_t now) override;
  void rasterizer_read(MemoryHierarchy& hierarchy, uint32_t primitive, uint32_t tile, uint64_t now) override;

  // A new frame: counters restart, contents carry over.
  void begin_frame();
  // A subpass's binning (the model's BinnedPhase): its tiles in processing order and each
  // primitive's attribute lines. The Attribute Cache drops the previous subpass's primitives and
  // the Primitive List Cache its list lines (dead, section III-D) without write-back; dirty ones
  // count as dead drops.
  void phase_begin(const BinnedPhase& phase);

  // tile.* (both structures together, each request one access), tile.plc.*, tile.attr.*,
  // tcor.l2_reads, tcor.l2_writes, tcor.lower_bound.
  std::vector<std::pair<std::string, double>> metrics() const;

  const TcorConfig& config() const { return config_; }
  const PrimitiveListCache& primitive_list_cache() const { return lists_; }
  const AttributeCache& attribute_cache() const { return attributes_; }
  const TcorCounters& counters() const { return counters_; }
  // The PB-Lists layout of the current subpass (throws std::logic_error before phase_begin).
  const PbListsLayout& layout() const;

 private:
  struct Primitive {
    uint32_t primitive = 0;   // the stream's index
    uint64_t id = 0;          // Primitive ID: the address of its first attribute line
    uint32_t lines = 0;
    uint32_t last_tile = 0;   // processing position of the last tile that reads it
  };
  const Primitive& primitive(uint32_t index) const;
  MemResponse lists_access(MemoryHierarchy& h, uint64_t addr, bool write, uint32_t slot, uint64_t now);
  MemResponse attribute_write(MemoryHierarchy& h, const MemRequest& request, uint64_t now);
  MemResponse attribute_read(MemoryHierarchy& h, const MemRequest& request, uint64_t now);
  // Sends below_ to the L2 from cycle t (posted writes, reads through the MSHRs); returns the
  // cycle the last read line arrives (t when none) and the MSHR wait in *stall.
  uint64_t send_below(MemoryHierarchy& h, uint64_t t, uint64_t* stall);
  PrimitiveRequest request_for(const Primitive& p, uint64_t next_use) const;
  // Outstanding Attribute Cache fills that have arrived by `now` unlock their lines.
  void retire_fills(uint64_t now);

  TcorConfig config_;
  TileIdField field_;
  PrimitiveListCache lists_;
  AttributeCache attributes_;
  MshrFile attribute_mshrs_;
  TcorCounters counters_;
  std::vector<PbTransfer> below_;

  // The current subpass.
  std::optional<PbListsLayout> layout_;
  std::vector<uint32_t> position_;      // tile index -> processing position
  std::vector<Primitive> primitives_;   // ascending by stream index
  std::vector<uint32_t> pmds_;          // per list slot: PMDs written so far
  uint32_t reading_tile_ = 0, list_line_ = 0;  // the list being read and its next line
  // The primitive whose attribute lines the Polygon List Builder is writing.
  const Primitive* writing_ = nullptr;
  uint32_t written_lines_ = 0;
  bool writing_allocated_ = false;
  std::vector<std::pair<uint64_t, uint64_t>> fills_;  // (Primitive ID, cycle its last line arrives)
};

}  // namespace tessera::model::tcor
