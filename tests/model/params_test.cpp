// Parameter registry: presets match docs/model.md, "Presets", overrides, errors, serialisation.
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
  // docs/model.md, "Presets", mobile4 (papers 001 and 003): 600 MHz, 32x32 tiles, Z-order, 4 shader
  // cores, 64 B lines; vertex cache 8 KiB 4-way 1 cycle; texture caches 4 x 16 KiB 4-way 1 cycle;
  // tile cache 64 KiB 4-way 1 cycle; L2 1 MiB 8-way 12 cycles; memory 50-100 cycles, 1 GiB.
  const ParamSet p = make_preset("mobile4");
  EXPECT_EQ(p.get_int("gpu.freq_mhz"), 600);
  EXPECT_EQ(p.get_int("gpu.tile_width"), 32);
  EXPECT_EQ(p.get_int("gpu.tile_height"), 32);
  EXPECT_EQ(p.get_string("gpu.tile_order"), "z");
  EXPECT_EQ(p.get_int("gpu.shader_cores"), 4);
  for (const char* c : {"vertex", "l1tex", "tile", "l2"}) EXPECT_EQ(p.get_int(std::string(c) + ".line"), 64) << c;
  EXPECT_EQ(p.get_int("vertex.size"), 8 * 1024);
  EXPECT_EQ(p.get_int("vertex.ways"), 4);
  EXPECT_EQ(p.get_int("vertex.latency"), 1);
  EXPECT_EQ(p.get_int("l1tex.size"), 16 * 1024);
  EXPECT_EQ(p.get_int("l1tex.ways"), 4);
  EXPECT_EQ(p.get_int("l1tex.latency"), 1);
  EXPECT_EQ(p.get_int("tile.size"), 64 * 1024);
  EXPECT_EQ(p.get_int("tile.ways"), 4);
  EXPECT_EQ(p.get_int("tile.latency"), 1);
  EXPECT_EQ(p.get_int("l2.size"), 1024 * 1024);
  EXPECT_EQ(p.get_int("l2.ways"), 8);
  EXPECT_EQ(p.get_int("l2.latency"), 12);
  EXPECT_EQ(p.get_int("dram.latency_min"), 50);
  EXPECT_EQ(p.get_int("dram.latency_max"), 100);
  EXPECT_EQ(p.get_int("dram.size"), int64_t{1} << 30);
}

TEST(Presets, Mobile32MatchesDesign) {
  // docs/model.md, "Presets", mobile32 (paper 000 Table I).
  const ParamSet p = make_preset("mobile32");
  EXPECT_EQ(p.get_int("gpu.freq_mhz"), 600);
  EXPECT_EQ(p.get_int("gpu.tile_width"), 32);
  EXPECT_EQ(p.get_int("gpu.tile_height"), 32);
  EXPECT_EQ(p.get_int("dram.freq_mhz"), 400);
  EXPECT_EQ(p.get_int("dram.latency_min"), 50);
  EXPECT_EQ(p.get_int("dram.latency_max"), 100);
  EXPECT_DOUBLE_EQ(p.get_float("dram.bytes_per_cycle"), 4.0);
  EXPECT_EQ(p.get_int("dram.channels"), 2);
  EXPECT_EQ(p.get_string("dram.type"), "lpddr3");
  EXPECT_EQ(p.get_int("queue.vertex"), 16);
  EXPECT_EQ(p.get_int("queue.triangle"), 16);
  EXPECT_EQ(p.get_int("queue.fragment"), 64);
  EXPECT_EQ(p.get_int("queue.color"), 64);
  EXPECT_EQ(p.get_int("vertex.size"), 4 * 1024);
  EXPECT_EQ(p.get_int("vertex.ways"), 2);
  EXPECT_EQ(p.get_int("vertex.latency"), 1);
  EXPECT_EQ(p.get_int("l1tex.size"), 16 * 1024);
  EXPECT_EQ(p.get_int("l1tex.ways"), 4);
  EXPECT_EQ(p.get_int("l1tex.latency"), 2);
  EXPECT_EQ(p.get_int("tile.size"), 32 * 1024);
  EXPECT_EQ(p.get_int("tile.ways"), 2);
  EXPECT_EQ(p.get_int("tile.latency"), 2);
  EXPECT_EQ(p.get_int("l2.size"), 1024 * 1024);
  EXPECT_EQ(p.get_int("l2.banks"), 8);
  EXPECT_EQ(p.get_int("l2.ways"), 8);
  EXPECT_EQ(p.get_int("l2.latency"), 18);
  EXPECT_EQ(p.get_int("colorbuf.size"), 1024);
  EXPECT_EQ(p.get_int("colorbuf.latency"), 1);
  EXPECT_EQ(p.get_int("depthbuf.size"), 1024);
  EXPECT_EQ(p.get_int("depthbuf.latency"), 1);
  EXPECT_EQ(p.get_int("gpu.earlyz_inflight_quads"), 8);
  EXPECT_EQ(p.get_int("gpu.vertex_processors"), 4);
  EXPECT_EQ(p.get_int("gpu.shader_cores"), 32);
  // The DTM-NUCA parameters of Table I belong to that scheme's folder (its registry test).
  EXPECT_EQ(ParamRegistry::model().find("nuca.buckets"), nullptr);
}

