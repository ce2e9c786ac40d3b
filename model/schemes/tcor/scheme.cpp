#include "tcor/scheme.h"

#include <stdexcept>
#include <string>

#include "tcor/primitive_list_cache.h"

namespace tessera::model::tcor {

std::vector<ParamSpec> tcor_params() {
  return {
      {"tcor.plc_size", ParamType::Int, "16KiB",
       "Primitive List Cache capacity, LRU, caches PB-Lists (paper 003 III-C1; 16 KiB in V-B); the Attribute Cache "
       "takes the rest of tile.size",
       64, 1 << 30, {}},
      {"tcor.opt_bits", ParamType::Int, "12",
       "bits of an OPT Number and of an L2 last-tile id; farther tiles saturate (III-A, III-D1: 12)", 2, 32, {}},
      {"tcor.pb_layout", ParamType::String, "interleaved",
       "PB-Lists layout: baseline (one 64-line list per tile, Fig. 3) or interleaved (Fig. 6)", 0, 0,
       {"baseline", "interleaved"}},
      {"tcor.policy", ParamType::String, "opt",
       "Attribute Cache replacement per primitive: opt (TCOR, III-C6, writes bypass) or lru (the curve of Figs. 1 and "
       "11-12, the LRU column of Fig. 10: writes allocate)",
       0, 0, {"opt", "lru"}},
  };
}

TcorConfig TcorConfig::from_params(const ParamSet& params) {
  TcorConfig c;
  c.tile_size = static_cast<uint64_t>(params.get_int("tile.size"));
  c.plc_size = static_cast<uint64_t>(params.get_int("tcor.plc_size"));
  c.opt_bits = params.get_u32("tcor.opt_bits");
  c.pb_layout = parse_layout(params.get_string("tcor.pb_layout"));
  c.policy = params.get_string("tcor.policy") == "lru" ? AttributePolicy::Lru : AttributePolicy::Opt;
  c.ways = params.get_u32("tile.ways");
  c.line_bytes = params.get_u32("tile.line");
  c.latency = params.get_u32("tile.latency");
  c.mshrs = params.get_u32("tile.mshrs");
  c.lists.line_bytes = c.line_bytes;
  // The split cache replaces the unified one: its replacement and write policies are TCOR's.
  if (params.get_string("tile.policy") != "lru" || params.get_bool("tile.bypass") || !params.get_bool("tile.write_back") ||
      !params.get_bool("tile.write_allocate")) {
    throw ParamError("tcor replaces the unified tile cache: tile.policy, tile.bypass, tile.write_back and "
                     "tile.write_allocate do not apply (its Attribute Cache is OPT, its Primitive List Cache LRU)");
  }
  // One attribute per line (Fig. 4): the Attribute Buffer's entries are the lines the model cuts
  // the Parameter Buffer into (l2.line).
  if (c.line_bytes != params.get_u32("l2.line")) {
    throw ParamError("tcor needs tile.line = l2.line (one attribute per Attribute Buffer line), not " +
                     std::to_string(c.line_bytes) + " and " + std::to_string(params.get_u32("l2.line")));
  }
  if (c.plc_size >= c.tile_size) {
    throw ParamError("tcor.plc_size (" + std::to_string(c.plc_size) + ") leaves no Attribute Cache in tile.size (" +
                     std::to_string(c.tile_size) + ")");
  }
  // Check the geometry the parameters give, so a bad combination is reported here, by name.
  try {
    validate_cache_config(PrimitiveListCache::config(c.plc_size, c.plc_ways(), c.line_bytes));
  } catch (const std::invalid_argument& e) {
    throw ParamError("tcor.plc_size: " + std::string(e.what()));
  }
  try {
    c.attribute_cache().validate();
  } catch (const std::invalid_argument& e) {
    throw ParamError("tile.size - tcor.plc_size (the Attribute Cache): " + std::string(e.what()));
  }
  return c;
}

}  // namespace tessera::model::tcor
