// The contracts of the `tcor` and `tcor-no-l2` schemes (paper 003, D. Joseph, J. L. Aragón,
// J.-M. Parcerisa, A. González, "TCOR: A Tile Cache with Optimal Replacement"): their parameters,
// the metrics they report and the two variants, as tables ready for the scheme registry, and the
// configuration the parameters select.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "tcor/attribute_cache.h"
#include "tcor/pb_lists_layout.h"
#include "tessera/model/params.h"

namespace tessera::model::tcor {

struct TcorConfig {
  uint64_t plc_size = 16 * 1024;   // tcor.plc_size
  uint64_t attr_size = 48 * 1024;  // tcor.attr_size
  uint32_t opt_bits = 12;          // tcor.opt_bits
  bool l2_dead_lines = true;       // tcor.l2_dead_lines
  PbListsLayoutKind pb_layout = PbListsLayoutKind::Interleaved;  // tcor.pb_layout
  // The split caches keep the Tile Cache's associativity and line size (tile.ways, tile.line;
  // Table I: 4 ways, 64 B).
  uint32_t ways = 4;
  uint32_t line_bytes = 64;
  PbListsGeometry lists;

  AttributeCacheConfig attributeCache() const { return {attr_size, line_bytes, ways, 0}; }

  // The L2 replacement policy the configuration asks for.
  std::string_view l2Policy() const { return l2_dead_lines ? "dead-line" : "lru"; }

  // From a parameter set whose registry holds tcorParams(). Throws ParamError naming the
  // parameter when the caches it sizes cannot be built.
  static TcorConfig fromParams(const ParamSet& params);
};

struct MetricSpec {
  std::string_view name;
  std::string_view description;
};

struct SchemeVariant {
  std::string_view name;
  std::string_view description;
  std::string_view paper;  // paper and sections the variant implements
  std::vector<std::pair<std::string_view, std::string_view>> overrides;  // parameter, value
};

// tcor.plc_size, tcor.attr_size, tcor.opt_bits, tcor.l2_dead_lines, tcor.pb_layout.
std::vector<ParamSpec> tcorParams();
// pb.l2_accesses, pb.dram_accesses, pb.writebacks, tile.read_misses, tile.write_bypasses,
// tcor.lower_bound, tile_fetcher.prims_per_cycle.
std::vector<MetricSpec> tcorMetrics();
// tcor, tcor-no-l2.
std::vector<SchemeVariant> tcorVariants();

}  // namespace tessera::model::tcor
