// Parameter registry: presets match DESIGN.md section 6, overrides, errors, serialisation.
#include <gtest/gtest.h>

#include <string>

#include "tessera/model/hierarchy.h"
#include "tessera/model/params.h"

namespace tessera::model {
namespace {

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Presets, Mobile4MatchesDesign) {
  // DESIGN.md section 6, mobile4 (papers 001 and 003): 600 MHz, 32x32 tiles, Z-order, 4 shader
  // cores, 64 B lines; vertex cache 8 KiB 4-way 1 cycle; texture caches 4 x 16 KiB 4-way 1 cycle;
  // tile cache 64 KiB 4-way 1 cycle; L2 1 MiB 8-way 12 cycles; memory 50-100 cycles, 1 GiB.
  const ParamSet p = makePreset("mobile4");
  EXPECT_EQ(p.getInt("gpu.freq_mhz"), 600);
  EXPECT_EQ(p.getInt("gpu.tile_width"), 32);
  EXPECT_EQ(p.getInt("gpu.tile_height"), 32);
  EXPECT_EQ(p.getString("gpu.tile_order"), "z");
  EXPECT_EQ(p.getInt("gpu.shader_cores"), 4);
  for (const char* c : {"vertex", "l1tex", "tile", "l2"}) EXPECT_EQ(p.getInt(std::string(c) + ".line"), 64) << c;
  EXPECT_EQ(p.getInt("vertex.size"), 8 * 1024);
  EXPECT_EQ(p.getInt("vertex.ways"), 4);
  EXPECT_EQ(p.getInt("vertex.latency"), 1);
  EXPECT_EQ(p.getInt("l1tex.size"), 16 * 1024);
  EXPECT_EQ(p.getInt("l1tex.ways"), 4);
  EXPECT_EQ(p.getInt("l1tex.latency"), 1);
  EXPECT_EQ(p.getInt("tile.size"), 64 * 1024);
  EXPECT_EQ(p.getInt("tile.ways"), 4);
  EXPECT_EQ(p.getInt("tile.latency"), 1);
  EXPECT_EQ(p.getInt("l2.size"), 1024 * 1024);
  EXPECT_EQ(p.getInt("l2.ways"), 8);
  EXPECT_EQ(p.getInt("l2.latency"), 12);
  EXPECT_EQ(p.getInt("dram.latency_min"), 50);
  EXPECT_EQ(p.getInt("dram.latency_max"), 100);
  EXPECT_EQ(p.getInt("dram.size"), int64_t{1} << 30);
}

TEST(Presets, Mobile32MatchesDesign) {
  // DESIGN.md section 6, mobile32 (paper 000 Table I).
  const ParamSet p = makePreset("mobile32");
  EXPECT_EQ(p.getInt("gpu.freq_mhz"), 600);
  EXPECT_EQ(p.getInt("gpu.tile_width"), 32);
  EXPECT_EQ(p.getInt("gpu.tile_height"), 32);
  EXPECT_EQ(p.getInt("dram.freq_mhz"), 400);
  EXPECT_EQ(p.getInt("dram.latency_min"), 50);
  EXPECT_EQ(p.getInt("dram.latency_max"), 100);
  EXPECT_DOUBLE_EQ(p.getFloat("dram.bytes_per_cycle"), 4.0);
  EXPECT_EQ(p.getInt("dram.channels"), 2);
  EXPECT_EQ(p.getString("dram.type"), "lpddr3");
  EXPECT_EQ(p.getInt("queue.vertex"), 16);
  EXPECT_EQ(p.getInt("queue.triangle"), 16);
  EXPECT_EQ(p.getInt("queue.fragment"), 64);
  EXPECT_EQ(p.getInt("queue.color"), 64);
  EXPECT_EQ(p.getInt("vertex.size"), 4 * 1024);
  EXPECT_EQ(p.getInt("vertex.ways"), 2);
  EXPECT_EQ(p.getInt("vertex.latency"), 1);
  EXPECT_EQ(p.getInt("l1tex.size"), 16 * 1024);
  EXPECT_EQ(p.getInt("l1tex.ways"), 4);
  EXPECT_EQ(p.getInt("l1tex.latency"), 2);
  EXPECT_EQ(p.getInt("tile.size"), 32 * 1024);
  EXPECT_EQ(p.getInt("tile.ways"), 2);
  EXPECT_EQ(p.getInt("tile.latency"), 2);
  EXPECT_EQ(p.getInt("l2.size"), 1024 * 1024);
  EXPECT_EQ(p.getInt("l2.banks"), 8);
  EXPECT_EQ(p.getInt("l2.ways"), 8);
  EXPECT_EQ(p.getInt("l2.latency"), 18);
  EXPECT_EQ(p.getInt("colorbuf.size"), 1024);
  EXPECT_EQ(p.getInt("colorbuf.latency"), 1);
  EXPECT_EQ(p.getInt("depthbuf.size"), 1024);
  EXPECT_EQ(p.getInt("depthbuf.latency"), 1);
  EXPECT_EQ(p.getInt("gpu.earlyz_inflight_quads"), 8);
  EXPECT_EQ(p.getInt("gpu.vertex_processors"), 4);
  EXPECT_EQ(p.getInt("gpu.shader_cores"), 32);
  EXPECT_EQ(p.getInt("nuca.buckets"), 32);
  EXPECT_EQ(p.getInt("nuca.counter_bits"), 4);
  EXPECT_EQ(p.getInt("nuca.page_blocks"), 8);
  EXPECT_EQ(p.getInt("nuca.hop_latency"), 1);
  EXPECT_EQ(p.getInt("nuca.epoch_accesses"), 20000);
}

TEST(Presets, UnknownPresetIsAClearError) {
  EXPECT_EQ(errorOf([] { makePreset("mobile8"); }), "unknown preset 'mobile8' (known: mobile4, mobile32)");
  ASSERT_EQ(presets().size(), 2u);
}

TEST(Params, EveryParameterHasDescriptionAndValidDefault) {
  const ParamRegistry& r = ParamRegistry::model();
  EXPECT_GT(r.all().size(), 50u);
  for (const auto& spec : r.all()) {
    EXPECT_FALSE(spec.description.empty()) << spec.name;
    EXPECT_EQ(spec.description.find('\n'), std::string::npos) << spec.name;
  }
  // Defaults are the mobile4 preset.
  EXPECT_EQ(ParamSet(), makePreset("mobile4"));
}

TEST(Params, Overrides) {
  ParamSet p = makePreset("mobile4");
  p.apply("l1tex.size=32768");
  EXPECT_EQ(p.getInt("l1tex.size"), 32768);
  p.apply(" l1tex.size = 64KiB ");
  EXPECT_EQ(p.getInt("l1tex.size"), 65536);
  p.apply("l2.size=2M");
  EXPECT_EQ(p.getInt("l2.size"), 2 * 1024 * 1024);
  p.apply("tile.policy=opt");
  EXPECT_EQ(p.getString("tile.policy"), "opt");
  p.apply("l2.write_back=off");
  EXPECT_FALSE(p.getBool("l2.write_back"));
  p.apply("dram.bytes_per_cycle=8.5");
  EXPECT_DOUBLE_EQ(p.getFloat("dram.bytes_per_cycle"), 8.5);
  const HierarchyConfig h = HierarchyConfig::fromParams(p);
  EXPECT_EQ(h.l1tex.size_bytes, 65536u);
  EXPECT_EQ(h.tile.policy, "opt");
  EXPECT_FALSE(h.l2.write_back);
}

TEST(Params, Errors) {
  ParamSet p;
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.sise=1"); }), "unknown parameter 'l1tex.sise' (did you mean 'l1tex.size'?)");
  EXPECT_EQ(errorOf([&] { p.apply("frobnicate=1"); }), "unknown parameter 'frobnicate'");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.size=big"); }), "parameter 'l1tex.size': 'big' is not an integer");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.size=16QiB"); }),
            "parameter 'l1tex.size': '16QiB' has an unknown suffix (use KiB, MiB or GiB)");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.ways=0"); }), "parameter 'l1tex.ways': 0 is outside [1, 1024]");
  EXPECT_EQ(errorOf([&] { p.apply("l2.write_back=maybe"); }),
            "parameter 'l2.write_back': 'maybe' is not a boolean (true/false)");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.policy=mru"); }), "parameter 'l1tex.policy': 'mru' is not one of: lru, opt");
  EXPECT_EQ(errorOf([&] { p.apply("dram.bytes_per_cycle=fast"); }),
            "parameter 'dram.bytes_per_cycle': 'fast' is not a number");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.size"); }), "'l1tex.size' is not of the form key=value");
  EXPECT_EQ(errorOf([&] { p.getFloat("l1tex.size"); }), "parameter 'l1tex.size' is int, read as float");
  // A failed override leaves the value unchanged.
  EXPECT_EQ(p.getInt("l1tex.size"), 16384);
  // Valid values, inconsistent geometry: the error names the parameter group.
  p.apply("l1tex.size=3KiB");
  EXPECT_EQ(errorOf([&] { HierarchyConfig::fromParams(p); }),
            "parameters l1tex.*: cache 'l1tex': number of sets (12) must be a power of two");
  ParamSet q;
  q.apply("dram.latency_min=120");
  EXPECT_EQ(errorOf([&] { HierarchyConfig::fromParams(q); }), "dram.latency_min (120) exceeds dram.latency_max (100)");
}

