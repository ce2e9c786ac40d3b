// The DTM-NUCA scheme's parameters (contract names, defaults of paper 000 Table I), the
// configuration they make, and the energy of the structures it adds.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "dtm-nuca/network_energy.h"
#include "dtm-nuca/nuca_config.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"

namespace tessera::model::dtm_nuca {
namespace {

ParamRegistry registry() {
  ParamRegistry r;
  for (ParamSpec& s : params()) r.add(std::move(s));
  return r;
}

TEST(DtmNucaConfig, ParamsHaveTableIDefaults) {
  const ParamRegistry r = registry();
  const ParamSet set(r);
  const DtmNucaConfig c = DtmNucaConfig::from_params(set);
  EXPECT_EQ(c.organisation, Organisation::DtmNuca);
  EXPECT_EQ(c.buckets, 32u);
  EXPECT_EQ(c.counter_bits, 4u);
  EXPECT_EQ(c.page_blocks, 8u);
  EXPECT_EQ(c.hop_latency, 1u);
  EXPECT_EQ(c.epoch_accesses, 20000u);
  EXPECT_EQ(c.hysteresis_pct, 25u);
  EXPECT_TRUE(c.count_hits);
  EXPECT_EQ(c.mesh_cols, 0u);
  EXPECT_EQ(c.flit_bytes, 64u);
  EXPECT_EQ(c.table_latency, 1u);
  EXPECT_EQ(c.directory_latency, 2u);
  const MeshShape shape = c.mesh_shape(32);
  EXPECT_EQ(shape.rows, 4u);
  EXPECT_EQ(shape.cols, 8u);
  EXPECT_EQ(AffinityTable(c.table(32)).storage_bits(), 4256u);  // paper 000 III-A: 0.51 KiB
}

TEST(DtmNucaConfig, ParamsAreValidated) {
  const ParamRegistry r = registry();
  ParamSet set(r);
  set.set("nuca.organisation", "dtm-nuca");
  set.set("nuca.buckets", "64");
  set.set("nuca.hysteresis", "50");
  set.set("nuca.mesh_cols", "4");
  const DtmNucaConfig c = DtmNucaConfig::from_params(set);
  EXPECT_EQ(c.organisation, Organisation::DtmNuca);
  EXPECT_EQ(c.buckets, 64u);
  EXPECT_EQ(c.hysteresis_pct, 50u);
  EXPECT_EQ(c.mesh_shape(32).rows, 8u);
  EXPECT_THROW(set.set("nuca.organisation", "s-nuca"), ParamError);
  EXPECT_THROW(set.set("nuca.counter_bits", "17"), ParamError);
  EXPECT_THROW(set.set("nuca.flit_bytes", "0"), ParamError);
  set.set("nuca.mesh_cols", "5");
  EXPECT_THROW(DtmNucaConfig::from_params(set).mesh_shape(32), std::invalid_argument);
}

// Each nuca.* parameter an organisation does not use is refused away from its default, in one
// line naming the parameter and the organisation; at its default it is accepted.
TEST(DtmNucaConfig, RefusesParametersTheOrganisationIgnores) {
  const ParamRegistry r = registry();
  const std::vector<std::pair<const char*, std::vector<std::pair<const char*, const char*>>>> unused = {
      {"dtm-nuca", {{"nuca.directory_latency", "4"}}},
      {"dtm-nuca-dist", {{"nuca.table_latency", "3"}, {"nuca.directory_latency", "4"}}},
      {"d-nuca",
       {{"nuca.buckets", "4"},
        {"nuca.counter_bits", "2"},
        {"nuca.page_blocks", "1"},
        {"nuca.epoch_accesses", "100"},
        {"nuca.count_hits", "false"},
        {"nuca.hysteresis", "0"},
        {"nuca.table_latency", "3"}}},
  };
  size_t refused = 0;
  for (const auto& [organisation, params] : unused) {
    ParamSet set(r);
    set.set("nuca.organisation", organisation);
    EXPECT_NO_THROW(DtmNucaConfig::from_params(set)) << organisation;
    for (const auto& [name, value] : params) {
      ParamSet changed = set;
      changed.set(name, value);
      try {
        (void)DtmNucaConfig::from_params(changed);
        ADD_FAILURE() << name << "=" << value << " accepted with " << organisation;
      } catch (const ParamError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(std::string(name) + "=" + value + " does nothing with nuca.organisation=" + organisation, 0), 0u)
            << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        ++refused;
      }
    }
  }
  EXPECT_EQ(refused, 10u);
  // Every other nuca.* parameter is used by every organisation.
  for (const char* organisation : {"dtm-nuca", "dtm-nuca-dist", "d-nuca"}) {
    ParamSet set(r);
    set.set("nuca.organisation", organisation);
    for (const auto& [name, value] : std::vector<std::pair<const char*, const char*>>{
             {"nuca.hop_latency", "3"}, {"nuca.mesh_cols", "4"}, {"nuca.flit_bytes", "32"}, {"nuca.router_buffer", "1"}}) {
      ParamSet changed = set;
      changed.set(name, value);
      EXPECT_NO_THROW(DtmNucaConfig::from_params(changed)) << organisation << " " << name;
    }
  }
  // The distributed tables take the centralized table's hysteresis margin when a node's counter
  // saturates (paper 000 III-B, IV-B).
  {
    ParamSet set(r);
    set.set("nuca.organisation", "dtm-nuca-dist");
    set.set("nuca.hysteresis", "40");
    EXPECT_EQ(DtmNucaConfig::from_params(set).distributed_tables(32).hysteresis_pct, 40u);
  }
  // The refusal stops the configuration before any frame runs.
  try {
    parse_configuration("mobile32+d-nuca+nuca.buckets=64").make_model();
    ADD_FAILURE() << "d-nuca with nuca.buckets=64 was accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("nuca.buckets=64 does nothing with nuca.organisation=d-nuca"), std::string::npos)
        << e.what();
  }
}

// A link books a packet's flits in its 2^20-cycle calendar. The largest DTM-NUCA-Dist packet the
// parameters allow -- 65536 buckets of an owned bit and a 16-bit counter in 1 B flits -- is
// 1 + 139,264 flits and is sent whole; tables built directly with 2^21 buckets of 4-bit counters
// (1 + 1,310,720 flits) are refused.
TEST(DtmNucaConfig, SynchronisationPacketsFitTheLinkCalendar) {
  const ParamRegistry r = registry();
  ParamSet set(r);
  set.set("nuca.organisation", "dtm-nuca-dist");
  set.set("nuca.buckets", "65536");
  set.set("nuca.counter_bits", "16");
  set.set("nuca.epoch_accesses", "1000000000000");
  set.set("nuca.flit_bytes", "1");
  const DtmNucaConfig largest = DtmNucaConfig::from_params(set);
  EXPECT_EQ(DistributedAffinityTables::sync_packet_flits(largest.distributed_tables(4)), 139265u);
  EXPECT_THROW(set.set("nuca.buckets", "65537"), ParamError);
  EXPECT_THROW(set.set("nuca.counter_bits", "17"), ParamError);
  EXPECT_THROW(set.set("nuca.flit_bytes", "0"), ParamError);
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  // Two hops from node 0 to node 3: delivered at 2 + 139265 - 1 on an idle mesh, nothing late.
  const DistributedAffinityTables tables(largest.distributed_tables(4), mesh);
  EXPECT_EQ(mesh.send(0, 3, tables.packet_flits(), tables.packet_bits(), 0), 2u + 139265 - 1);
  EXPECT_EQ(mesh.counters().late, 0u);
  try {
    DistributedAffinityTables(DistributedTablesConfig{4, 1u << 21, 4, 8, 20000, 1, 25}, mesh);
    FAIL() << "a 1310721-flit packet was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("1310721 flits"), std::string::npos) << e.what();
  }
}

TEST(NetworkEnergy, PerBitTraversal) {
  MeshCounters mesh;
  mesh.bit_hops = 576 * 2 + 64 * 1;          // a line (header + 64 B) over 2 hops, a request over 1
  mesh.router_bits = 576 * 3 + 64 * 2;       // through 3 and 2 routers
  // (1216 link + 1856 router bit traversals) x 0.12 pJ = 368.64 pJ, whatever the flit width.
  EXPECT_NEAR(network_energy_pj(mesh), 368.64, 1e-9);
  // 32 routers x 5 ports x 2 slots of 2 flits x 16 B = 10 KiB of buffers at 0.05 mW/KiB (32 nm lop).
  EXPECT_NEAR(router_leakage_mw(32, 2, 2, 16, TechVariant::Nm32Lop), 0.5, 1e-12);
  // Four slots charge twice that; an unbounded buffer is charged as the default's four slots.
  EXPECT_NEAR(router_leakage_mw(32, 4, 2, 16, TechVariant::Nm32Lop), 1.0, 1e-12);
  EXPECT_NEAR(router_leakage_mw(32, 0, 2, 16, TechVariant::Nm32Lop), 1.0, 1e-12);
}

TEST(TableEnergy, SmallRamOfTheTableSize) {
  // A 1 KiB table at 32 nm lop is the 1 KiB RAM of docs/model.md ("Energy") itself: an update is 0.82 + 1.14 pJ.
  EXPECT_NEAR(table_energy_pj(1000, 0, 8192, TechVariant::Nm32Lop), 1960.0, 1e-9);
  EXPECT_NEAR(table_energy_pj(0, 10, 8192, TechVariant::Nm32Lop), 8.2, 1e-9);
  // The 4256-bit Affinity Table: the square root of its size against 1 KiB.
  EXPECT_NEAR(table_energy_pj(1, 0, 4256, TechVariant::Nm32Lop), 1.96 * std::sqrt(4256.0 / 8192.0), 1e-9);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
