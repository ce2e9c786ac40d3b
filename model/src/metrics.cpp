#include "metrics.h"

namespace tessera::model {

namespace {

template <class T>
struct Counter {
  const char* name;
  uint64_t T::*field;
};

constexpr Counter<FrameResults> kFrameCounters[] = {
    {"cycles", &FrameResults::cycles},
    {"cycles.geometry", &FrameResults::geometry_cycles},
    {"cycles.raster", &FrameResults::raster_cycles},
    {"passes", &FrameResults::passes},
    {"draws", &FrameResults::draws},
    {"tiles", &FrameResults::tiles},
    {"quads", &FrameResults::quads},
    {"quads.shaded", &FrameResults::shaded_quads},
    {"fragments", &FrameResults::fragments},
    {"texture.samples", &FrameResults::texture_samples},
    {"texture.lines", &FrameResults::texture_lines},
    {"texture.texel_reads", &FrameResults::texture_texel_reads},
    {"vertex.texture_samples", &FrameResults::vertex_texture_samples},
    {"vertex.texture_lines", &FrameResults::vertex_texture_lines},
};

// Every cache: <cache>.<counter>. `fetches` are the line reads sent below, not always the misses:
// a full-line write miss (a write-back arriving from the level above) allocates without reading
// the line (README, "Cache").
constexpr Counter<CacheCounters> kCacheCounters[] = {
    {"accesses", &CacheCounters::accesses},
    {"hits", &CacheCounters::hits},
    {"misses", &CacheCounters::misses},
    {"read_misses", &CacheCounters::read_misses},
    {"write_misses", &CacheCounters::write_misses},
    {"evictions", &CacheCounters::evictions},
    {"writebacks", &CacheCounters::writebacks},
    {"fetches", &CacheCounters::fetches},
    {"write_throughs", &CacheCounters::write_throughs},
    {"bypasses", &CacheCounters::bypasses},
    {"prefetches", &CacheCounters::prefetches},
    {"prefetch_fills", &CacheCounters::prefetch_fills},
    {"prefetch_hits", &CacheCounters::prefetch_hits},
    {"late_prefetch_hits", &CacheCounters::late_prefetch_hits},
    {"mshr_merges", &CacheCounters::mshr_merges},
    {"mshr_stall_cycles", &CacheCounters::mshr_stall_cycles},
    {"dead_drops", &CacheCounters::dead_drops},
};

constexpr Counter<DramCounters> kDramCounters[] = {
    {"dram.reads", &DramCounters::reads},
    {"dram.writes", &DramCounters::writes},
    {"dram.bytes", &DramCounters::bytes},
    {"dram.row_hits", &DramCounters::row_hits},
    {"dram.row_misses", &DramCounters::row_misses},
};
constexpr std::pair<const char*, DramSource> kDramSourceNames[] = {
    {"dram.l2_fetches", DramSource::L2Fetch},
    {"dram.l2_writes", DramSource::L2Write},
    {"dram.color_flushes", DramSource::ColorFlush},
    {"dram.attachment_loads", DramSource::Other},
};

constexpr Counter<CoreActivity> kActivityCounters[] = {
    {"core.lane_instructions", &CoreActivity::fragment_lane_instructions},
    {"core.issue_cycles", &CoreActivity::fragment_issue_cycles},
    {"vertex_shader.lane_instructions", &CoreActivity::vertex_lane_instructions},
    {"vertex_shader.issue_cycles", &CoreActivity::vertex_issue_cycles},
    {"queue.vertex.pushes", &CoreActivity::vertex_queue_pushes},
    {"queue.triangle.pushes", &CoreActivity::triangle_queue_pushes},
    {"queue.fragment.pushes", &CoreActivity::fragment_queue_pushes},
    {"queue.color.pushes", &CoreActivity::color_queue_pushes},
    {"texture.probes", &CoreActivity::texture_probes},
    {"raster.quads", &CoreActivity::quads_rasterized},
    {"earlyz.quads", &CoreActivity::quads_depth_tested},
    {"blend.quads", &CoreActivity::quads_blended},
    {"tile_buffers.loads", &CoreActivity::tile_buffer_loads},
    {"tile_buffers.flushes", &CoreActivity::tile_buffer_flushes},
};

constexpr Counter<OpCounts> kOpCounters[] = {
    {"alu_ops", &OpCounts::alu},
    {"sfu_ops", &OpCounts::sfu},
    {"varying_components", &OpCounts::varying},
    {"texture_instructions", &OpCounts::texture},
    {"memory_ops", &OpCounts::memory},
};

double d(uint64_t v) { return static_cast<double>(v); }

}  // namespace

const char* core_state_name(CoreState s) {
  switch (s) {
    case CoreState::Busy: return "busy";
    case CoreState::TextureWait: return "texture_wait";
    case CoreState::UnitWait: return "unit_wait";
    case CoreState::BarrierWait: return "barrier_wait";
    case CoreState::Blocked: return "blocked";
    case CoreState::Starved: return "starved";
  }
  return "?";
}

uint64_t CoreCycles::total() const {
  uint64_t t = 0;
  for (uint64_t v : by_state) t += v;
  return t;
}

void emit_frame_metrics(FrameResults& r, const MetricSources& src) {
  const MemoryHierarchy& h = src.hierarchy;
  auto& m = r.frame_metrics;
  auto put = [&](std::string n, double v) { m.emplace_back(std::move(n), v); };
  for (const auto& c : kFrameCounters) put(c.name, d(r.*c.field));
  put("sim.warm", r.warm ? 1 : 0);

  auto cache = [&](const std::string& n, const CacheCounters& c) {
    for (const auto& k : kCacheCounters) put(n + "." + k.name, d(c.*k.field));
  };
  const CacheCounters l1 = h.l1tex_totals();
  cache("l1tex", l1);
  // With the built-in private L1s every hit is a local hit; an organisation (DTM-NUCA) that
  // serves remote hits reports them itself.
  if (!src.texture_organisation) put("l1tex.local_hits", d(l1.hits));
  // Paper 002 section 3 (66.3 % of misses): only while the hierarchy keeps holder counts.
  if (h.tracks_remote_residency()) put("l1tex.misses_remote_resident", d(h.l1tex_misses_remote_resident()));
  if (src.front_buffer) put("tfm.hits", d(r.front_buffer_hits));
  // Paper 004 Fig. 8 counts hits per texel lookup (Algorithm 1). A sample's texels after the first
  // of a line find it present, so only the L1's misses are texel misses.
  if (r.texture_texel_reads > 0)
    put("l1tex.texel_hit_rate", 1.0 - d(l1.misses) / d(r.texture_texel_reads));
  cache("vertex", h.vertex_totals());
  if (!src.tile_organisation) {
    // A tile-cache organisation (TCOR) replaces the unified tile cache and reports its own.
    const CacheCounters& tc = h.tile_cache().counters();
    cache("tile", tc);
    // Only OPT bypasses, and only writes (paper 003 section III-C4).
    put("tile.write_bypasses", d(tc.bypasses));
    // Section V-A's bound counted in lines of the unified cache; TCOR's own tcor.lower_bound counts
    // primitives of its Attribute Cache, the paper's metric (tile_cache.cpp).
    put("tile.lower_bound_lines", d(r.tile_lower_bound));
  }
  const CacheCounters& l2 = h.l2().counters();
  cache("l2", l2);
  uint64_t l2_tex = 0, l2_vx = 0;
  for (uint32_t c = 0; c < src.config.cores; ++c) l2_tex += l2.per_requester[h.l2_requester_texture(c)].accesses;
  for (uint32_t v = 0; v < src.config.vertex_processors; ++v) l2_vx += l2.per_requester[h.l2_requester_vertex(v)].accesses;
  put("l2.texture_accesses", d(l2_tex));
  put("l2.vertex_accesses", d(l2_vx));
  // Parameter Buffer traffic (paper 003 Figs. 14-17): what the tile cache (or its organisation)
  // sent to L2, and the lines L2 read from and wrote to DRAM for it.
  const uint32_t pb = h.l2_requester_tile();
  put("pb.l2_accesses", d(l2.per_requester[pb].accesses));
  put("pb.dram_accesses", d(h.dram_fetches_for(pb) + h.dram_writes_for(pb)));
  put("pb.writebacks", d(h.dram_writes_for(pb)));
  put("tile_fetcher.primitives", d(r.tile_fetcher_primitives));
  put("tile_fetcher.active_cycles", d(r.tile_fetcher_active_cycles));
  put("tile_fetcher.prims_per_cycle",
      r.tile_fetcher_active_cycles ? d(r.tile_fetcher_primitives) / d(r.tile_fetcher_active_cycles) : 0);

  const DramCounters& dc = h.dram().counters();
  put("dram.accesses", d(dc.accesses()));
  // The share of main memory traffic no texture or Parameter Buffer scheme can touch.
  put("dram.flush_share",
      dc.accesses() ? d(dc.per_source[static_cast<uint32_t>(DramSource::ColorFlush)]) / d(dc.accesses()) : 0);
  put("dram.bank_wait_cycles", dc.bank_wait_cycles);
  put("dram.bus_wait_cycles", dc.queue_cycles);
  put("dram.turnarounds", d(dc.turnarounds));
  put("dram.read_latency_avg", dc.reads ? dc.read_latency_cycles / d(dc.reads) : 0);
  const InterconnectCounters& ic = h.interconnect();
  put("interconnect.request_flits", d(ic.request_flits));
  put("interconnect.response_flits", d(ic.response_flits));
  put("interconnect.wait_cycles", d(ic.wait_cycles));
  for (const auto& c : kDramCounters) put(c.name, d(dc.*c.field));
  for (const auto& [name, source] : kDramSourceNames) put(name, d(dc.per_source[static_cast<uint32_t>(source)]));
  put("dram.pages", d(h.dram().pages_mapped()));

  for (const StageStats& s : r.stages) {
    put("stage." + s.name + ".busy_cycles", d(s.busy_cycles));
    put("stage." + s.name + ".stall_cycles", d(s.stall_cycles));
    if (s.name == "earlyz" || s.name == "fragment" || s.name == "blend") {
      put("stage." + s.name + ".queue_wait_cycles", d(s.queue_wait_cycles));
    }
  }
  for (const auto& c : kActivityCounters) put(c.name, d(r.activity.*c.field));
  for (const auto& c : kOpCounters) {
    put(std::string("core.") + c.name, d(r.activity.fragment_ops.*c.field));
    put(std::string("vertex_shader.") + c.name, d(r.activity.vertex_ops.*c.field));
  }
  // Where the shader cores' cycles went, the mean over cores (each core's sum is `cycles`), and
  // the frame's bound: the largest of them (1 busy: shader-bound; 2 texture; 3 varying or
  // load/store unit; 4 barrier; 5 blocked by blending or the flush; 6 starved: the front end).
  if (!r.cores.empty()) {
    double best = -1;
    uint32_t bound = 0;
    for (uint32_t s = 0; s < kCoreStates; ++s) {
      double sum = 0;
      for (const CoreStats& c : r.cores) sum += d(c.cycles.by_state[s]);
      const double mean = sum / d(r.cores.size());
      put(std::string("core.cycles.") + core_state_name(static_cast<CoreState>(s)), mean);
      if (mean > best) {
        best = mean;
        bound = s + 1;
      }
    }
    put("frame.bound", bound);
  }
  if (src.sim_events) {
    for (uint32_t k = 0; k < kUnitKinds; ++k) put(std::string("sim.events.") + kUnitKindNames[k], d(src.sim_events[k]));
  }

  // Paper 000 Fig. 1: share of serviced blocks held in 1, 2, 3 and 4 or more private L1s.
  put("replication.avg", r.replication_avg);
  const std::vector<double>& share = r.replication_share;
  double four_plus = 0;
  for (size_t k = 4; k < share.size(); ++k) four_plus += share[k];
  for (size_t k = 1; k <= 3; ++k) put("replication.share_" + std::to_string(k), k < share.size() ? share[k] : 0);
  put("replication.share_4plus", four_plus);
  put("cores.imbalance", r.cores_imbalance);
  put("cores.quad_deviation", r.cores_quad_deviation);
  if (src.config.subtile_barriers) {
    put("cores.tile_lead_max", r.cores_tile_lead_max);
    put("cores.tile_lead_mean", r.cores_tile_lead_mean);
  }

  put("energy.total_nj", r.energy.total_nj);
  put("energy.texture_path_pj_per_access", r.texture_path_pj_per_access);
  put("energy.memory_nj", r.energy.memory_nj);
  put("energy.core_nj", r.energy.core_nj);
  put("energy.dynamic_nj", r.energy.dynamic_nj);
  put("energy.static_nj", r.energy.leakage_nj);
  put("energy.total_hp_nj", r.energy_hp_nj);
  put("energy.total_lop_nj", r.energy_lop_nj);
  for (const StructureEnergy& s : r.energy.structures) put("energy." + s.name + "_nj", s.total_nj());
}

}  // namespace tessera::model
