// The timing model: see gpu_model.h for the stages and their parameters.
//
// Model choices (stated; README.md repeats them):
//  - Geometry and raster of a pass do not overlap (a tile-based GPU rasterises a pass only once
//    it is binned); passes run one after the other. Vertex processors take vertex batches
//    (VertexShade events) greedily, fetch the batch's lines one per cycle, then shade.
//  - The tile fetcher reads a tile's Parameter Buffer lines one per cycle, starting when the
//    rasterizer begins the previous tile (one tile of lookahead); the tile's primitives are ready
//    when its last line arrives.
//  - A quad's instructions are cut into (texture instructions + 1) segments; the k-th sample of
//    each lane belongs to the quad's k-th texture instruction. A core runs one ready segment at a
//    time (oldest ready quad first) and switches quads while one waits for texture data: this is
//    the multithreading that hides memory latency.
//  - Quads killed by early-Z leave the pipeline there and count as done in the later stages.
//  - Attachment loads of a tile (or of a core's share of it, per subtile) are issued when
//    early-Z may take the tile; early-Z and blending wait for them. Loads and stores go straight
//    to main memory (paper 003 Fig. 2: the colour buffer writes the frame buffer directly).
//  - Caches start cold in every frame.
#include "tessera/model/gpu_model.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>

#include "tessera/stream/access_stream.h"

