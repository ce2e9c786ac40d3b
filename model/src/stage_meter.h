// Busy, stall and queue-wait cycles of one pipeline stage (gpu_model.h StageStats), with the
// stall intervals of its parallel units: an interval opens when a unit, free and with work at its
// input, cannot take it, and closes when it next takes work. Summing intervals per unit, not
// waiting time per quad, keeps busy + stall within cycles x units.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "tessera/model/timeline.h"

namespace tessera::model {

inline constexpr uint64_t kIdle = std::numeric_limits<uint64_t>::max();

class StageMeter {
 public:
  uint64_t busy = 0, stall = 0, queue_wait = 0;
  void reset(size_t units) {
    busy = stall = queue_wait = 0;
    since_.assign(units, kIdle);
  }
  void reset_units(size_t units) { since_.assign(units, kIdle); }
  // Stall intervals also go to `timeline` (null: none) as unit kind `unit`'s.
  void trace_to(Timeline* timeline, Timeline::Unit unit) {
    timeline_ = timeline;
    unit_ = unit;
  }
  void stall_begin(uint32_t u, uint64_t t) {
    if (since_[u] == kIdle) since_[u] = t;
  }
  void stall_end(uint32_t u, uint64_t t) {
    uint64_t& b = since_[u];
    if (b == kIdle) return;
    if (t > b) {
      stall += t - b;
      if (timeline_) timeline_->unit_cycles(unit_, u, Timeline::Activity::Stall, b, t);
    }
    b = kIdle;
  }
  void close_all(uint64_t t) {
    for (uint32_t u = 0; u < since_.size(); ++u) stall_end(u, t);
  }

 private:
  std::vector<uint64_t> since_;
  Timeline* timeline_ = nullptr;
  Timeline::Unit unit_ = Timeline::Unit::Rasterizer;
};

}  // namespace tessera::model
