// Time-ordered event queue of the raster phase: a timing wheel of one-cycle buckets for the near
// future (almost every event lies a few cycles ahead) and a heap for the rest. Events of one
// cycle come out in the order they were pushed, as from a (time, sequence) heap: far events move
// into the wheel as soon as their cycle enters the window, before any event of that cycle can be
// pushed directly.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace tessera::model {

// The units that sleep until an event wakes them.
enum class UnitKind : uint8_t { TileFetcher, Rasterizer, EarlyZ, Admit, Core, TextureIssue, Blend, Flush };
inline constexpr uint32_t kUnitKinds = 8;
inline constexpr const char* kUnitKindNames[kUnitKinds] = {"tile_fetch", "raster", "earlyz", "admit",
                                                           "core",       "texture", "blend",  "flush"};

struct SimEvent {
  uint64_t time;
  uint32_t unit;  // core, or 0 for the single units
  uint32_t slot;  // quad record (TextureIssue only)
  UnitKind kind;
};

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

}  // namespace tessera::model
