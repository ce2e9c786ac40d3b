// The timing model: composes the geometry phase and the raster pipeline's units (one file each,
// see gpu_model.h) over a frame's indexed stream, then emits the frame's metrics.
//
// Model choices (stated; README.md repeats them):
//  - Geometry and raster of a subpass do not overlap (a tile-based GPU rasterises a pass only once
//    it is binned); subpasses and passes run one after the other.
//  - A quad's instructions are cut into (texture instructions + 1) segments; the k-th sample of
//    each lane belongs to the quad's k-th texture instruction.
//  - Quads killed by early-Z leave the pipeline there and count as done in the later stages.
//  - Attachment loads of a tile (or of a core's share of it, per subtile) are issued when
//    early-Z may take the tile; early-Z and blending wait for them. Loads and stores go straight
//    to main memory (paper 003 Fig. 2: the colour buffer writes the frame buffer directly).
//  - Caches stay warm across a run's frames (sim.cold_caches: cold every frame).
#include "tessera/model/gpu_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "frame_index.h"
#include "geometry_phase.h"
#include "metrics.h"
#include "model_config.h"
#include "raster_pipeline.h"
#include "tessera/model/timeline.h"
#include "tessera/model/miss_lower_bound.h"
#include "tessera/model/next_use.h"
#include "tessera/pipeline/tile_order.h"

