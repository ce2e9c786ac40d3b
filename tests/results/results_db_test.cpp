#include <gtest/gtest.h>
#include <sqlite3.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>
#include <fstream>

#include "results_db.h"
#include "test_util.h"

namespace tessera::results {
namespace {

using testing::TempPath;

int64_t scalar(ResultsDb& db, const std::string& sql) {
  int64_t v = -1;
  db.query(sql, [&](auto&, const ResultsDb::Row& r) { v = std::stoll(r.values[0]); });
  return v;
}

// Writes one run of `config` on a two-frame capture with the given metric values.
void write_run(ResultsDb& db, const std::string& config, double cycles, bool with_hits) {
  db.begin();
  const int64_t cap = db.put_capture({"00112233445566778899aabbccddeeff", "vkcube.tcap", "vkcube", "llvmpipe", 2, 1000});
  const int64_t cfg = db.put_config(config, {{"l1tex.size", "16384"}, {"cores", "4"}});
  const int64_t run = db.put_run(cap, cfg);
  for (uint32_t present : {10u, 11u}) {
    const int64_t frame = db.put_frame(cap, present, 1280, 720);
    db.clear_frame(run, frame);
    db.put_frame_metric(run, frame, "cycles", cycles + present);
    if (with_hits) db.put_frame_metric(run, frame, "l1tex.hits", 7);
    db.put_core_metric(run, frame, 0, "quads", 3);
    db.put_tile_grid(run, frame, "quads", {2, {std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt, 5}});
  }
  db.commit();
}

TEST(ResultsDb, MigratesAnEmptyFileToTheLatestSchema) {
  TempPath path("r.db");
  auto db = ResultsDb::open(path.str());
  EXPECT_EQ(db->schema_version(), latest_schema_version());
  EXPECT_GE(latest_schema_version(), 1);
  EXPECT_EQ(scalar(*db, "PRAGMA user_version"), latest_schema_version());
  EXPECT_EQ(scalar(*db, "PRAGMA application_id"), kApplicationId);
  int64_t views = scalar(*db, "SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name = 'frame_metrics'");
  EXPECT_EQ(views, 1);
  std::string mode;
  db->query("PRAGMA journal_mode", [&](auto&, const ResultsDb::Row& r) { mode = r.values[0]; });
  EXPECT_EQ(mode, "wal");
  // Reopening runs nothing again.
  db.reset();
  auto again = ResultsDb::open(path.str());
  EXPECT_EQ(again->schema_version(), latest_schema_version());
}

TEST(ResultsDb, MigrationsAreNumberedWithoutGaps) {
  const auto& all = migrations();
  for (size_t i = 0; i < all.size(); ++i) {
    char expect[32];
    std::snprintf(expect, sizeof expect, "%03zu_", i + 1);
    EXPECT_EQ(std::string(all[i].name).rfind(expect, 0), 0u) << all[i].name;
  }
}

TEST(ResultsDb, RefusesAFutureSchemaVersion) {
  TempPath path("f.db");
  {
    auto db = ResultsDb::open(path.str());
    db->query("PRAGMA user_version = 99", [](auto&, auto&) {});
  }
  try {
    ResultsDb::open(path.str());
    FAIL() << "opened a database from the future";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path.str() + ": results database schema version 99 is newer than this build (" +
                                         std::to_string(latest_schema_version()) + "); use a newer tessera");
  }
  EXPECT_THROW(ResultsDb::open(path.str(), ResultsDb::Mode::kReadOnly), Error);
}

TEST(ResultsDb, RefusesSomeoneElsesDatabase) {
  TempPath path("other.db");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.str().c_str(), &raw), SQLITE_OK);
  sqlite3_exec(raw, "CREATE TABLE t (x); PRAGMA application_id = 1234;", nullptr, nullptr, nullptr);
  sqlite3_close(raw);
  try {
    ResultsDb::open(path.str());
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a Tessera results database"), std::string::npos) << e.what();
  }
  // A file that is not SQLite at all.
  TempPath text("text.db");
  std::ofstream(text.str()) << "this is not a database, not even close, and long enough to have a header\n";
  EXPECT_THROW(ResultsDb::open(text.str()), Error);
}

TEST(ResultsDb, RerunReplacesRowsInsteadOfDuplicating) {
  TempPath path("rr.db");
  auto db = ResultsDb::open(path.str());
  write_run(*db, "mobile4", 1000, true);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM frame_metrics"), 4);
  write_run(*db, "mobile4", 2000, false);  // same capture, frames and config
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM run"), 1);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM frame"), 2);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM config"), 1);
  // The rerun wrote no l1tex.hits: the old ones must be gone, not left stale.
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM frame_metrics"), 2);
  EXPECT_EQ(scalar(*db, "SELECT value FROM frame_metrics WHERE frame = 11 AND metric = 'cycles'"), 2011);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM core_metrics"), 2);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_metrics WHERE tile_x = 1 AND tile_y = 2"), 2);
  // Another configuration is another run beside it.
  write_run(*db, "mobile32", 3000, true);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM run"), 2);
  EXPECT_EQ(scalar(*db, "SELECT count(DISTINCT config) FROM frame_metrics"), 2);
}

