#include "dtm-nuca/affinity_table.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessera::model::dtm_nuca {

AffinityTable::AffinityTable(const AffinityTableConfig& config)
    : config_(config),
      map_(config.page_blocks, config.buckets),
      counter_max_(config.counter_bits >= 1 && config.counter_bits <= 16 ? (1u << config.counter_bits) - 1 : 0),
      counters_(static_cast<size_t>(config.buckets) * config.processors, 0),
      owners_(config.buckets, kNoOwner),
      previous_owners_(config.buckets, kNoOwner) {
  if (config.processors == 0) throw std::invalid_argument("DTM-NUCA: the Affinity Table needs at least one processor");
  if (counter_max_ == 0) {
    throw std::invalid_argument("DTM-NUCA: counter_bits " + std::to_string(config.counter_bits) + " is outside 1..16");
  }
  if (config.epoch_accesses == 0) throw std::invalid_argument("DTM-NUCA: an epoch needs at least one access");
}

bool AffinityTable::beats_owner(uint32_t challenger_count, uint32_t owner_count, uint32_t hysteresis_pct) {
  return uint64_t{challenger_count} * 100 > uint64_t{owner_count} * (100 + uint64_t{hysteresis_pct});
}

uint32_t AffinityTable::epoch_owner(std::span<const uint16_t> counters, uint32_t current_owner) {
  uint32_t best = kNoOwner;
  uint16_t best_count = 0;
  for (uint32_t p = 0; p < counters.size(); ++p) {
    if (counters[p] > best_count) {
      best_count = counters[p];
      best = p;
    }
  }
  if (best == kNoOwner) return current_owner;  // nobody requested the bucket this epoch
  if (current_owner != kNoOwner && counters[current_owner] == best_count) return current_owner;
  return best;  // the first (lowest id) of the highest counters
}

TableLookup AffinityTable::request(uint32_t processor, uint64_t block) {
  if (processor >= config_.processors) {
    throw std::out_of_range("DTM-NUCA: processor " + std::to_string(processor) + " of " +
                            std::to_string(config_.processors));
  }
  ++requests_;
  TableLookup out;
  out.bucket = map_.bucket(block);
  uint32_t& owner = owners_[out.bucket];
  if (owner == kNoOwner) {
    owner = processor;
    out.acquired = true;
  }
  out.owner = owner;

  uint16_t* entry = &counters_[index(out.bucket, 0)];
  ++entry[processor];
  if (entry[processor] < counter_max_) return out;

  out.saturated = true;
  if (owner != processor && beats_owner(entry[processor], entry[owner], config_.hysteresis_pct)) {
    out.change = OwnershipChange{out.bucket, owner, processor};
    previous_owners_[out.bucket] = owner;
    owner = processor;
    ++ownership_changes_;
  }
  for (uint32_t p = 0; p < config_.processors; ++p) entry[p] = static_cast<uint16_t>(entry[p] >> 1);
  return out;
}

bool AffinityTable::count_access(std::vector<OwnershipChange>* changes) {
  if (++epoch_position_ < config_.epoch_accesses) return false;
  epoch_position_ = 0;
  ++epochs_;
  for (uint32_t b = 0; b < config_.buckets; ++b) {
    const std::span<uint16_t> entry(&counters_[index(b, 0)], config_.processors);
    const uint32_t next = epoch_owner(entry, owners_[b]);
    if (next != owners_[b]) {
      if (owners_[b] != kNoOwner) {
        ++ownership_changes_;
        if (changes) changes->push_back(OwnershipChange{b, owners_[b], next});
        previous_owners_[b] = owners_[b];
      }
      owners_[b] = next;
    }
    std::fill(entry.begin(), entry.end(), uint16_t{0});
  }
  return true;
}

uint64_t AffinityTable::storage_bits() const {
  return uint64_t{config_.buckets} * (uint64_t{config_.processors} * config_.counter_bits + bits_for(config_.processors));
}

}  // namespace tessera::model::dtm_nuca
