// The configuration of the `tcor` and `tcor-no-l2` schemes (paper 003, D. Joseph, J. L. Aragón,
// J.-M. Parcerisa, A. González, "TCOR: A Tile Cache with Optimal Replacement") and the parameters
// that select it. Registration (variants, metrics, the instance in the timing model): tcor.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcor/attribute_cache.h"
#include "tcor/pb_lists_layout.h"
#include "tessera/model/params.h"

namespace tessera::model::tcor {

struct TcorConfig {
  // The split Tile Cache takes the unified one's capacity (tile.size): a Primitive List Cache of
  // tcor.plc_size and an Attribute Cache of the rest (section V-B: 16 + 48 KiB for the 64 KiB
  // Tile Cache, 16 + 112 KiB for the 128 KiB one).
  uint64_t tile_size = 64 * 1024;  // tile.size
  uint64_t plc_size = 16 * 1024;   // tcor.plc_size
  uint32_t opt_bits = 12;          // tcor.opt_bits
  PbListsLayoutKind pb_layout = PbListsLayoutKind::Interleaved;  // tcor.pb_layout
  AttributePolicy policy = AttributePolicy::Opt;                  // tcor.policy
  // Both halves keep the Tile Cache's associativity, line, hit latency and MSHRs (tile.ways,
  // tile.line, tile.latency, tile.mshrs; Table I: 4 ways, 64 B, 1 cycle). ways = 0: both fully
  // associative (Figs. 1 and 11).
  uint32_t ways = 4;
  uint32_t line_bytes = 64;
  uint32_t latency = 1;
  uint32_t mshrs = 8;
  PbListsGeometry lists;

  uint64_t attr_size() const { return tile_size - plc_size; }
  AttributeCacheConfig attribute_cache() const { return {attr_size(), line_bytes, ways, 0, policy}; }
  // The Primitive List Cache's ways (all of its lines when fully associative).
  uint32_t plc_ways() const { return ways != 0 ? ways : static_cast<uint32_t>(plc_size / line_bytes); }

  // From a parameter set whose registry holds tcor_params(). Throws ParamError naming the
  // parameter when the caches it sizes cannot be built, or when a parameter of the unified tile
  // cache it replaces is set to something TCOR cannot honour.
  static TcorConfig from_params(const ParamSet& params);
};

// tcor.plc_size, tcor.opt_bits, tcor.pb_layout, tcor.policy.
std::vector<ParamSpec> tcor_params();

}  // namespace tessera::model::tcor