// The other papers' baseline machines (each preset's description cites its table).
TEST(Presets, PaperBaselines) {
  const ParamSet p3 = make_preset("mobile4-64k");  // paper 003 Table I
  EXPECT_EQ(p3.get_int("vertex.size"), 64 * 1024);
  EXPECT_EQ(p3.get_int("l1tex.size"), 64 * 1024);
  EXPECT_EQ(p3.get_int("tile.size"), 64 * 1024);
  EXPECT_EQ(p3.get_int("l2.size"), 1024 * 1024);
  EXPECT_EQ(p3.get_int("l2.latency"), 12);
  EXPECT_EQ(p3.get_int("gpu.shader_cores"), 4);
  const ParamSet p4 = make_preset("mobile-256k");  // paper 004 section IV, configuration 1
  EXPECT_EQ(p4.get_int("l1tex.size"), 16 * 1024);
  EXPECT_EQ(p4.get_int("l1tex.ways"), 2);
  EXPECT_EQ(p4.get_int("l2.size"), 256 * 1024);
  EXPECT_EQ(p4.get_int("l2.ways"), 4);
  const ParamSet p2 = make_preset("tegra2");  // paper 002 section 2: one warp per pixel processor
  EXPECT_EQ(p2.get_int("core.max_quads"), 1);
  EXPECT_EQ(p2.get_int("gpu.shader_cores"), 4);        // the ULP GeForce's 4 pixel shader cores
  EXPECT_EQ(p2.get_int("gpu.vertex_processors"), 4);   // and its 4 vertex shader cores
  for (const auto& info : presets()) {
    EXPECT_FALSE(info.description.empty());
    EXPECT_NE(info.description.find("paper"), std::string_view::npos) << info.name;
  }
}

TEST(Presets, UnknownPresetIsAClearError) {
  EXPECT_EQ(errorOf([] { make_preset("mobile8"); }),
            "unknown preset 'mobile8' (known: mobile4, mobile32, mobile4-64k, mobile-256k, tegra2)");
  ASSERT_EQ(presets().size(), 5u);
}

TEST(Params, EveryParameterHasDescriptionAndValidDefault) {
  const ParamRegistry& r = ParamRegistry::model();
  EXPECT_GT(r.all().size(), 50u);
  for (const auto& spec : r.all()) {
    EXPECT_FALSE(spec.description.empty()) << spec.name;
    EXPECT_EQ(spec.description.find('\n'), std::string::npos) << spec.name;
  }
  // Defaults are the mobile4 preset.
  EXPECT_EQ(ParamSet(), make_preset("mobile4"));
}

