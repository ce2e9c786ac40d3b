// Every parameter the model and every scheme register (what `tessera schemes` lists) does
// something: set alone to a second valid value, on a constructed two-frame run that exercises
// every unit, it changes some output (a frame, tile or core metric), or the model refuses the run
// with a line naming why (a stream shaded with other tiles, a footprint larger than main memory).
// A scheme's parameters are tried on its paper's preset with its first variant, with the second
// values its folder registers (scheme_parameters.h). A parameter added without a second value
// fails the test, and so does one that stops having an effect.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "frame_builder.h"
#include "scheme_parameters.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/configuration.h"
#include "tessera/model/params.h"

namespace tessera::model {
namespace {

using namespace testing;

// The base: mobile4 with small caches (so every level misses, evicts and writes back), two
// texture lines per cycle (so L1 banks can conflict) and two vertex processors.
ParamSet base() {
  return mobile4({"l1tex.size=1KiB", "vertex.size=1KiB", "tile.size=1KiB", "l2.size=16KiB", "tex.lines_per_cycle=2",
                  "gpu.vertex_processors=2"});
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
  // Every operation class in every quad and vertex batch (core.cost=classes charges each on its
  // unit), in amounts that vary with the quad.
  f.quad = [textured](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    if (seq % 3 == 0) {
      q = textured(seq, qx, qy);
    } else {
      q.instructions = 4;
      if (seq % 3 == 1) q.samples[qx % 4].push_back({0x3000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 4096});
    }
    q.mix = stream::OpMix{static_cast<uint32_t>(q.instructions / 2), 1 + qx % 3, 2 + qy % 5, 1, qx % 2};
    return q;
  };
  f.vertex_mix = stream::OpMix{60, 4, 24, 0, 2};
  f.depth_lines = 16;
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
    Configuration c;
    if (schemes) c = *schemes;
    c.params = p;
    auto owned = c.make_model();
    GpuModel& model = *owned;
    for (int frame = 0; frame < 2; ++frame) {
      std::string error;
      FrameResults r;
      if (!model.run(bytes, r, &error)) return "error: " + error;
      for (const auto& [name, value] : r.frame_metrics) out << name << '=' << value << '\n';
      for (const TileMetric& t : r.tile_metrics) out << t.pass << ',' << t.tile_x << ',' << t.tile_y << ',' << t.metric << '=' << t.value << '\n';
      for (const CoreMetric& k : r.core_metrics) out << k.core << ',' << k.metric << '=' << k.value << '\n';
    }
  } catch (const ParamError& e) {
    return std::string("refused: ") + e.what();
  }
  return out.str();
}

// The second value of every model parameter (base values in base() and mobile4); each scheme's
// folder gives its own parameters' (scheme_parameters.h).
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
      {"gpu.earlyz_scope", {"shared"}},
      {"gpu.tile_writeback", {"store-ops"}},
      {"gpu.framebuffer", {"perfect"}},
      {"gpu.flush_buffer", {"0"}},
      {"core.cost", {"instructions"}},
      {"core.engines", {"1"}},
      {"core.alu_rate", {"1"}},
      {"core.sfu_ops", {"16"}},
      {"core.varying_rate", {"4"}},
      {"core.ls_rate", {"4"}},
      {"tex.probes_per_cycle", {"4"}},
      {"blend.fragments_per_cycle", {"1"}},
      {"queue.scope", {"shared"}},
      {"interconnect.topology", {"crossbar"}},
      {"interconnect.width", {"16"}},
      {"interconnect.latency", {"4"}},
      {"raster.quads_per_cycle", {"4"}},
      // Only decoupled barriers let cores drift apart; a two-quad queue fills on every tile.
      {"raster.runahead_tiles", {"0", {"gpu.barrier=subtile", "queue.fragment=2"}}},
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
      {"l2.banks", {"2"}},
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
      {"dram.channel_map", {"line"}},
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

void expect_changes(const std::vector<uint8_t>& bytes, const ParamSet& base_set, const ParamSpec& spec,
                    const std::map<std::string, Alternative>& table, const Configuration* schemes) {
  SCOPED_TRACE(spec.name);
  const auto it = table.find(spec.name);
  ASSERT_NE(it, table.end()) << "no second value for parameter " << spec.name << ": add one";
  const Alternative& alt = it->second;
  ParamSet a = base_set, b = base_set;
  for (const std::string& s : alt.also) {
    a.apply(s);
    b.apply(s);
  }
  ASSERT_NE(a.text(spec.name), alt.value) << "the second value equals the base value";
  b.set(spec.name, alt.value);
  const std::string before = outputs(bytes, a, schemes);
  const std::string after = outputs(bytes, b, schemes);
  ASSERT_EQ(before.rfind("error", 0), std::string::npos) << before.substr(0, 200);
  if (alt.refused) {
    EXPECT_TRUE(after.rfind("error", 0) == 0 || after.rfind("refused", 0) == 0) << spec.name << " was not refused";
  } else {
    EXPECT_EQ(after.rfind("error", 0), std::string::npos) << after.substr(0, 200);
    EXPECT_EQ(after.rfind("refused", 0), std::string::npos) << after.substr(0, 200);
    EXPECT_NE(before, after) << spec.name << "=" << alt.value << " changed no output";
  }
}

TEST(EveryParameter, ChangesSomeOutputOrIsRefused) {
  const auto bytes = rich_frame();
  for (const ParamSpec& spec : ParamRegistry::model().all()) expect_changes(bytes, base(), spec, alternatives(), nullptr);
}

const SchemeParameterValues* values_of(const std::string& scheme) {
  for (const SchemeParameterValues& v : scheme_parameter_values()) {
    if (v.scheme == scheme) return &v;
  }
  return nullptr;
}

TEST(EveryParameter, EverySchemesParametersChangeSomeOutput) {
  const auto bytes = rich_frame();
  for (const SchemeInfo& s : SchemeRegistry::global().schemes()) {
    SCOPED_TRACE(s.name);
    ASSERT_FALSE(s.variants.empty());
    if (s.params.empty()) continue;
    const SchemeParameterValues* values = values_of(s.name);
    ASSERT_NE(values, nullptr) << "no second values for the parameters of scheme " << s.name
                               << ": register them in its folder's tests (scheme_parameters.h)";
    Configuration c = parse_configuration(s.preset + "+" + s.variants.front().name);
    // The same small caches as the model's base, on the scheme's configuration.
    for (const char* o : {"l1tex.size=1KiB", "vertex.size=1KiB", "tile.size=1KiB", "l2.size=16KiB", "tex.lines_per_cycle=2"}) {
      c.params.apply(o);
    }
    for (const std::string& o : values->base) c.params.apply(o);
    for (const ParamSpec& spec : s.params) expect_changes(bytes, c.params, spec, values->alternatives, &c);
  }
}

// Every entry names a parameter of its own registry (so no table keeps stale names), once.
TEST(EveryParameter, TheTablesHaveNoStaleNames) {
  for (const auto& [name, alt] : alternatives()) EXPECT_NE(ParamRegistry::model().find(name), nullptr) << name;
  std::vector<std::string> seen;
  for (const SchemeParameterValues& v : scheme_parameter_values()) {
    SCOPED_TRACE(v.scheme);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), v.scheme), 0) << "registered twice";
    seen.push_back(v.scheme);
    const SchemeInfo* s = SchemeRegistry::global().find_scheme(v.scheme);
    ASSERT_NE(s, nullptr) << "values for an unknown scheme";
    for (const auto& [name, alt] : v.alternatives) {
      EXPECT_TRUE(std::any_of(s->params.begin(), s->params.end(), [&](const ParamSpec& p) { return p.name == name; }))
          << name << " is not a parameter of " << v.scheme;
    }
  }
}

}  // namespace
}  // namespace tessera::model
