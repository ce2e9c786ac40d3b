// The centralized Affinity Table of DTM-NUCA (paper 000 sections III-A, III-B and IV-A, Fig. 4).
//
// One entry per bucket: a saturating counter of counter_bits per fragment processor and the
// current owner. Rules, with the choices the paper leaves open marked [choice]:
//  - A request indexes the entry of its block's bucket and is answered with the owner found there;
//    the requester's counter is then incremented (III-A). Which accesses are requests is the
//    caller's choice (nuca.count_hits, nuca_organisation.h): every texture access (III-B) or only
//    the local misses that need an owner (III-A). [choice] The answer is the owner before
//    this request's own counter update: a move caused by this increment applies to later requests.
//  - Initially every counter is zero and no bucket has an owner; the first processor that requests
//    a bucket acquires it and is answered with itself (III-B). An acquisition is not an ownership
//    change.
//  - When an increment makes a counter reach its maximum 2^counter_bits - 1 (it "saturates"), all
//    counters of that bucket are halved, the saturated one included (III-B). Ownership then moves
//    to the saturating processor only if its counter beats the owner's by the hysteresis margin
//    (III-B: "greater than the one from the current owner plus a percentage"), compared on the
//    values before halving: challenger * 100 > owner * (100 + hysteresis_pct). [choice] The paper
//    gives no percentage; the default 25 % (nuca.hysteresis) means, with 4-bit counters, that a
//    saturating challenger (15) takes the bucket only from an owner at 11 or less: two processors
//    whose access rates are within 20 % of each other do not swap. Below 100/14 % (7.2 %) the
//    margin has no effect at all with 4-bit counters, since 15 > 14 * 1.071.
//  - Every epoch_accesses texture accesses of the GPU (an epoch, III-B: "measured in terms of
//    texture accesses", 20K in Table I) ownership is recomputed and every counter reset.
//    [choice] Recompute rule: the processor with the highest counter owns the bucket, without
//    hysteresis (the epoch exists to remove the inertia of the counters, III-B); on a tie the
//    current owner keeps the bucket if it is among the highest, else the lowest processor id
//    (the rule IV-B gives the distributed flavour); a bucket nobody requested during the epoch
//    keeps its owner. The epoch is counted apart from the requests (count_access): it counts every
//    texture access of the GPU whichever accesses are requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dtm-nuca/bucket_map.h"

namespace tessera::model::dtm_nuca {

struct AffinityTableConfig {
  uint32_t processors = 32;       // fragment processors (one counter each per bucket)
  uint32_t buckets = 32;          // nuca.buckets
  uint32_t counter_bits = 4;      // nuca.counter_bits, 1..16
  uint32_t page_blocks = 8;       // nuca.page_blocks
  uint32_t hysteresis_pct = 25;   // nuca.hysteresis
  uint64_t epoch_accesses = 20000;  // nuca.epoch_accesses
};

struct OwnershipChange {
  uint32_t bucket = 0;
  uint32_t from = kNoOwner;
  uint32_t to = kNoOwner;
  bool operator==(const OwnershipChange&) const = default;
};

// What one request to the table did.
struct TableLookup {
  uint32_t bucket = 0;
  uint32_t owner = kNoOwner;  // the owner the requester is answered with
  bool acquired = false;      // the requester became the first owner of an unowned bucket
  bool saturated = false;     // its counter saturated: the bucket's counters were halved
  std::optional<OwnershipChange> change;  // ownership moved because of that saturation
};

class AffinityTable {
 public:
  // Throws std::invalid_argument on a zero count or counter_bits outside 1..16.
  explicit AffinityTable(const AffinityTableConfig& config);

  // A request by `processor` for `block` (byte address / line size).
  TableLookup request(uint32_t processor, uint64_t block);

  // One texture access of the GPU. Returns true when it ended an epoch; the ownership changes of
  // the recompute are appended to `changes` when given.
  bool count_access(std::vector<OwnershipChange>* changes = nullptr);

  uint32_t owner(uint32_t bucket) const { return owners_[bucket]; }
  // The owner the bucket was last taken from (kNoOwner before its first change): the
  // "just-exchanged owner" whose local hits leave its LRU state alone (III-B).
  uint32_t previous_owner(uint32_t bucket) const { return previous_owners_[bucket]; }
  uint32_t owner_of_block(uint64_t block) const { return owners_[map_.bucket(block)]; }
  uint32_t counter(uint32_t bucket, uint32_t processor) const { return counters_[index(bucket, processor)]; }
  uint32_t counter_max() const { return counter_max_; }
  const BucketMap& map() const { return map_; }
  const AffinityTableConfig& config() const { return config_; }

  uint64_t ownership_changes() const { return ownership_changes_; }
  uint64_t requests() const { return requests_; }
  uint64_t epochs() const { return epochs_; }
  // Accesses counted in the current epoch.
  uint64_t epoch_position() const { return epoch_position_; }

  // Storage of the table in bits: per bucket one counter per processor plus an owner field of
  // ceil(log2(processors)) bits (paper 000 section III-A: 32 buckets x (32 x 4 + 5) = 4256 bits).
  uint64_t storage_bits() const;

  // Per-entry decisions, free of table state (ChampSim-style helpers).
  // Whether a saturating counter takes the bucket from an owner holding `owner_count`.
  static bool beats_owner(uint32_t challenger_count, uint32_t owner_count, uint32_t hysteresis_pct);
  // The owner of a bucket after an epoch (rule above) given its counters.
  static uint32_t epoch_owner(std::span<const uint16_t> counters, uint32_t current_owner);

 private:
  size_t index(uint32_t bucket, uint32_t processor) const {
    return static_cast<size_t>(bucket) * config_.processors + processor;
  }

  AffinityTableConfig config_;
  BucketMap map_;
  uint32_t counter_max_;
  std::vector<uint16_t> counters_;  // buckets x processors
  std::vector<uint32_t> owners_;    // per bucket, kNoOwner until the first request
  std::vector<uint32_t> previous_owners_;  // per bucket, kNoOwner until its first change
  uint64_t ownership_changes_ = 0;
  uint64_t requests_ = 0;
  uint64_t epochs_ = 0;
  uint64_t epoch_position_ = 0;
};

}  // namespace tessera::model::dtm_nuca
