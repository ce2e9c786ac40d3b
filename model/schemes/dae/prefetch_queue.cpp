#include "dae/prefetch_queue.h"

#include <algorithm>
#include <stdexcept>

namespace tessera::model::dae {

PrefetchQueues::PrefetchQueues(uint32_t cores, uint32_t capacity, uint32_t issue_rate, bool sharing)
    : capacity_(capacity), issue_rate_(issue_rate), sharing_(sharing), queues_(cores), next_cycle_(cores, 0),
      used_in_cycle_(cores, 0) {
  if (cores == 0 || capacity == 0 || issue_rate == 0) {
    throw std::invalid_argument("prefetch queues need at least one core, one entry and one dispatch per cycle");
  }
}

void PrefetchQueues::retire(uint32_t core, uint64_t now) {
  std::deque<Entry>& q = queues_[core];
  while (!q.empty() && q.front().dispatch <= now) q.pop_front();
}

uint32_t PrefetchQueues::queued(uint32_t core, uint64_t now) {
  retire(core, now);
  return static_cast<uint32_t>(queues_[core].size());
}

PrefetchQueues::Insert PrefetchQueues::insert(uint32_t core, uint64_t line, uint64_t now) {
  Insert out;
  retire(core, now);
  std::deque<Entry>& q = queues_[core];
  for (const Entry& e : q) {
    if (e.line == line) {
      out.kind = Insert::Duplicate;
      return out;
    }
  }
  if (q.size() >= capacity_) {
    out.kind = Insert::Full;
    return out;
  }
  if (sharing_) {
    // Section 3: "the addresses of all the queued requests are associatively compared with the
    // new address". Of several matches the entry dispatched first is taken: its fill is the
    // earliest to arrive in that processor's cache.
    uint64_t best = ~uint64_t{0};
    for (uint32_t c = 0; c < queues_.size(); ++c) {
      if (c == core) continue;
      retire(c, now);
      out.compared += static_cast<uint32_t>(queues_[c].size());
      for (const Entry& e : queues_[c]) {
        if (e.line == line && e.dispatch < best) {
          best = e.dispatch;
          out.source = c;
        }
      }
    }
  }
  // In order, issue_rate entries per cycle, never before the entry exists.
  if (next_cycle_[core] < now) {
    next_cycle_[core] = now;
    used_in_cycle_[core] = 0;
  }
  out.dispatch = next_cycle_[core];
  if (++used_in_cycle_[core] == issue_rate_) {
    ++next_cycle_[core];
    used_in_cycle_[core] = 0;
  }
  q.push_back(Entry{line, out.dispatch});
  return out;
}

void PrefetchQueues::clear() {
  for (auto& q : queues_) q.clear();
  std::fill(next_cycle_.begin(), next_cycle_.end(), 0);
  std::fill(used_in_cycle_.begin(), used_in_cycle_.end(), 0);
}

}  // namespace tessera::model::dae
