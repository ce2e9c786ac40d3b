// The unloaded latency of each level of the hierarchy, derived from a configuration's parameters
// (the tests compare the model with these, not with pinned numbers): main memory's latency and
// bandwidth are in memory cycles of dram.freq_mhz, the bandwidth over all channels (paper 000
// Table I); every L2 request crosses the interconnect and a read's line comes back over it.
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/model/params.h"

namespace tessera::model::testing {

struct LatencyPath {
  uint64_t l1, l2, bus, line_flits, dram_transfer, row_hit, row_miss;
  explicit LatencyPath(const ParamSet& p) {
    const double to_gpu = static_cast<double>(p.get_int("gpu.freq_mhz")) / static_cast<double>(p.get_int("dram.freq_mhz"));
    l1 = p.get_u32("l1tex.latency");
    l2 = p.get_u32("l2.latency");
    bus = p.get_u32("interconnect.latency");
    line_flits = (p.get_u32("l2.line") + p.get_u32("interconnect.width") - 1) / p.get_u32("interconnect.width");
    const double per_channel = p.get_float("dram.bytes_per_cycle") / p.get_u32("dram.channels") / to_gpu;
    dram_transfer = static_cast<uint64_t>(std::ceil(p.get_u32("l2.line") / per_channel));
    row_hit = static_cast<uint64_t>(std::lround(p.get_u32("dram.latency_min") * to_gpu));
    row_miss = static_cast<uint64_t>(std::lround(p.get_u32("dram.latency_max") * to_gpu));
  }
  // From an L1 lookup: an L2 hit (the request flit crosses, L2 reads, the line's flits come back).
  uint64_t l2_hit() const { return l1 + bus + l2 + line_flits - 1 + bus; }
  // From an L1 lookup: a line from main memory with a row hit or miss.
  uint64_t dram(uint64_t row) const { return l1 + bus + l2 + dram_transfer + row + line_flits - 1 + bus; }
  uint64_t dram_miss() const { return dram(row_miss); }
};

}  // namespace tessera::model::testing
