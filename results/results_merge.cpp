#include "results_merge.h"

#include <cstdint>
#include <string>

namespace tessera::results {
namespace {

std::string sql_literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

void exec(ResultsDb& db, const std::string& sql) {
  db.query(sql, [](const auto&, const auto&) {});
}

int64_t scalar(ResultsDb& db, const std::string& sql) {
  int64_t value = 0;
  db.query(sql, [&](const auto&, const ResultsDb::Row& r) { value = std::stoll(r.values[0]); });
  return value;
}

// The statements of one merge, in order; `job` is the attached job database. The temp tables map
// the job's ids onto `main`'s: captures by fingerprint, frames by (capture, present),
// configurations by (name, params_hash), metrics by name.
const char* const kMergeSql = R"sql(
INSERT INTO main.capture (fingerprint, name, application, device, frame_count, file_bytes)
  SELECT fingerprint, name, application, device, frame_count, file_bytes FROM job.capture WHERE true
  ON CONFLICT (fingerprint) DO UPDATE SET name = excluded.name, application = excluded.application,
    device = excluded.device, frame_count = excluded.frame_count, file_bytes = excluded.file_bytes;

INSERT INTO main.frame (capture_id, present, width, height)
  SELECT mc.capture_id, f.present, f.width, f.height
  FROM job.frame f
  JOIN job.capture jc ON jc.capture_id = f.capture_id
  JOIN main.capture mc ON mc.fingerprint = jc.fingerprint WHERE true
  ON CONFLICT (capture_id, present) DO UPDATE SET width = excluded.width, height = excluded.height;

-- A configuration's parameters go in with it; an existing (name, params_hash) has the same ones.
INSERT INTO main.config (name, params_hash) SELECT name, params_hash FROM job.config WHERE true
  ON CONFLICT (name, params_hash) DO NOTHING;
INSERT OR IGNORE INTO main.config_param (config_id, key, value)
  SELECT mg.config_id, p.key, p.value
  FROM job.config_param p
  JOIN job.config jg ON jg.config_id = p.config_id
  JOIN main.config mg ON mg.name = jg.name AND mg.params_hash = jg.params_hash;

INSERT INTO main.metric (name) SELECT name FROM job.metric WHERE true ON CONFLICT (name) DO NOTHING;

CREATE TEMP TABLE merge_run AS
  SELECT jr.run_id AS job_run, mc.capture_id, mg.config_id, mg.name AS config_name,
         jr.tessera_version, jr.updated_at, NULL AS run_id
  FROM job.run jr
  JOIN job.capture jc ON jc.capture_id = jr.capture_id
  JOIN main.capture mc ON mc.fingerprint = jc.fingerprint
  JOIN job.config jg ON jg.config_id = jr.config_id
  JOIN main.config mg ON mg.name = jg.name AND mg.params_hash = jg.params_hash;
CREATE TEMP TABLE merge_frame AS
  SELECT jf.frame_id AS job_frame, mf.frame_id
  FROM job.frame jf
  JOIN job.capture jc ON jc.capture_id = jf.capture_id
  JOIN main.capture mc ON mc.fingerprint = jc.fingerprint
  JOIN main.frame mf ON mf.capture_id = mc.capture_id AND mf.present = jf.present;

-- As replay's replace_runs_named: a run of the capture under the same name with another
-- parameter set is replaced (its rows and markers go with it, ON DELETE CASCADE).
DELETE FROM main.run WHERE run_id IN (
  SELECT r.run_id FROM main.run r
  JOIN main.config g ON g.config_id = r.config_id
  JOIN temp.merge_run m ON m.capture_id = r.capture_id AND m.config_name = g.name
  WHERE r.config_id != m.config_id);
INSERT INTO main.run (capture_id, config_id, tessera_version, updated_at)
  SELECT capture_id, config_id, tessera_version, updated_at FROM temp.merge_run WHERE true
  ON CONFLICT (capture_id, config_id) DO UPDATE SET tessera_version = excluded.tessera_version,
    updated_at = excluded.updated_at;
UPDATE temp.merge_run SET run_id = (SELECT r.run_id FROM main.run r
  WHERE r.capture_id = merge_run.capture_id AND r.config_id = merge_run.config_id);

-- As replay's clear_frame: every (run, frame) the job wrote loses its earlier rows first.
CREATE TEMP TABLE merge_cell AS
  SELECT DISTINCT r.run_id, f.frame_id
  FROM (SELECT run_id, frame_id FROM job.frame_metric UNION SELECT run_id, frame_id FROM job.tile_grid
        UNION SELECT run_id, frame_id FROM job.core_metric) x
  JOIN temp.merge_run r ON r.job_run = x.run_id
  JOIN temp.merge_frame f ON f.job_frame = x.frame_id;
DELETE FROM main.frame_metric WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell);
DELETE FROM main.tile_grid WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell);
DELETE FROM main.core_metric WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell);

INSERT INTO main.frame_metric (run_id, frame_id, metric_id, value)
  SELECT r.run_id, f.frame_id, mm.metric_id, v.value
  FROM job.frame_metric v
  JOIN temp.merge_run r ON r.job_run = v.run_id
  JOIN temp.merge_frame f ON f.job_frame = v.frame_id
  JOIN job.metric jm ON jm.metric_id = v.metric_id
  JOIN main.metric mm ON mm.name = jm.name;
