// The nuca.* parameters of the DTM-NUCA scheme folder (paper 000; names are contracts) and the
// configuration they make. The three variants share the folder and differ in nuca.organisation:
// dtm-nuca (centralized Affinity Table), dtm-nuca-dist (distributed tables), d-nuca (the
// single-sharer directory bound of section VI).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dtm-nuca/affinity_table.h"
#include "dtm-nuca/distributed_affinity_tables.h"
#include "dtm-nuca/mesh2d.h"
#include "tessera/model/params.h"

namespace tessera::model::dtm_nuca {

enum class Organisation : uint8_t { DtmNuca, DtmNucaDist, DNuca };
const char* organisation_name(Organisation organisation);
std::vector<std::string> organisation_names();

// Limits of the nuca.* parameters; the buckets, counter bits and flit bytes bound a dtm-nuca-dist
// synchronisation packet.
inline constexpr uint32_t kMaxBuckets = 65536;
inline constexpr uint32_t kMaxCounterBits = 16;
inline constexpr uint64_t kMaxEpochAccesses = 1'000'000'000'000;
inline constexpr uint32_t kMinFlitBytes = 1;

// The nuca.* parameters (name, type, default, one-line description, range), ready to register.
std::vector<ParamSpec> params();

struct DtmNucaConfig {
  Organisation organisation = Organisation::DtmNuca;
  uint32_t buckets = 32;
  uint32_t counter_bits = 4;
  uint32_t page_blocks = 8;
  uint32_t hop_latency = 1;
  uint64_t epoch_accesses = 20000;
  uint32_t hysteresis_pct = 25;
  bool count_hits = true;
  uint32_t mesh_cols = 0;  // 0 = automatic (mesh2d.h)
  uint32_t flit_bytes = 64;
  uint32_t router_buffer = 4;  // packets per router input port; 0 = unbounded (input_buffer.h)
  uint32_t table_latency = 1;
  uint32_t directory_latency = 2;
  bool owner_lookup = false;    // nuca.owner_lookup
  bool requester_fill = false;  // nuca.requester_fill

  // Reads the nuca.* parameters (the set's registry must hold params()). Throws ParamError, one
  // line naming the parameter and the organisation, for a parameter set away from its default
  // that the organisation does not use (d-nuca has no Affinity Table, the distributed tables no
  // table node, only d-nuca a directory).
  static DtmNucaConfig from_params(const ParamSet& params);

  MeshShape mesh_shape(uint32_t processors) const { return MeshShape::for_nodes(processors, mesh_cols); }
  AffinityTableConfig table(uint32_t processors) const;
  DistributedTablesConfig distributed_tables(uint32_t processors) const;
};

}  // namespace tessera::model::dtm_nuca
