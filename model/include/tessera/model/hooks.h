// The seams of the timing model: each scheme of the papers replaces one small interface here
// instead of editing the model core. A null hook means the baseline of the papers:
//   quad -> core      FG-xshift2 (paper 001 section III-B, Fig. 6)     QuadScheduler
//   L1 organisation   private L1 per core (hierarchy.h)                texture_organisation
//   tile cache        the unified tile cache (hierarchy.h; paper 003   tile_organisation
//                     TCOR's split cache replaces it, III-C)
//   L1 prefetch       none (paper 002 DAE prefetches from the queue)   TexturePrefetcher
//   buffer before L1  none (paper 004 TFM texture buffer)              TextureFrontBuffer
//   frame events      none (schemes keep per-frame and per-subpass     FrameObserver (observers)
//                     state, add metrics and their structures' energy)
// What the papers vary without a new mechanism is a parameter, not a seam: the tile order
// (gpu.tile_order, paper 001 Fig. 7, which DTexL sets), the barrier mode (gpu.barrier, paper 001
// sections II-C and III-E) and the caches' replacement policies (*.policy; paper 003's OPT Numbers,
// next_use.h, and dead-line L2, replacement/dead_line/). A tile-cache organisation tags its
// Parameter Buffer requests with their L2 class itself (AccessInfo::priority_class, paper 003
// III-D1), and the model signals the Tile Fetcher's progress to the L2 (AnyCache::tile_finished
// and pass_begin).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "tessera/model/hierarchy.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model {

// One render pass instance as the stream's PassBegin describes it.
struct PassInfo {
  uint32_t pass = 0;
  uint32_t width = 0, height = 0;
  uint32_t tile_width = 32, tile_height = 32;
  uint32_t tiles_x = 0, tiles_y = 0;
};

// One tile of a pass, as found on the first pass over the stream.
struct TileRef {
  uint32_t tile = 0;        // ty * tiles_x + tx
  uint32_t tx = 0, ty = 0;  // tile coordinates
  uint32_t x0 = 0, y0 = 0;  // first pixel
  size_t offset = 0;        // byte offset of its TileBegin (StreamReader::seek)
};

// Which shader core (= parallel raster pipeline, Z/colour buffer bank) a quad goes to
// (paper 001 section III-B: the subtile of a quad is a static function of its position).
class QuadScheduler {
 public:
  virtual ~QuadScheduler() = default;
  // `seq` = position of the tile in the processing order; x, y = the quad's first pixel.
  virtual uint32_t core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y,
                        uint32_t cores) = 0;
  // Called before each frame, so a stateful scheduler gives the same answer for the same frame.
  virtual void frame_begin() {}
};

// Baseline FG-xshift2 (paper 001 Fig. 6): quad column plus 2 per quad row, modulo the cores, so
// no two horizontally or vertically adjacent quads share a core.
class FgXshift2Scheduler final : public QuadScheduler {
 public:
  uint32_t core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y,
                uint32_t cores) override;
};

// Called when the rasterizer puts a quad early-Z keeps in a core's queue (paper 002: prefetch from
// the tile queue while the quad waits), with the texture lines whose addresses are known there:
// those of every sample but the `dependent_samples` whose coordinates depend on an earlier
// sample's result (the stream's dependent-read marks), which cannot be computed ahead. Its
// prefetches fill the private L1s directly (MemoryHierarchy::prefetch_texture): a scheme taking
// the texture organisation declares a HookConflict with it (scheme.h).
class TexturePrefetcher {
 public:
  virtual ~TexturePrefetcher() = default;
  virtual void quad_queued(MemoryHierarchy& hierarchy, uint32_t core, std::span<const uint64_t> lines,
                           uint32_t dependent_samples, uint64_t now) = 0;
  // The oldest quad queued for `core` left the queue for a thread slot of the core at `now`
  // (queued quads start in order).
  virtual void quad_started(MemoryHierarchy& /*hierarchy*/, uint32_t /*core*/, uint64_t /*now*/) {}
};

// One texture sample as the texture unit hands it to a buffer in front of L1: the distinct 64 B
// lines the baseline reads from L1, and each filter probe with its 4x4-texel blocks (access stream
// version 3; schema/access-stream.md). Probes may be empty for a stream without them.
struct TextureSampleView {
  std::span<const uint64_t> lines;
  std::span<const stream::TextureProbe> probes;
  std::span<const uint64_t> blocks;  // probe.first_block indexes here
  uint32_t block_bytes = 0;          // bytes of one block of the sampled format
};

// What a front buffer served itself of one sample: the accesses (the model's tfm.hits) and the
// cycle the last of them is served.
struct FrontHits {
  uint32_t hits = 0;
  uint64_t ready = 0;
};

