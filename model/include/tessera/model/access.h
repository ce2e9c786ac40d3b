// What a memory structure is told about one access: the information a replacement policy may use.
#pragma once

#include <cstdint>
#include <limits>

namespace tessera::model {

// Next-use value of a block that is never accessed again. OPT numbers are ordered: a larger value
// means a later next access, so "never" is the largest possible value.
inline constexpr uint64_t kNoNextUse = std::numeric_limits<uint64_t>::max();
inline constexpr uint32_t kNoLastTile = std::numeric_limits<uint32_t>::max();

// Per-access information handed to the cache and from it to the replacement policy.
struct AccessInfo {
  // Position of the next access to the same block in the order the structure will see it
  // ("OPT Number", TCOR paper 003 section III-A: the ID of the next tile that will use the
  // primitive). Only policies that know the future read it; kNoNextUse when unknown or never.
  uint64_t next_use = kNoNextUse;
  // Replacement priority class (seam for the TCOR L2: the Parameter Buffer section field of paper
  // 003 section III-D1, read by the replacement order of III-D2). 0 = default; the baseline LRU
  // ignores it.
  uint8_t priority_class = 0;
  // A write that covers the whole line (write-backs from an upper level, a whole attribute line)
  // or begins a fresh one (the first PMD of a PB-Lists line, geometry_phase.cpp): a write miss
  // allocating such a line needs no fetch from below.
  bool full_line = false;
  // False: a hit leaves the replacement state as it is (paper 000 section III-B: the LRU of the
  // local cache of a just-exchanged owner is not updated when it serves the block).
  bool update_replacement = true;
  // A fill placed at the least recently used position instead of the most recently used one
  // (LRU Insertion Policy, Qureshi et al., ISCA 2007): the line is its set's next victim unless a
  // hit promotes it first. Read by the LRU policy only; a cache of another policy must not be
  // handed such fills (DTM-NUCA's nuca.requester_fill checks the L1s' policy).
  bool insert_at_lru = false;
  // Parameter Buffer lines: the position, in tile processing order, of the last tile that reads
  // the line (TCOR's dead-line-aware L2, paper 003 section III-D); kNoLastTile otherwise.
  uint32_t last_tile = kNoLastTile;
  // Set by the cache from the access (callers need not): the access is a write. A policy that
  // may decline to allocate does so only for writes (paper 003 section III-C3: read misses are
  // never bypassed; III-C4: a write read later than every resident line goes to L2).
  bool write = false;
};

}  // namespace tessera::model
