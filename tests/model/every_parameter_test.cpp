// Every parameter the model registers does something: set alone to a second valid value, on a
// constructed two-frame run that exercises every unit, it changes some output (a frame, tile or
// core metric), or the model refuses the run with a line naming why (a stream shaded with other
// tiles, a footprint larger than main memory). A parameter added without an entry here fails the
// test, and so does one that stops having an effect.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "frame_builder.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/params.h"

namespace tessera::model {
namespace {

using namespace testing;

// The base: mobile4 with small caches (so every level misses, evicts and writes back), two
// texture lines per cycle (so L1 banks can conflict) and two vertex processors.
constexpr const char* kBase[] = {"l1tex.size=1KiB", "vertex.size=1KiB", "tile.size=1KiB", "l2.size=16KiB",
                                 "tex.lines_per_cycle=2", "gpu.vertex_processors=2"};
ParamSet base() {
  ParamSet p = make_preset("mobile4");
  for (const char* o : kBase) p.apply(o);
  return p;
}

// A frame that uses every unit: vertex batches of 8 vertices reusing a pool of vertices, PB
// lists and attributes of six primitives per tile, attachment loads and a long colour flush,
// 5x3 tiles (Z, Hilbert and S-order differ from scanline) of three kinds -- texture reuse across
// quads and tiles with killed quads (mixedFrame), one new 4 KiB page per quad (a footprint of
// more than 256 pages), and light untextured quads that finish while blending waits for the
// previous tile's flush (so the colour queue fills).
std::vector<uint8_t> rich_frame() {
  FrameSpec f = mixedFrame();
  const QuadFn textured = f.quad;
  f.quad = [textured](uint32_t seq, uint32_t qx, uint32_t qy) {
    if (seq % 3 == 0) return textured(seq, qx, qy);
    QuadSpec q;
    q.instructions = 4;
    if (seq % 3 == 1) q.samples[qx % 4].push_back({0x3000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 4096});
    return q;
  };
  f.vertex_pool = 96;
  f.tiles_x = 5;
  f.tiles_y = 3;
  f.batches_per_draw = 25;
  f.primitives_per_tile = 6;
  f.attribute_lines = 2;
  f.pb_lines_per_tile = 4;
  f.load_lines = 16;
  f.store_lines = 96;
  return buildFrame(f);
}

// Everything a run of two frames reports, or its error.
std::string outputs(const std::vector<uint8_t>& bytes, const ParamSet& p, const Configuration* schemes = nullptr) {
  std::ostringstream out;
  try {
    std::unique_ptr<GpuModel> model;
    if (schemes) {
      Configuration c = *schemes;
      c.params = p;
      model = c.make_model();
    } else {
      model = std::make_unique<GpuModel>(p);
    }
    for (int frame = 0; frame < 2; ++frame) {
      std::string error;
      FrameResults r;
      if (!model->run(bytes, r, &error)) return "error: " + error;
      for (const auto& [name, value] : r.frame_metrics) out << name << '=' << value << '\n';
      for (const TileMetric& t : r.tile_metrics) out << t.pass << ',' << t.tile_x << ',' << t.tile_y << ',' << t.metric << '=' << t.value << '\n';
      for (const CoreMetric& c : r.core_metrics) out << c.core << ',' << c.metric << '=' << c.value << '\n';
    }
  } catch (const ParamError& e) {
    return std::string("refused: ") + e.what();
  }
  return out.str();
}

struct Alternative {
  Alternative(std::string v, std::vector<std::string> a = {}, bool r = false)
      : value(std::move(v)), also(std::move(a)), refused(r) {}
  std::string value;
  std::vector<std::string> also;  // set on both sides (what the parameter needs to mean something)
  bool refused;                   // the change is a clear refusal of the run
};

// The second value of every parameter (base values in base() and mobile4).
const std::map<std::string, Alternative>& alternatives() {
  static const std::map<std::string, Alternative> table = {
      {"gpu.freq_mhz", {"300"}},
      {"gpu.shader_cores", {"2"}},
      {"gpu.vertex_processors", {"1"}},
      {"gpu.tile_width", {"16", {}, true}},   // the stream was shaded with 32x32 tiles
      {"gpu.tile_height", {"16", {}, true}},
      {"gpu.tile_order", {"scanline"}},
      {"gpu.earlyz_inflight_quads", {"1"}},
      {"gpu.barrier", {"subtile"}},
      {"raster.quads_per_cycle", {"4"}},
      {"core.max_quads", {"1"}},
      {"core.issue_lanes", {"8"}},
      {"core.registers", {"64"}},
      {"vp.issue_lanes", {"16"}},
      {"tex.lines_per_cycle", {"1"}},
      {"tex.latency", {"20"}},
      {"queue.vertex", {"1"}},
      {"queue.triangle", {"1"}},
      {"queue.fragment", {"2"}},
      {"queue.color", {"1"}},
      {"l1tex.size", {"2KiB"}},
      {"l1tex.ways", {"2"}},
      {"l1tex.line", {"128"}},
      {"l1tex.latency", {"4"}},
      {"l1tex.banks", {"2"}},
      {"l1tex.mshrs", {"1"}},
      {"l1tex.policy", {"mru"}},
      {"vertex.size", {"2KiB"}},
      {"vertex.ways", {"2"}},
      {"vertex.line", {"128"}},
      {"vertex.latency", {"4"}},
      {"vertex.mshrs", {"1"}},
      {"vertex.policy", {"drrip"}},
      {"tile.size", {"2KiB"}},
      {"tile.ways", {"2"}},
      {"tile.line", {"128"}},
      {"tile.latency", {"4"}},
      {"tile.mshrs", {"1"}},
      {"tile.policy", {"opt"}},
      {"tile.write_back", {"false"}},
      {"tile.write_allocate", {"false"}},
      {"tile.bypass", {"true", {"tile.policy=opt"}}},
      {"l2.size", {"32KiB"}},
      {"l2.ways", {"4"}},
      {"l2.line", {"128"}},
      {"l2.latency", {"30"}},
      {"l2.banks", {"4"}},
      {"l2.mshrs", {"1"}},
      {"l2.policy", {"mru"}},
      {"l2.write_back", {"false"}},
      {"l2.write_allocate", {"false"}},
      {"colorbuf.size", {"4KiB"}},
      {"colorbuf.latency", {"5"}},
      {"depthbuf.size", {"4KiB"}},
      {"depthbuf.latency", {"5"}},
      {"dram.latency_min", {"40"}},
      {"dram.latency_max", {"150"}},
      {"dram.freq_mhz", {"800"}},
      {"dram.bytes_per_cycle", {"1"}},
      {"dram.channels", {"1"}},
      {"dram.banks", {"2"}},
      {"dram.row_size", {"1KiB"}},
      {"dram.size", {"1MiB", {}, true}},  // the frame touches more than 256 pages
      {"dram.type", {"lpddr4"}},
      {"energy.tech", {"32nm-hp"}},
      {"energy.leakage_scale", {"2"}},
      {"energy.dram_background_mw", {"40"}},
      {"sim.cold_caches", {"true"}},
      {"stats.replication", {"false"}},
  };
  return table;
}

TEST(EveryParameter, ChangesSomeOutputOrIsRefused) {
  const auto bytes = rich_frame();
  const std::string reference = outputs(bytes, base());
  ASSERT_EQ(reference.rfind("error", 0), std::string::npos) << reference;
  for (const ParamSpec& spec : ParamRegistry::model().all()) {
    SCOPED_TRACE(spec.name);
    const auto it = alternatives().find(spec.name);
    ASSERT_NE(it, alternatives().end()) << "no second value for parameter " << spec.name << ": add one";
    const Alternative& alt = it->second;
    ParamSet a = base(), b = base();
    for (const std::string& s : alt.also) {
      a.apply(s);
      b.apply(s);
    }
    ASSERT_NE(a.text(spec.name), alt.value) << "the second value equals the base value";
    b.set(spec.name, alt.value);
    const std::string before = alt.also.empty() ? reference : outputs(bytes, a);
    const std::string after = outputs(bytes, b);
    if (alt.refused) {
      EXPECT_TRUE(after.rfind("error", 0) == 0 || after.rfind("refused", 0) == 0) << spec.name << " was not refused";
    } else {
      EXPECT_EQ(after.rfind("error", 0), std::string::npos) << after.substr(0, 200);
      EXPECT_EQ(after.rfind("refused", 0), std::string::npos) << after.substr(0, 200);
      EXPECT_NE(before, after) << spec.name << "=" << alt.value << " changed no output";
    }
  }
}

// Every table entry names a registered parameter (so the table does not keep stale names).
TEST(EveryParameter, TheTableHasNoStaleNames) {
  for (const auto& [name, alt] : alternatives()) {
    EXPECT_NE(ParamRegistry::model().find(name), nullptr) << name;
  }
}

// The schemes' own parameters: a table per scheme, each run on a configuration with one of the
// scheme's variants on the base above.
struct SchemeTable {
  std::string spec;
  std::map<std::string, Alternative> alternatives;
};

const std::map<std::string, SchemeTable>& scheme_tables() {
  static const std::map<std::string, SchemeTable> tables = {
      {"dtexl",
       {"mobile4+dtexl",
        {
            {"dtexl.grouping", {"CG-xrect"}},
            {"dtexl.assignment", {"flip"}},
        }}},
      {"dtm-nuca",
       {"mobile4+dtm-nuca",
        {
            {"nuca.organisation", {"d-nuca"}},
            {"nuca.buckets", {"4"}},
            {"nuca.counter_bits", {"2"}},
            {"nuca.page_blocks", {"1"}},
            {"nuca.hop_latency", {"3"}},
            {"nuca.epoch_accesses", {"100"}},
            {"nuca.hysteresis", {"0"}},
            {"nuca.count_hits", {"false"}},
            {"nuca.mesh_cols", {"4"}},  // 1 x 4 instead of 2 x 2
            {"nuca.flit_bytes", {"32"}},
            {"nuca.table_latency", {"3"}},
            {"nuca.directory_latency", {"4", {"nuca.organisation=d-nuca"}}},
        }}},
  };
  return tables;
}

TEST(EveryParameter, SchemeParametersChangeSomeOutputOrAreRefused) {
  const auto bytes = rich_frame();
  for (const SchemeInfo& scheme : SchemeRegistry::global().schemes()) {
    if (scheme.params.empty()) continue;
    SCOPED_TRACE(scheme.name);
    const auto table = scheme_tables().find(scheme.name);
    ASSERT_NE(table, scheme_tables().end()) << "no parameter table for scheme " << scheme.name << ": add one";
    Configuration config = parse_configuration(table->second.spec);
    for (const char* o : kBase) config.params.apply(o);
    const std::string reference = outputs(bytes, config.params, &config);
    ASSERT_EQ(reference.rfind("error", 0), std::string::npos) << reference;
    ASSERT_EQ(reference.rfind("refused", 0), std::string::npos) << reference;
    EXPECT_EQ(table->second.alternatives.size(), scheme.params.size()) << "stale or missing entries";
    for (const ParamSpec& spec : scheme.params) {
      SCOPED_TRACE(spec.name);
      const auto it = table->second.alternatives.find(spec.name);
      ASSERT_NE(it, table->second.alternatives.end()) << "no second value for parameter " << spec.name << ": add one";
      const Alternative& alt = it->second;
      ParamSet a = config.params, b = config.params;
      for (const std::string& s : alt.also) {
        a.apply(s);
        b.apply(s);
      }
      ASSERT_NE(a.text(spec.name), alt.value) << "the second value equals the base value";
      b.set(spec.name, alt.value);
      const std::string before = alt.also.empty() ? reference : outputs(bytes, a, &config);
      const std::string after = outputs(bytes, b, &config);
      if (alt.refused) {
        EXPECT_TRUE(after.rfind("error", 0) == 0 || after.rfind("refused", 0) == 0) << spec.name << " was not refused";
      } else {
        EXPECT_EQ(after.rfind("error", 0), std::string::npos) << after.substr(0, 200);
        EXPECT_EQ(after.rfind("refused", 0), std::string::npos) << after.substr(0, 200);
        EXPECT_NE(before, after) << spec.name << "=" << alt.value << " changed no output";
      }
    }
  }
}

}  // namespace
}  // namespace tessera::model
