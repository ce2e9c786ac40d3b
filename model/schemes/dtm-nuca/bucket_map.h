// Bucket-based grouping of texture blocks (paper 000 section III-A, Fig. 3).
//
// A block address a (the byte address divided by the line size) belongs to page p = a / m, where
// m is the number of consecutive blocks per page, and page p belongs to bucket b = p mod n. Keeping
// a few adjacent blocks in one page "tends to favor locality" (section III-A), and the modulo keeps
// the Affinity Table n entries long whatever the texture footprint.
#pragma once

#include <bit>
#include <cstdint>
#include <stdexcept>

namespace tessera::model::dtm_nuca {

// Owners are fragment processor (node) ids; kNoOwner marks a bucket nobody owns yet.
inline constexpr uint32_t kNoOwner = 0xffffffffu;

// Bits of a field that names one of `values` things (an owner among the processors, a directory
// set, a block of main memory); at least 1.
inline constexpr uint32_t bits_for(uint64_t values) {
  return values > 1 ? static_cast<uint32_t>(std::bit_width(values - 1)) : 1;
}

class BucketMap {
 public:
  // Throws std::invalid_argument when either count is zero.
  BucketMap(uint32_t page_blocks, uint32_t buckets) : page_blocks_(page_blocks), buckets_(buckets) {
    if (page_blocks == 0) throw std::invalid_argument("DTM-NUCA: pages need at least one block");
    if (buckets == 0) throw std::invalid_argument("DTM-NUCA: the Affinity Table needs at least one bucket");
  }

  uint64_t page(uint64_t block) const { return block / page_blocks_; }
  uint32_t bucket(uint64_t block) const { return static_cast<uint32_t>(page(block) % buckets_); }

  uint32_t page_blocks() const { return page_blocks_; }
  uint32_t buckets() const { return buckets_; }

 private:
  uint32_t page_blocks_;
  uint32_t buckets_;
};

}  // namespace tessera::model::dtm_nuca
