// Event-driven timing model of the tile-based GPU (papers 000, 001, 003), consuming one frame's
// access stream (replay/stream). Library tessera_gpu_model.
//
// Per subpass of each render pass: the geometry phase (geometry_phase.cpp: vertex fetch through
// the vertex caches, vertex processors, the Polygon List Builder writing the Parameter Buffer
// through the tile cache), then the raster phase as a discrete-event simulation of one timing
// unit per file (raster_pipeline.h):
//   tile fetcher (PB reads through the tile cache into the triangle queue)
//   -> rasterizer (raster.quads_per_cycle) -> per core: fragment queue (queue.fragment)
//   -> early-Z (1 quad/cycle, depthbuf.latency; at most gpu.earlyz_inflight_quads past it and not
//      yet in the core) -> shader core (core.max_quads resident quads; core.issue_lanes
//      lane-instructions per cycle; texture instructions go through L1 -> L2 -> DRAM with
//      in-flight fills, at tex.lines_per_cycle, while other quads issue)
//   -> colour queue (queue.color) -> blending (1 quad/cycle, colorbuf.latency) -> colour buffer
//      flush (AttachmentStore lines to memory) before the buffer takes the next tile.
// Barriers (paper 001 section II-C): early-Z, fragment stage and blending each take quads of a new
// tile only when every quad of the previous tile has left that stage (gpu.barrier=tile), or, in
// the decoupled architecture of section III-E (gpu.barrier=subtile), when this core's quads of the
// previous tile have left it (its Z/colour bank is flushed on its own).
//
// A model simulates the frames of one run in order: caches, in-flight fills, open DRAM rows and
// the page map stay warm from one frame to the next (the papers simulate frame sequences) unless
// sim.cold_caches is set; reset() starts a new run.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/model/energy.h"
#include "tessera/model/hierarchy.h"
#include "tessera/model/hooks.h"
#include "tessera/model/params.h"

namespace tessera::model {

// Busy: cycles the stage did work (summed over its parallel units). Stall: cycles a unit had
// work at its input but could not take it (barrier, full output queue, missing data), counted as
// intervals per unit (summed over its units), so busy + stall <= cycles x units. Queue wait: the
// sum over quads of the cycles each spent at the stage's input before the stage took it (early-Z,
// fragment, blend; 0 for the other stages) -- N quads waiting together count N times.
struct StageStats {
  std::string name;  // vertex, binning, tile_fetch, raster, earlyz, fragment, blend, flush
  uint64_t busy_cycles = 0;
  uint64_t stall_cycles = 0;
  uint64_t queue_wait_cycles = 0;
};

// Where a shader core's cycles go (shader_core.h): an engine issued (busy), or every engine idle
// because the resident quads wait for texture data, wait for the varying or load/store unit, the
// next quad is held at a barrier, finished quads cannot leave for a full colour queue (blocked),
// or there is nothing to run (starved: the fragment queue is empty, during geometry phases too).
enum class CoreState : uint8_t { Busy = 0, TextureWait, UnitWait, BarrierWait, Blocked, Starved };
inline constexpr uint32_t kCoreStates = 6;
const char* core_state_name(CoreState s);  // busy, texture_wait, unit_wait, barrier_wait, blocked, starved

struct CoreCycles {
  uint64_t by_state[kCoreStates] = {};
  uint64_t& operator[](CoreState s) { return by_state[static_cast<size_t>(s)]; }
  uint64_t operator[](CoreState s) const { return by_state[static_cast<size_t>(s)]; }
  uint64_t total() const;
};

struct CoreStats {
  uint64_t quads = 0;        // quads shaded
  uint64_t busy_cycles = 0;  // issue cycles, summed over the core's engines
  uint64_t l1tex_accesses = 0, l1tex_hits = 0;
  uint64_t color_flush_lines = 0;  // tile-buffer lines its flush unit wrote (gpu.barrier=tile: core 0's, all)
  CoreCycles cycles;         // sums to the frame's cycles
};

struct TileMetric {
  uint32_t pass = 0, tile_x = 0, tile_y = 0;
  std::string metric;
  double value = 0;
};

struct CoreMetric {
  uint32_t core = 0;
  std::string metric;
  double value = 0;
};

struct FrameResults {
  uint64_t cycles = 0;           // frame time in GPU cycles
  uint64_t geometry_cycles = 0;  // summed over passes
  uint64_t raster_cycles = 0;
  uint64_t passes = 0, draws = 0, tiles = 0, quads = 0, shaded_quads = 0, fragments = 0;
  uint64_t texture_samples = 0, texture_lines = 0, front_buffer_hits = 0;
  // Texel reads of shaded quads' samples, one per texel as paper 004's Algorithm 1 looks them up
  // (4 per bilinear probe, 1 per nearest one; an irregular probe one per distinct block), from the
  // stream's probe records (version 3; 0 without them).
  uint64_t texture_texel_reads = 0;
  // Vertex shader texture samples and their lines, read through the vertex caches.
  uint64_t vertex_texture_samples = 0, vertex_texture_lines = 0;
  // Paper 003 section V-A's lower bound on the unified tile cache's misses (no tile organisation).
  uint64_t tile_lower_bound = 0;
  // The Tile Fetcher (paper 003 Figs. 23-24): primitives it put in its output queue, and the
  // cycles it was active -- issuing requests (one per cycle) or held by the memory hierarchy
  // (busy banks, full MSHR files). Waits for the Raster Pipeline (a full output queue, a line
  // locked for the Rasterizer, the next tile not begun) are not counted: the Tiling Engine's own
  // throughput, as with the paper's unlimited output queue.
  uint64_t tile_fetcher_primitives = 0, tile_fetcher_active_cycles = 0;
  bool warm = false;             // caches carried over from the run's previous frame
  CoreActivity activity;         // what the non-memory structures did (energy.h)
  std::vector<StageStats> stages;
  std::vector<CoreStats> cores;
  double cores_imbalance = 0;  // mean over tiles of the mean |busy - mean| / mean of the cores
  double cores_quad_deviation = 0;  // the same for the cores' quads (paper 001 Figs. 12 and 15)
  // Decoupled barriers (paper 001 Fig. 10): tiles a core's early-Z was past the oldest tile some
  // core's early-Z had not finished, when it took a quad: the largest, and the mean over quads.
  uint32_t cores_tile_lead_max = 0;
  double cores_tile_lead_mean = 0;
  double replication_avg = 0;  // L1s holding a serviced block, paper 000 Fig. 1
  std::vector<double> replication_share;  // [k]: share of serviced blocks held in k L1s
  EnergyReport energy;         // energy.tech as configured
  double energy_hp_nj = 0, energy_lop_nj = 0;  // the same node, hp and lop cells
  // Paper 004 Fig. 9: dynamic energy of the texture path (a front buffer's structure "tfm", the
  // L1 texture caches, L2 reads for texture requests) per texture line request (texture_lines).
  double texture_path_pj_per_access = 0;
  // The flat forms for the results database (docs/contracts.md names).
  std::vector<std::pair<std::string, double>> frame_metrics;
  // One line each about a structure that made this frame's timing unlike the machine it models
  // (a saturated mesh link or table port), for the replay to print; the metrics carry the numbers.
  std::vector<std::string> warnings;
  // Per tile: cycles, quads, l2.accesses, core.<i>.busy_cycles, core.<i>.quads, and
  // cores.deviation / cores.quad_deviation (tiles whose cores were busy / had quads).
  std::vector<TileMetric> tile_metrics;
  std::vector<CoreMetric> core_metrics;  // quads, busy_cycles, l1tex.accesses, l1tex.hits

