// The model's timeline (timeline.h): intervals split exactly at bin edges, every shader core's
// cycles by state and the rasterizer's and flush units' busy and stall cycles sum to the frame's
// own metrics, and the trace-event JSON parses with its tracks.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>

#include "frame_builder.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/timeline.h"

namespace tessera::model {
namespace {

using namespace testing;

TEST(Timeline, IntervalsSplitAtBinEdges) {
  Timeline t(1000);
  t.begin_frame(5000);
  t.core_cycles(0, CoreState::Busy, 5990, 7010);    // 10 + 1000 + 10 in bins 0, 1, 2
  t.core_cycles(0, CoreState::Busy, 4000, 5003);    // before the frame: only [5000, 5003) counts
  t.core_cycles(1, CoreState::Starved, 5000, 5000);  // empty
  t.unit_cycles(Timeline::Unit::DramBank, 3, Timeline::Activity::Busy, 9999, 10001);
  EXPECT_EQ(t.core_total(0, CoreState::Busy), 1023u);
  EXPECT_EQ(t.core_total(1, CoreState::Starved), 0u);
  EXPECT_EQ(t.unit_total(Timeline::Unit::DramBank, 3, Timeline::Activity::Busy), 2u);
  std::ostringstream out;
  t.write_json(out, 1000.0, "t");
  const auto j = nlohmann::json::parse(out.str());
  std::vector<std::pair<double, uint64_t>> busy;  // (ts in us, cycles) of core 0
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "C" && e["name"].get<std::string>().rfind("shader core 0", 0) == 0)
      busy.emplace_back(e["ts"].get<double>(), e["args"]["busy"].get<uint64_t>());
  }
  // Bins 0-2, then a zero that ends the counter; at 1000 MHz a 1000-cycle bin is 1 us.
  EXPECT_EQ(busy, (std::vector<std::pair<double, uint64_t>>{{0, 13}, {1, 1000}, {2, 10}, {3, 0}}));
  EXPECT_EQ(j["otherData"]["bin_cycles"], 1000);
  // A queue keeps its level through bins without an event: 5 quads from cycle 100 (bin 0) until
  // 2 at cycle 3500 (bin 3) shows 5 in bins 0-3.
  t.fragment_queue(0, 5100, 5);
  t.fragment_queue(0, 8500, 2);
  std::ostringstream q;
  t.write_json(q, 1000.0, "t");
  std::vector<uint64_t> levels;
  const auto jq = nlohmann::json::parse(q.str());  // a named object: a range over a temporary's member dangles
  for (const auto& e : jq["traceEvents"]) {
    if (e["ph"] == "C" && e["name"].get<std::string>().rfind("fragment queue 0", 0) == 0)
      levels.push_back(e["args"]["quads"].get<uint64_t>());
  }
  EXPECT_EQ(levels, (std::vector<uint64_t>{5, 5, 5, 5, 0}));
  // A new frame starts empty.
  t.begin_frame(0);
  EXPECT_EQ(t.core_total(0, CoreState::Busy), 0u);
}

// Random frames on four configurations, two frames each (the second starts at a later cycle):
// the timeline's sums are the frame's metrics exactly.
TEST(Timeline, SumsAreTheFramesMetrics) {
  for (uint32_t seed = 1; seed <= 3; ++seed) {
    const auto bytes = buildFrame(randomFrame(seed));
    for (const char* spec : {"mobile4", "mobile4+dtexl", "mobile32", "mobile4+gpu.flush_buffer=0"}) {
      SCOPED_TRACE(std::string(spec) + " seed " + std::to_string(seed));
      Configuration c = parse_configuration(spec);
      auto model = c.make_model();
      Timeline t(97);  // a bin width that divides nothing
      model->set_timeline(&t);
      for (int frame = 0; frame < 2; ++frame) {
        FrameResults r;
        std::string error;
        ASSERT_TRUE(model->run(bytes, r, &error)) << error;
        for (uint32_t core = 0; core < r.cores.size(); ++core) {
          uint64_t all = 0;
          for (uint32_t s = 0; s < kCoreStates; ++s) {
            EXPECT_EQ(t.core_total(core, static_cast<CoreState>(s)), r.cores[core].cycles.by_state[s])
                << "core " << core << " " << core_state_name(static_cast<CoreState>(s));
            all += t.core_total(core, static_cast<CoreState>(s));
          }
          EXPECT_EQ(all, r.cycles);
        }
        const auto stage = [&](const char* name, uint64_t StageStats::*field) {
          for (const StageStats& s : r.stages)
            if (s.name == name) return s.*field;
          ADD_FAILURE() << "no stage " << name;
          return uint64_t{0};
        };
        const auto units = [&](Timeline::Unit u, Timeline::Activity a, uint32_t n) {
          uint64_t sum = 0;
          for (uint32_t i = 0; i < n; ++i) sum += t.unit_total(u, i, a);
          return sum;
        };
        const uint32_t flush_units = static_cast<uint32_t>(r.cores.size());
        EXPECT_EQ(units(Timeline::Unit::Rasterizer, Timeline::Activity::Busy, 1), stage("raster", &StageStats::busy_cycles));
        EXPECT_EQ(units(Timeline::Unit::Rasterizer, Timeline::Activity::Stall, 1), stage("raster", &StageStats::stall_cycles));
        EXPECT_EQ(units(Timeline::Unit::Flush, Timeline::Activity::Busy, flush_units), stage("flush", &StageStats::busy_cycles));
        EXPECT_EQ(units(Timeline::Unit::Flush, Timeline::Activity::Stall, flush_units),
                  stage("flush", &StageStats::stall_cycles));
        EXPECT_GT(units(Timeline::Unit::L2Bank, Timeline::Activity::Busy, 64), 0u);
        EXPECT_GT(units(Timeline::Unit::DramBank, Timeline::Activity::Busy, 64), 0u);
      }
      std::ostringstream out;
      t.write_json(out, 600.0, spec);
      const auto j = nlohmann::json::parse(out.str());
      std::set<std::string> tracks;
      for (const auto& e : j["traceEvents"]) {
        ASSERT_TRUE(e.contains("ph") && e.contains("pid"));
        if (e["ph"] == "C") tracks.insert(e["name"].get<std::string>().substr(0, e["name"].get<std::string>().find(" (")));
      }
      for (const char* track : {"shader core 0", "rasterizer 0", "flush 0", "L2 bank 0", "fragment queue 0"})
        EXPECT_TRUE(tracks.count(track)) << track;
    }
  }
}

}  // namespace
}  // namespace tessera::model
