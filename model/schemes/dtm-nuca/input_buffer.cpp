#include "dtm-nuca/input_buffer.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace tessera::model::dtm_nuca {

namespace {
constexpr uint64_t kMask = InputBuffer::kWindow - 1;
}

InputBuffer::InputBuffer(uint32_t capacity) : capacity_(capacity) {
  if (capacity > kMaxCapacity) {
    throw std::invalid_argument("DTM-NUCA router buffer: " + std::to_string(capacity) + " packets (at most " +
                                std::to_string(kMaxCapacity) + ")");
  }
}

uint32_t InputBuffer::held(uint64_t cycle) const {
  if (count_.empty() || cycle < base_ || cycle >= base_ + kWindow) return 0;
  return count_[cycle & kMask];
}

uint64_t InputBuffer::first_room(uint64_t from, uint64_t stay) const {
  if (!bounded() || stay == 0 || count_.empty()) return from;
  // One pass: a full cycle moves the candidate start past it; `stay` free cycles in a row end it.
  // Before and past the window every cycle is free.
  uint64_t start = from;
  const uint64_t limit = base_ + kWindow;
  const uint8_t* count = count_.data();
  for (uint64_t c = std::max(from, base_); c < start + stay && c < limit; ++c) {
    if (count[c & kMask] >= capacity_) start = c + 1;
  }
  return start;
}

bool InputBuffer::hold(uint64_t enter, uint64_t leave) {
  if (!bounded() || enter >= leave) return false;
  if (count_.empty()) count_.assign(kWindow, 0);
  advance(leave - 1);
  uint8_t most = 0;
  for (uint64_t c = std::max(enter, base_); c < leave;) {
    const uint64_t i = c & kMask;
    const uint64_t n = std::min(leave - c, kWindow - i);
    uint8_t* p = count_.data() + i;
    for (uint64_t k = 0; k < n; ++k) {
      const uint8_t v = static_cast<uint8_t>(p[k] + (p[k] < kMaxCapacity ? 1 : 0));  // saturating
      p[k] = v;
      most = std::max(most, v);
    }
    c += n;
  }
  return most > capacity_;
}

void InputBuffer::advance(uint64_t last) {
  if (last < base_ + kWindow) return;
  const uint64_t next = last - kWindow + 1;
  if (next - base_ >= kWindow) {
    std::fill(count_.begin(), count_.end(), 0);
  } else {
    // The cycles left behind wrap round to hold the new ones: clear them, in at most two runs.
    const uint64_t from = base_ & kMask, to = next & kMask;
    if (from < to) {
      std::fill(count_.begin() + static_cast<std::ptrdiff_t>(from), count_.begin() + static_cast<std::ptrdiff_t>(to), 0);
    } else {
      std::fill(count_.begin() + static_cast<std::ptrdiff_t>(from), count_.end(), 0);
      std::fill(count_.begin(), count_.begin() + static_cast<std::ptrdiff_t>(to), 0);
    }
  }
  base_ = next;
}

void InputBuffer::clear() {
  std::fill(count_.begin(), count_.end(), 0);
  base_ = 0;
}

}  // namespace tessera::model::dtm_nuca
