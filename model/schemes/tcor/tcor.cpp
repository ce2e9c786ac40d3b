// TCOR (paper 003): the split Tile Cache with OPT replacement (tile_cache.h) installed as the
// timing model's tile-cache organisation, and the dead-line-aware L2 policy (replacement
// dead_line/), which the Tile Cache's requests tell each Parameter Buffer line's class and last
// tile (pb_transfer.h) and the timing model tells the Tile Fetcher's progress.
#include <memory>
#include <string>

#include "tcor/scheme.h"
#include "tcor/tile_cache.h"
#include "tessera/model/energy.h"
#include "tessera/model/replacement/dead_line/dead_line.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using tcor::TcorConfig;
using tcor::TcorTileCache;

class TcorInstance final : public SchemeInstance {
 public:
  explicit TcorInstance(const ParamSet& p) : config_(TcorConfig::from_params(p)) {
    try {
      (void)TcorTileCache(config_);
    } catch (const std::invalid_argument& e) {
      throw ParamError(std::string("tcor: ") + e.what());
    }
  }

  void install(Hooks& hooks) override {
    // One organisation per hierarchy (a run, or every frame with sim.cold_caches).
    hooks.tile_organisation = [this](MemoryHierarchy&) {
      auto cache = std::make_unique<TcorTileCache>(config_);
      cache_ = cache.get();
      return cache;
    };
  }

  void frame_begin(MemoryHierarchy&) override { cache_->begin_frame(); }

  void phase_begin(MemoryHierarchy&, const BinnedPhase& phase) override { cache_->phase_begin(phase); }

  void frame_end(const MemoryHierarchy&, FrameResults& r) override {
    for (auto& m : cache_->metrics()) r.frame_metrics.push_back(std::move(m));
  }

  // Dynamic energy of the split Tile Cache. Its capacity is tile.size, whose leakage the model
  // already charges to the (unused) unified tile cache, so none is added here. Every line access
  // is charged the 16 KiB 4-way CACTI figures of docs/model.md, "Energy", as the model charges every
  // first-level cache; the Primitive Buffer (per line: tag, 12-bit OPT Number, 10-bit ABP,
  // valid / lock / dirty: under 8 B, Fig. 8) is a small RAM of 8 B per line (energy.h small_ram,
  // the 1 KiB 128-bit-port CACTI figure scaled by the square root of its capacity), read and
  // written once per Attribute Cache access (tag match, then OPT Number and lock update).
  void energy(const MemoryHierarchy&, const EnergyParams& ep, uint64_t, std::vector<StructureEnergy>& out) override {
    const AccessEnergy line = sram_16kib_4way(ep.tech);
    auto d = [](uint64_t v) { return static_cast<double>(v); };
    const CacheCounters& l = cache_->primitive_list_cache().counters();
    StructureEnergy plc{"tcor_plc", true};
    plc.reads = l.reads;
    plc.writes = l.writes + l.fills;
    plc.dynamic_nj = (d(plc.reads) * line.read_pj + d(plc.writes) * line.write_pj) * 1e-3;
    // Attribute Buffer: the Rasterizer reads each queued primitive's attributes from it; the
    // Polygon List Builder's allocated writes and the fills from L2 write it.
    const tcor::TcorCounters& c = cache_->counters();
    StructureEnergy ab{"tcor_attribute_buffer", true};
    ab.reads = c.attribute_reads;
    ab.writes = c.attribute_writes;
    ab.dynamic_nj = (d(ab.reads) * line.read_pj + d(ab.writes) * line.write_pj) * 1e-3;
    const tcor::AttributeCache& a = cache_->attribute_cache();
    const AccessEnergy tags = small_ram(ep.tech, 8.0 * a.primitive_buffer().lines());
    StructureEnergy pb{"tcor_primitive_buffer", true};
    pb.reads = pb.writes = a.counters().accesses;
    pb.dynamic_nj = d(a.counters().accesses) * (tags.read_pj + tags.write_pj) * 1e-3;
    out.push_back(plc);
    out.push_back(ab);
    out.push_back(pb);
  }

 private:
  TcorConfig config_;
  TcorTileCache* cache_ = nullptr;  // owned by the hierarchy (MemoryHierarchy::set_tile_organisation)
};

}  // namespace

void register_tcor(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "tcor";
  s.paper = "003";
  s.section = "III";
  s.description =
      "TCOR: split Tile Cache (LRU Primitive List Cache + OPT Attribute Cache), interleaved PB-Lists, dead-line-aware L2";
  s.preset = "mobile4-64k";
  s.params = tcor::tcor_params();
  s.hooks = {HookKind::TileOrganisation};
  s.metrics = {"pb.l2_accesses",   "pb.dram_accesses",    "pb.writebacks", "tile.read_misses",
               "tile.write_bypasses", "tcor.lower_bound", "tile_fetcher.prims_per_cycle", "tcor.l2_reads",
               "tcor.l2_writes",   "tile.plc.*",          "tile.attr.*"};
  SchemeVariant all;
  all.name = "tcor";
  all.description = "sections III-A to III-D: split Tile Cache with OPT, interleaved PB-Lists, dead-line-aware L2";
  all.apply = [](ParamSet& p) { p.set("l2.policy", DeadLinePolicy::kName); };
  all.sets = {"l2.policy"};
  s.variants.push_back(std::move(all));
  SchemeVariant no_l2;
  no_l2.name = "tcor-no-l2";
  no_l2.description = "sections III-A to III-C, without the L2 enhancements (Figs. 20-21)";
  s.variants.push_back(std::move(no_l2));
  // The sensitivity study of section V-A (Fig. 13) on the unified tile cache: OPT (with the OPT
  // Numbers of III-A, and TCOR's bypass of writes read after every resident line, III-C4), MRU
  // and DRRIP beside the baseline's LRU.
  s.combinations = {"mobile4-64k+tile.policy=opt+tile.bypass=true", "mobile4-64k+tile.policy=mru",
                    "mobile4-64k+tile.policy=drrip"};
  s.make = [](const ParamSet& p) { return std::make_unique<TcorInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