TEST(TileGrid, EncodesExactlyAndReadsBack) {
  const std::vector<std::optional<double>> values = {320.0, std::nullopt, 0.1, 1.0 / 3.0, -5.0, 1e300, 0.1 + 0.2,
                                                     std::ldexp(1.0, 60), 0.0, 12345.5};
  const std::string text = encode_tile_grid({5, values});
  // Counts as integers, the rest in their shortest exact form.
  EXPECT_EQ(text.substr(0, 24), "[320,null,0.1,0.33333333");
  EXPECT_NE(text.find(",-5,1e+300,0.30000000000000004,"), std::string::npos) << text;
  const auto back = decode_tile_grid(text);
  ASSERT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(back[i].has_value(), values[i].has_value()) << i;
    if (values[i]) {
      EXPECT_EQ(std::bit_cast<uint64_t>(*back[i]), std::bit_cast<uint64_t>(*values[i])) << i;  // bit for bit
    }
  }
  // Infinities (version 2's REAL column held them) as numbers beyond a double, which read back
  // as infinities; negative zero as 0, as SQLite's JSON functions read it.
  const std::string inf = encode_tile_grid({3, {HUGE_VAL, -HUGE_VAL, -0.0}});
  EXPECT_EQ(inf, "[9e999,-9e999,0]");
  const auto inf_back = decode_tile_grid(inf);
  EXPECT_EQ(*inf_back[0], HUGE_VAL);
  EXPECT_EQ(*inf_back[1], -HUGE_VAL);
  EXPECT_EQ(*decode_tile_grid("[1e-999]")[0], 0.0);  // underflow: zero
  // By magnitude, not by the exponent's sign: 400 digits are huge, 1 after 400 zeros tiny.
  EXPECT_EQ(*decode_tile_grid("[" + std::string(400, '9') + "]")[0], HUGE_VAL);
  EXPECT_EQ(*decode_tile_grid("[1" + std::string(400, '0') + "e-5]")[0], HUGE_VAL);
  EXPECT_EQ(*decode_tile_grid("[0." + std::string(400, '0') + "1e+5]")[0], 0.0);
  EXPECT_EQ(decode_tile_grid(" [ 1 , null,2.5 ] ").size(), 3u);
  EXPECT_TRUE(decode_tile_grid("[]").empty());
  EXPECT_THROW(encode_tile_grid({2, {1.0, std::nan("")}}), Error);
  EXPECT_THROW(encode_tile_grid({2, {1.0, 2.0, 3.0}}), Error);  // not whole rows
  EXPECT_THROW(encode_tile_grid({0, {}}), Error);
  // Only JSON: what from_chars alone would take is refused, and nothing may follow the array.
  for (const char* bad : {"", "[1,", "[1 2]", "[1,x]", "[1]]", "{}", "[]x", "[ ] junk", "[nan]", "[inf]", "[01]",
                          "[1.]", "[.5]", "[+1]", "[1e]", "[-]"}) {
    EXPECT_THROW(decode_tile_grid(bad), Error) << bad;
  }
  EXPECT_EQ(decode_tile_grid("[-0.5e+2,0,10E-1]"), (std::vector<std::optional<double>>{-50.0, 0.0, 1.0}));
}

TEST(ResultsDb, TileGridsAreStoredOnceAndReleasedWithTheirLastReference) {
  TempPath path("g.db");
  auto db = ResultsDb::open(path.str());
  db->begin();
  const int64_t cap = db->put_capture({"00112233445566778899aabbccddeeff", "a.tcap", "", "", 1, 1});
  const int64_t frame = db->put_frame(cap, 1, 32, 16);
  const int64_t run_a = db->put_run(cap, db->put_config("mobile4", {{"x", "1"}}));
  const int64_t run_b = db->put_run(cap, db->put_config("mobile4+y", {{"x", "2"}}));
  const TileGrid quads{2, {1.0, 2.0, std::nullopt, 4.0}};
  db->put_tile_grid(run_a, frame, "quads", quads);
  db->put_tile_grid(run_b, frame, "quads", quads);
  db->put_tile_grid(run_a, frame, "cycles", {2, {10.0, 20.0, 30.0, 40.0}});
  db->put_tile_grid(run_b, frame, "cycles", {2, {10.0, 20.0, 30.0, 41.0}});
  db->commit();
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid"), 4);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data"), 3);  // the quads grid once
  // The view: a row per tile with a value, at its position.
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_metrics WHERE metric = 'quads'"), 6);
  EXPECT_EQ(scalar(*db, "SELECT value FROM tile_metrics WHERE config = 'mobile4+y' AND metric = 'cycles' "
                        "AND tile_x = 1 AND tile_y = 1"),
            41);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_metrics WHERE tile_x = 0 AND tile_y = 1 AND metric = 'quads'"), 0);
  EXPECT_EQ(scalar(*db, "SELECT typeof(value) = 'real' FROM tile_metrics LIMIT 1"), 1);
  // Replacing a grid releases the old one; clearing one run's frame keeps the shared grid.
  db->begin();
  db->put_tile_grid(run_b, frame, "cycles", {2, {10.0, 20.0, 30.0, 40.0}});
  db->commit();
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data"), 2);
  db->begin();
  db->clear_frame(run_a, frame);
  db->commit();
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data"), 2);
  // Deleting the last run (ON DELETE CASCADE) takes its grids with it.
  db->query("DELETE FROM run WHERE run_id = " + std::to_string(run_b), [](auto&, auto&) {});
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid"), 0);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data"), 0);
}

