// DAE (paper 002 section 3, Fig. 2b): decoupled access/execute pixel processors. While a quad
// waits in the tile queue its texture line addresses, computed from the per-pixel information,
// enter its processor's prefetch queue and are dispatched to the L1 ahead of execution; a Source
// field, set by an associative match against the other processors' queued requests, redirects a
// prefetch that misses to the L1 of the processor that is fetching the same line (inter-core
// sharing) instead of L2. dae-no-sharing is the same without the Source field.
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "dae/prefetch_queue.h"
#include "dtm-nuca/network_energy.h"
#include "tessera/model/energy.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using dae::PrefetchQueues;

// One queue entry: the line address (a 64-bit word is ample for the 58-bit line number) with
// its Source field and valid bit packed in: 8 bytes.
constexpr double kEntryBytes = 8;
// A request to another processor's L1 carries the line address (8 B); the reply, the 64 B line.
constexpr double kRequestBits = 8 * 8, kLineBits = 64 * 8;

struct DaeCounters {
  uint64_t prefetches = 0;       // entries queued (each dispatched once to its L1)
  uint64_t duplicates = 0;       // lines already waiting in the same queue
  uint64_t dropped = 0;          // lines offered to a full queue
  uint64_t remote_served = 0;    // prefetch fills brought from another processor's L1
  uint64_t remote_misses = 0;    // Source processors asked that no longer held the line
  uint64_t compared = 0;         // queued entries the Source match compared an address with
  uint64_t dependent_reads = 0;  // samples of queued quads whose coordinates need an earlier sample
};

class DaePrefetcher final : public TexturePrefetcher {
 public:
  DaePrefetcher(uint32_t cores, uint32_t entries, uint32_t issue_rate, bool sharing, uint32_t remote_latency,
                uint32_t lookahead)
      : queues_(cores, entries, issue_rate, sharing), remote_latency_(remote_latency), lookahead_(lookahead),
        cores_(cores) {}

  // A quad early-Z keeps entered the tile queue of `core`: its lines are computed now; they enter
  // the prefetch queue once the quad is among the `lookahead` quads nearest the core.
  void quad_queued(MemoryHierarchy& h, uint32_t core, std::span<const uint64_t> lines, uint32_t dependent_samples,
                   uint64_t now) override {
    counters.dependent_reads += dependent_samples;
    Core& c = cores_[core];
    if (c.released < lookahead_) {
      ++c.released;
      release(h, core, lines, now);
    } else {
      c.held.emplace_back(lines.begin(), lines.end());
    }
  }
  // The oldest queued quad went to the core: the next held quad comes within reach.
  void quad_started(MemoryHierarchy& h, uint32_t core, uint64_t now) override {
    Core& c = cores_[core];
    if (c.released > 0) --c.released;
    while (c.released < lookahead_ && !c.held.empty()) {
      ++c.released;
      release(h, core, c.held.front(), now);
      c.held.pop_front();
    }
  }

  void clear() {
    queues_.clear();
    for (Core& c : cores_) c = {};
    counters = {};
  }

  DaeCounters counters;

 private:
  struct Core {
    uint32_t released = 0;                    // queued quads whose lines entered the prefetch queue
    std::deque<std::vector<uint64_t>> held;  // the lines of the queued quads beyond the lookahead
  };

  void release(MemoryHierarchy& h, uint32_t core, std::span<const uint64_t> lines, uint64_t now) {
    for (uint64_t addr : lines) {
      const PrefetchQueues::Insert in = queues_.insert(core, addr, now);
      counters.compared += in.compared;
      if (in.kind == PrefetchQueues::Insert::Duplicate) {
        ++counters.duplicates;
        continue;
      }
      if (in.kind == PrefetchQueues::Insert::Full) {
        ++counters.dropped;
        continue;
      }
      ++counters.prefetches;
      // The prefetch is handed to the hierarchy now, for the cycle it leaves the queue (the model
      // computes ahead, README "Model choices"): its fill time is recorded, and a demand access
      // before then waits for it.
      const uint32_t source = in.source == PrefetchQueues::kL2 ? MemoryHierarchy::kNoSourceCore : in.source;
      const MemoryHierarchy::PrefetchOutcome o = h.prefetch_texture(core, addr, in.dispatch, source, remote_latency_);
      counters.remote_served += o.served_by == ServedBy::Remote;
      counters.remote_misses += o.remote_miss;
    }
  }

