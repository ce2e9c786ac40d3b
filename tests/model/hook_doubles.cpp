#include "hook_doubles.h"

namespace tessera::model {

uint32_t WholeTileScheduler::core(const PassInfo&, const TileRef&, uint32_t seq, uint32_t, uint32_t, uint32_t cores) {
  return seq % cores;
}

uint32_t RoundRobinScheduler::core(const PassInfo&, const TileRef&, uint32_t, uint32_t, uint32_t, uint32_t cores) {
  const uint32_t c = next_ % cores;
  next_ = c + 1;
  return c;
}

void QueuePrefetcher::quad_queued(MemoryHierarchy& hierarchy, uint32_t core, std::span<const uint64_t> lines,
                                  uint32_t /*dependent_samples*/, uint64_t now) {
  // The lines become usable at their fill time (the cache records it): a demand access that
  // comes earlier waits for the fill.
  for (uint64_t line : lines) hierarchy.prefetch_texture(core, line, now);
}

bool LastLineBuffer::access(uint32_t core, uint64_t line_addr, uint64_t* ready) {
  if (core >= last_.size()) {
    last_.resize(core + 1, ~uint64_t{0});
    ready_.resize(core + 1, 0);
  }
  const bool hit = last_[core] == line_addr;
  if (hit) {
    *ready = ready_[core];
  } else {
    last_[core] = line_addr;
    ready_[core] = 0;
  }
  return hit;
}

void LastLineBuffer::line_ready(uint32_t core, uint64_t line_addr, uint64_t ready) {
  if (core < last_.size() && last_[core] == line_addr) ready_[core] = ready;
}

}  // namespace tessera::model