TEST(Params, Overrides) {
  ParamSet p = make_preset("mobile4");
  p.apply("l1tex.size=32768");
  EXPECT_EQ(p.get_int("l1tex.size"), 32768);
  p.apply(" l1tex.size = 64KiB ");
  EXPECT_EQ(p.get_int("l1tex.size"), 65536);
  p.apply("l2.size=2M");
  EXPECT_EQ(p.get_int("l2.size"), 2 * 1024 * 1024);
  p.apply("tile.policy=opt");
  EXPECT_EQ(p.get_string("tile.policy"), "opt");
  p.apply("l2.write_back=off");
  EXPECT_FALSE(p.get_bool("l2.write_back"));
  p.apply("dram.bytes_per_cycle=8.5");
  EXPECT_DOUBLE_EQ(p.get_float("dram.bytes_per_cycle"), 8.5);
  const HierarchyConfig h = HierarchyConfig::from_params(p);
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
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.ways=-1"); }), "parameter 'l1tex.ways': -1 is outside [0, 16777216]");
  EXPECT_EQ(errorOf([&] { p.apply("l2.write_back=maybe"); }),
            "parameter 'l2.write_back': 'maybe' is not a boolean (true/false)");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.policy=fifo"); }),
            "parameter 'l1tex.policy': 'fifo' is not one of: lru, mru, drrip");
  EXPECT_EQ(errorOf([&] { p.apply("dram.bytes_per_cycle=fast"); }),
            "parameter 'dram.bytes_per_cycle': 'fast' is not a number");
  EXPECT_EQ(errorOf([&] { p.apply("l1tex.size"); }), "'l1tex.size' is not of the form key=value");
  EXPECT_EQ(errorOf([&] { p.get_float("l1tex.size"); }), "parameter 'l1tex.size' is int, read as float");
  // A failed override leaves the value unchanged.
  EXPECT_EQ(p.get_int("l1tex.size"), 16384);
  // Valid values, inconsistent geometry: the error names the parameter group.
  p.apply("l1tex.size=3KiB");
  EXPECT_EQ(errorOf([&] { HierarchyConfig::from_params(p); }),
            "parameters l1tex.*: cache 'l1tex': number of sets (12) must be a power of two");
  // Zero ways: fully associative, any size of whole lines.
  p.apply("l1tex.ways=0");
  EXPECT_EQ(HierarchyConfig::from_params(p).l1tex.ways, 48u);
  ParamSet q;
  q.apply("dram.latency_min=120");
  EXPECT_EQ(errorOf([&] { HierarchyConfig::from_params(q); }), "dram.latency_min (120) exceeds dram.latency_max (100)");
}

TEST(Params, ConfigFileAndRoundTrip) {
  ParamSet p = make_preset("mobile32");
  p.apply_text("# a sweep point\n\nl1tex.size=32KiB\n  l2.policy = lru\ndram.bytes_per_cycle=2.75\n", "sweep.cfg");
  EXPECT_EQ(p.get_int("l1tex.size"), 32768);
  const std::string text = p.to_text();
  EXPECT_NE(text.find("l1tex.size=32768\n"), std::string::npos);
  EXPECT_NE(text.find("dram.bytes_per_cycle=2.75\n"), std::string::npos);
  EXPECT_NE(text.find("gpu.shader_cores=32\n"), std::string::npos);
  ParamSet back;
  back.apply_text(text, "stored");
  EXPECT_EQ(back, p);
  EXPECT_EQ(back.to_text(), text);
  EXPECT_EQ(errorOf([&] { back.apply_text("l1tex.ways=4\nl1tex.ways=x\n", "sweep.cfg"); }),
            "sweep.cfg:2: parameter 'l1tex.ways': 'x' is not an integer");
}

TEST(Params, RegistryIsExtensible) {
  ParamRegistry r = ParamRegistry::model();
  r.add(ParamSpec{"timing.example", ParamType::Int, "3", "an extra parameter of a later component", 0, 10, {}});
  ParamSet p(r);
  EXPECT_EQ(p.get_int("timing.example"), 3);
  EXPECT_THROW(r.add(ParamSpec{"timing.example", ParamType::Int, "3", "twice", 0, 10, {}}), ParamError);
  EXPECT_THROW(r.add(ParamSpec{"timing.bad", ParamType::Int, "30", "bad default", 0, 10, {}}), ParamError);
}

}  // namespace
}  // namespace tessera::model