namespace tessera::model {

using stream::Event;
using stream::EventKind;

double FrameResults::metric(std::string_view name) const {
  for (const auto& [n, v] : frame_metrics) {
    if (n == name) return v;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

enum Stage : uint32_t { kEz = 0, kFrag = 1, kBlend = 2 };
enum Unit : uint8_t { kRaster = 0, kEzUnit, kAdmit, kCore, kTexIssue, kBlendUnit, kUnitKinds };

struct SimEvent {
  uint64_t time;
  uint32_t unit;
  uint32_t slot;
  uint8_t kind;
};

// Time-ordered event queue: a timing wheel of one-cycle buckets for the near future (almost every
// event lies a few cycles ahead) and a heap for the rest. Events of one cycle come out in the
// order they were pushed, as from a (time, sequence) heap: far events move into the wheel as soon
// as their cycle enters the window, before any event of that cycle can be pushed directly.
class EventQueue {
 public:
  static constexpr uint64_t kWheel = 4096;
  EventQueue() : buckets_(kWheel) {}
  void reset(uint64_t now) {
    for (auto& b : buckets_) b.clear();
    far_ = {};
    now_ = now;
    pos_ = 0;
    near_ = 0;
    seq_ = 0;
  }
  uint64_t now() const { return now_; }
  // e.time >= now().
  void push(const SimEvent& e) {
    if (e.time < now_ + kWheel) {
      buckets_[e.time % kWheel].push_back(e);
      ++near_;
    } else {
      far_.push(Far{e, seq_++});
    }
  }
  bool pop(SimEvent& e) {
    while (true) {
      std::vector<SimEvent>& b = buckets_[now_ % kWheel];
      if (pos_ < b.size()) {
        e = b[pos_++];
        --near_;
        return true;
      }
      b.clear();
      pos_ = 0;
      if (near_ == 0) {
        if (far_.empty()) return false;
        now_ = far_.top().e.time;
      } else {
        ++now_;
      }
      while (!far_.empty() && far_.top().e.time < now_ + kWheel) {
        buckets_[far_.top().e.time % kWheel].push_back(far_.top().e);
        ++near_;
        far_.pop();
      }
    }
  }

 private:
  struct Far {
    SimEvent e;
    uint64_t seq;
    bool operator>(const Far& o) const { return e.time != o.e.time ? e.time > o.e.time : seq > o.seq; }
  };
  std::vector<std::vector<SimEvent>> buckets_;
  std::priority_queue<Far, std::vector<Far>, std::greater<>> far_;
  uint64_t now_ = 0;
  size_t pos_ = 0;
  uint64_t near_ = 0;
  uint64_t seq_ = 0;
};

struct QuadRec {
  uint32_t tile = 0;  // position in the processing order
  uint32_t core = 0;
  bool shaded = false;
  uint64_t cycles = 0;      // instruction issue cycles of the whole quad
  uint32_t tex_instrs = 0;  // texture instructions
  uint32_t segment = 0;     // next segment to run
  uint64_t arrive = 0;      // cycle it entered early-Z's queue
  uint32_t lane_samples[4] = {};
  std::vector<uint64_t> lines;
  std::vector<uint32_t> sample_end;   // end index into lines, per sample
  std::vector<uint32_t> sample_instr; // texture instruction of each sample
};

struct Ready {
  uint64_t ready;
  uint64_t order;
  uint32_t slot;
  bool operator>(const Ready& o) const { return ready != o.ready ? ready > o.ready : order > o.order; }
};

struct PassIndex {
  PassInfo info;
  size_t begin = 0;  // offset of PassBegin
  std::vector<TileRef> tiles;
};

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class F>
void forEachLine(uint64_t addr, uint32_t bytes, uint32_t line_bytes, F&& f) {
  if (bytes == 0) return;
  const uint64_t mask = ~uint64_t{line_bytes - 1};
  const uint64_t first = addr & mask, last = (addr + bytes - 1) & mask;
  for (uint64_t l = first; l <= last; l += line_bytes) {
    const bool full = addr <= l && addr + bytes >= l + line_bytes;
    f(l, full);
  }
}

TechVariant sameNode(TechVariant t, bool hp) {
  const bool nm32 = t == TechVariant::Nm32Hp || t == TechVariant::Nm32Lop;
  if (nm32) return hp ? TechVariant::Nm32Hp : TechVariant::Nm32Lop;
  return hp ? TechVariant::Nm22Hp : TechVariant::Nm22Lop;
}

}  // namespace

struct GpuModel::Impl {
  // Configuration.
  ParamSet params;
  Hooks hooks;
  HierarchyConfig hcfg;
  EnergyParams eparams;
  uint32_t cores = 1, vps = 1, line_bytes = 64;
  bool subtile = false;
  uint32_t qpc = 1, max_quads = 16, issue_lanes = 4, vp_lanes = 4, tex_lpc = 1;
  uint32_t tex_latency = 4, ez_latency = 1, blend_latency = 1, ez_inflight = 8, frag_queue = 64, tfm_latency = 1;
  bool tile_opt = false;
  StreamTileOrder default_order;
  FgXshift2Scheduler default_scheduler;
  ExactTileNextUse default_next_use;
  TileOrder* order_hook = nullptr;
  QuadScheduler* scheduler = nullptr;
  TileNextUse* next_use_hook = nullptr;

  // Per run.
  std::unique_ptr<MemoryHierarchy> h;
  std::span<const uint8_t> bytes;
  std::unique_ptr<stream::StreamReader> rd;
  Event ev;
  bool held = false;
  std::vector<PassIndex> passes;
  stream::StreamCounts counts;
  std::vector<uint64_t> tile_next_use;
  size_t tile_access = 0;
  std::vector<uint64_t> tile_seq_addrs;
  FrameResults* res = nullptr;
  uint64_t stage_busy[8] = {}, stage_stall[8] = {}, stage_queue_wait[8] = {};
  enum StageId { sVertex, sBinning, sTileFetch, sRaster, sEz, sFrag, sBlend, sFlush };
  // Stall intervals, one clock per unit (the rasterizer; early-Z, shader core and blending per
  // core): an interval opens when the unit, free and with work at its input, cannot take it, and
  // closes when it next takes work. Summing intervals per unit, not waiting time per quad, keeps a
  // stage's busy + stall within cycles x units (README "Stall"). kIdle: no open interval.
  std::vector<uint64_t> stall_since[8];
  void stallBegin(StageId s, uint32_t u, uint64_t t) {
    if (stall_since[s][u] == kIdle) stall_since[s][u] = t;
  }
  void stallEnd(StageId s, uint32_t u, uint64_t t) {
    uint64_t& b = stall_since[s][u];
    if (b == kIdle) return;
    if (t > b) stage_stall[s] += t - b;
    b = kIdle;
  }

  // Per pass (raster phase).
  PassIndex* pass = nullptr;
  // Sequential mode (stream tile order, no next-use numbers): one decoding pass, the tiles are
  // discovered as the rasterizer reaches them. Otherwise a first pass indexes the tiles and the
  // rasterizer seeks to them in the hook's order.
  bool sequential = false;
  std::vector<uint32_t> order;
  uint32_t ntiles = 0;
  std::vector<uint32_t> q_core, q_tile;                  // quads per (tile, core), per tile
  std::vector<uint32_t> done_core[3], done_tile[3];
  std::vector<uint64_t> max_core[3], max_tile[3];
  std::vector<uint8_t> raster_done;
  std::vector<uint64_t> prims_ready, tile_start, tile_end, load_done, tile_busy;
  std::vector<uint64_t> load_lines, store_lines;
  std::vector<uint32_t> load_begin, store_begin;  // per tile, +1 sentinel built incrementally
  std::vector<uint32_t> allowed[3];
  std::vector<uint64_t> release[3];
  std::vector<QuadRec> recs;
  std::vector<uint32_t> free_recs;
  std::vector<std::deque<uint32_t>> ez_fifo, admit_q;
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> blend_fifo;  // (tile, ready)
  std::vector<std::vector<Ready>> ready_heap;
  std::vector<uint64_t> ez_free, blend_free, core_free, tex_free;
  std::vector<uint32_t> ez_out, resident, tex_in_cycle;
  // Cycle of the pending wake-up of each unit; kIdle when none (older wake-ups are stale).
  static constexpr uint64_t kIdle = ~uint64_t{0};
  std::vector<uint64_t> scheduled[kUnitKinds];
  EventQueue events;
  uint64_t ready_order = 0;
  uint64_t sim_events[kUnitKinds] = {};
  uint32_t cur = 0;  // tile being rasterised (position in order)
  int64_t pending = -1;
  bool raster_finished = false;
  int64_t raster_blocked_core = -1;
  uint64_t raster_cycle = ~uint64_t{0};
  uint32_t raster_emitted = 0;
  uint64_t fetch_free = 0;
  uint64_t last_time = 0;

  explicit Impl(const ParamSet& p, Hooks hk) : params(p), hooks(std::move(hk)) {
    hcfg = HierarchyConfig::fromParams(params);
    eparams = EnergyParams::fromParams(params);
    cores = hcfg.shader_cores;
    vps = hcfg.vertex_processors;
    line_bytes = hcfg.l2.line_bytes;
    subtile = params.getString("gpu.barrier") == "subtile";
    qpc = params.getU32("raster.quads_per_cycle");
    max_quads = params.getU32("core.max_quads");
    issue_lanes = params.getU32("core.issue_lanes");
    vp_lanes = params.getU32("vp.issue_lanes");
    tex_lpc = params.getU32("tex.lines_per_cycle");
    tex_latency = params.getU32("tex.latency");
    ez_latency = params.getU32("depthbuf.latency");
    blend_latency = params.getU32("colorbuf.latency");
    ez_inflight = params.getU32("gpu.earlyz_inflight_quads");
    frag_queue = params.getU32("queue.fragment");
    tfm_latency = params.getU32("tfm.latency");
    tile_opt = hcfg.tile.policy == "opt";
    order_hook = hooks.tile_order ? hooks.tile_order.get() : &default_order;
    scheduler = hooks.quad_scheduler ? hooks.quad_scheduler.get() : &default_scheduler;
    next_use_hook = hooks.tile_next_use ? hooks.tile_next_use.get() : &default_next_use;
  }

  [[noreturn]] void fail(const std::string& what) {
    throw ModelError("access stream: byte " + std::to_string(rd ? rd->position() : 0) + ": " + what);
  }

  bool next(Event& e) {
    if (held) {
      held = false;
      e = ev;
      return true;
    }
    if (!rd->next(e)) {
      if (!rd->error().empty()) throw ModelError("access stream: " + rd->error());
      return false;
    }
    return true;
  }
  void hold(const Event& e) {
    ev = e;
    held = true;
  }
  void seek(size_t offset) {
    held = false;
    if (!rd->seek(offset)) throw ModelError("access stream: cannot seek to byte " + std::to_string(offset));
  }

  // ---- First pass: index of passes and tiles, stream counts ----
  void index() {
    stream::StreamReader r(bytes);
    Event e;
    PassIndex* p = nullptr;
    bool frame = false;
    size_t pos = r.position();
    while (r.next(e)) {
      switch (e.kind) {
        case EventKind::FrameBegin: frame = true; break;
        case EventKind::PassBegin: {
          if (p) throw ModelError("access stream: byte " + std::to_string(pos) + ": PassBegin inside pass " +
                                  std::to_string(p->info.pass));
          PassIndex pi;
          pi.begin = pos;
          pi.info = PassInfo{e.u[0], e.u[1], e.u[2], e.u[3], e.u[4], e.u[5], e.u[6]};
          if (pi.info.tile_width == 0 || pi.info.tile_height == 0) {
            throw ModelError("access stream: byte " + std::to_string(pos) + ": pass with a zero tile size");
          }
          passes.push_back(std::move(pi));
          p = &passes.back();
          break;
        }
        case EventKind::TileBegin: {
          if (!p) throw ModelError("access stream: byte " + std::to_string(pos) + ": TileBegin outside a pass");
          TileRef t;
          t.tile = e.u[0];
          t.x0 = e.u[1];
          t.y0 = e.u[2];
          t.tx = t.x0 / p->info.tile_width;
          t.ty = t.y0 / p->info.tile_height;
          t.offset = pos;
          p->tiles.push_back(t);
          break;
        }
        case EventKind::PassEnd: p = nullptr; break;
        default: break;
      }
      pos = r.position();
    }
    if (!r.error().empty()) throw ModelError("access stream: " + r.error());
    if (!frame) throw ModelError("access stream: no FrameBegin");
    if (p) throw ModelError("access stream: pass " + std::to_string(p->info.pass) + " has no PassEnd");
    counts = r.counts();
  }

  uint8_t priority(Stream s, uint64_t addr, bool write) {
    return hooks.l2_priority ? hooks.l2_priority->classify(s, addr, write) : 0;
  }

  uint64_t nextTileUse() {
    if (!tile_opt) return kNoNextUse;
    if (tile_access >= tile_next_use.size()) throw ModelError("tile cache next-use numbers out of step with the stream");
    return tile_next_use[tile_access++];
  }

  // The tile cache sees, per pass, the Parameter Buffer writes in stream order then the reads in
  // tile order: collect that sequence for the next-use hook (only when the policy needs it).
  void collectTileSequence() {
    tile_seq_addrs.clear();
    std::vector<uint32_t> ord;
    for (const PassIndex& p : passes) {
      seek(p.begin);
      Event e;
      while (next(e) && e.kind != EventKind::TileBegin && e.kind != EventKind::PassEnd) {
        if (e.kind == EventKind::PbWrite) {
          forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool) { tile_seq_addrs.push_back(l); });
        }
      }
      orderTiles(p, ord);
      for (uint32_t i : ord) {
        seek(p.tiles[i].offset);
        next(e);
        while (next(e) && (e.kind == EventKind::AttachmentLoad || e.kind == EventKind::PbRead)) {
          if (e.kind == EventKind::PbRead) {
            forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool) { tile_seq_addrs.push_back(l); });
          }
        }
      }
    }
    next_use_hook->compute(tile_seq_addrs, line_bytes, tile_next_use);
    if (tile_next_use.size() != tile_seq_addrs.size()) throw ModelError("tile next-use hook returned a wrong count");
    tile_access = 0;
  }

  void orderTiles(const PassIndex& p, std::vector<uint32_t>& ord) {
    order_hook->order(p.info, p.tiles, ord);
    std::vector<uint8_t> seen(p.tiles.size(), 0);
    if (ord.size() != p.tiles.size()) throw ModelError("tile order hook: wrong number of tiles");
    for (uint32_t i : ord) {
      if (i >= p.tiles.size() || seen[i]) throw ModelError("tile order hook: not a permutation of the tiles");
      seen[i] = 1;
    }
  }

  // ---- Geometry phase ----
  uint64_t geometry(const PassIndex& p, uint64_t t0) {
    Event e;
    if (!sequential) {
      seek(p.begin);
      next(e);  // PassBegin
    }
    std::vector<uint64_t> vp_free(vps, t0);
    std::vector<std::pair<uint64_t, uint32_t>> batch;  // vertex fetches of the next batch
    uint64_t plb_free = t0, draw_done = t0, end = t0;
    auto shade = [&](uint64_t instructions) {
      const uint32_t v = static_cast<uint32_t>(std::min_element(vp_free.begin(), vp_free.end()) - vp_free.begin());
      uint64_t issue = vp_free[v], done = issue;
      for (const auto& [addr, n] : batch) {
        forEachLine(addr, n, hcfg.vertex.line_bytes, [&](uint64_t l, bool) {
          MemRequest r;
          r.addr = l;
          r.unit = static_cast<uint16_t>(v);
          r.stream = Stream::Vertex;
          r.priority_class = priority(Stream::Vertex, l, false);
          done = std::max(done, issue + h->access(r, issue).latency);
          ++issue;
        });
      }
      batch.clear();
      const uint64_t cycles = (instructions + vp_lanes - 1) / vp_lanes;
      stage_busy[sVertex] += cycles + (issue - vp_free[v]);
      vp_free[v] = std::max(done, issue) + cycles;
      draw_done = std::max(draw_done, vp_free[v]);
      end = std::max(end, vp_free[v]);
    };
    while (next(e)) {
      if (e.kind == EventKind::TileBegin || e.kind == EventKind::PassEnd) {
        hold(e);
        break;
      }
      switch (e.kind) {
        case EventKind::Draw:
          if (!batch.empty()) shade(0);
          draw_done = t0;
          ++res->draws;
          break;
        case EventKind::VertexFetch: batch.emplace_back(e.address, e.u[0]); break;
        case EventKind::VertexShade: shade(e.wide); break;
        case EventKind::PbWrite: {
          if (!batch.empty()) shade(0);
          // The Polygon List Builder appends once the draw's vertices are shaded; one line per cycle.
          uint64_t issue = std::max(plb_free, draw_done);
          forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool full) {
            MemRequest r;
            r.addr = l;
            r.stream = Stream::Tile;
            r.write = true;
            r.full_line = full;
            r.next_use = nextTileUse();
            r.priority_class = priority(Stream::Tile, l, true);
            end = std::max(end, issue + h->access(r, issue).latency);
            ++issue;
            ++stage_busy[sBinning];
          });
          plb_free = issue;
          end = std::max(end, plb_free);
          break;
        }
        default: fail(std::string(stream::event_kind_name(e.kind)) + " in the geometry phase of pass " +
                      std::to_string(p.info.pass));
      }
    }
    if (!batch.empty()) shade(0);
    return end;
  }

  // ---- Raster phase: discrete events ----
  void wake(Unit kind, uint32_t unit, uint64_t t) {
    t = std::max(t, events.now());  // a barrier opened in the past opens now
    if (scheduled[kind][unit] <= t) return;
    scheduled[kind][unit] = t;
    events.push(SimEvent{t, unit, 0, kind});
  }
  void wakeStage(uint32_t s, uint32_t c, uint64_t t) {
    if (s == kEz) wake(kEzUnit, c, t);
    else if (s == kFrag) wake(kAdmit, c, t);
    else wake(kBlendUnit, c, t);
  }

  uint32_t newRec() {
    if (free_recs.empty()) {
      recs.emplace_back();
      return static_cast<uint32_t>(recs.size() - 1);
    }
    const uint32_t s = free_recs.back();
    free_recs.pop_back();
    return s;
  }

  // Reads tile k's TileBegin, attachment loads and Parameter Buffer reads (the tile fetcher).
  // False in sequential mode when the pass ends instead.
  bool readTileHeader(uint32_t k, uint64_t fetch_from) {
    Event e;
    if (sequential) {
      if (!next(e)) fail("pass " + std::to_string(pass->info.pass) + " has no PassEnd");
      if (e.kind == EventKind::PassEnd) return false;
      if (e.kind != EventKind::TileBegin) fail(std::string(stream::event_kind_name(e.kind)) + " between tiles");
      if (k >= ntiles) fail("more tiles than the pass's " + std::to_string(ntiles) + " (tiles_x x tiles_y)");
      TileRef t;
      t.tile = e.u[0];
      t.x0 = e.u[1];
      t.y0 = e.u[2];
      t.tx = t.x0 / pass->info.tile_width;
      t.ty = t.y0 / pass->info.tile_height;
      pass->tiles.push_back(t);
      order.push_back(k);
    } else {
      seek(pass->tiles[order[k]].offset);
      if (!next(e) || e.kind != EventKind::TileBegin) fail("expected TileBegin at a recorded tile offset");
    }
    load_begin[k] = static_cast<uint32_t>(load_lines.size());
    uint64_t issue = std::max(fetch_free, fetch_from), ready = issue;
    while (next(e)) {
      if (e.kind == EventKind::AttachmentLoad) {
        forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool) { load_lines.push_back(l); });
      } else if (e.kind == EventKind::PbRead) {
        forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool) {
          MemRequest r;
          r.addr = l;
          r.stream = Stream::Tile;
          r.next_use = nextTileUse();
          r.priority_class = priority(Stream::Tile, l, false);
          ready = std::max(ready, issue + h->access(r, issue).latency);
          ++issue;
          ++stage_busy[sTileFetch];
        });
      } else {
        hold(e);
        break;
      }
    }
    load_begin[k + 1] = static_cast<uint32_t>(load_lines.size());
    fetch_free = issue;
    prims_ready[k] = ready;
    return true;
  }

  // Next quad of the current tile into a record; -1 at TileEnd.
  int64_t readQuad() {
    Event e;
    const uint32_t k = cur;
    while (true) {
      if (!next(e)) fail("tile without TileEnd");
      switch (e.kind) {
        case EventKind::Primitive: continue;
        case EventKind::AttachmentStore:
          forEachLine(e.address, e.u[0], line_bytes, [&](uint64_t l, bool) { store_lines.push_back(l); });
          continue;
        case EventKind::TileEnd: store_begin[k + 1] = static_cast<uint32_t>(store_lines.size()); return -1;
        case EventKind::Quad: break;
        default: fail(std::string(stream::event_kind_name(e.kind)) + " inside a tile");
      }
      const uint32_t slot = newRec();
      QuadRec& q = recs[slot];
      q.tile = k;
      q.core = scheduler->core(pass->info, pass->tiles[order[k]], k, e.u[0], e.u[1], cores);
      if (q.core >= cores) throw ModelError("quad scheduler hook returned core " + std::to_string(q.core));
      q.shaded = (e.u[5] & stream::kQuadShaded) != 0;
      q.cycles = (e.wide + issue_lanes - 1) / issue_lanes;
      q.segment = 0;
      q.tex_instrs = 0;
      for (uint32_t& n : q.lane_samples) n = 0;
      q.lines.clear();
      q.sample_end.clear();
      q.sample_instr.clear();
      ++res->quads;
      static constexpr uint8_t kPixels[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
      res->fragments += kPixels[e.u[2] & 0xfu];
      Event t;
      while (next(t)) {
        if (t.kind != EventKind::Texture) {
          hold(t);
          break;
        }
        if (t.u[0] > 3) fail("texture sample of lane " + std::to_string(t.u[0]));
        const uint32_t instr = q.lane_samples[t.u[0]]++;
        q.tex_instrs = std::max(q.tex_instrs, instr + 1);
        q.lines.insert(q.lines.end(), t.lines.begin(), t.lines.end());
        q.sample_end.push_back(static_cast<uint32_t>(q.lines.size()));
        q.sample_instr.push_back(instr);
        ++res->texture_samples;
      }
      if (!q.shaded) q.tex_instrs = 0;
      return slot;
    }
  }

  void issueMemoryLines(bool store, uint32_t k, uint32_t c, bool all, uint64_t t, uint64_t& done) {
    const std::vector<uint64_t>& lines = store ? store_lines : load_lines;
    const std::vector<uint32_t>& begin = store ? store_begin : load_begin;
    uint64_t issue = t;
    done = t;
    for (uint32_t i = begin[k]; i < begin[k + 1]; ++i) {
      if (!all && (i - begin[k]) % cores != c) continue;
      const uint64_t at = store ? h->flushColorLine(lines[i], issue)
                                : h->dram().access(lines[i], false, issue, DramSource::Other);
      done = std::max(done, at);
      ++issue;
      if (store) ++stage_busy[sFlush];
    }
  }

  void setLoads(uint32_t k, uint32_t c, bool all, uint64_t t) {
    uint64_t done = t;
    issueMemoryLines(false, k, c, all, t, done);
    if (all) {
      for (uint32_t i = 0; i < cores; ++i) load_done[size_t{k} * cores + i] = done;
    } else {
      load_done[size_t{k} * cores + c] = done;
    }
  }

  // A stage finished a tile (barrier mode tile) or a core's subtile: open the next one.
  void advance(uint32_t s, uint32_t c) {
    const bool all = !subtile;
    const uint32_t u = all ? 0 : c;
    while (true) {
      const uint32_t k = allowed[s][u];
      if (k >= ntiles || !raster_done[k]) return;
      uint64_t t = release[s][u];
      if (all) {
        if (done_tile[s][k] != q_tile[k]) return;
        t = std::max(t, max_tile[s][k]);
      } else {
        const size_t i = size_t{k} * cores + c;
        if (done_core[s][i] != q_core[i]) return;
        t = std::max(t, max_core[s][i]);
      }
      if (s == kBlend) {
        uint64_t flushed = t;
        issueMemoryLines(true, k, c, all, t, flushed);
        t = flushed;
        tile_end[k] = std::max(tile_end[k], t);
      }
      if (s == kEz && k + 1 < ntiles) setLoads(k + 1, c, all, t);
      last_time = std::max(last_time, t);
      for (uint32_t i = 0; i < cores; ++i) {
        if (!all && i != c) continue;
        allowed[s][i] = k + 1;
        release[s][i] = t;
        wakeStage(s, i, t);
      }
    }
  }

  void quadDone(uint32_t s, uint32_t k, uint32_t c, uint64_t t) {
    const size_t i = size_t{k} * cores + c;
    ++done_core[s][i];
    ++done_tile[s][k];
    max_core[s][i] = std::max(max_core[s][i], t);
    max_tile[s][k] = std::max(max_tile[s][k], t);
    advance(s, c);
  }

  bool barrierOpen(uint32_t s, uint32_t c, uint32_t k, uint64_t t, uint64_t& wait) {
    if (allowed[s][c] < k) return false;
    if (release[s][c] > t) {
      wait = release[s][c];
      return false;
    }
    return true;
  }

  void rasterStep(uint64_t t) {
    while (!raster_finished) {
      if (pending < 0) {
        pending = readQuad();
        if (pending < 0) {
          const uint32_t k = cur;
          if (k + 1 < ntiles) {
            if (readTileHeader(k + 1, tile_start[k])) {
              tile_start[k + 1] = t;
            } else {
              ntiles = k + 1;  // sequential mode: PassEnd after this tile
            }
          } else if (sequential) {
            Event e;
            if (!next(e) || e.kind != EventKind::PassEnd) fail("more tiles than the pass's tiles_x x tiles_y");
          }
          raster_done[k] = 1;
          for (uint32_t s = 0; s < 3; ++s) {
            if (subtile) {
              for (uint32_t c = 0; c < cores; ++c) advance(s, c);
            } else {
              advance(s, 0);
            }
          }
          ++cur;
          if (cur == ntiles) {
            raster_finished = true;
            return;
          }
          continue;
        }
      }
      QuadRec& q = recs[static_cast<size_t>(pending)];
      // A cycle in which the rasterizer emitted quads is busy; a stall starts after it.
      const uint64_t raster_free = raster_cycle == t && raster_emitted > 0 ? t + 1 : t;
      if (t < prims_ready[q.tile]) {
        stallBegin(sRaster, 0, raster_free);
        wake(kRaster, 0, prims_ready[q.tile]);
        return;
      }
      if (ez_fifo[q.core].size() >= frag_queue) {
        stallBegin(sRaster, 0, raster_free);
        raster_blocked_core = q.core;
        return;
      }
      if (raster_cycle != t) {
        raster_cycle = t;
        raster_emitted = 0;
      }
      if (raster_emitted == qpc) {
        wake(kRaster, 0, t + 1);
        return;
      }
      if (raster_emitted == 0) {
        stallEnd(sRaster, 0, t);
        ++stage_busy[sRaster];
      }
      ++raster_emitted;
      const size_t i = size_t{q.tile} * cores + q.core;
      ++q_core[i];
      ++q_tile[q.tile];
      q.arrive = t + 1;
      ez_fifo[q.core].push_back(static_cast<uint32_t>(pending));
      if (hooks.prefetcher && q.shaded) hooks.prefetcher->quadQueued(*h, q.core, q.lines, t);
      wake(kEzUnit, q.core, t + 1);
      pending = -1;
    }
  }

  void ezStep(uint32_t c, uint64_t t) {
    if (ez_fifo[c].empty()) return;
    if (t < ez_free[c]) return wake(kEzUnit, c, ez_free[c]);
    const uint32_t slot = ez_fifo[c].front();
    QuadRec& q = recs[slot];
    uint64_t wait = 0;
    if (!barrierOpen(kEz, c, q.tile, t, wait)) {
      stallBegin(sEz, c, t);
      if (wait) wake(kEzUnit, c, wait);
      return;
    }
    const uint64_t ld = load_done[size_t{q.tile} * cores + c];
    if (ld > t) {
      stallBegin(sEz, c, t);
      return wake(kEzUnit, c, ld);
    }
    if (q.shaded && ez_out[c] >= ez_inflight) {
      stallBegin(sEz, c, t);
      return;  // admission wakes us
    }
    ez_fifo[c].pop_front();
    if (raster_blocked_core == static_cast<int64_t>(c)) {
      raster_blocked_core = -1;
      wake(kRaster, 0, t);
    }
    stallEnd(sEz, c, t);
    stage_queue_wait[sEz] += t - std::min(t, q.arrive);
    ez_free[c] = t + 1;
    ++stage_busy[sEz];
    const uint64_t td = t + ez_latency;
    const uint32_t k = q.tile;
    if (!q.shaded) {
      free_recs.push_back(slot);
      quadDone(kEz, k, c, td);
      quadDone(kFrag, k, c, td);
      quadDone(kBlend, k, c, td);
    } else {
      ++ez_out[c];
      admit_q[c].push_back(slot);
      recs[slot].segment = 0;
      // The ready time rides in the record's first ready-heap entry: keep it in tex_free's twin.
      admit_ready(slot) = td;
      quadDone(kEz, k, c, td);
      wake(kAdmit, c, td);
    }
    if (!ez_fifo[c].empty()) wake(kEzUnit, c, t + 1);
  }

  std::vector<uint64_t> admit_time;
  uint64_t& admit_ready(uint32_t slot) {
    if (admit_time.size() <= slot) admit_time.resize(recs.size(), 0);
    return admit_time[slot];
  }

  void admitStep(uint32_t c, uint64_t t) {
    if (admit_q[c].empty()) return;
    const uint32_t slot = admit_q[c].front();
    QuadRec& q = recs[slot];
    const uint64_t r = admit_ready(slot);
    if (r > t) return wake(kAdmit, c, r);
    // A quad out of early-Z the core cannot take: the core stalls from when it is free.
    uint64_t wait = 0;
    if (!barrierOpen(kFrag, c, q.tile, t, wait)) {
      stallBegin(sFrag, c, std::max(t, core_free[c]));
      if (wait) wake(kAdmit, c, wait);
      return;
    }
    if (resident[c] >= max_quads) {
      stallBegin(sFrag, c, std::max(t, core_free[c]));
      return;  // a finishing quad wakes us
    }
    stage_queue_wait[sFrag] += t - r;
    admit_q[c].pop_front();
    --ez_out[c];
    ++resident[c];
    wake(kEzUnit, c, t);
    ready_heap[c].push_back(Ready{t, ready_order++, slot});
    std::push_heap(ready_heap[c].begin(), ready_heap[c].end(), std::greater<>());
    wake(kCore, c, t);
    if (!admit_q[c].empty()) wake(kAdmit, c, t + 1);
  }

  void coreStep(uint32_t c, uint64_t t) {
    if (t < core_free[c]) return wake(kCore, c, core_free[c]);
    auto& heap = ready_heap[c];
    if (heap.empty()) return;
    if (heap.front().ready > t) return wake(kCore, c, heap.front().ready);
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const uint32_t slot = heap.back().slot;
    heap.pop_back();
    stallEnd(sFrag, c, t);
    QuadRec& q = recs[slot];
    const uint64_t n = q.tex_instrs + 1;
    const uint64_t seg = std::max<uint64_t>(1, q.cycles * (q.segment + 1) / n - q.cycles * q.segment / n);
    const uint64_t end = t + seg;
    core_free[c] = end;
    stage_busy[sFrag] += seg;
    res->cores[c].busy_cycles += seg;
    tile_busy[size_t{q.tile} * cores + c] += seg;
    if (q.segment < q.tex_instrs) {
      events.push(SimEvent{end, c, slot, kTexIssue});
      ++q.segment;
    } else {
      // The quad leaves the core: blending takes it, its thread slot frees.
      ++res->cores[c].quads;
      ++res->shaded_quads;
      --resident[c];
      blend_fifo[c].emplace_back(q.tile, end);
      wake(kBlendUnit, c, end);
      wake(kAdmit, c, end);
      const uint32_t k = q.tile;
      free_recs.push_back(slot);
      quadDone(kFrag, k, c, end);
    }
    // Free again at `end` with quads in it (waiting for texture data or ready) or a quad out of
    // early-Z at its input: any gap until it issues again is a stall.
    if (resident[c] > 0 || (!admit_q[c].empty() && admit_ready(admit_q[c].front()) <= end)) stallBegin(sFrag, c, end);
    if (!heap.empty()) wake(kCore, c, std::max(end, heap.front().ready));
  }

  void texIssue(uint32_t c, uint32_t slot, uint64_t t) {
    QuadRec& q = recs[slot];
    const uint32_t instr = q.segment - 1;
    TextureFrontBuffer* const front = hooks.front_buffer.get();
    const bool classify = hooks.l2_priority != nullptr;
    // The texture unit sends tex.lines_per_cycle lines per cycle to the L1.
    uint64_t slot_cycle = std::max(t, tex_free[c]);
    uint32_t in_cycle = slot_cycle == tex_free[c] ? tex_in_cycle[c] : 0;
    uint64_t done = t, lines = 0;
    MemRequest r;
    r.unit = static_cast<uint16_t>(c);
    uint32_t begin = 0;
    for (size_t s = 0; s < q.sample_end.size(); ++s) {
      const uint32_t end = q.sample_end[s];
      if (q.sample_instr[s] == instr) {
        lines += end - begin;
        for (uint32_t i = begin; i < end; ++i) {
          const uint64_t issue = slot_cycle;
          if (++in_cycle == tex_lpc) {
            in_cycle = 0;
            ++slot_cycle;
          }
          const uint64_t line = q.lines[i];
          if (front && front->access(c, line)) {
            ++res->front_buffer_hits;
            done = std::max(done, issue + tfm_latency);
            continue;
          }
          r.addr = line;
          if (classify) r.priority_class = priority(Stream::Texture, line, false);
          done = std::max(done, issue + h->access(r, issue).latency);
        }
      }
      begin = end;
    }
    tex_free[c] = slot_cycle;
    tex_in_cycle[c] = in_cycle;
    res->texture_lines += lines;
    const uint64_t ready = done + tex_latency;
    ready_heap[c].push_back(Ready{ready, ready_order++, slot});
    std::push_heap(ready_heap[c].begin(), ready_heap[c].end(), std::greater<>());
    wake(kCore, c, std::max(ready, core_free[c]));
  }

  void blendStep(uint32_t c, uint64_t t) {
    if (blend_fifo[c].empty()) return;
    if (t < blend_free[c]) return wake(kBlendUnit, c, blend_free[c]);
    const auto [k, r] = blend_fifo[c].front();
    if (r > t) return wake(kBlendUnit, c, r);
    uint64_t wait = 0;
    if (!barrierOpen(kBlend, c, k, t, wait)) {
      stallBegin(sBlend, c, t);
      if (wait) wake(kBlendUnit, c, wait);
      return;
    }
    const uint64_t ld = load_done[size_t{k} * cores + c];
    if (ld > t) {
      stallBegin(sBlend, c, t);
      return wake(kBlendUnit, c, ld);
    }
    blend_fifo[c].pop_front();
    stallEnd(sBlend, c, t);
    stage_queue_wait[sBlend] += t - r;
    blend_free[c] = t + 1;
    ++stage_busy[sBlend];
    quadDone(kBlend, k, c, t + blend_latency);
    if (!blend_fifo[c].empty()) wake(kBlendUnit, c, t + 1);
  }

  uint64_t raster(PassIndex& p, uint64_t t0) {
    pass = &p;
    if (sequential) {
      // Upper bound until the PassEnd is read; the per-tile arrays are sized for it.
      ntiles = p.info.tiles_x * p.info.tiles_y;
      order.clear();
      p.tiles.clear();
      p.tiles.reserve(ntiles);
      if (ntiles == 0) {
        Event e;
        if (!next(e) || e.kind != EventKind::PassEnd) fail("pass " + std::to_string(p.info.pass) + " has no tiles but no PassEnd");
        return t0;
      }
    } else {
      orderTiles(p, order);
      ntiles = static_cast<uint32_t>(p.tiles.size());
      if (ntiles == 0) return t0;
    }
    const size_t kc = size_t{ntiles} * cores;
    q_core.assign(kc, 0);
    q_tile.assign(ntiles, 0);
    for (uint32_t s = 0; s < 3; ++s) {
      done_core[s].assign(kc, 0);
      done_tile[s].assign(ntiles, 0);
      max_core[s].assign(kc, 0);
      max_tile[s].assign(ntiles, 0);
      allowed[s].assign(cores, 0);
      release[s].assign(cores, t0);
    }
    raster_done.assign(ntiles, 0);
    prims_ready.assign(ntiles, t0);
    tile_start.assign(ntiles, t0);
    tile_end.assign(ntiles, t0);
    load_done.assign(kc, t0);
    tile_busy.assign(kc, 0);
    load_lines.clear();
    store_lines.clear();
    load_begin.assign(ntiles + 1, 0);
    store_begin.assign(ntiles + 1, 0);
    ez_fifo.assign(cores, {});
    admit_q.assign(cores, {});
    blend_fifo.assign(cores, {});
    ready_heap.assign(cores, {});
    ez_free.assign(cores, t0);
    blend_free.assign(cores, t0);
    core_free.assign(cores, t0);
    tex_free.assign(cores, t0);
    ez_out.assign(cores, 0);
    resident.assign(cores, 0);
    tex_in_cycle.assign(cores, 0);
    for (uint32_t s = 0; s < 8; ++s) stall_since[s].assign(s == sRaster ? 1 : cores, kIdle);
    for (uint32_t u = 0; u < kUnitKinds; ++u) {
      scheduled[u].assign(cores, kIdle);
    }
    cur = 0;
    pending = -1;
    raster_finished = false;
    raster_blocked_core = -1;
    raster_cycle = ~uint64_t{0};
    raster_emitted = 0;
    fetch_free = t0;
    last_time = t0;

    events.reset(t0);
    if (!readTileHeader(0, t0)) return t0;  // a pass without tiles
    store_begin[0] = 0;
    setLoads(0, 0, true, t0);
    wake(kRaster, 0, t0);
    SimEvent e;
    while (events.pop(e)) {
      last_time = std::max(last_time, e.time);
      if (e.kind != kTexIssue) {
        if (scheduled[e.kind][e.unit] != e.time) continue;  // superseded by an earlier wake-up
        scheduled[e.kind][e.unit] = kIdle;
      }
      ++sim_events[e.kind];
      switch (e.kind) {
        case kRaster: rasterStep(e.time); break;
        case kEzUnit: ezStep(e.unit, e.time); break;
        case kAdmit: admitStep(e.unit, e.time); break;
        case kCore: coreStep(e.unit, e.time); break;
        case kTexIssue: texIssue(e.unit, e.slot, e.time); break;
        case kBlendUnit: blendStep(e.unit, e.time); break;
        default: break;
      }
    }
    for (uint32_t c = 0; c < cores; ++c) {
      if (allowed[kBlend][c] != ntiles) {
        throw ModelError("pass " + std::to_string(p.info.pass) + ": raster pipeline did not drain (tile " +
                         std::to_string(allowed[kBlend][c]) + " of " + std::to_string(ntiles) + ")");
      }
    }
    uint64_t end = last_time;
    for (uint32_t k = 0; k < ntiles; ++k) end = std::max(end, tile_end[k]);
    // A drained pipeline leaves no interval open; close any within the pass all the same.
    for (uint32_t s = 0; s < 8; ++s) {
      for (uint32_t u = 0; u < stall_since[s].size(); ++u) stallEnd(static_cast<StageId>(s), u, end);
    }
    perTileResults(p);
    return end;
  }

  double imbalance_sum = 0;
  uint64_t imbalance_tiles = 0;

  void perTileResults(const PassIndex& p) {
    for (uint32_t k = 0; k < ntiles; ++k) {
      const TileRef& tr = p.tiles[order[k]];
      auto row = [&](std::string m, double v) { res->tile_metrics.push_back(TileMetric{p.info.pass, tr.tx, tr.ty, std::move(m), v}); };
      row("cycles", static_cast<double>(tile_end[k] - tile_start[k]));
      row("quads", q_tile[k]);
      double mean = 0;
      for (uint32_t c = 0; c < cores; ++c) {
        const double b = static_cast<double>(tile_busy[size_t{k} * cores + c]);
        mean += b;
        row("core." + std::to_string(c) + ".busy_cycles", b);
      }
      mean /= cores;
      if (mean > 0) {
        double dev = 0;
        for (uint32_t c = 0; c < cores; ++c) dev += std::abs(static_cast<double>(tile_busy[size_t{k} * cores + c]) - mean);
        imbalance_sum += dev / cores / mean;
        ++imbalance_tiles;
      }
      ++res->tiles;
    }
  }

  void run(std::span<const uint8_t> frame, FrameResults& r) {
    r = FrameResults{};
    res = &r;
    bytes = frame;
    passes.clear();
    held = false;
    for (auto& v : stage_busy) v = 0;
    for (auto& v : stage_stall) v = 0;
    for (auto& v : stage_queue_wait) v = 0;
    imbalance_sum = 0;
    imbalance_tiles = 0;
    ready_order = 0;
    for (auto& v : sim_events) v = 0;
    // Quad records keep their buffers from frame to frame.
    free_recs.clear();
    for (uint32_t i = static_cast<uint32_t>(recs.size()); i-- > 0;) free_recs.push_back(i);
    r.cores.assign(cores, CoreStats{});

    h = std::make_unique<MemoryHierarchy>(hcfg);
    if (hooks.texture_organisation) h->setTextureOrganisation(hooks.texture_organisation(*h));
    if (hooks.front_buffer) hooks.front_buffer->reset(cores);
    scheduler->frameBegin();
    rd = std::make_unique<stream::StreamReader>(frame);
    if (!rd->error().empty()) throw ModelError("access stream: " + rd->error());
    sequential = !hooks.tile_order && !tile_opt;
    uint64_t t = 0;
    auto runPass = [&](PassIndex& p) {
      const uint64_t g = geometry(p, t);
      r.geometry_cycles += g - t;
      const uint64_t e = raster(p, g);
      r.raster_cycles += e - g;
      t = e;
      ++r.passes;
    };
    if (sequential) {
      Event e;
      bool frame_begin = false, frame_end = false;
      PassIndex p;
      while (next(e)) {
        if (e.kind == EventKind::FrameBegin && !frame_begin) {
          frame_begin = true;
        } else if (e.kind == EventKind::PassBegin && frame_begin && !frame_end) {
          p.info = PassInfo{e.u[0], e.u[1], e.u[2], e.u[3], e.u[4], e.u[5], e.u[6]};
          if (p.info.tile_width == 0 || p.info.tile_height == 0) fail("pass with a zero tile size");
          runPass(p);
        } else if (e.kind == EventKind::FrameEnd && frame_begin && !frame_end) {
          frame_end = true;
        } else {
          fail(std::string(stream::event_kind_name(e.kind)) + (frame_begin ? " outside a pass" : " before FrameBegin"));
        }
      }
      if (!frame_begin) throw ModelError("access stream: no FrameBegin");
    } else {
      index();
      if (tile_opt) collectTileSequence();
      for (PassIndex& p : passes) runPass(p);
    }
    r.cycles = t;
    finish(r);
  }

  void finish(FrameResults& r) {
    static const char* names[] = {"vertex", "binning", "tile_fetch", "raster", "earlyz", "fragment", "blend", "flush"};
    for (uint32_t i = 0; i < 8; ++i) r.stages.push_back(StageStats{names[i], stage_busy[i], stage_stall[i], stage_queue_wait[i]});
    r.cores_imbalance = imbalance_tiles ? imbalance_sum / static_cast<double>(imbalance_tiles) : 0;
    const auto& hist = h->replicationHistogram();
    double num = 0, den = 0;
    for (size_t k = 0; k < hist.size(); ++k) {
      num += static_cast<double>(k) * static_cast<double>(hist[k]);
      den += static_cast<double>(hist[k]);
    }
    r.replication_avg = den > 0 ? num / den : 0;
    r.energy = computeEnergy(*h, eparams, r.cycles);
    EnergyParams hp = eparams, lop = eparams;
    hp.tech = sameNode(eparams.tech, true);
    lop.tech = sameNode(eparams.tech, false);
    r.energy_hp_nj = computeEnergy(*h, hp, r.cycles).total_nj;
    r.energy_lop_nj = computeEnergy(*h, lop, r.cycles).total_nj;

    auto& m = r.frame_metrics;
    auto put = [&](std::string n, double v) { m.emplace_back(std::move(n), v); };
    auto u = [](uint64_t v) { return static_cast<double>(v); };
    put("cycles", u(r.cycles));
    put("cycles.geometry", u(r.geometry_cycles));
    put("cycles.raster", u(r.raster_cycles));
    put("energy.total_nj", r.energy.total_nj);
    put("energy.total_hp_nj", r.energy_hp_nj);
    put("energy.total_lop_nj", r.energy_lop_nj);
    put("energy.dynamic_nj", r.energy.dynamic_nj);
    put("energy.leakage_nj", r.energy.leakage_nj);
    for (const StructureEnergy& s : r.energy.structures) put("energy." + s.name + "_nj", s.totalNj());
    put("passes", u(r.passes));
    put("draws", u(r.draws));
    put("tiles", u(r.tiles));
    put("quads", u(r.quads));
    put("quads.shaded", u(r.shaded_quads));
    put("fragments", u(r.fragments));
    put("texture.samples", u(r.texture_samples));
    put("texture.lines", u(r.texture_lines));
    const CacheCounters l1 = h->l1texTotals();
    put("l1tex.accesses", u(l1.accesses));
    put("l1tex.hits", u(l1.hits));
    put("l1tex.misses", u(l1.misses));
    // With the built-in private L1s every hit is a local hit; an organisation (DTM-NUCA) that
    // serves remote hits reports them itself.
    if (!hooks.texture_organisation) put("l1tex.local_hits", u(l1.hits));
    put("l1tex.evictions", u(l1.evictions));
    put("l1tex.writebacks", u(l1.writebacks));
    put("l1tex.fetches", u(l1.fetches));
    put("l1tex.prefetches", u(l1.prefetches));
    put("l1tex.prefetch_fills", u(l1.prefetch_fills));
    if (hooks.front_buffer) put("tfm.hits", u(r.front_buffer_hits));
    auto cache = [&](const std::string& n, const CacheCounters& c) {
      put(n + ".accesses", u(c.accesses));
      put(n + ".hits", u(c.hits));
      put(n + ".misses", u(c.misses));
      put(n + ".evictions", u(c.evictions));
      put(n + ".writebacks", u(c.writebacks));
      // Line reads sent below. Not always the misses: a full-line write miss (a write-back
      // arriving from the level above) allocates without reading the line (README, "Cache").
      put(n + ".fetches", u(c.fetches));
      put(n + ".write_throughs", u(c.write_throughs));
    };
    CacheCounters vx;
    for (uint32_t i = 0; i < vps; ++i) {
      const CacheCounters& c = h->vertexCache(i).counters();
      vx.accesses += c.accesses; vx.hits += c.hits; vx.misses += c.misses; vx.evictions += c.evictions;
      vx.writebacks += c.writebacks;
    }
    cache("vertex", vx);
    cache("tile", h->tileCache().counters());
    const CacheCounters& l2 = h->l2().counters();
    cache("l2", l2);
    uint64_t l2_tex = 0;
    for (uint32_t c = 0; c < cores; ++c) l2_tex += l2.per_requester[h->l2RequesterTexture(c)].accesses;
    uint64_t l2_vx = 0;
    for (uint32_t v = 0; v < vps; ++v) l2_vx += l2.per_requester[h->l2RequesterVertex(v)].accesses;
    put("l2.texture_accesses", u(l2_tex));
    put("l2.vertex_accesses", u(l2_vx));
    put("pb.l2_accesses", u(l2.per_requester[h->l2RequesterTile()].accesses));
    put("pb.dram_accesses", u(h->dramFetchesFor(h->l2RequesterTile())));
    const DramCounters& d = h->dram().counters();
    put("dram.accesses", u(d.accesses()));
    put("dram.reads", u(d.reads));
    put("dram.writes", u(d.writes));
    put("dram.bytes", u(d.bytes));
    put("dram.row_hits", u(d.row_hits));
    put("dram.row_misses", u(d.row_misses));
    put("dram.l2_fetches", u(d.per_source[static_cast<uint32_t>(DramSource::L2Fetch)]));
    put("dram.l2_writes", u(d.per_source[static_cast<uint32_t>(DramSource::L2Write)]));
    put("dram.color_flushes", u(d.per_source[static_cast<uint32_t>(DramSource::ColorFlush)]));
    put("dram.attachment_loads", u(d.per_source[static_cast<uint32_t>(DramSource::Other)]));
    for (const StageStats& s : r.stages) {
      put("stage." + s.name + ".busy_cycles", u(s.busy_cycles));
      put("stage." + s.name + ".stall_cycles", u(s.stall_cycles));
      if (s.name == "earlyz" || s.name == "fragment" || s.name == "blend") {
        put("stage." + s.name + ".queue_wait_cycles", u(s.queue_wait_cycles));
      }
    }
    static const char* units[] = {"raster", "earlyz", "admit", "core", "texture", "blend"};
    for (uint32_t k = 0; k < kUnitKinds; ++k) put(std::string("sim.events.") + units[k], u(sim_events[k]));
    put("replication.avg", r.replication_avg);
    put("cores.imbalance", r.cores_imbalance);
    for (uint32_t c = 0; c < cores; ++c) {
      const CacheCounters& k = h->l1tex(c).counters();
      r.cores[c].l1tex_accesses = k.accesses;
      r.cores[c].l1tex_hits = k.hits;
      r.core_metrics.push_back(CoreMetric{c, "quads", u(r.cores[c].quads)});
      r.core_metrics.push_back(CoreMetric{c, "busy_cycles", u(r.cores[c].busy_cycles)});
      r.core_metrics.push_back(CoreMetric{c, "l1tex.accesses", u(k.accesses)});
      r.core_metrics.push_back(CoreMetric{c, "l1tex.hits", u(k.hits)});
    }
  }
};

GpuModel::GpuModel(const ParamSet& params, Hooks hooks) : impl_(std::make_unique<Impl>(params, std::move(hooks))) {}
GpuModel::~GpuModel() = default;

bool GpuModel::run(std::span<const uint8_t> frame_stream, FrameResults& results, std::string* error) {
  try {
    impl_->run(frame_stream, results);
    return true;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return false;
  }
}

FrameResults GpuModel::run(std::span<const uint8_t> frame_stream, std::string* error) {
  FrameResults r;
  run(frame_stream, r, error);
  return r;
}

const MemoryHierarchy* GpuModel::hierarchy() const { return impl_->h.get(); }

}  // namespace tessera::model
