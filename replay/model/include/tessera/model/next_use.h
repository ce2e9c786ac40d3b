// Next-use numbers for a stream seen by one structure, for policies that know the future.
// TCOR (paper 003 section III-A) gets them for free from binning (the ID of the next tile using
// a primitive); for other streams replay can compute them offline with this backward pass.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::model {

// result[i] = smallest j > i with the same line (addr / line_bytes) as access i, or kNoNextUse.
std::vector<uint64_t> next_use_positions(std::span<const uint64_t> addrs, uint32_t line_bytes);

}  // namespace tessera::model
