#include "tcor/attribute_buffer.h"

#include <stdexcept>
#include <string>

namespace tessera::model::tcor {

AttributeBuffer::AttributeBuffer(uint32_t entries)
    : next_(entries), valid_(entries, 0), locks_(entries, 0), free_head_(entries ? 0 : kNull), free_count_(entries) {
  if (entries == 0 || entries == kNull) throw std::invalid_argument("Attribute Buffer of " + std::to_string(entries) + " entries");
  for (uint32_t e = 0; e < entries; ++e) next_[e] = e + 1 < entries ? e + 1 : kNull;
}

uint32_t AttributeBuffer::allocate(uint32_t count) {
  if (count == 0 || count > free_count_) {
    throw std::logic_error("Attribute Buffer: " + std::to_string(count) + " entries asked, " +
                           std::to_string(free_count_) + " free");
  }
  const uint32_t head = free_head_;
  uint32_t last = head;
  for (uint32_t i = 0;; last = next_[last]) {
    valid_[last] = 1;
    if (++i == count) break;
  }
  free_head_ = next_[last];
  next_[last] = kNull;
  free_count_ -= count;
  return head;
}

void AttributeBuffer::release(uint32_t head) {
  uint32_t last = head, count = 0;
  for (uint32_t e = head; e != kNull; e = next_[e]) {
    valid_[e] = 0;
    last = e;
    ++count;
  }
  locks_[head] = 0;
  next_[last] = free_head_;
  free_head_ = head;
  free_count_ += count;
}

void AttributeBuffer::unlock(uint32_t head) {
  if (locks_[head] == 0) throw std::logic_error("Attribute Buffer: entry " + std::to_string(head) + " is not locked");
  --locks_[head];
}

uint32_t AttributeBuffer::length(uint32_t head) const {
  uint32_t n = 0;
  for (uint32_t e = head; e != kNull; e = next_[e]) ++n;
  return n;
}

}  // namespace tessera::model::tcor