  PrefetchQueues queues_;
  uint32_t remote_latency_, lookahead_;
  std::vector<Core> cores_;
};

// The quads of a core's tile queue whose lines are prefetched: dae.lookahead, or with 0 the whole
// tile queue (queue.fragment: paper 002 section 3 prefetches "while the pixels are waiting in the
// tile queue").
uint32_t lookahead(const ParamSet& p) {
  const uint32_t n = p.get_u32("dae.lookahead");
  const uint32_t queue = p.get_u32("queue.fragment");
  // A cap beyond the queue caps nothing: refused rather than ignored.
  if (n > queue) {
    throw ParamError("dae.lookahead=" + std::to_string(n) + " caps nothing beyond the tile queue's queue.fragment=" +
                     std::to_string(queue) + " quads; 0 takes the whole queue");
  }
  return n == 0 ? queue : n;
}

class DaeInstance final : public SchemeInstance {
 public:
  explicit DaeInstance(const ParamSet& p)
      : cores_(p.get_u32("gpu.shader_cores")),
        entries_(p.get_u32("dae.queue_entries")),
        sharing_(p.get_bool("dae.sharing")),
        prefetcher_(std::make_shared<DaePrefetcher>(cores_, entries_, p.get_u32("dae.issue_rate"), sharing_,
                                                    p.get_u32("dae.remote_latency"), lookahead(p))) {
    if (sharing_ && cores_ < 2) throw ParamError("dae.sharing=true needs at least two shader cores (gpu.shader_cores is 1)");
    // Without the Source field no prefetch asks another processor's L1: a parameter that does
    // nothing is refused rather than silently ignored (as nuca_config.cpp refuse_unused).
    const ParamSet defaults(p.registry());
    if (!sharing_ && p.text("dae.remote_latency") != defaults.text("dae.remote_latency")) {
      throw ParamError("dae.remote_latency=" + p.text("dae.remote_latency") +
                       " does nothing with dae.sharing=false (dae-no-sharing: every prefetch reads L2, no other "
                       "processor's L1); leave it at " + defaults.text("dae.remote_latency"));
    }
  }
  void install(Hooks& hooks) override { hooks.prefetcher = prefetcher_; }
  void frame_begin(MemoryHierarchy&) override { prefetcher_->clear(); }
  void frame_end(const MemoryHierarchy& h, FrameResults& r) override {
    const DaeCounters& c = prefetcher_->counters;
    const CacheCounters l1 = h.l1tex_totals();
    auto put = [&](const char* n, uint64_t v) { r.frame_metrics.emplace_back(n, static_cast<double>(v)); };
    put("dae.prefetches", c.prefetches);
    put("dae.useful", l1.prefetch_hits);
    put("dae.late", l1.late_prefetch_hits);
    put("dae.dropped", c.dropped);
    put("dae.duplicates", c.duplicates);
    put("dae.dependent_reads", c.dependent_reads);
    if (sharing_) {
      put("dae.remote_served", c.remote_served);
      put("dae.remote_misses", c.remote_misses);
      put("dae.source_compares", c.compared);
    }
  }
  void energy(const MemoryHierarchy&, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    const DaeCounters& c = prefetcher_->counters;
    // The prefetch queues: small RAMs (energy.h small_ram: the docs/model.md ("Energy") 1 KiB 128-bit
    // RAM, CACTI 7.0, scaled by technology and sqrt(capacity)); an entry is written when queued
    // and read when dispatched. The Source match compares the new address with every entry queued
    // for the other processors: one 64-bit equality compare each, charged as two 32-bit integer
    // adds (Horowitz ISSCC 2014, energy.h int_add_pj).
    const double queue_bytes = kEntryBytes * entries_;
    const AccessEnergy ram = small_ram(p.tech, queue_bytes);
    StructureEnergy queue{"dae_queue", false};
    queue.reads = c.prefetches;
    queue.writes = c.prefetches;
    queue.dynamic_nj = (static_cast<double>(c.prefetches) * (ram.read_pj + ram.write_pj) +
                        static_cast<double>(c.compared) * 2 * int_add_pj(p.tech)) * 1e-3;
    queue.leakage_nj = p.sram_leakage_nj(queue_bytes / 1024.0 * cores_, cycles);
    out.push_back(queue);
    if (!sharing_) return;
    // Inter-core transfers (paper 002 gives no interconnect): a request and a 64 B reply between
    // neighbouring pixel processors, each bit over one router and a 1 mm link each way
    // (dtm-nuca/network_energy.h: the same wire and router figures as paper 000's mesh), plus the
    // source L1's read (16 KiB 4-way read energy). A Source that no longer holds the line costs
    // the request, a tag probe charged as a read, and a short negative answer.
    const double bit_pj = dtm_nuca::kRouterPjPerBit + dtm_nuca::kLinkPjPerBitMm * dtm_nuca::kTilePitchMm;
    const double served = static_cast<double>(c.remote_served), missed = static_cast<double>(c.remote_misses);
    StructureEnergy remote{"dae_remote", true};
    remote.reads = c.remote_served + c.remote_misses;
    remote.dynamic_nj = (served * ((kRequestBits + kLineBits) * bit_pj) + missed * (2 * kRequestBits * bit_pj) +
                         (served + missed) * sram_16kib_4way(p.tech).read_pj) * 1e-3;
    out.push_back(remote);
  }

