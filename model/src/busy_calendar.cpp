#include "tessera/model/busy_calendar.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace tessera::model {

BusyCalendar::BusyCalendar(uint64_t window) : window_(window), mask_(window - 1), bits_(window / 64, 0) {
  if (window < 64 || !std::has_single_bit(window)) throw std::invalid_argument("BusyCalendar: the window is not a power of two of at least 64 cycles");
}

bool BusyCalendar::busy(uint64_t cycle) const {
  if (cycle < base_ || cycle >= base_ + window_) return false;
  const uint64_t i = cycle & mask_;
  return ((bits_[i / 64] >> (i % 64)) & 1) != 0;
}

void BusyCalendar::clear() {
  std::fill(bits_.begin(), bits_.end(), 0);
  base_ = 0;
  frontier_ = 0;
  end_ = 0;
}

// In the ring word that holds the window's last cycle, the bits after it are the window's first
// cycles: a scan must not read them as the cycles that follow (past the window all is free).
uint64_t BusyCalendar::first_free(uint64_t c) const {
  const uint64_t limit = base_ + window_;
  while (c < limit) {
    const uint64_t i = c & mask_;
    const uint64_t span = 64 - i % 64;                      // the word's cycles from c on
    uint64_t free_bits = ~bits_[i / 64] >> (i % 64);
    if (limit - c < span) free_bits |= ~uint64_t{0} << (limit - c);
    if (free_bits != 0) return c + static_cast<uint64_t>(std::countr_zero(free_bits));
    c += span;
  }
  return c;
}

uint64_t BusyCalendar::first_busy(uint64_t c, uint64_t end) const {
  const uint64_t limit = std::min(end, base_ + window_);
  while (c < limit) {
    const uint64_t i = c & mask_;
    const uint64_t span = 64 - i % 64;
    uint64_t busy_bits = bits_[i / 64] >> (i % 64);
    if (limit - c < span) busy_bits &= (uint64_t{1} << (limit - c)) - 1;
    if (busy_bits != 0) return c + static_cast<uint64_t>(std::countr_zero(busy_bits));
    c += span;
  }
  return end;
}

void BusyCalendar::fill(uint64_t start, uint64_t end, bool value) {
  for (uint64_t c = start; c < end;) {
    const uint64_t i = c & mask_;
    const uint64_t n = std::min<uint64_t>(end - c, 64 - i % 64);
    const uint64_t mask = (n == 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << (i % 64);
    uint64_t& word = bits_[i / 64];
    word = value ? word | mask : word & ~mask;
    c += n;
  }
}

void BusyCalendar::advance(uint64_t last) {
  if (last < base_ + window_) return;
  const uint64_t next = last - window_ + 1;
  if (next - base_ >= window_) {
    std::fill(bits_.begin(), bits_.end(), 0);
  } else {
    fill(base_, next, false);  // the cycles that wrap around to hold the new ones
  }
  base_ = next;
  frontier_ = std::max(frontier_, base_);
}

uint64_t BusyCalendar::find(uint64_t t, uint64_t length) const {
  if (length == 0) return t;
  if (length > window_) throw std::invalid_argument("BusyCalendar: a booking longer than the window");
  uint64_t start = std::max({t, base_, frontier_});
  if (start >= end_) return start;
  if (length == 1) return first_free(start);
  while (true) {
    start = first_free(start);
    const uint64_t blocked = first_busy(start, start + length);
    if (blocked == start + length) return start;
    start = blocked + 1;
  }
}

uint64_t BusyCalendar::reserve(uint64_t t, uint64_t length) {
  if (length == 0) return t;
  if (length > window_) throw std::invalid_argument("BusyCalendar: a booking longer than the window");
  uint64_t start = std::max({t, base_, frontier_});
  if (start >= end_) {
    // Nothing is booked from `start` on (requests in cycle order on a resource with room: the
    // common case), so the booking needs no search.
    advance(start + length - 1);
    if (length == 1) {
      const uint64_t i = start & mask_;
      bits_[i / 64] |= uint64_t{1} << (i % 64);
    } else {
      fill(start, start + length, true);
    }
    if (start == frontier_) frontier_ = start + length;
    end_ = start + length;
    return start;
  }
  if (length == 1) {
    // One cycle (a flit, a bank access): the first free cycle, no gap to check.
    start = first_free(start);
    advance(start);
    const uint64_t i = start & mask_;
    bits_[i / 64] |= uint64_t{1} << (i % 64);
    if (start == frontier_) frontier_ = first_free(start + 1);
    end_ = std::max(end_, start + 1);
    return start;
  }
  start = find(start, length);
  advance(start + length - 1);
  fill(start, start + length, true);
  if (start <= frontier_) frontier_ = first_free(std::max(frontier_, start + length));
  end_ = std::max(end_, start + length);
  return start;
}

}  // namespace tessera::model