-- Grids by content, as ResultsDb::put_tile_grid: a grid main already holds is shared, not copied.
-- Only grids the job refers to, and each content once (a job written by another tool may hold
-- a grid twice, or one nothing refers to).
CREATE TEMP TABLE merge_grid AS
  SELECT j.grid_id AS job_grid,
         (SELECT m.grid_id FROM main.tile_grid_data m
          WHERE m.hash = j.hash AND m.tiles_x = j.tiles_x AND m.grid = j.grid) AS grid_id
  FROM job.tile_grid_data j WHERE j.grid_id IN (SELECT grid_id FROM job.tile_grid);
INSERT INTO main.tile_grid_data (hash, tiles_x, grid)
  SELECT DISTINCT j.hash, j.tiles_x, j.grid FROM job.tile_grid_data j
  JOIN temp.merge_grid g ON g.job_grid = j.grid_id WHERE g.grid_id IS NULL;
UPDATE temp.merge_grid SET grid_id = (SELECT m.grid_id FROM main.tile_grid_data m JOIN job.tile_grid_data j
  ON m.hash = j.hash AND m.tiles_x = j.tiles_x AND m.grid = j.grid WHERE j.grid_id = merge_grid.job_grid)
  WHERE grid_id IS NULL;
INSERT INTO main.tile_grid (run_id, frame_id, metric_id, grid_id)
  SELECT r.run_id, f.frame_id, mm.metric_id, g.grid_id
  FROM job.tile_grid v
  JOIN temp.merge_run r ON r.job_run = v.run_id
  JOIN temp.merge_frame f ON f.job_frame = v.frame_id
  JOIN temp.merge_grid g ON g.job_grid = v.grid_id
  JOIN job.metric jm ON jm.metric_id = v.metric_id
  JOIN main.metric mm ON mm.name = jm.name;
INSERT INTO main.core_metric (run_id, frame_id, core, metric_id, value)
  SELECT r.run_id, f.frame_id, v.core, mm.metric_id, v.value
  FROM job.core_metric v
  JOIN temp.merge_run r ON r.job_run = v.run_id
  JOIN temp.merge_frame f ON f.job_frame = v.frame_id
  JOIN job.metric jm ON jm.metric_id = v.metric_id
  JOIN main.metric mm ON mm.name = jm.name;
)sql";

// Every row of the job must have landed: a join that found no partner would drop rows silently.
const char* const kCountSql = R"sql(
SELECT (SELECT count(*) FROM job.run) - (SELECT count(*) FROM temp.merge_run WHERE run_id IS NOT NULL)
     + (SELECT count(*) FROM job.frame_metric)
     - (SELECT count(*) FROM main.frame_metric WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell))
     + (SELECT count(*) FROM job.tile_grid)
     - (SELECT count(*) FROM main.tile_grid WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell))
     + (SELECT count(*) FROM job.core_metric)
     - (SELECT count(*) FROM main.core_metric WHERE (run_id, frame_id) IN (SELECT run_id, frame_id FROM temp.merge_cell))
)sql";

const char* const kDropTempSql =
    "DROP TABLE IF EXISTS temp.merge_run; DROP TABLE IF EXISTS temp.merge_frame; DROP TABLE IF EXISTS temp.merge_cell; "
    "DROP TABLE IF EXISTS temp.merge_grid;";

}  // namespace

void merge_database(ResultsDb& out, const std::string& job_path, const std::string& frames) {
  try {
    // Refuses what is not a Tessera results database, or one newer than this build; a job is
    // written by this build, so an older schema (e.g. version 2's tile rows) is a stale job.
    const int version = ResultsDb::open(job_path, ResultsDb::Mode::kReadOnly)->schema_version();
    if (version < 1) throw Error(job_path + ": holds no results (schema version 0)");
    if (version != latest_schema_version()) {
      throw Error(job_path + ": job database has schema version " + std::to_string(version) + ", this build writes " +
                  std::to_string(latest_schema_version()) + "; rerun the job");
    }
  } catch (const Error& e) {
    throw Error(std::string("cannot merge ") + e.what());
  }
  exec(out, "ATTACH DATABASE " + sql_literal(job_path) + " AS job");
  try {
    out.begin();
    exec(out, kDropTempSql);
    exec(out, kMergeSql);
    if (const int64_t lost = scalar(out, kCountSql); lost != 0) {
      throw Error(out.path() + ": " + std::to_string(lost) + " rows of the job would be lost; nothing merged");
    }
    exec(out, "INSERT OR REPLACE INTO main.sweep_run (run_id, frames, merged_at) SELECT run_id, " +
                  sql_literal(frames) + ", strftime('%Y-%m-%dT%H:%M:%SZ', 'now') FROM temp.merge_run");
    exec(out, kDropTempSql);
    out.commit();
  } catch (const Error& e) {
    out.rollback();
    try {
      exec(out, "DETACH DATABASE job");
    } catch (const Error&) {
      // The merge's own error is the one to report.
    }
    throw Error("cannot merge " + job_path + " into " + e.what());
  }
  exec(out, "DETACH DATABASE job");
}

std::set<MergedRun> merged_runs(ResultsDb& db) {
  std::set<MergedRun> runs;
  db.query(
      "SELECT c.fingerprint, g.name, g.params_hash, s.frames FROM sweep_run s "
      "JOIN run r ON r.run_id = s.run_id JOIN capture c ON c.capture_id = r.capture_id "
      "JOIN config g ON g.config_id = r.config_id",
      [&](const auto&, const ResultsDb::Row& r) { runs.emplace(r.values[0], r.values[1], r.values[2], r.values[3]); });
  return runs;
}

}  // namespace tessera::results
