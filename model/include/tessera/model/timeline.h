// Where a frame's time goes inside the model, over time: what the timing units did, gathered in
// bins of a fixed number of GPU cycles and written in the Chrome trace-event format (JSON), which
// Perfetto (ui.perfetto.dev) and chrome://tracing open.
//
// A unit changes state every few cycles (a shader core alternates between issuing and waiting for
// texture data tens of times per tile), so a slice per interval would make a game frame's trace
// hundreds of megabytes. The sampling rule instead: each track is a counter whose value in a bin
// is the cycles the unit spent in each state within the bin (stacked series: busy, texture_wait,
// ... for a shader core; busy for an L2 or DRAM bank; busy and stall for the rasterizer and a
// flush unit), so the counters of a bin sum to at most the bin's width per unit and their sums
// over the frame are the frame's metrics exactly (core.<i>.cycles.<state>). Queue occupancy is
// the largest value in the bin. Phases (each pass's geometry and raster phase) are slices.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace tessera::model {

enum class CoreState : uint8_t;

class Timeline {
 public:
  // The units a track belongs to.
  enum class Unit : uint8_t { Rasterizer = 0, Flush, L2Bank, DramBank };
  static constexpr uint32_t kUnits = 4;
  enum class Activity : uint8_t { Busy = 0, Stall };

  // The shader core states (gpu_model.h CoreState, kCoreStates).
  static constexpr uint32_t kStates = 6;

  explicit Timeline(uint64_t bin_cycles);

  // A new frame starting at model cycle `origin`: everything recorded so far is dropped.
  void begin_frame(uint64_t origin);

  // Shader core `core` spent [from, to) in state s. (Inline: the memory hierarchy's library
  // records without the timing model's.)
  void core_cycles(uint32_t core, CoreState s, uint64_t from, uint64_t to) {
    if (cores_.size() <= core) cores_.resize(core + 1);
    add(cores_[core][static_cast<size_t>(s)], from, to);
  }
  // Unit `index` of kind u was busy or stalled over [from, to).
  void unit_cycles(Unit u, uint32_t index, Activity a, uint64_t from, uint64_t to) {
    auto& units = units_[static_cast<size_t>(u)];
    if (units.size() <= index) units.resize(index + 1);
    add(units[index][static_cast<size_t>(a)], from, to);
  }
  // Core `core`'s fragment queue held n quads at t.
  void fragment_queue(uint32_t core, uint64_t t, uint32_t n);
  // A named phase of the frame (a pass's geometry or raster phase).
  void phase(std::string name, uint64_t from, uint64_t to);

  // The cycles of state s of core `core` over the frame (the sum of its bins).
  uint64_t core_total(uint32_t core, CoreState s) const;
  uint64_t unit_total(Unit u, uint32_t index, Activity a) const;
  uint64_t bin_cycles() const { return bin_; }

  // The trace-event JSON object ({"traceEvents": [...], ...}); timestamps in microseconds at
  // `gpu_mhz`. `title` names the process (capture, frame and configuration).
  void write_json(std::ostream& out, double gpu_mhz, const std::string& title) const;

 private:
  // Per-bin cycles of a series.
  using Bins = std::vector<uint64_t>;
  void add(Bins& bins, uint64_t from, uint64_t to) {
    from = std::max(from, origin_) - origin_;
    to = std::max(to, origin_) - origin_;
    if (to <= from) return;
    const size_t last = static_cast<size_t>((to - 1) / bin_);
    if (bins.size() <= last) bins.resize(last + 1, 0);
    for (uint64_t t = from; t < to;) {  // [from, to) split at the bin edges
      const uint64_t end = std::min((t / bin_ + 1) * bin_, to);
      bins[static_cast<size_t>(t / bin_)] += end - t;
      t = end;
    }
  }

  struct Phase {
    std::string name;
    uint64_t from = 0, to = 0;
  };
  uint64_t bin_ = 1000;
  uint64_t origin_ = 0;
  std::vector<std::array<Bins, kStates>> cores_;
  std::vector<std::array<Bins, 2>> units_[kUnits];
  std::vector<std::vector<uint32_t>> queue_max_;  // per core, per bin
  std::vector<uint32_t> queue_level_;             // per core: quads after its last event
  std::vector<Phase> phases_;
};

}  // namespace tessera::model
