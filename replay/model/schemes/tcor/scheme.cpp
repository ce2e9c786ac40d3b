#include "tcor/scheme.h"

#include <stdexcept>
#include <string>

#include "tcor/primitive_list_cache.h"

namespace tessera::model::tcor {

std::vector<ParamSpec> tcorParams() {
  return {
      {"tcor.plc_size", ParamType::Int, "16KiB",
       "Primitive List Cache capacity, LRU, caches PB-Lists (paper 003 III-C1; 16 KiB in V-B)", 64, 1 << 30, {}},
      {"tcor.attr_size", ParamType::Int, "48KiB",
       "Attribute Cache data (Attribute Buffer) capacity, OPT (III-C2; 48 KiB, 112 KiB for the 128 KiB Tile Cache)",
       64, 1 << 30, {}},
      {"tcor.opt_bits", ParamType::Int, "12",
       "bits of an OPT Number and of an L2 last-tile id; far tiles saturate (III-A, III-D1: 12)", 2, 32, {}},
      {"tcor.l2_dead_lines", ParamType::Bool, "true",
       "L2 evicts dead PB lines first, without write-back, and keeps live PB lines last (III-D)", 0, 0, {}},
      {"tcor.pb_layout", ParamType::String, "interleaved",
       "PB-Lists layout: baseline (one 64-line list per tile, Fig. 3) or interleaved (Fig. 6)", 0, 0,
       {"baseline", "interleaved"}},
  };
}

std::vector<MetricSpec> tcorMetrics() {
  return {
      {"pb.l2_accesses", "Parameter Buffer lines the Tile Cache moved to or from the L2: fetches, write-backs, "
                         "bypassed writes (paper 003 Figs. 14-15)"},
      {"pb.dram_accesses", "Parameter Buffer lines moved between the L2 and main memory (Figs. 16-17)"},
      {"pb.writebacks", "dirty Parameter Buffer lines the L2 wrote back to main memory; dead ones are dropped (III-D2)"},
      {"tile.read_misses", "Attribute Cache read misses, in primitives (Figs. 1, 11-13)"},
      {"tile.write_bypasses", "primitive writes the Attribute Cache sent straight to the L2 (III-C4)"},
      {"tcor.lower_bound", "lower bound on Attribute Cache misses, TP + max(0, TP - CP) (V-A)"},
      {"tile_fetcher.prims_per_cycle", "primitives the Tile Fetcher put in its output queue per cycle, at most 1 "
                                       "(Figs. 23-24)"},
  };
}

std::vector<SchemeVariant> tcorVariants() {
  return {
      {"tcor",
       "TCOR: split Tile Cache (LRU Primitive List Cache + OPT Attribute Cache), interleaved PB-Lists, "
       "dead-line-aware L2",
       "paper 003 (TCOR: A Tile Cache with Optimal Replacement), sections III-A to III-D",
       {}},
      {"tcor-no-l2", "TCOR without its L2 enhancements",
       "paper 003, sections III-A to III-C; Figs. 20-21 'TCOR without L2 enhancements'",
       {{"tcor.l2_dead_lines", "false"}}},
  };
}

TcorConfig TcorConfig::fromParams(const ParamSet& params) {
  TcorConfig c;
  c.plc_size = static_cast<uint64_t>(params.getInt("tcor.plc_size"));
  c.attr_size = static_cast<uint64_t>(params.getInt("tcor.attr_size"));
  c.opt_bits = params.getU32("tcor.opt_bits");
  c.l2_dead_lines = params.getBool("tcor.l2_dead_lines");
  c.pb_layout = parseLayout(params.getString("tcor.pb_layout"));
  c.ways = params.getU32("tile.ways");
  c.line_bytes = params.getU32("tile.line");
  c.lists.line_bytes = c.line_bytes;
  // Check the geometry the parameters give, so a bad combination is reported here, by name.
  try {
    validateCacheConfig(PrimitiveListCache::config(c.plc_size, c.ways, c.line_bytes));
  } catch (const std::invalid_argument& e) {
    throw ParamError("tcor.plc_size: " + std::string(e.what()));
  }
  try {
    c.attributeCache().validate();
  } catch (const std::invalid_argument& e) {
    throw ParamError("tcor.attr_size: " + std::string(e.what()));
  }
  return c;
}

}  // namespace tessera::model::tcor