 private:
  uint32_t cores_, entries_;
  bool sharing_;
  std::shared_ptr<DaePrefetcher> prefetcher_;
};

SchemeVariant variant(std::string name, std::string description, bool sharing) {
  return parameter_variant(std::move(name), std::move(description), "dae.sharing", sharing ? "true" : "false");
}

}  // namespace

void register_dae(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "dae";
  s.paper = "002";
  s.section = "3, Fig. 2b";
  s.description = "DAE: texture lines of queued quads prefetched ahead of execution, Source field for inter-core sharing";
  s.preset = "tegra2";
  // Paper 002 gives no sizes for the prefetch queue or the interconnect: ours (README).
  s.params = {
      ParamSpec{"dae.queue_entries", ParamType::Int, "32", "prefetch queue entries (lines) per pixel processor", 1,
                1 << 16, {}},
      ParamSpec{"dae.lookahead", ParamType::Int, "0",
                "quads of a processor's tile queue, nearest the core, whose lines are prefetched (0: the whole tile "
                "queue, queue.fragment)",
                0, 1 << 16, {}},
      ParamSpec{"dae.issue_rate", ParamType::Int, "1", "prefetches a processor's queue dispatches to its L1 per cycle",
                1, 64, {}},
      ParamSpec{"dae.remote_latency", ParamType::Int, "4",
                "cycles to ask another processor's L1 for a line and receive it (request and reply)", 0, 10000, {}},
      ParamSpec{"dae.sharing", ParamType::Bool, "true",
                "Source field: a prefetch whose line another queue holds is served by that processor's L1", 0, 0, {}},
  };
  s.hooks = {HookKind::Prefetcher};
  s.metrics = {"dae.prefetches",    "dae.useful",        "dae.late",           "dae.dropped",
               "dae.duplicates",    "dae.dependent_reads", "dae.remote_served", "dae.remote_misses",
               "dae.source_compares", "energy.dae_queue_nj", "energy.dae_remote_nj"};
  s.variants.push_back(variant("dae", "section 3: prefetch queues with the Source field (inter-core sharing)", true));
  s.variants.push_back(variant("dae-no-sharing", "section 3: prefetch queues, every prefetch from L2", false));
  s.make = [](const ParamSet& p) { return std::make_unique<DaeInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
