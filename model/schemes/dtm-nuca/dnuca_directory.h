// The directory of the conventional D-NUCA that paper 000 section VI evaluates as the bound of
// DTM-NUCA: "instead of replicating the data between caches and having a directory with a list of
// sharers, it completely avoids the replication by allowing only a single sharer per directory
// entry ... such a scheme requires a directory whose size depends on the L2 cache size", and its
// "migration policy ... only allows migration whenever a block is evicted from the owner cache".
//
// Our reading, used by the d-nuca organisation (nuca_organisation.h):
//  - The directory maps each block held in some L1 texture cache to that one L1 (its holder).
//  - A local L1 miss looks the block up: a holder serves it remotely and the requester does not
//    fill (no replication, and no migration towards the requester); no holder: the requester
//    fetches the block from L2, fills its own L1 and becomes the holder.
//  - A block therefore changes holder only after its holder evicts it (the entry is erased) and
//    another processor misses on it: "migration only on eviction".
//  - Sizing: as many entries as L2 lines, organised like the L2 (sets x ways, set = block mod
//    sets). When the set of a new block is full, the least recently used entry is evicted and
//    its block must be invalidated in its holder's L1 (a sparse directory that loses track of a
//    block cannot let it stay cached, or a second copy could appear). With 32 x 16 KiB of L1 and a
//    1 MiB L2 this happens only through set conflicts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dtm-nuca/bucket_map.h"

namespace tessera::model::dtm_nuca {

struct DNucaDirectoryConfig {
  uint64_t entries = 16384;  // L2 lines: 1 MiB / 64 B
  uint32_t ways = 8;         // L2 associativity
};

struct DirectoryEviction {
  uint64_t block = 0;
  uint32_t holder = kNoOwner;
  bool operator==(const DirectoryEviction&) const = default;
};

class DNucaDirectory {
 public:
  // Throws std::invalid_argument unless ways >= 1 and entries is a non-zero multiple of ways.
  explicit DNucaDirectory(const DNucaDirectoryConfig& config);

  // The holder of `block` (kNoOwner when no L1 holds it); a hit marks the entry recently used.
  uint32_t lookup(uint64_t block);
  // The holder without touching replacement state.
  uint32_t holder(uint64_t block) const;

  // Tracks `block` (not tracked yet) in `holder`. Returns the entry evicted to make room, whose
  // block the caller must invalidate in that holder's L1. Throws std::logic_error when the block
  // is already tracked (two holders would break the single-sharer rule).
  std::optional<DirectoryEviction> insert(uint64_t block, uint32_t holder);
  // The holder evicted `block` from its L1. Returns false when the directory did not track it
  // there.
  bool erase(uint64_t block, uint32_t holder);

  uint64_t entries() const { return config_.entries; }
  uint64_t sets() const { return sets_; }
  uint64_t tracked() const { return tracked_; }
  uint64_t lookups() const { return lookups_; }
  uint64_t evictions() const { return evictions_; }
  // Entries written: inserts and erases.
  uint64_t writes() const { return writes_; }

 private:
  struct Entry {
    uint64_t tag = 0;      // block + 1; 0 = free
    uint32_t holder = kNoOwner;
  };
  size_t base(uint64_t block) const { return static_cast<size_t>(block % sets_) * config_.ways; }
  size_t find(uint64_t block) const;  // index of the entry, or npos

  DNucaDirectoryConfig config_;
  uint64_t sets_;
  std::vector<Entry> entries_;    // sets x ways
  std::vector<uint64_t> stamps_;  // last use per entry, for lru::victim
  uint64_t clock_ = 0;
  uint64_t tracked_ = 0;
  uint64_t lookups_ = 0;
  uint64_t evictions_ = 0;
  uint64_t writes_ = 0;
};

}  // namespace tessera::model::dtm_nuca