namespace tessera::model {

double FrameResults::metric(std::string_view name) const {
  for (const auto& [n, v] : frame_metrics) {
    if (n == name) return v;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

TechVariant same_node(TechVariant t, bool hp) {
  const bool nm32 = t == TechVariant::Nm32Hp || t == TechVariant::Nm32Lop;
  if (nm32) return hp ? TechVariant::Nm32Hp : TechVariant::Nm32Lop;
  return hp ? TechVariant::Nm22Hp : TechVariant::Nm22Lop;
}

}  // namespace

struct GpuModel::Impl {
  ParamSet params;
  Hooks hooks;
  ModelConfig cfg;
  HierarchyConfig hcfg;
  EnergyParams eparams;
  FgXshift2Scheduler default_scheduler;
  QuadScheduler* scheduler;

  // The run.
  std::unique_ptr<MemoryHierarchy> h;
  uint64_t clock = 0;  // cycle the run's previous frame ended
  bool warm = false;
  Timeline* timeline = nullptr;

  // The frame.
  const FrameIndex* index = nullptr;
  std::vector<std::vector<std::vector<uint32_t>>> orders;  // per pass, per phase: tile positions
  std::vector<uint32_t> grid_position;  // scratch of order_tiles: tile index -> position in the stream
  std::vector<uint64_t> tile_next_use;
  std::vector<TileCacheAccess> tile_sequence;
  std::vector<uint64_t> written_lines;  // scratch of tile_lower_bound
  size_t tile_access = 0;
  bool numbered = false;  // the tile cache's requests carry OPT Numbers
  RasterPipeline pipeline;
  GeometryPhase geometry;
  double imbalance_sum = 0, quad_deviation_sum = 0;
  uint64_t imbalance_tiles = 0, quad_tiles = 0;

  Impl(const ParamSet& p, Hooks hk)
      : params(p),
        hooks(std::move(hk)),
        cfg(ModelConfig::from_params(params)),
        hcfg(HierarchyConfig::from_params(params)),
        eparams(EnergyParams::from_params(params)),
        scheduler(hooks.quad_scheduler ? hooks.quad_scheduler.get() : &default_scheduler),
        pipeline(cfg, hooks, scheduler),
        geometry(pipeline) {
    // The dead-line L2 (paper 003 III-D) knows a line is dead only from the Parameter Buffer
    // section and last tile its requests carry and the Tile Fetcher's progress signals, which a
    // tile-cache organisation (TCOR's) provides; without one it would be plain LRU.
    if (hcfg.l2.policy == DeadLinePolicy::kName && !hooks.tile_organisation) {
      throw ParamError("l2.policy=dead-line needs a tile-cache organisation that tags Parameter Buffer lines with their "
                       "last tile and signals the Tile Fetcher's progress (scheme tcor); without one it is LRU");
    }
  }

  void reset() {
    h.reset();
    warm = false;
  }

  // The tile order of every phase: the gpu.tile_order curve over the pass's tile grid (paper 001
  // section III-C), whatever order the renderer recorded the tiles in. The renderer visits every
  // tile of the grid (empty ones too); a tile outside the grid (a damaged stream) is refused.
  void order_tiles() {
    orders.assign(index->passes.size(), {});
    for (size_t p = 0; p < index->passes.size(); ++p) {
      const PassIndex& pass = index->passes[p];
      const uint32_t grid = pass.info.tiles_x * pass.info.tiles_y;
      for (const PhaseIndex& phase : pass.phases) {
        grid_position.assign(grid, UINT32_MAX);
        for (size_t i = 0; i < phase.tiles.size(); ++i) {
          const uint32_t tile = phase.tiles[i].ref.tile;
          if (tile >= grid || grid_position[tile] != UINT32_MAX) {
            throw ModelError("tile order of pass " + std::to_string(pass.info.pass) + ": tile " + std::to_string(tile) +
                             (tile >= grid ? " is outside the pass's grid of " + std::to_string(grid)
                                           : " appears twice in one subpass"));
          }
          grid_position[tile] = static_cast<uint32_t>(i);
        }
        std::vector<uint32_t>& ord = orders[p].emplace_back();
        for (uint32_t tile : pipeline::tile_order(cfg.tile_order, pass.info.tiles_x, pass.info.tiles_y)) {
          if (grid_position[tile] != UINT32_MAX) ord.push_back(grid_position[tile]);
        }
      }
    }
  }

  // The tile cache sees, per subpass, the Parameter Buffer writes in stream order then the reads
  // in tile order: each access's OPT Number (next_use.h) is the next tile that reads its line.
  void number_tile_uses() {
    tile_next_use.clear();
    for (size_t p = 0; p < index->passes.size(); ++p) {
      const PassIndex& pass = index->passes[p];
      for (size_t f = 0; f < pass.phases.size(); ++f) {
        const PhaseIndex& phase = pass.phases[f];
        tile_sequence.clear();
        auto add = [&](const ByteRange& r, uint32_t tile) {
          for_each_line(r.address, r.bytes, cfg.line_bytes,
                        [&](uint64_t line, bool) { tile_sequence.push_back(TileCacheAccess{line, tile}); });
        };
        for (uint32_t w = phase.pb_write_begin; w < phase.pb_write_end; ++w) add(index->pb_writes[w], kBinning);
        for (uint32_t k = 0; k < orders[p][f].size(); ++k) {
          const TileIndex& t = phase.tiles[orders[p][f][k]];
          for (uint32_t g = t.group_begin; g < t.group_end; ++g) {
            for (uint32_t r = index->groups[g].read_begin; r < index->groups[g].read_end; ++r) add(index->pb_reads[r], k);
          }
        }
        const std::vector<uint64_t> numbers = tile_opt_numbers(tile_sequence);
        tile_next_use.insert(tile_next_use.end(), numbers.begin(), numbers.end());
      }
    }
    tile_access = 0;
  }

  // Paper 003 section V-A's lower bound on the unified tile cache's misses in one subpass, in its
  // lines (miss_lower_bound.h: every written line is read, a primitive is binned only into tiles
  // that read it), less the lines still held from before the subpass, whose first write hits
  // (warm caches keep lines of the same addresses).
  uint64_t tile_lower_bound(const PhaseIndex& phase) {
    const AnyCache& tc = h->tile_cache();
    const uint32_t line_bytes = tc.config().line_bytes;
    written_lines.clear();
    for (uint32_t w = phase.pb_write_begin; w < phase.pb_write_end; ++w) {
      const ByteRange& r = index->pb_writes[w];
      for_each_line(r.address, r.bytes, line_bytes, [&](uint64_t line, bool) { written_lines.push_back(line); });
    }
    std::sort(written_lines.begin(), written_lines.end());
    written_lines.erase(std::unique(written_lines.begin(), written_lines.end()), written_lines.end());
    uint64_t held = 0;
    for (uint64_t line : written_lines) held += tc.contains(line) ? 1 : 0;
    return miss_lower_bound(written_lines.size(), tc.config().size_bytes / line_bytes) - held;
  }

  // The subpass's binning in the fetcher's terms: per tile in processing order, the primitives
  // whose attributes it reads, and each primitive's attribute lines.
  BinnedPhase binning(const PassInfo& info, const PhaseIndex& phase, std::span<const uint32_t> ord) const {
    BinnedPhase b;
    b.pass = info;
    for (uint32_t i : ord) {
      const TileIndex& t = phase.tiles[i];
      b.tiles.push_back(t.ref);
      std::vector<uint32_t>& prims = b.primitives.emplace_back();
      for (uint32_t g = t.group_begin; g < t.group_end; ++g) {
        const PbGroup& group = index->groups[g];
        if (group.primitive == kListGroup) continue;
        prims.push_back(group.primitive);
        PrimitiveAttributes a{group.primitive, 0, 0};
        for (uint32_t r = group.read_begin; r < group.read_end; ++r) {
          for_each_line(index->pb_reads[r].address, index->pb_reads[r].bytes, cfg.line_bytes, [&](uint64_t line, bool) {
            if (a.lines++ == 0) a.first_line = line;
          });
        }
        b.attributes.push_back(a);
      }
    }
    std::sort(b.attributes.begin(), b.attributes.end(),
              [](const PrimitiveAttributes& x, const PrimitiveAttributes& y) { return x.primitive < y.primitive; });
    b.attributes.erase(std::unique(b.attributes.begin(), b.attributes.end(),
                                   [](const PrimitiveAttributes& x, const PrimitiveAttributes& y) {
                                     return x.primitive == y.primitive;
                                   }),
                       b.attributes.end());
    return b;
  }

  void check_tile_size() {
    for (const PassIndex& p : index->passes) {
      if (p.info.tile_width != cfg.tile_width || p.info.tile_height != cfg.tile_height) {
        throw ModelError("pass " + std::to_string(p.info.pass) + " was shaded with " + std::to_string(p.info.tile_width) +
                         "x" + std::to_string(p.info.tile_height) + " tiles but this configuration has gpu.tile_width x "
                         "gpu.tile_height = " + std::to_string(cfg.tile_width) + "x" + std::to_string(cfg.tile_height) +
                         " (the renderer must tile the frame again)");
      }
    }
  }

  void tile_results(const PassIndex& pass, const PhaseIndex& phase, std::span<const uint32_t> ord, FrameResults& r) {
    const uint32_t cores = cfg.cores;
    for (uint32_t k = 0; k < ord.size(); ++k) {
      const TileRef& tr = phase.tiles[ord[k]].ref;
      auto row = [&](std::string m, double v) { r.tile_metrics.push_back(TileMetric{pass.info.pass, tr.tx, tr.ty, std::move(m), v}); };
      row("cycles", static_cast<double>(pipeline.tile_end[k] - pipeline.tile_start[k]));
      row("quads", pipeline.q_tile[k]);
      row("l2.accesses", static_cast<double>(pipeline.tile_l2[k]));
      double mean = 0;
      for (uint32_t c = 0; c < cores; ++c) {
        const double b = static_cast<double>(pipeline.tile_busy[size_t{k} * cores + c]);
        mean += b;
        row("core." + std::to_string(c) + ".busy_cycles", b);
        row("core." + std::to_string(c) + ".quads", pipeline.q_core[size_t{k} * cores + c]);
      }
      mean /= cores;
      // Paper 001 Figs. 14 and 15: the mean deviation of the cores' busy cycles and of their
      // quads in a tile, normalised to the mean.
      if (mean > 0) {
        double dev = 0;
        for (uint32_t c = 0; c < cores; ++c) dev += std::abs(static_cast<double>(pipeline.tile_busy[size_t{k} * cores + c]) - mean);
        imbalance_sum += dev / cores / mean;
        ++imbalance_tiles;
        row("cores.deviation", dev / cores / mean);
      }
      const double quad_mean = static_cast<double>(pipeline.q_tile[k]) / cores;
      if (quad_mean > 0) {
        double dev = 0;
        for (uint32_t c = 0; c < cores; ++c) dev += std::abs(static_cast<double>(pipeline.q_core[size_t{k} * cores + c]) - quad_mean);
        quad_deviation_sum += dev / cores / quad_mean;
        ++quad_tiles;
        row("cores.quad_deviation", dev / cores / quad_mean);
      }
      ++r.tiles;
    }
  }

  void run(const FrameIndex& frame_index, FrameResults& r) {
    r = FrameResults{};
    r.cores.assign(cfg.cores, CoreStats{});
    imbalance_sum = quad_deviation_sum = 0;
    imbalance_tiles = quad_tiles = 0;
    index = &frame_index;
    const std::span<const uint8_t> frame = frame_index.bytes;
    check_tile_size();
    order_tiles();
    numbered = cfg.tile_opt || static_cast<bool>(hooks.tile_organisation);
    if (numbered) number_tile_uses();

    if (!h || cfg.cold_caches) {
      h = std::make_unique<MemoryHierarchy>(hcfg);
      if (hooks.texture_organisation) h->set_texture_organisation(hooks.texture_organisation(*h));
      if (hooks.tile_organisation) h->set_tile_organisation(hooks.tile_organisation(*h));
      clock = 0;
      warm = false;
    } else {
      h->begin_frame();
    }
    r.warm = warm;
    if (hooks.front_buffer) hooks.front_buffer->reset(cfg.cores);
    scheduler->frame_begin();
    for (const auto& o : hooks.observers) o->frame_begin(*h);
    h->set_timeline(timeline);
    pipeline.timeline = timeline;
    if (timeline) timeline->begin_frame(clock);
    pipeline.begin_frame(h.get(), &r, &r.activity, index, frame, numbered ? &tile_next_use : nullptr, &tile_access);
    geometry.begin_frame();

    uint64_t t = clock;
    for (size_t p = 0; p < index->passes.size(); ++p) {
      const PassIndex& pass = index->passes[p];
      for (size_t f = 0; f < pass.phases.size(); ++f) {
        const PhaseIndex& phase = pass.phases[f];
        // A new Parameter Buffer: the L2's count of finished tiles restarts (paper 003 III-D1).
        h->l2().pass_begin();
        if (hooks.tile_organisation) {
          const BinnedPhase binned = binning(pass.info, phase, orders[p][f]);
          for (const auto& o : hooks.observers) o->phase_begin(*h, binned);
        } else {
          r.tile_lower_bound += tile_lower_bound(phase);
        }
        const uint64_t g = geometry.run(frame, pass, phase, t);
        r.geometry_cycles += g - t;
        const uint64_t e = pipeline.run(pass, phase, orders[p][f], g);
        r.raster_cycles += e - g;
        if (timeline) {
          // The cores are starved while the geometry phase runs (finish() counts the same).
          const std::string name = "pass " + std::to_string(pass.info.pass) +
                                   (pass.phases.size() > 1 ? " subpass " + std::to_string(f) : std::string());
          timeline->phase(name + ": geometry", t, g);
          timeline->phase(name + ": raster", g, e);
          for (uint32_t c = 0; c < cfg.cores; ++c) timeline->core_cycles(c, CoreState::Starved, t, g);
        }
        tile_results(pass, phase, orders[p][f], r);
        t = e;
      }
      ++r.passes;
    }
    if (numbered && tile_access != tile_next_use.size()) {
      throw ModelError("tile cache OPT Numbers out of step with the stream: " + std::to_string(tile_access) + " of " +
                       std::to_string(tile_next_use.size()) + " used");
    }
    r.cycles = t - clock;
    clock = t;
    warm = true;
    finish(r);
  }

  void finish(FrameResults& r) {
    const auto stage = [](const char* name, const StageMeter& m) {
      return StageStats{name, m.busy, m.stall, m.queue_wait};
    };
    r.stages = {stage("vertex", geometry.vertex_meter),      stage("binning", geometry.binning_meter),
                stage("tile_fetch", pipeline.fetcher.meter), stage("raster", pipeline.rasterizer.meter),
                stage("earlyz", pipeline.earlyz.meter),      stage("fragment", pipeline.core.meter),
                stage("blend", pipeline.blend.meter),        stage("flush", pipeline.blend.flush_meter)};
    r.tile_fetcher_primitives = pipeline.fetcher.primitives;
    r.tile_fetcher_active_cycles = pipeline.fetcher.active_cycles;
    r.cores_imbalance = imbalance_tiles ? imbalance_sum / static_cast<double>(imbalance_tiles) : 0;
    r.cores_quad_deviation = quad_tiles ? quad_deviation_sum / static_cast<double>(quad_tiles) : 0;
    r.cores_tile_lead_max = pipeline.earlyz.lead_max;
    r.cores_tile_lead_mean = pipeline.earlyz.lead_quads
                                 ? static_cast<double>(pipeline.earlyz.lead_sum) / static_cast<double>(pipeline.earlyz.lead_quads)
                                 : 0;
    const auto& hist = h->replication_histogram();
    double num = 0, den = 0;
    for (size_t k = 0; k < hist.size(); ++k) {
      num += static_cast<double>(k) * static_cast<double>(hist[k]);
      den += static_cast<double>(hist[k]);
    }
    r.replication_avg = den > 0 ? num / den : 0;
    r.replication_share.assign(hist.size(), 0);
    for (size_t k = 0; k < hist.size(); ++k) r.replication_share[k] = den > 0 ? static_cast<double>(hist[k]) / den : 0;
    // Schemes add the energy of their own structures (a NUCA's network, TFM's buffer array).
    const auto energy = [&](const EnergyParams& ep) {
      std::vector<StructureEnergy> extra;
      for (const auto& o : hooks.observers) o->energy(*h, ep, r.cycles, extra);
      return compute_energy(*h, r.activity, ep, r.cycles, extra);
    };
    r.energy = energy(eparams);
    if (r.texture_lines > 0) {
      double path_nj = 0;
      for (const char* name : {"tfm", "l1tex"}) {
        if (const StructureEnergy* se = r.energy.find(name)) path_nj += se->dynamic_nj;
      }
      uint64_t l2_tex = 0;
      const CacheCounters& l2c = h->l2().counters();
      for (uint32_t c = 0; c < cfg.cores; ++c) l2_tex += l2c.per_requester[h->l2_requester_texture(c)].accesses;
      // Every L2 access of a texture requester is charged one L2 line read (energy.h figures).
      const CacheConfig& l2cfg = h->config().l2;
      const double l2_read = sram_cache(eparams.tech, l2cfg.size_bytes, l2cfg.ways, l2cfg.banks).read_pj;
      const double path_pj = path_nj * 1e3 + static_cast<double>(l2_tex) * l2_read;
      r.texture_path_pj_per_access = path_pj / static_cast<double>(r.texture_lines);
    }
    EnergyParams hp = eparams, lop = eparams;
    hp.tech = same_node(eparams.tech, true);
    lop.tech = same_node(eparams.tech, false);
    r.energy_hp_nj = energy(hp).total_nj;
    r.energy_lop_nj = energy(lop).total_nj;
    for (uint32_t c = 0; c < cfg.cores; ++c) {
      // Cycles outside the raster phases (geometry, or a core's idle gaps between passes): the
      // fragment queue is empty, the core starved.
      CoreCycles& cc = r.cores[c].cycles;
      const uint64_t counted = cc.total();
      if (r.cycles > counted) cc[CoreState::Starved] += r.cycles - counted;
      const CacheCounters& k = h->l1tex(c).counters();
      r.cores[c].l1tex_accesses = k.accesses;
      r.cores[c].l1tex_hits = k.hits;
      auto u = [](uint64_t v) { return static_cast<double>(v); };
      r.core_metrics.push_back(CoreMetric{c, "quads", u(r.cores[c].quads)});
      r.core_metrics.push_back(CoreMetric{c, "busy_cycles", u(r.cores[c].busy_cycles)});
      r.core_metrics.push_back(CoreMetric{c, "l1tex.accesses", u(k.accesses)});
      r.core_metrics.push_back(CoreMetric{c, "l1tex.hits", u(k.hits)});
      r.cores[c].color_flush_lines = pipeline.blend.lines_flushed[c];  // one per core (begin_frame)
      r.core_metrics.push_back(CoreMetric{c, "color_flush_lines", u(r.cores[c].color_flush_lines)});
      for (uint32_t s = 0; s < kCoreStates; ++s) {
        r.core_metrics.push_back(CoreMetric{c, std::string("cycles.") + core_state_name(static_cast<CoreState>(s)),
                                            u(cc.by_state[s])});
      }
    }
    emit_frame_metrics(r, MetricSources{*h, cfg, static_cast<bool>(hooks.texture_organisation),
                                        static_cast<bool>(hooks.tile_organisation), static_cast<bool>(hooks.front_buffer),
                                        pipeline.sim_events});
    for (const auto& o : hooks.observers) o->frame_end(*h, r);
  }
};

IndexedFrame::IndexedFrame() : index_(std::make_unique<FrameIndex>()) {}
IndexedFrame::~IndexedFrame() = default;

std::unique_ptr<IndexedFrame> IndexedFrame::build(std::span<const uint8_t> frame_stream, std::string* error) {
  std::unique_ptr<IndexedFrame> frame(new IndexedFrame());
  try {
    frame->index_->build(frame_stream);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
  return frame;
}

GpuModel::GpuModel(const ParamSet& params, Hooks hooks) : impl_(std::make_unique<Impl>(params, std::move(hooks))) {}
GpuModel::~GpuModel() = default;

bool GpuModel::run(const IndexedFrame& frame, FrameResults& results, std::string* error) {
  try {
    impl_->run(frame.index(), results);
    return true;
  } catch (const std::exception& e) {
    // A frame that failed half-way leaves the hierarchy mid-frame: the next frame starts a new run.
    impl_->reset();
    if (error) *error = e.what();
    return false;
  }
}

bool GpuModel::run(std::span<const uint8_t> frame_stream, FrameResults& results, std::string* error) {
  const std::unique_ptr<IndexedFrame> frame = IndexedFrame::build(frame_stream, error);
  if (!frame) {
    impl_->reset();
    return false;
  }
  return run(*frame, results, error);
}

FrameResults GpuModel::run(std::span<const uint8_t> frame_stream, std::string* error) {
  FrameResults r;
  run(frame_stream, r, error);
  return r;
}

void GpuModel::reset() { impl_->reset(); }

const MemoryHierarchy* GpuModel::hierarchy() const { return impl_->h.get(); }

void GpuModel::set_timeline(Timeline* timeline) { impl_->timeline = timeline; }

}  // namespace tessera::model