// A small structure in front of each L1 texture cache (paper 004 TFM). It serves what it holds
// in latency() cycles without an L1 access and names the lines to read from L1 for the rest; an
// L1 read through it takes latency() + the L1's time + fill_latency() (the line or block is
// written into the structure before the texel is served). A hit on a block whose L1 read is
// still in flight (another quad's, with several quads resident per core) waits for that read:
// the structure keeps a ready cycle per entry, set by filled().
class TextureFrontBuffer {
 public:
  virtual ~TextureFrontBuffer() = default;
  virtual void reset(uint32_t cores) = 0;  // called at the start of every frame
  // One sample of `core` whose accesses start at cycle `now`: appends the lines to read from L1,
  // in order, to `l1_lines` and returns what it served itself; hits.ready is at least
  // now + latency() and at least the ready cycle of every entry hit.
  virtual FrontHits sample(uint32_t core, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) = 0;
  // The L1 reads the last sample() of `core` named are served at ready[i] (for l1_lines[i]): the
  // entries they fill serve later hits from then on.
  virtual void filled(uint32_t core, std::span<const uint64_t> ready) = 0;
  virtual uint32_t latency() const = 0;  // hit latency in cycles
  virtual uint32_t fill_latency() const { return 0; }
};

// A front buffer looked up once per line of the sample.
class LineFrontBuffer : public TextureFrontBuffer {
 public:
  FrontHits sample(uint32_t core, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) override;
  void filled(uint32_t core, std::span<const uint64_t> ready) override;
  // True on a hit, with the cycle the line's data is present in `ready`; a miss allocates the
  // line.
  virtual bool access(uint32_t core, uint64_t line_addr, uint64_t* ready) = 0;
  // The line allocated by a miss of access() is present from `ready`.
  virtual void line_ready(uint32_t core, uint64_t line_addr, uint64_t ready) = 0;

 private:
  std::vector<uint64_t> requested_;  // the lines the last sample() sent on to L1
};

struct FrameResults;
struct EnergyParams;
struct StructureEnergy;

// A primitive's PB-Attributes lines: contiguous, the first one's address is its Primitive ID
// (paper 003 section II-B, Fig. 4).
struct PrimitiveAttributes {
  uint32_t primitive = 0;  // index in the pass, as the stream numbers it
  uint64_t first_line = 0; // address of its first attribute line
  uint32_t lines = 0;      // attribute lines (of the configuration's line size)
};

// One subpass's Parameter Buffer as the tile fetcher will read it (TCOR's OPT Numbers are known
// at binning because the tile order is, paper 003 section III-A).
struct BinnedPhase {
  PassInfo pass;
  std::vector<TileRef> tiles;                    // in processing order
  std::vector<std::vector<uint32_t>> primitives; // per tile: the primitives whose attributes it reads
  std::vector<PrimitiveAttributes> attributes;   // every primitive read, ascending by primitive
};

// Told when each frame of a run starts and ends (schemes keep per-frame state and add their own
// metrics to the frame's results, after the model's), and asked for the energy of the structures
// a scheme adds, which counts in the whole GPU's (energy.total_nj).
class FrameObserver {
 public:
  virtual ~FrameObserver() = default;
  virtual void frame_begin(MemoryHierarchy& /*hierarchy*/) {}
  // A subpass's raster phase begins (called only when a tile-cache organisation is installed).
  virtual void phase_begin(MemoryHierarchy& /*hierarchy*/, const BinnedPhase& /*phase*/) {}
  virtual void frame_end(const MemoryHierarchy& /*hierarchy*/, FrameResults& /*results*/) {}
  // Dynamic and static energy of the scheme's own structures this frame (`cycles` long), in the
  // technology of `params` (called once per technology variant the results report).
  virtual void energy(const MemoryHierarchy& /*hierarchy*/, const EnergyParams& /*params*/, uint64_t /*cycles*/,
                      std::vector<StructureEnergy>& /*out*/) {}
};

struct Hooks {
  std::shared_ptr<QuadScheduler> quad_scheduler;       // null: FgXshift2Scheduler
  // Called once per run on the fresh hierarchy; null: the built-in private L1s.
  std::function<std::unique_ptr<TextureOrganisation>(MemoryHierarchy&)> texture_organisation;
  // Called once per run on the fresh hierarchy; null: the unified tile cache.
  std::function<std::unique_ptr<TileCacheOrganisation>(MemoryHierarchy&)> tile_organisation;
  std::shared_ptr<TexturePrefetcher> prefetcher;       // null: none
  std::shared_ptr<TextureFrontBuffer> front_buffer;    // null: none
  std::vector<std::shared_ptr<FrameObserver>> observers;  // frame begin / end, in order
};

}  // namespace tessera::model
