// The Attribute Buffer of the Attribute Cache (paper 003 section III-C2, Fig. 8): the attribute
// lines of the cached primitives, each primitive's attributes a linked list of entries (their
// number varies per primitive), and a linked list of free entries to allocate from. An entry has
// a valid bit, a lock bit and a next pointer; the Primitive Buffer line of a primitive points at
// its first entry (the Attribute Buffer Pointer, ABP).
//
// Lock: the paper locks the first entry while the primitive waits in the Tile Fetcher's output
// queue and the Rasterizer unlocks it after reading the attributes (section III-C3). Here the
// lock is a count, not a bit: the Tile Fetcher runs ahead of the Rasterizer, so a primitive can
// be queued for two tiles at once, and with one bit the first Rasterizer read would unlock an
// entry the second queue entry still points at.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace tessera::model::tcor {

class AttributeBuffer {
 public:
  static constexpr uint32_t kNull = std::numeric_limits<uint32_t>::max();

  explicit AttributeBuffer(uint32_t entries);

  uint32_t entries() const { return static_cast<uint32_t>(next_.size()); }
  uint32_t free_entries() const { return free_count_; }

  // Takes `count` (1 .. free_entries()) entries off the free list and links them; returns the
  // first (the ABP). Throws std::logic_error when there are not enough free entries.
  uint32_t allocate(uint32_t count);
  // Returns the whole list starting at `head` to the free list.
  void release(uint32_t head);

  void lock(uint32_t head) { ++locks_[head]; }
  // Throws std::logic_error when the entry is not locked (a Rasterizer read without a fetch).
  void unlock(uint32_t head);
  bool locked(uint32_t head) const { return locks_[head] != 0; }

  bool valid(uint32_t entry) const { return valid_[entry] != 0; }
  uint32_t next(uint32_t entry) const { return next_[entry]; }
  // Entries in the list starting at `head`.
  uint32_t length(uint32_t head) const;

 private:
  std::vector<uint32_t> next_;  // next entry of a primitive's list, or of the free list
  std::vector<uint8_t> valid_;
  std::vector<uint32_t> locks_;
  uint32_t free_head_;
  uint32_t free_count_;
};

}  // namespace tessera::model::tcor