// A version 2 database (a row per tile, the schema before 003): frame 7 has a 3x2 extent with
// cores.deviation only where cores were busy, frame 8 one tile, with an infinite cycles.
void write_version2(const std::string& path) {
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  std::string sql;
  for (size_t i = 0; i < 2; ++i) sql += migrations()[i].sql;
  sql += "PRAGMA application_id = " + std::to_string(kApplicationId) + "; PRAGMA user_version = 2;"
         "INSERT INTO capture VALUES (1, '00112233445566778899aabbccddeeff', 'a.tcap', NULL, NULL, 2, 9);"
         "INSERT INTO frame VALUES (1, 1, 7, 48, 32), (2, 1, 8, 48, 32);"
         "INSERT INTO config VALUES (1, 'mobile4', 'h');"
         "INSERT INTO run VALUES (1, 1, 1, 'v', 't');"
         "INSERT INTO metric VALUES (1, 'quads'), (2, 'cores.deviation'), (3, 'cycles');"
         "INSERT INTO tile_metric VALUES (1, 1, 0, 0, 1, 5), (1, 1, 2, 1, 1, 7), (1, 1, 1, 0, 1, 0),"
         "  (1, 1, 0, 0, 2, 0.1 + 0.2), (1, 1, 2, 1, 2, 1.0 / 3), (1, 2, 0, 0, 1, 3), (1, 2, 0, 0, 3, 9e999),"
         // A row of a run deleted with foreign keys off (the sqlite3 shell's default): the view
         // never showed it.
         "  (99, 1, 0, 0, 1, 4);";
  ASSERT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(raw);
  sqlite3_close(raw);
}

// ... is converted on open, value for value.
TEST(ResultsDb, MigratesTileRowsToGridsExactly) {
  TempPath path("v2.db");
  write_version2(path.str());
  auto db = ResultsDb::open(path.str());
  EXPECT_EQ(db->schema_version(), latest_schema_version());
  // Every row as it was, compared as doubles (exact), and no other row.
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_metrics"), 7);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_metrics WHERE (frame, tile_x, tile_y, metric, value) IN (VALUES "
                        "(7, 0, 0, 'cores.deviation', 0.1 + 0.2), (7, 0, 0, 'quads', 5), (7, 1, 0, 'quads', 0), "
                        "(7, 2, 1, 'cores.deviation', 1.0 / 3), (7, 2, 1, 'quads', 7), (8, 0, 0, 'quads', 3), "
                        "(8, 0, 0, 'cycles', 9e999))"),
            7);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid WHERE run_id = 99"), 0);  // the orphan is not carried
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM sqlite_schema WHERE name = 'tile_metric'"), 0);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data WHERE tiles_x = 3"), 2);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM tile_grid_data WHERE tiles_x = 1 AND grid = '[3]'"), 1);
}

TEST(ResultsDb, ConfigurationIsItsFullParameterSet) {
  TempPath path("c.db");
  auto db = ResultsDb::open(path.str());
  db->begin();
  const int64_t a = db->put_config("mobile4", {{"a", "1"}, {"b", "2"}});
  const int64_t b = db->put_config("mobile4", {{"b", "2"}, {"a", "1"}});  // order does not matter
  const int64_t c = db->put_config("mobile4", {{"a", "1"}, {"b", "3"}});  // a changed default
  db->commit();
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM config_param WHERE config_id = " + std::to_string(a)), 2);
}

TEST(ResultsDb, RollbackLeavesNothingBehind) {
  TempPath path("rb.db");
  auto db = ResultsDb::open(path.str());
  db->begin();
  db->put_capture({"ff", "x.tcap", "", "", 1, 1});
  db->rollback();
  EXPECT_EQ(scalar(*db, "SELECT count(*) FROM capture"), 0);
}

