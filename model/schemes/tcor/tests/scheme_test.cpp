// The contracts of the tcor / tcor-no-l2 schemes: parameters, configurations, variants.
#include "tcor/scheme.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tcor/tile_cache.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"

namespace tessera::model::tcor {
namespace {

std::string refusal(const std::string& spec) {
  try {
    const Configuration c = parse_configuration(spec);
    (void)TcorConfig::from_params(c.params);
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

TEST(TcorScheme, SplitsTheTileCacheOfThePapersPreset) {
  // Section V-B: 16 KiB Primitive List Cache + 48 KiB Attribute Cache for the 64 KiB Tile Cache,
  // 16 + 112 KiB for the 128 KiB one.
  const Configuration c = parse_configuration("mobile4-64k+tcor");
  EXPECT_EQ(c.params.get_string("l2.policy"), "dead-line");
  const TcorConfig t = TcorConfig::from_params(c.params);
  EXPECT_EQ(t.plc_size, 16u * 1024);
  EXPECT_EQ(t.attr_size(), 48u * 1024);
  EXPECT_EQ(t.opt_bits, 12u);
  EXPECT_EQ(t.pb_layout, PbListsLayoutKind::Interleaved);
  const TcorTileCache cache(t);
  EXPECT_EQ(cache.attribute_cache().attribute_buffer().entries(), 768u);
  EXPECT_EQ(cache.attribute_cache().primitive_buffer().lines(), 256u);
  EXPECT_EQ(cache.primitive_list_cache().cache().sets(), 64u);

  const Configuration big = parse_configuration("mobile4-64k+tcor+tile.size=128KiB");
  const TcorTileCache large(TcorConfig::from_params(big.params));
  EXPECT_EQ(large.attribute_cache().attribute_buffer().entries(), 1792u);
  EXPECT_EQ(large.attribute_cache().primitive_buffer().lines(), 512u);

  // Fully associative (tile.ways=0, Figs. 1 and 11): one Primitive Buffer set of a line per three
  // attribute lines, and a Primitive List Cache of one set.
  const TcorTileCache fa(TcorConfig::from_params(parse_configuration("mobile4-64k+tcor+tile.ways=0").params));
  EXPECT_EQ(fa.attribute_cache().primitive_buffer().sets(), 1u);
  EXPECT_EQ(fa.attribute_cache().primitive_buffer().ways(), 256u);
  EXPECT_EQ(fa.primitive_list_cache().cache().sets(), 1u);
  EXPECT_EQ(fa.attribute_cache().config().policy, AttributePolicy::Opt);
  EXPECT_EQ(TcorConfig::from_params(parse_configuration("mobile4-64k+tcor+tcor.policy=lru").params).policy,
            AttributePolicy::Lru);

  // Without the L2 enhancements (Figs. 20-21) the L2 keeps the preset's LRU.
  EXPECT_EQ(parse_configuration("mobile4-64k+tcor-no-l2").params.get_string("l2.policy"), "lru");
}

TEST(TcorScheme, RefusesWhatItCannotHonour) {
  EXPECT_EQ(refusal("mobile4-64k+tcor+tcor.plc_size=12KiB").rfind("tcor.plc_size: ", 0), 0u);
  EXPECT_NE(refusal("mobile4-64k+tcor+tcor.plc_size=64KiB").find("leaves no Attribute Cache"), std::string::npos);
  EXPECT_NE(refusal("mobile4-64k+tcor+tile.policy=opt").find("replaces the unified tile cache"), std::string::npos);
  EXPECT_NE(refusal("mobile4-64k+tcor+tile.line=128").find("tile.line = l2.line"), std::string::npos);
  EXPECT_EQ(refusal("mobile4-64k+tcor"), "");
  EXPECT_THROW(parse_configuration("mobile4-64k+tcor+tcor.pb_layout=zigzag"), ParamError);
  EXPECT_THROW(parse_configuration("mobile4-64k+tcor+tcor.opt_bits=1"), ParamError);
  EXPECT_THROW(parse_configuration("mobile4-64k+tcor+tcor.policy=mru"), ParamError);
  // The dead-line policy is the L2's alone: only L2 requests carry classes and last tiles.
  EXPECT_THROW(parse_configuration("mobile4-64k+tile.policy=dead-line"), ParamError);
  // And only TCOR's split Tile Cache tags Parameter Buffer lines and reports the Tile Fetcher's
  // progress: without it the policy would be LRU, so the model refuses it.
  try {
    parse_configuration("mobile4-64k+l2.policy=dead-line").make_model();
    ADD_FAILURE() << "l2.policy=dead-line accepted without a tile-cache organisation";
  } catch (const ParamError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("l2.policy=dead-line needs a tile-cache organisation", 0), 0u) << e.what();
  }
  EXPECT_NO_THROW(parse_configuration("mobile4-64k+tcor").make_model());
  EXPECT_NO_THROW(parse_configuration("mobile4-64k+tcor-no-l2+l2.policy=dead-line").make_model());
}

TEST(TcorScheme, SchemesTcorRunsThePapersConfigurations) {
  const std::vector<std::string> specs = scheme_specs({"tcor"}, {});
  const std::vector<std::string> expect = {"mobile4-64k",
                                           "mobile4-64k+tcor",
                                           "mobile4-64k+tcor-no-l2",
                                           "mobile4-64k+tile.policy=opt+tile.bypass=true",
                                           "mobile4-64k+tile.policy=mru",
                                           "mobile4-64k+tile.policy=drrip"};
  EXPECT_EQ(specs, expect);
  // The sensitivity study's overrides survive into the configuration's name and parameters.
  const Configuration opt = parse_configuration("mobile4-64k+tile.policy=opt+tile.bypass=true");
  EXPECT_EQ(opt.name, "mobile4-64k+tile.policy=opt+tile.bypass=true");
  EXPECT_EQ(opt.params.get_string("tile.policy"), "opt");
  EXPECT_TRUE(opt.params.get_bool("tile.bypass"));
}

}  // namespace
}  // namespace tessera::model::tcor