  double metric(std::string_view name) const;  // frame_metrics lookup; NaN when absent
};

struct FrameIndex;

// A frame's access stream, checked and indexed once (passes, subpasses, tiles with their seek
// points and headers) so that every configuration runs it without walking its structure again:
// shade once, index once, simulate many. The stream's bytes must outlive it.
class IndexedFrame {
 public:
  // nullptr with `*error` = one line naming the problem when the stream is damaged.
  static std::unique_ptr<IndexedFrame> build(std::span<const uint8_t> frame_stream, std::string* error);
  ~IndexedFrame();
  IndexedFrame(const IndexedFrame&) = delete;
  IndexedFrame& operator=(const IndexedFrame&) = delete;
  const FrameIndex& index() const { return *index_; }

 private:
  IndexedFrame();
  std::unique_ptr<FrameIndex> index_;
};

class Timeline;

class GpuModel {
 public:
  // Reads every parameter once; throws ParamError on a bad configuration.
  explicit GpuModel(const ParamSet& params, Hooks hooks = {});
  ~GpuModel();
  GpuModel(const GpuModel&) = delete;
  GpuModel& operator=(const GpuModel&) = delete;

  // Simulates the run's next frame (warm caches unless sim.cold_caches or the run's first frame).
  // On damaged or inconsistent input returns false with `*error` = one line naming the problem;
  // `results` is then incomplete and the next frame starts a new run.
  bool run(const IndexedFrame& frame, FrameResults& results, std::string* error);
  // The same on a stream not indexed yet.
  bool run(std::span<const uint8_t> frame_stream, FrameResults& results, std::string* error);
  FrameResults run(std::span<const uint8_t> frame_stream, std::string* error);
  // Starts a new run: the next frame starts with cold caches.
  void reset();

  // The hierarchy of the last run (its counters), for tests and schemes.
  const MemoryHierarchy* hierarchy() const;

  // Every frame run from now also records its timeline into `timeline` (timeline.h; null: stop),
  // which must outlive the runs. Each frame starts it afresh.
  void set_timeline(Timeline* timeline);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::model
