// Event-driven timing model of the tile-based GPU (papers 000, 001, 003), consuming one frame's
// access stream (replay/stream). Library tessera_gpu_model.
//
// Per render pass: the geometry phase (vertex processors fetch through their vertex caches and
// shade; the Polygon List Builder writes the Parameter Buffer through the tile cache), then the
// raster phase as a discrete-event simulation over a time-ordered event queue:
//   tile fetcher (PB reads through the tile cache, one tile ahead of the rasterizer)
//   -> rasterizer (raster.quads_per_cycle) -> per core: fragment queue (queue.fragment)
//   -> early-Z (1 quad/cycle, depthbuf.latency; at most gpu.earlyz_inflight_quads past it and not
//      yet in the core) -> shader core (core.max_quads resident quads; core.issue_lanes
//      lane-instructions per cycle; a quad's texture instructions go through L1 -> L2 -> DRAM at
//      tex.lines_per_cycle and the latencies hierarchy.h returns, while other quads issue)
//   -> blending (1 quad/cycle, colorbuf.latency) -> colour buffer flush (AttachmentStore lines to
//      memory) before the buffer takes the next tile.
// Barriers (paper 001 section II-C): early-Z, fragment stage and blending each take quads of a new
// tile only when every quad of the previous tile has left that stage (gpu.barrier=tile), or, in
// the decoupled architecture of section III-E (gpu.barrier=subtile), when this core's quads of the
// previous tile have left it (its Z/colour bank is flushed on its own).
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

struct CoreStats {
  uint64_t quads = 0;        // quads shaded
  uint64_t busy_cycles = 0;  // instruction issue cycles
  uint64_t l1tex_accesses = 0, l1tex_hits = 0;
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
  std::vector<StageStats> stages;
  std::vector<CoreStats> cores;
  double cores_imbalance = 0;  // mean over tiles of the mean |busy - mean| / mean of the cores
  double replication_avg = 0;  // L1s holding a serviced block, paper 000 Fig. 1
  EnergyReport energy;         // energy.tech as configured
  double energy_hp_nj = 0, energy_lop_nj = 0;  // the same node, hp and lop cells
  // The flat forms for the results database (DESIGN.md section 8 names).
  std::vector<std::pair<std::string, double>> frame_metrics;
  std::vector<TileMetric> tile_metrics;  // cycles, quads, core.<i>.busy_cycles per tile
  std::vector<CoreMetric> core_metrics;  // quads, busy_cycles, l1tex.accesses, l1tex.hits

  double metric(std::string_view name) const;  // frame_metrics lookup; NaN when absent
};

class GpuModel {
 public:
  // Reads every parameter once; throws ParamError on a bad configuration.
  explicit GpuModel(const ParamSet& params, Hooks hooks = {});
  ~GpuModel();
  GpuModel(const GpuModel&) = delete;
  GpuModel& operator=(const GpuModel&) = delete;

  // Simulates one frame's stream (caches start cold). On damaged or inconsistent input returns
  // false with `*error` = one line naming the problem; `results` is then incomplete.
  bool run(std::span<const uint8_t> frame_stream, FrameResults& results, std::string* error);
  FrameResults run(std::span<const uint8_t> frame_stream, std::string* error);

  // The hierarchy of the last run (its counters), for tests and schemes.
  const MemoryHierarchy* hierarchy() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tessera::model
