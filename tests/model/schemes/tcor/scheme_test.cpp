// The contracts of the tcor / tcor-no-l2 schemes: parameters, metrics, variants.
#include "tcor/scheme.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tcor/tile_cache.h"

namespace tessera::model::tcor {
namespace {

ParamRegistry registry() {
  ParamRegistry r = ParamRegistry::model();
  for (ParamSpec& s : tcorParams()) r.add(s);
  return r;
}

TEST(TcorScheme, ParametersRegisterWithThePapersDefaults) {
  const ParamRegistry r = registry();
  const ParamSet p(r);
  EXPECT_EQ(p.getInt("tcor.plc_size"), 16 * 1024);
  EXPECT_EQ(p.getInt("tcor.attr_size"), 48 * 1024);
  EXPECT_EQ(p.getInt("tcor.opt_bits"), 12);
  EXPECT_TRUE(p.getBool("tcor.l2_dead_lines"));
  EXPECT_EQ(p.getString("tcor.pb_layout"), "interleaved");
  const TcorConfig c = TcorConfig::fromParams(p);
  EXPECT_EQ(c.plc_size, 16u * 1024);
  EXPECT_EQ(c.attr_size, 48u * 1024);
  EXPECT_EQ(c.opt_bits, 12u);
  EXPECT_EQ(c.pb_layout, PbListsLayoutKind::Interleaved);
  EXPECT_EQ(c.l2Policy(), "dead-line");
  EXPECT_EQ(c.ways, 4u);
  EXPECT_EQ(c.line_bytes, 64u);
}

TEST(TcorScheme, ParametersChangeWhatIsBuilt) {
  const ParamRegistry r = registry();
  ParamSet p(r);
  // The 128 KiB Tile Cache configuration of section V-B.
  p.set("tcor.attr_size", "112KiB");
  p.set("tcor.pb_layout", "baseline");
  p.set("tcor.opt_bits", "16");
  for (const SchemeVariant& v : tcorVariants())
    if (v.name == "tcor-no-l2")
      for (const auto& [key, value] : v.overrides) p.set(key, value);
  const TcorConfig c = TcorConfig::fromParams(p);
  EXPECT_EQ(c.l2Policy(), "lru");
  TcorTileCache cache(c);
  EXPECT_EQ(cache.attributeCache().attributeBuffer().entries(), 1792u);
  EXPECT_EQ(cache.attributeCache().primitiveBuffer().lines(), 512u);
  EXPECT_EQ(cache.primitiveListCache().cache().sets(), 64u);
  const std::vector<std::vector<uint32_t>> tiles = {{0}};
  const OptNumbers n(tiles, std::vector<uint32_t>{0, 1}, TileIdField(16));
  cache.passBegin(n);
  EXPECT_EQ(cache.layout().kind(), PbListsLayoutKind::Baseline);
  // OPT Numbers of another width than configured are refused.
  const OptNumbers n12(tiles, std::vector<uint32_t>{0, 1});
  EXPECT_THROW(cache.passBegin(n12), std::invalid_argument);
}

TEST(TcorScheme, BadSizesAreReportedByParameter) {
  const ParamRegistry r = registry();
  ParamSet p(r);
  p.set("tcor.plc_size", "12KiB");  // 48 sets: not a power of two
  try {
    (void)TcorConfig::fromParams(p);
    FAIL() << "12 KiB Primitive List Cache accepted";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("tcor.plc_size: ", 0), 0u) << e.what();
  }
  p.set("tcor.plc_size", "16KiB");
  p.set("tcor.attr_size", "1000");
  EXPECT_THROW((void)TcorConfig::fromParams(p), ParamError);
  EXPECT_THROW(p.set("tcor.pb_layout", "zigzag"), ParamError);
  EXPECT_THROW(p.set("tcor.opt_bits", "1"), ParamError);
}

TEST(TcorScheme, VariantsAndMetricsAreTheContractNames) {
  std::set<std::string> variants, metrics;
  for (const SchemeVariant& v : tcorVariants()) {
    variants.insert(std::string(v.name));
    EXPECT_EQ(v.paper.rfind("paper 003", 0), 0u) << v.name;
  }
  for (const MetricSpec& m : tcorMetrics()) metrics.insert(std::string(m.name));
  EXPECT_EQ(variants, (std::set<std::string>{"tcor", "tcor-no-l2"}));
  EXPECT_EQ(metrics, (std::set<std::string>{"pb.l2_accesses", "pb.dram_accesses", "pb.writebacks", "tile.read_misses",
                                            "tile.write_bypasses", "tcor.lower_bound",
                                            "tile_fetcher.prims_per_cycle"}));
  // Every metric the Tile Cache itself reports is one of the contract names or a tile.* detail.
  const TcorTileCache cache{TcorConfig{}};
  for (const auto& [name, value] : cache.metrics())
    EXPECT_TRUE(metrics.count(name) || name.rfind("tile.", 0) == 0) << name;
}

}  // namespace
}  // namespace tessera::model::tcor
