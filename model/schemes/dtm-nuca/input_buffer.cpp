#include "dtm-nuca/input_buffer.h"

#include <iterator>

namespace tessera::model::dtm_nuca {

uint64_t InputBuffer::first_room(uint64_t from, uint64_t stay) const {
  if (!bounded() || stay == 0) return from;
  uint64_t t = from;
  auto it = level_.upper_bound(t);
  if (it != level_.begin()) --it;  // the step holding t, or the first one after it
  // Each step scanned overlaps [t, t + stay): a full one moves t to its end, the next step's start
  // (the last step holds nothing, so a full step always has a next one).
  while (it != level_.end() && it->first < t + stay) {
    const auto next = std::next(it);
    if (it->second >= capacity_ && next != level_.end()) t = next->first;
    it = next;
  }
  return t;
}

uint32_t InputBuffer::held(uint64_t cycle) const {
  auto it = level_.upper_bound(cycle);
  return it == level_.begin() ? 0 : std::prev(it)->second;
}

std::map<uint64_t, uint32_t>::iterator InputBuffer::split(uint64_t cycle) {
  auto it = level_.lower_bound(cycle);
  if (it != level_.end() && it->first == cycle) return it;
  const uint32_t count = it == level_.begin() ? 0 : std::prev(it)->second;
  return level_.emplace_hint(it, cycle, count);
}

void InputBuffer::join(std::map<uint64_t, uint32_t>::iterator it) {
  if (it == level_.end()) return;
  const uint32_t before = it == level_.begin() ? 0 : std::prev(it)->second;
  if (before == it->second) level_.erase(it);
}

bool InputBuffer::hold(uint64_t enter, uint64_t leave) {
  if (!bounded() || enter >= leave) return false;
  const auto first = split(enter);
  const auto last = split(leave);
  bool over = false;
  for (auto it = first; it != last; ++it) over |= ++it->second > capacity_;
  join(last);
  join(first);
  if (leave > latest_) {
    latest_ = leave;
    if (latest_ > kWindow) forget_before(latest_ - kWindow);
  }
  return over;
}

void InputBuffer::forget_before(uint64_t cycle) {
  while (!level_.empty() && level_.begin()->first < cycle) {
    const auto next = std::next(level_.begin());
    if (next != level_.end() && next->first <= cycle) {
      level_.erase(level_.begin());
      continue;
    }
    // The first step runs past `cycle`: it now starts there.
    const uint32_t count = level_.begin()->second;
    level_.erase(level_.begin());
    if (count != 0) level_.emplace(cycle, count);
    break;
  }
}

void InputBuffer::clear() {
  level_.clear();
  latest_ = 0;
}

}  // namespace tessera::model::dtm_nuca
