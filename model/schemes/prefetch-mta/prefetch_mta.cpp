// The MTA prefetcher on the L1 texture caches (paper 002 section 3, Fig. 3a: "the Many-Thread
// Aware prefetcher [LLKV10] (specifically designed for GPUs) ... provide an average speedup of up
// to 1.9x" at one warp, the better of it and GHB). Each core has its own tables and throttle
// (many_thread_aware.h), trained on every texture instruction of its quads: a warp is the thread
// slot a quad holds in its core (MemRequest::warp), the PC the quad's draw and the instruction's
// index in its shader (MemRequest::pc), the access's address the line of its first L1 request.
// A prediction of address a + s moves the whole footprint by s: each line of the access is
// prefetched s further on, one per cycle after its request is accepted, into the same L1. The L1
// stays the built-in private cache; this organisation only watches its requests.
#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "prefetch-mta/many_thread_aware.h"
#include "tessera/model/energy.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using mta::ManyThreadAware;
using mta::Source;
using mta::Throttle;

struct MtaCounters {
  uint64_t trained = 0;      // accesses (texture instructions of a quad) the tables saw
  uint64_t by_source[4] = {};  // accesses each table predicted for (index: Source)
  uint64_t predictions = 0;  // lines predicted
  uint64_t throttled = 0;    // predicted lines the throttle held back
  uint64_t held = 0;         // predicted lines the L1 already held (not sent)
  uint64_t prefetches = 0;   // prefetches sent to the L1
  uint64_t periods = 0;      // throttle periods ended, over every core
  uint64_t promotions = 0;   // strides promoted to GS this frame
};

struct MtaParams {
  mta::Config table;
  mta::ThrottleConfig throttle;
  bool throttling = true;
  uint64_t period = 100000;
};

class MtaOrganisation final : public TextureOrganisation {
 public:
  MtaOrganisation(const MemoryHierarchy& h, const MtaParams& p, MtaCounters& counters)
      : p_(p), line_shift_(static_cast<uint32_t>(std::countr_zero(h.config().l1tex.line_bytes))), counters_(counters) {
    for (uint32_t c = 0; c < h.config().shader_cores; ++c) {
      cores_.push_back(Core{ManyThreadAware(p.table), Throttle(p.throttle), {}, 0, 0, {}});
    }
  }

  MemResponse access(MemoryHierarchy& h, const MemRequest& r, uint64_t now) override {
    const MemResponse m = h.access_private_l1(r, now);
    if (h.config().track_replication) h.record_replication(r.addr);
    Core& c = cores_[r.unit];
    if (p_.throttling) period(h, r.unit, now);
    const uint64_t line = r.addr >> line_shift_;
    if (r.access_line == 0) {
      // A new access of a warp: train, and keep the predicted moves for its other lines.
      ++counters_.trained;
      predicted_.clear();
      const Source s = c.tables.access(r.pc, r.warp, line, predicted_);
      ++counters_.by_source[static_cast<size_t>(s)];
      c.moves.clear();
      for (uint64_t p : predicted_) c.moves.push_back(p - line);
      const uint64_t promoted = c.tables.promotions();
      counters_.promotions += promoted - c.promotions_seen;
      c.promotions_seen = promoted;
    }
    // The prefetches follow the request once it is accepted, one per cycle.
    uint64_t t = now + m.accept_delay;
    for (uint64_t move : c.moves) {
      const uint64_t target = (line + move) << line_shift_;
      ++counters_.predictions;
      if (p_.throttling && !c.throttle.allow()) {
        ++counters_.throttled;
        continue;
      }
      uint64_t ready = 0;
      if (h.l1tex(r.unit).probe(target, &ready)) {
        ++counters_.held;
        continue;
      }
      ++counters_.prefetches;
      h.prefetch_texture(r.unit, target, ++t);
    }
    return m;
  }

  // A new frame restarts the L1 counters the throttle reads; the tables, degrees and the period
  // carry over (the run's clock goes on: a period restarted at 0 would end at the frame's first
  // request with nothing counted, and the throttle would read it as no merges).
  void frame_begin() {
    for (Core& c : cores_) {
      c.last = {};
      c.promotions_seen = c.tables.promotions();
    }
  }
  double mean_degree() const {
    double sum = 0;
    for (const Core& c : cores_) sum += c.throttle.degree();
    return cores_.empty() ? 0 : sum / static_cast<double>(cores_.size());
  }

