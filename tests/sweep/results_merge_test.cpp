// Merging job databases (results/results_merge.h): the merged database must hold exactly what
// replay writing into it directly would hold, one transaction per job, nothing on failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "results_db.h"
#include "results_merge.h"
#include "test_util.h"

namespace tessera::results {
namespace {

using testing::TempPath;

// One replay's writes, as tessera replay's write_database makes them: per configuration one
// transaction with capture, configuration, run, the replacement of the name's other parameter
// sets, and per frame the clearing of its rows before its metrics.
struct Write {
  std::string fingerprint, capture, config;
  Params params;
  std::map<uint32_t, double> frames;  // present -> value of every metric of the frame
};

void replay_into(ResultsDb& db, const Write& w) {
  db.begin();
  const int64_t cap = db.put_capture({w.fingerprint, w.capture, "", "", 9, 1234});
  const int64_t cfg = db.put_config(w.config, w.params);
  const int64_t run = db.put_run(cap, cfg);
  db.replace_runs_named(cap, w.config, cfg);
  for (const auto& [present, v] : w.frames) {
    const int64_t frame = db.put_frame(cap, present, 640, 360);
    db.clear_frame(run, frame);
    db.put_frame_metric(run, frame, "cycles", v);
    db.put_frame_metric(run, frame, "l1tex.hits", v / 2);
    // Tiles (0, 1) and (1, 1) of a 2x2 grid; the first row has no value.
    db.put_tile_grid(run, frame, "quads", {2, {std::nullopt, std::nullopt, v + 1, v + 2}});
    db.put_core_metric(run, frame, 3, "quads", v + 3);
  }
  db.commit();
}

// Everything a database holds, keyed by meaning (not ids), without run timestamps and markers.
std::vector<std::string> dump(ResultsDb& db) {
  std::vector<std::string> rows;
  auto collect = [&](const std::string& table, const std::string& sql) {
    db.query(sql, [&](const auto&, const ResultsDb::Row& r) {
      std::string line = table;
      for (const auto& v : r.values) line += "|" + v;
      rows.push_back(line);
    });
  };
  collect("capture", "SELECT fingerprint, name, application, device, frame_count, file_bytes FROM capture");
  collect("frame", "SELECT c.fingerprint, f.present, f.width, f.height FROM frame f JOIN capture c USING (capture_id)");
  collect("config", "SELECT g.name, g.params_hash, p.key, p.value FROM config g JOIN config_param p USING (config_id)");
  collect("run", "SELECT c.fingerprint, g.name, g.params_hash, r.tessera_version FROM run r "
                 "JOIN capture c USING (capture_id) JOIN config g USING (config_id)");
  collect("frame_metric", "SELECT capture, frame, config, metric, printf('%.17g', value) FROM frame_metrics");
  collect("tile_metric", "SELECT capture, frame, config, tile_x, tile_y, metric, printf('%.17g', value) FROM tile_metrics");
  collect("core_metric", "SELECT capture, frame, config, core, metric, printf('%.17g', value) FROM core_metrics");
  // Grids stored once by content, none that nothing refers to (schema/sqlite/003).
  collect("grids", "SELECT count(*), count(DISTINCT tiles_x || ':' || grid), "
                   "(SELECT count(*) FROM tile_grid_data WHERE grid_id NOT IN (SELECT grid_id FROM tile_grid)) "
                   "FROM tile_grid_data");
  std::sort(rows.begin(), rows.end());
  return rows;
}

int64_t scalar(ResultsDb& db, const std::string& sql) {
  int64_t v = -1;
  db.query(sql, [&](const auto&, const ResultsDb::Row& r) { v = std::stoll(r.values[0]); });
  return v;
}

const std::string kFpA = "000102030405060708090a0b0c0d0e0f";
const std::string kFpB = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

// Replays in order: two captures, two configurations, a rerun of some frames with new values, a
// configuration name rerun with another parameter set (replaces the earlier run).
std::vector<std::vector<Write>> jobs() {
  const Params p16 = {{"l1tex.size", "16384"}, {"gpu.shader_cores", "4"}};
  const Params p32 = {{"l1tex.size", "32768"}, {"gpu.shader_cores", "4"}};
  return {
      {{kFpA, "a.tcap", "mobile4", p16, {{3, 10}, {4, 20}}}, {kFpA, "a.tcap", "mobile4+x", p32, {{3, 11}, {4, 21}}}},
      {{kFpB, "b.tcap", "mobile4", p16, {{1, 30}}}},
      {{kFpA, "a.tcap", "mobile4", p16, {{4, 25}, {5, 35}}}},             // frame 4 again, frame 5 new
      {{kFpA, "renamed-a.tcap", "mobile4+x", p16, {{3, 40}}}},            // other parameters: replaces
  };
}

TEST(ResultsMerge, EqualsReplayWritingDirectly) {
  TempPath direct_path("direct.db");
  auto direct = ResultsDb::open(direct_path.str());
  auto merged = ResultsDb::open(direct_path.sibling("merged.db"));
  int n = 0;
  for (const auto& job : jobs()) {
    const std::string job_path = direct_path.sibling("job" + std::to_string(n++) + ".db");
    {
      auto j = ResultsDb::open(job_path);
      for (const Write& w : job) {
        replay_into(*direct, w);
        replay_into(*j, w);
      }
    }
    merge_database(*merged, job_path, "all");
    EXPECT_EQ(dump(*merged), dump(*direct)) << "after job " << n;
  }
  // The exact outcome: a.tcap renamed, frame 4 of mobile4 rewritten, mobile4+x replaced by the
  // 16 KiB run holding frame 3 only.
  EXPECT_EQ(scalar(*merged, "SELECT count(*) FROM capture WHERE name = 'renamed-a.tcap'"), 1);
  EXPECT_EQ(scalar(*merged, "SELECT value FROM frame_metrics WHERE capture = 'renamed-a.tcap' AND frame = 4 "
                            "AND config = 'mobile4' AND metric = 'cycles'"), 25);
  EXPECT_EQ(scalar(*merged, "SELECT count(*) FROM frame_metrics WHERE config = 'mobile4+x' AND metric = 'cycles'"), 1);
  EXPECT_EQ(scalar(*merged, "SELECT count(*) FROM run"), 3);
  EXPECT_EQ(scalar(*merged, "SELECT count(*) FROM frame_metric"), 2 * (3 + 1 + 1));
  EXPECT_EQ(scalar(*merged, "SELECT count(*) FROM tile_metrics"), 2 * (3 + 1 + 1));
}

TEST(ResultsMerge, MarksEachRunWithItsFramesAndForgetsReplacedRuns) {
  TempPath out_path("out.db");
  auto out = ResultsDb::open(out_path.str());
  const auto all = jobs();
  for (size_t i = 0; i < 2; ++i) {
    const std::string job_path = out_path.sibling("job" + std::to_string(i) + ".db");
    {
      auto j = ResultsDb::open(job_path);
      for (const Write& w : all[i]) replay_into(*j, w);
    }
    merge_database(*out, job_path, i == 0 ? "3-4" : "all");
  }
  const std::set<MergedRun> expect = {
      {kFpA, "mobile4", params_hash(all[0][0].params), "3-4"},
      {kFpA, "mobile4+x", params_hash(all[0][1].params), "3-4"},
      {kFpB, "mobile4", params_hash(all[1][0].params), "all"},
  };
  EXPECT_EQ(merged_runs(*out), expect);
  // A replay under the name mobile4+x with other parameters deletes that run, and its marker.
  replay_into(*out, all[3][0]);
  std::set<MergedRun> after = expect;
  after.erase({kFpA, "mobile4+x", params_hash(all[0][1].params), "3-4"});
  EXPECT_EQ(merged_runs(*out), after);
}

TEST(ResultsMerge, TheSameJobTwiceChangesNothing) {
  TempPath out_path("out.db");
  auto out = ResultsDb::open(out_path.str());
  const std::string job_path = out_path.sibling("job.db");
  const auto all = jobs();
  {
    auto j = ResultsDb::open(job_path);
    for (const Write& w : all[0]) replay_into(*j, w);
  }
  merge_database(*out, job_path, "all");
  const auto once = dump(*out);
  merge_database(*out, job_path, "all");
  EXPECT_EQ(dump(*out), once);
  EXPECT_EQ(scalar(*out, "SELECT count(*) FROM sweep_run"), 2);
}

// A job written by another tool may hold a grid twice, or one nothing refers to: the merge
// stores each grid it needs once and nothing else.
TEST(ResultsMerge, StoresEachReferencedGridOnce) {
  TempPath out_path("out.db");
  auto out = ResultsDb::open(out_path.str());
  const std::string job_path = out_path.sibling("job.db");
  {
    auto j = ResultsDb::open(job_path);
    replay_into(*j, jobs()[1][0]);
    // A second copy of its quads grid, which a second metric refers to, and a grid of nobody's.
    j->query("INSERT INTO tile_grid_data (hash, tiles_x, grid) SELECT hash, tiles_x, grid FROM tile_grid_data;"
             "INSERT INTO metric (name) VALUES ('quads.copy');"
             "INSERT INTO tile_grid SELECT run_id, frame_id, (SELECT metric_id FROM metric WHERE name = 'quads.copy'), "
             "  (SELECT max(grid_id) FROM tile_grid_data) FROM tile_grid;"
             "INSERT INTO tile_grid_data (hash, tiles_x, grid) VALUES (1, 1, '[7]')",
             [](const auto&, const auto&) {});
    ASSERT_EQ(scalar(*j, "SELECT count(*) FROM tile_grid_data"), 3);
  }
  merge_database(*out, job_path, "all");
  EXPECT_EQ(scalar(*out, "SELECT count(*) FROM tile_grid_data"), 1);
  EXPECT_EQ(scalar(*out, "SELECT count(*) FROM tile_metrics"), 4);  // two metrics of two tiles
}

TEST(ResultsMerge, AFailedMergeLeavesTheDatabaseAsItWas) {
  TempPath out_path("out.db");
  auto out = ResultsDb::open(out_path.str());
  const auto all = jobs();
  const std::string good = out_path.sibling("good.db"), broken = out_path.sibling("broken.db");
  {
    auto j = ResultsDb::open(good);
    replay_into(*j, all[1][0]);
  }
  merge_database(*out, good, "all");
  const auto before = dump(*out);
  {
    // Capture, frames, configurations and runs would merge; the core rows cannot.
    auto j = ResultsDb::open(broken);
    for (const Write& w : all[0]) replay_into(*j, w);
    j->query("DROP TABLE core_metric", [](const auto&, const auto&) {});
  }
  try {
    merge_database(*out, broken, "all");
    FAIL() << "merged a job database without core_metric";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("cannot merge " + broken + " into " + out_path.str() + ": ", 0), 0u) << what;
    EXPECT_NE(what.find("core_metric"), std::string::npos) << what;
  }
  EXPECT_EQ(dump(*out), before);
  EXPECT_EQ(scalar(*out, "SELECT count(*) FROM sweep_run"), 1);
  // Nothing of the failed merge stays attached or half-built: the next merge goes through.
  merge_database(*out, good, "all");
  EXPECT_EQ(dump(*out), before);
}

TEST(ResultsMerge, RefusesWhatIsNotAResultsDatabase) {
  TempPath out_path("out.db");
  auto out = ResultsDb::open(out_path.str());
  const std::string missing = out_path.sibling("missing.db");
  try {
    merge_database(*out, missing, "all");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot merge " + missing + ": cannot open results database", 0), 0u) << e.what();
  }
  const std::string empty = out_path.sibling("empty.db");
  testing::write_file(empty, {});
  try {
    merge_database(*out, empty, "all");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot merge " + empty + ": holds no results (schema version 0)");
  }
  EXPECT_EQ(scalar(*out, "SELECT count(*) FROM run"), 0);
}

}  // namespace
}  // namespace tessera::results
