// The prefetch queues of paper 002's decoupled access/execute pixel processors (section 3,
// Fig. 2b), with no simulator dependency: one queue per pixel processor, filled with the cache
// lines a quad will read while the quad waits in the tile queue, dispatched in order at a fixed
// rate. Each new entry's Source field comes from an associative match of its address against the
// entries queued for the other processors: a match names that processor's cache, no match L2.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace tessera::model::dae {

class PrefetchQueues {
 public:
  static constexpr uint32_t kL2 = 0xffffffffu;  // Source field: no other queue holds the line

  // `capacity` entries per queue (not yet dispatched), `issue_rate` dispatches per cycle per
  // queue; `sharing` false leaves every Source field at kL2 (no associative match).
  PrefetchQueues(uint32_t cores, uint32_t capacity, uint32_t issue_rate, bool sharing);

  struct Insert {
    enum Kind : uint8_t { Queued, Duplicate, Full } kind = Queued;
    uint64_t dispatch = 0;  // Queued: the cycle the entry leaves the queue for its L1
    uint32_t source = kL2;  // Queued: the Source field
    uint32_t compared = 0;  // entries of other queues the new address was compared with
  };
  // Offers `line` to the queue of `core` at cycle `now` (cycles never decrease between calls).
  // Duplicate: the core's queue already holds the line (one fill serves both); Full: `capacity`
  // entries are waiting, the prefetch is dropped.
  Insert insert(uint32_t core, uint64_t line, uint64_t now);

  // Empties every queue.
  void clear();
  // Entries of `core`'s queue not dispatched by `now`.
  uint32_t queued(uint32_t core, uint64_t now);

 private:
  struct Entry {
    uint64_t line;
    uint64_t dispatch;
  };
  void retire(uint32_t core, uint64_t now);

  uint32_t capacity_, issue_rate_;
  bool sharing_;
  std::vector<std::deque<Entry>> queues_;
  std::vector<uint64_t> next_cycle_;   // per queue: the cycle of its next dispatch slot
  std::vector<uint32_t> used_in_cycle_;  // dispatches already given that cycle
};

}  // namespace tessera::model::dae