// The CLI over a database written by the library: `tessera query` prints an aligned table,
// CSV with --csv, and a one-line error with a non-zero exit on bad SQL or a missing file.
std::string sh(const std::string& arg) {  // one shell word
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string run_cli(const std::string& args, int* status) {
  const std::string cmd = std::string(TESSERA_CLI) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = pclose(p);
  return out;
}

TEST(TesseraQuery, TableCsvAndErrors) {
  TempPath path("cli.db");
  {
    auto db = ResultsDb::open(path.str());
    write_run(*db, "mobile4", 1000, true);
  }
  int status = 0;
  const std::string sql = "SELECT frame, metric, value FROM frame_metrics WHERE config = 'mobile4' ORDER BY frame, metric";
  EXPECT_EQ(run_cli("query " + sh(path.str()) + " " + sh(sql), &status),
            "frame  metric      value \n"
            "-----  ----------  ------\n"
            "   10  cycles      1010.0\n"
            "   10  l1tex.hits     7.0\n"
            "   11  cycles      1011.0\n"
            "   11  l1tex.hits     7.0\n"
            "(4 rows)\n");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(run_cli("query --csv " + sh(path.str()) + " " + sh("SELECT 'a,b' AS x, 'say \"hi\"' AS y"), &status),
            "x,y\n\"a,b\",\"say \"\"hi\"\"\"\n");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(run_cli("query " + sh(path.str()) + " " + sh("SELECT nope"), &status),
            "tessera query: " + path.str() + ": SQL error: no such column: nope\n");
  EXPECT_NE(status, 0);
  const std::string missing = path.str() + ".missing";
  EXPECT_NE(run_cli("query " + sh(missing) + " " + sh("SELECT 1"), &status).find(missing + ": cannot open results database"),
            std::string::npos);
  EXPECT_NE(status, 0);
}

TEST(TesseraMigrate, ReadersRefuseAnOlderSchemaAndMigrateBringsItUpToDate) {
  TempPath path("old.db");
  write_version2(path.str());
  int status = 0;
  const std::string sql = sh("SELECT count(*) FROM tile_metrics");
  const std::string v = std::to_string(latest_schema_version());
  EXPECT_EQ(run_cli("query " + sh(path.str()) + " " + sql, &status),
            "tessera query: " + path.str() + ": results database schema version 2 is older than this build's " + v +
                "; bring it up to date with: tessera migrate " + path.str() + "\n");
  EXPECT_NE(status, 0);
  EXPECT_EQ(run_cli("migrate " + sh(path.str()), &status).rfind(path.str() + ": schema version 2 -> " + v + ", ", 0), 0u);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(run_cli("query --csv " + sh(path.str()) + " " + sql, &status), "count(*)\n7\n");
  EXPECT_EQ(status, 0);
  EXPECT_EQ(run_cli("migrate " + sh(path.str()), &status), path.str() + ": schema version " + v + ", up to date\n");
  const std::string missing = path.str() + ".missing";
  EXPECT_EQ(run_cli("migrate " + sh(missing), &status), "tessera migrate: " + missing + ": no such results database\n");
  EXPECT_NE(status, 0);
  EXPECT_FALSE(std::filesystem::exists(missing));
}

TEST(TesseraSchemes, ListsPresetsAndPrintsAFullParameterSet) {
  int status = 0;
  const std::string list = run_cli("schemes", &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(list.find("  mobile4 "), std::string::npos);
  EXPECT_NE(list.find("  mobile32 "), std::string::npos);
  EXPECT_NE(list.find("  l1tex.size "), std::string::npos);
  // mobile32 (docs/model.md, "Presets"): 32 fragment processors, 2-cycle 16 KiB texture caches.
  const std::string set = run_cli("schemes --preset mobile32 --set l1tex.size=32768", &status);
  EXPECT_EQ(status, 0);
  EXPECT_NE(set.find("\ngpu.shader_cores=32\n"), std::string::npos) << set;
  EXPECT_NE(set.find("\nl1tex.latency=2\n"), std::string::npos) << set;
  EXPECT_NE(set.find("\nl1tex.size=32768\n"), std::string::npos) << set;
  EXPECT_EQ(run_cli("schemes --preset mobile4 --set l1tex.sise=3", &status),
            "tessera schemes: unknown parameter 'l1tex.sise' (did you mean 'l1tex.size'?)\n");
  EXPECT_NE(status, 0);
}

TEST(ResultsDb, BadSqlIsOneLineNamingTheDatabase) {
  TempPath path("q.db");
  auto db = ResultsDb::open(path.str());
  try {
    db->query("SELECT nope FROM frame_metrics", [](auto&, auto&) {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), path.str() + ": SQL error: no such column: nope");
  }
}

}  // namespace
}  // namespace tessera::results

