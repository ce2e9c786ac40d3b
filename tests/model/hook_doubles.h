// Test doubles of the model's hooks (model/include/tessera/model/hooks.h): trivial alternatives
// to each baseline, so the tests can show that the model really routes a decision through its
// hook (a different core, prefetch or front buffer changes the counts). No scheme uses them; they live with the tests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tessera/model/hooks.h"

namespace tessera::model {

// Trivial alternatives: every quad of a tile to one core (tile seq modulo cores), and quads
// dealt round-robin in rasterisation order.
class WholeTileScheduler final : public QuadScheduler {
 public:
  uint32_t core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y,
                uint32_t cores) override;
};
class RoundRobinScheduler final : public QuadScheduler {
 public:
  uint32_t core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y,
                uint32_t cores) override;
  void frame_begin() override { next_ = 0; }

 private:
  uint32_t next_ = 0;
};

// Trivial alternative: prefetch every line of the quad into its core's L1.
class QueuePrefetcher final : public TexturePrefetcher {
 public:
  void quad_queued(MemoryHierarchy& hierarchy, uint32_t core, std::span<const uint64_t> lines,
                   uint32_t dependent_samples, uint64_t now) override;
};

// Trivial alternative: one register per core holding the last line it read.
class LastLineBuffer final : public LineFrontBuffer {
 public:
  void reset(uint32_t cores) override {
    last_.assign(cores, ~uint64_t{0});
    ready_.assign(cores, 0);
  }
  bool access(uint32_t core, uint64_t line_addr, uint64_t* ready) override;
  void line_ready(uint32_t core, uint64_t line_addr, uint64_t ready) override;
  uint32_t latency() const override { return 1; }

 private:
  std::vector<uint64_t> last_, ready_;
};

}  // namespace tessera::model
