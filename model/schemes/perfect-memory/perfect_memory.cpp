// Perfect memory for the fragment path (paper 002 section 3, Fig. 3a: "3.29x average speedup when
// using perfect caches", the paper's "pixel/texture caches"): every cache a quad's processing
// reads or writes after the geometry phase is perfect.
//   - texture L1s: every request hits at the L1 latency (perfect-l1's organisation,
//     ../perfect-l1/perfect_texture.h);
//   - the pixel caches: on this tile-based GPU the colour and depth tile buffers are on chip
//     (1 cycle, colorbuf/depthbuf.latency) and their traffic with memory is the attachment loads
//     and the tile flushes (an immediate-mode GPU's pixel-cache misses and write-backs):
//     gpu.framebuffer=perfect, loads present at once, flushes write nothing;
//   - the tile cache's reads by the tile fetcher (the Parameter Buffer feeding the rasterizer,
//     which on an immediate-mode GPU comes straight from the vertex processors): a read the tile
//     cache would miss is served at its hit latency, without a fetch and without allocating.
// The geometry phase (vertex caches, the Polygon List Builder's writes) stays the baseline's.
#include <memory>
#include <utility>

#include "perfect-l1/perfect_texture.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

struct PerfectCounters {
  uint64_t tile_reads = 0;  // Parameter Buffer reads the tile cache did not hold, served perfectly
};

class PerfectTileReads final : public TileCacheOrganisation {
 public:
  explicit PerfectTileReads(PerfectCounters& counters) : counters_(counters) {}
  MemResponse access(MemoryHierarchy& h, const MemRequest& r, uint64_t now) override {
    uint64_t ready = 0;
    if (r.write || h.tile_cache().probe(r.addr, &ready)) return h.access_tile_cache(r, now);
    ++counters_.tile_reads;
    return {h.config().tile.hit_latency, ServedBy::L1, 0};
  }

 private:
  PerfectCounters& counters_;
};

class PerfectMemoryInstance final : public SchemeInstance {
 public:
  void install(Hooks& hooks) override {
    hooks.texture_organisation = [](MemoryHierarchy&) { return std::make_unique<PerfectTextureOrganisation>(); };
    hooks.tile_organisation = [this](MemoryHierarchy&) { return std::make_unique<PerfectTileReads>(counters_); };
  }
  void frame_begin(MemoryHierarchy&) override { counters_ = {}; }
  // An organisation reports the local/remote split (docs/contracts.md): every hit is local; every
  // L1 fill is an install.
  void frame_end(const MemoryHierarchy& h, FrameResults& r) override {
    const CacheCounters l1 = h.l1tex_totals();
    r.frame_metrics.emplace_back("l1tex.local_hits", static_cast<double>(l1.hits));
    r.frame_metrics.emplace_back("l1tex.installs", static_cast<double>(l1.fills));
    r.frame_metrics.emplace_back("perfect.tile_reads", static_cast<double>(counters_.tile_reads));
    // A tile-cache organisation reports the tile cache's counters (the model leaves them to it):
    // the unified tile cache is still there, serving the writes and the reads it holds.
    const CacheCounters& tc = h.tile_cache().counters();
    const std::pair<const char*, uint64_t> tile[] = {
        {"tile.accesses", tc.accesses},   {"tile.hits", tc.hits},           {"tile.misses", tc.misses},
        {"tile.read_misses", tc.read_misses}, {"tile.write_misses", tc.write_misses}, {"tile.fetches", tc.fetches},
        {"tile.evictions", tc.evictions}, {"tile.writebacks", tc.writebacks}};
    for (const auto& [name, value] : tile) r.frame_metrics.emplace_back(name, static_cast<double>(value));
  }

 private:
  PerfectCounters counters_;
};

}  // namespace

void register_perfect_memory(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "perfect-memory";
  s.paper = "002";
  s.section = "3, Fig. 3";
  s.description = "perfect pixel and texture caches: every cache of the fragment path hits (Fig. 3a's bound)";
  s.preset = "tegra2";
  s.hooks = {HookKind::TextureOrganisation, HookKind::TileOrganisation};
  s.conflicts = {{HookKind::Prefetcher,
                  "every texture access already hits its L1, yet each prefetch would still read L2 and DRAM"}};
  s.metrics = {"l1tex.installs",  "l1tex.local_hits", "perfect.tile_reads", "tile.accesses",  "tile.hits",
               "tile.misses",     "tile.read_misses", "tile.write_misses",  "tile.fetches",   "tile.evictions",
               "tile.writebacks"};
  SchemeVariant v;
  v.name = "perfect-memory";
  v.description = "section 3: perfect texture L1s, tile buffers and tile-fetcher reads (3.29x over one warp in the paper)";
  v.apply = [](ParamSet& p) { p.set("gpu.framebuffer", "perfect"); };
  v.sets = {"gpu.framebuffer"};
  s.variants.push_back(std::move(v));
  s.make = [](const ParamSet&) { return std::make_unique<PerfectMemoryInstance>(); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