 private:
  struct Snapshot {
    uint64_t early = 0, useful = 0, merges = 0, misses = 0;
  };
  struct Core {
    ManyThreadAware tables;
    Throttle throttle;
    std::vector<uint64_t> moves;        // the current access's predicted moves (lines, mod 2^64)
    uint64_t period_start = 0;
    uint64_t promotions_seen = 0;
    Snapshot last;
  };
  // Ends the core's throttle period when `now` has passed it: the L1's early evictions, useful
  // prefetches, merges and misses since the last end.
  void period(const MemoryHierarchy& h, uint32_t core, uint64_t now) {
    Core& c = cores_[core];
    if (now < c.period_start + p_.period) return;
    const CacheCounters& l1 = h.l1tex(core).counters();
    const Snapshot s{l1.prefetch_evictions, l1.prefetch_hits, l1.mshr_merges, l1.misses};
    const uint64_t merges = s.merges - c.last.merges;
    c.throttle.period_end(s.early - c.last.early, s.useful - c.last.useful, merges, s.misses - c.last.misses + merges);
    c.last = s;
    c.period_start = now - (now - c.period_start) % p_.period;
    ++counters_.periods;
  }

  const MtaParams& p_;
  uint32_t line_shift_;
  MtaCounters& counters_;
  std::vector<Core> cores_;
  std::vector<uint64_t> predicted_;
};

class MtaInstance final : public SchemeInstance {
 public:
  explicit MtaInstance(const ParamSet& p) : cores_(p.get_u32("gpu.shader_cores")) {
    p_.table.pws_entries = p.get_u32("mta.pws_entries");
    p_.table.gs_entries = p.get_u32("mta.gs_entries");
    p_.table.ip_entries = p.get_u32("mta.ip_entries");
    p_.table.promote_warps = p.get_u32("mta.promote_warps");
    p_.table.train_accesses = p.get_u32("mta.train_accesses");
    p_.table.distance = p.get_u32("mta.distance");
    p_.table.degree = p.get_u32("mta.degree");
    p_.throttling = p.get_bool("mta.throttle");
    p_.period = p.get_u32("mta.period");
    p_.throttle.initial = p.get_u32("mta.throttle_initial");
    // The throttle's own parameters do nothing without it: refused rather than ignored.
    if (!p_.throttling) {
      const ParamSet defaults(p.registry());
      for (const char* name : {"mta.period", "mta.throttle_initial"}) {
        if (p.text(name) != defaults.text(name)) {
          throw ParamError(std::string(name) + "=" + p.text(name) + " does nothing with mta.throttle=false; leave it at " +
                           defaults.text(name));
        }
      }
    }
    // Fails here, with the parameters named, rather than at the first frame.
    ManyThreadAware check(p_.table);
    Throttle check_throttle(p_.throttle);
  }
  void install(Hooks& hooks) override {
    hooks.texture_organisation = [this](MemoryHierarchy& h) {
      auto o = std::make_unique<MtaOrganisation>(h, p_, counters_);
      organisation_ = o.get();
      return o;
    };
  }
  void frame_begin(MemoryHierarchy&) override {
    counters_ = {};
    if (organisation_) organisation_->frame_begin();
  }
  void frame_end(const MemoryHierarchy& h, FrameResults& r) override {
    const CacheCounters l1 = h.l1tex_totals();
    auto put = [&](const char* n, double v) { r.frame_metrics.emplace_back(n, v); };
    // An organisation reports the local/remote split (docs/contracts.md): the L1s stay private.
    put("l1tex.local_hits", static_cast<double>(l1.hits));
    put("mta.trained", static_cast<double>(counters_.trained));
    put("mta.predicted_gs", static_cast<double>(counters_.by_source[static_cast<size_t>(Source::GlobalStride)]));
    put("mta.predicted_ip", static_cast<double>(counters_.by_source[static_cast<size_t>(Source::InterWarp)]));
    put("mta.predicted_pws", static_cast<double>(counters_.by_source[static_cast<size_t>(Source::PerWarp)]));
    put("mta.promotions", static_cast<double>(counters_.promotions));
    put("mta.predictions", static_cast<double>(counters_.predictions));
    put("mta.throttled", static_cast<double>(counters_.throttled));
    put("mta.held", static_cast<double>(counters_.held));
    put("mta.prefetches", static_cast<double>(counters_.prefetches));
    put("mta.useful", static_cast<double>(l1.prefetch_hits));
    put("mta.late", static_cast<double>(l1.late_prefetch_hits));
    put("mta.early_evictions", static_cast<double>(l1.prefetch_evictions));
    if (p_.throttling) {
      put("mta.periods", static_cast<double>(counters_.periods));
      put("mta.degree", organisation_ ? organisation_->mean_degree() : 0.0);
    }
  }
  // The tables are small RAMs (energy.h small_ram, the docs/model.md ("Energy") 1 KiB RAM scaled):
  // a PWS or IP entry holds a PC, a warp, an address, a stride and a count (16 B), a GS entry a PC
  // and a stride (8 B). Per access GS and IP are read and the IP entry written; PWS is read and
  // written when reached (charged on every access: an upper bound). Each prefetch sent reads
  // nothing more (the move is kept with the access).
  void energy(const MemoryHierarchy&, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    constexpr double kStrideBytes = 16, kGlobalBytes = 8;
    const double pws_bytes = kStrideBytes * p_.table.pws_entries, ip_bytes = kStrideBytes * p_.table.ip_entries,
                 gs_bytes = kGlobalBytes * p_.table.gs_entries;
    const AccessEnergy pws = small_ram(p.tech, pws_bytes), ip = small_ram(p.tech, ip_bytes),
                       gs = small_ram(p.tech, gs_bytes);
    const double n = static_cast<double>(counters_.trained);
    StructureEnergy s{"mta", false};
    s.reads = 3 * counters_.trained;
    s.writes = 2 * counters_.trained;
    s.dynamic_nj = n * (gs.read_pj + ip.read_pj + ip.write_pj + pws.read_pj + pws.write_pj) * 1e-3;
    s.leakage_nj = p.sram_leakage_nj((pws_bytes + ip_bytes + gs_bytes) / 1024.0 * cores_, cycles);
    out.push_back(s);
  }

