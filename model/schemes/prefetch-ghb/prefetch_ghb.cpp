// The GHB prefetcher on the L1 texture caches (paper 002 section 3, Fig. 3a: "the Global History
// Buffer (GHB) prefetcher [NS04] ... provide an average speedup of up to 1.9x" at one warp): each
// core's L1 demand misses train its own G/DC Global History Buffer (global_history_buffer.h),
// whose predicted lines are prefetched into that L1, one per cycle after the miss. The L1 stays
// the built-in private cache; this organisation only watches its misses.
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "prefetch-ghb/global_history_buffer.h"
#include "tessera/model/energy.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using ghb::GlobalHistoryBuffer;

struct GhbCounters {
  uint64_t trained = 0;     // demand misses recorded
  uint64_t predictions = 0; // lines predicted and prefetched
};

class GhbOrganisation final : public TextureOrganisation {
 public:
  GhbOrganisation(const MemoryHierarchy& h, uint32_t entries, uint32_t index_entries, uint32_t degree,
                  GhbCounters& counters)
      : line_shift_(static_cast<uint32_t>(std::countr_zero(h.config().l1tex.line_bytes))), counters_(counters) {
    for (uint32_t c = 0; c < h.config().shader_cores; ++c) buffers_.emplace_back(entries, index_entries, degree);
  }
  MemResponse access(MemoryHierarchy& h, const MemRequest& r, uint64_t now) override {
    const MemResponse m = h.access_private_l1(r, now);
    if (h.config().track_replication) h.record_replication(r.addr);
    if (m.served_by == ServedBy::L1) return m;
    ++counters_.trained;
    predicted_.clear();
    buffers_[r.unit].miss(r.addr >> line_shift_, predicted_);
    // The prefetcher sends its predictions after the miss is accepted, one per cycle.
    uint64_t t = now + m.accept_delay;
    for (uint64_t line : predicted_) {
      ++counters_.predictions;
      h.prefetch_texture(r.unit, line << line_shift_, ++t);
    }
    return m;
  }

 private:
  uint32_t line_shift_;
  GhbCounters& counters_;
  std::vector<GlobalHistoryBuffer> buffers_;
  std::vector<uint64_t> predicted_;
};

class GhbInstance final : public SchemeInstance {
 public:
  explicit GhbInstance(const ParamSet& p)
      : entries_(p.get_u32("ghb.entries")), index_entries_(p.get_u32("ghb.index_entries")),
        degree_(p.get_u32("ghb.degree")), cores_(p.get_u32("gpu.shader_cores")) {}
  void install(Hooks& hooks) override {
    hooks.texture_organisation = [this](MemoryHierarchy& h) {
      return std::make_unique<GhbOrganisation>(h, entries_, index_entries_, degree_, counters_);
    };
  }
  void frame_begin(MemoryHierarchy&) override { counters_ = {}; }
  void frame_end(const MemoryHierarchy& h, FrameResults& r) override {
    const CacheCounters l1 = h.l1tex_totals();
    // An organisation reports the local/remote split (docs/contracts.md): the L1s stay private.
    r.frame_metrics.emplace_back("l1tex.local_hits", static_cast<double>(l1.hits));
    r.frame_metrics.emplace_back("ghb.trained", static_cast<double>(counters_.trained));
    r.frame_metrics.emplace_back("ghb.prefetches", static_cast<double>(counters_.predictions));
    r.frame_metrics.emplace_back("ghb.useful", static_cast<double>(l1.prefetch_hits));
    r.frame_metrics.emplace_back("ghb.late", static_cast<double>(l1.late_prefetch_hits));
  }
  // The buffer (a line address and a link per entry, 12 B) and the index table (a delta pair and
  // a pointer, 12 B per entry) are small RAMs (energy.h small_ram, the docs/model.md ("Energy") 1 KiB
  // RAM scaled): per miss the index is read and written and the miss written to the buffer; each
  // prediction reads one buffer entry.
  void energy(const MemoryHierarchy&, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    constexpr double kEntryBytes = 12;
    const double buffer_bytes = kEntryBytes * entries_, index_bytes = kEntryBytes * index_entries_;
    const AccessEnergy buffer = small_ram(p.tech, buffer_bytes), index = small_ram(p.tech, index_bytes);
    const double trained = static_cast<double>(counters_.trained);
    StructureEnergy s{"ghb", false};
    s.reads = counters_.trained + counters_.predictions;
    s.writes = 2 * counters_.trained;
    s.dynamic_nj = (trained * (index.read_pj + index.write_pj + buffer.write_pj) +
                    static_cast<double>(counters_.predictions) * buffer.read_pj) * 1e-3;
    s.leakage_nj = p.sram_leakage_nj((buffer_bytes + index_bytes) / 1024.0 * cores_, cycles);
    out.push_back(s);
  }

 private:
  uint32_t entries_, index_entries_, degree_, cores_;
  GhbCounters counters_;
};

}  // namespace

void register_prefetch_ghb(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "prefetch-ghb";
  s.paper = "002";
  s.section = "3, Fig. 3";
  s.description = "GHB G/DC prefetcher (Nesbit and Smith, HPCA 2004) trained on each L1 texture cache's misses";
  s.preset = "tegra2";
  // Nesbit and Smith's evaluated configuration: 256-entry buffer and index table; degree ours.
  s.params = {
      ParamSpec{"ghb.entries", ParamType::Int, "256", "Global History Buffer entries (miss addresses) per L1", 3,
                1 << 20, {}},
      ParamSpec{"ghb.index_entries", ParamType::Int, "256", "index table entries (delta pairs) per L1", 1, 1 << 20, {}},
      ParamSpec{"ghb.degree", ParamType::Int, "4", "lines prefetched per miss whose delta pair recurs", 1, 64, {}},
  };
  s.hooks = {HookKind::TextureOrganisation};
  // It is itself a texture prefetcher, though it takes the organisation seam to watch the misses.
  s.conflicts = {{HookKind::Prefetcher,
                  "two prefetchers would fill the same L1s and each count the other's useful prefetches "
                  "(both read l1tex.prefetch_hits)"}};
  s.metrics = {"l1tex.local_hits", "ghb.trained", "ghb.prefetches", "ghb.useful", "ghb.late", "energy.ghb_nj"};
  SchemeVariant v;
  v.name = "prefetch-ghb";
  v.description = "section 3: a GHB G/DC prefetcher per L1 texture cache";
  v.apply = [](ParamSet&) {};
  s.variants.push_back(std::move(v));
  s.make = [](const ParamSet& p) { return std::make_unique<GhbInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