TEST(Params, ConfigFileAndRoundTrip) {
  ParamSet p = makePreset("mobile32");
  p.applyText("# a sweep point\n\nl1tex.size=32KiB\n  l2.policy = lru\ndram.bytes_per_cycle=2.75\n", "sweep.cfg");
  EXPECT_EQ(p.getInt("l1tex.size"), 32768);
  const std::string text = p.toText();
  EXPECT_NE(text.find("l1tex.size=32768\n"), std::string::npos);
  EXPECT_NE(text.find("dram.bytes_per_cycle=2.75\n"), std::string::npos);
  EXPECT_NE(text.find("gpu.shader_cores=32\n"), std::string::npos);
  ParamSet back;
  back.applyText(text, "stored");
  EXPECT_EQ(back, p);
  EXPECT_EQ(back.toText(), text);
  EXPECT_EQ(errorOf([&] { back.applyText("l1tex.ways=4\nl1tex.ways=x\n", "sweep.cfg"); }),
            "sweep.cfg:2: parameter 'l1tex.ways': 'x' is not an integer");
}

TEST(Params, RegistryIsExtensible) {
  ParamRegistry r = ParamRegistry::model();
  r.add(ParamSpec{"timing.example", ParamType::Int, "3", "an extra parameter of a later component", 0, 10, {}});
  ParamSet p(r);
  EXPECT_EQ(p.getInt("timing.example"), 3);
  EXPECT_THROW(r.add(ParamSpec{"timing.example", ParamType::Int, "3", "twice", 0, 10, {}}), ParamError);
  EXPECT_THROW(r.add(ParamSpec{"timing.bad", ParamType::Int, "30", "bad default", 0, 10, {}}), ParamError);
}

}  // namespace
}  // namespace tessera::model