 private:
  uint32_t cores_;
  MtaParams p_;
  MtaCounters counters_;
  MtaOrganisation* organisation_ = nullptr;
};

}  // namespace

void register_prefetch_mta(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "prefetch-mta";
  s.paper = "002";
  s.section = "3, Fig. 3";
  s.description =
      "Many-Thread Aware prefetcher (Lee et al., MICRO 2010): per-warp, promoted and inter-warp strides per texture "
      "instruction, throttled by early evictions and merges";
  s.preset = "tegra2";
  // Sources per parameter: README.md.
  s.params = {
      ParamSpec{"mta.pws_entries", ParamType::Int, "32", "per-warp stride table entries (PC, warp) per core", 1, 4096, {}},
      ParamSpec{"mta.gs_entries", ParamType::Int, "8", "global stride table entries (promoted PCs) per core", 1, 4096, {}},
      ParamSpec{"mta.ip_entries", ParamType::Int, "8", "inter-warp stride table entries (PCs) per core", 1, 4096, {}},
      ParamSpec{"mta.promote_warps", ParamType::Int, "3",
                "warps whose trained per-warp strides for one PC must agree to promote it to the global table", 1, 4096,
                {}},
      ParamSpec{"mta.train_accesses", ParamType::Int, "3",
                "accesses with one repeated stride that train a per-warp or inter-warp entry", 2, 64, {}},
      ParamSpec{"mta.distance", ParamType::Int, "1", "strides ahead of the access its first prefetch goes", 1, 64, {}},
      ParamSpec{"mta.degree", ParamType::Int, "1", "prefetches per prediction (distance, distance + 1, ... strides ahead)",
                1, 16, {}},
      ParamSpec{"mta.throttle", ParamType::Bool, "true",
                "adaptive throttling by the early eviction rate and the merge ratio", 0, 0, {}},
      ParamSpec{"mta.period", ParamType::Int, "100000", "cycles of a throttling period", 1, 1u << 30, {}},
      ParamSpec{"mta.throttle_initial", ParamType::Int, "2",
                "throttle degree at the start of a run: of every 5 predictions, this many are not sent", 0, 5, {}},
  };
  s.hooks = {HookKind::TextureOrganisation};
  // It is itself a texture prefetcher, though it takes the organisation seam to watch the requests.
  s.conflicts = {{HookKind::Prefetcher,
                  "two prefetchers would fill the same L1s and each count the other's useful prefetches "
                  "(both read l1tex.prefetch_hits)"}};
  s.metrics = {"l1tex.local_hits", "mta.trained",   "mta.predicted_gs", "mta.predicted_ip", "mta.predicted_pws",
               "mta.promotions",   "mta.predictions", "mta.throttled",  "mta.held",         "mta.prefetches",
               "mta.useful",       "mta.late",      "mta.early_evictions", "mta.periods",   "mta.degree",
               "energy.mta_nj"};
  SchemeVariant v;
  v.name = "prefetch-mta";
  v.description = "section 3: an MTA prefetcher per L1 texture cache";
  v.apply = [](ParamSet&) {};
  s.variants.push_back(std::move(v));
  s.make = [](const ParamSet& p) { return std::make_unique<MtaInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
