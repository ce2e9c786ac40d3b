// The results database: SQLite, schema in schema/sqlite (numbered migrations embedded at build
// time). Follows what long-lived SQLite applications do: application_id and user_version set and
// checked, migrations in one loop, statements prepared once, writes inside transactions, WAL.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace tessera::results {

inline constexpr int32_t kApplicationId = 0x54535241;  // "TSRA"

// A migration: file name ("001_initial.sql") and its SQL. Version = position + 1.
struct Migration {
  const char* name;
  const char* sql;
};
const std::vector<Migration>& migrations();
int latest_schema_version();

// Every failure: one line naming the database file and the problem.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CaptureRow {
  std::string fingerprint;  // 32 hex digits
  std::string name;
  std::string application;
  std::string device;
  int64_t frame_count = 0;
  int64_t file_bytes = 0;
};

// One metric over a frame's tiles, row-major (index = tile_y * tiles_x + tile_x); a tile without a
// value (nullopt) has no row in the tile_metrics view. Stored as a JSON array (schema/sqlite/003).
struct TileGrid {
  uint32_t tiles_x = 0;
  std::vector<std::optional<double>> values;
};
// The stored text: integers as integers, other numbers in their shortest round-trip form, null
// for no value. Throws Error on a value JSON cannot hold (NaN, infinity) or an empty grid.
std::string encode_tile_grid(const TileGrid& grid);
// The inverse (any JSON array of numbers and nulls); throws Error naming the problem.
std::vector<std::optional<double>> decode_tile_grid(const std::string& text);

using Params = std::vector<std::pair<std::string, std::string>>;  // key=value, any order

// config.params_hash of a parameter set: XXH3-128 (hex) of its sorted "key=value\n" lines.
std::string params_hash(Params params);

class ResultsDb {
 public:
  enum class Mode { kReadWrite, kReadOnly };
  // kReadWrite creates the file if needed and brings its schema up to date; kReadOnly refuses a
  // missing file and queries whatever schema version (not newer than ours) it has.
  static std::unique_ptr<ResultsDb> open(const std::string& path, Mode mode = Mode::kReadWrite);
  ~ResultsDb();
  ResultsDb(const ResultsDb&) = delete;
  ResultsDb& operator=(const ResultsDb&) = delete;

  int schema_version() const { return schema_version_; }
  const std::string& path() const { return path_; }

  // One transaction per run (a rerun replaces its rows whole): begin(), put_*..., commit(). rollback() on error.
  void begin();
  void commit();
  void rollback();
  // Rewrites the file without the pages earlier rows left free (after a migration that dropped a
  // table); outside any transaction.
  // Also drops grids nothing refers to (left by writes from outside Tessera) and checkpoints the
  // write-ahead log, so the file's size is the database's.
  void vacuum() {
    exec("DELETE FROM tile_grid_data WHERE grid_id NOT IN (SELECT grid_id FROM tile_grid)");
    exec("VACUUM");
    exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }

  int64_t put_capture(const CaptureRow& row);  // inserted, or updated by fingerprint
  int64_t put_frame(int64_t capture_id, uint32_t present, uint32_t width, uint32_t height);
  // A configuration is its full parameter set: the same name and parameters give the same id.
  int64_t put_config(const std::string& name, Params params);
  // The run of config on capture, created or reused (its rows are replaced frame by frame).
  int64_t put_run(int64_t capture_id, int64_t config_id);
  // A configuration is keyed by its full parameter set but queries name it: deletes the runs of
  // `capture_id` under `config_name` with another parameter set than `config_id`, so a rerun
  // under the same name (an edited --config-file, a changed default) replaces the earlier run.
  void replace_runs_named(int64_t capture_id, const std::string& config_name, int64_t config_id);
  // Deletes every frame, tile and core row of (run, frame): a rerun leaves no stale metric.
  void clear_frame(int64_t run_id, int64_t frame_id);
  void put_frame_metric(int64_t run_id, int64_t frame_id, const std::string& metric, double value);
  // The grid of `metric` in (run, frame), stored once by content and shared with every other
  // (run, frame, metric) whose grid is the same.
  void put_tile_grid(int64_t run_id, int64_t frame_id, const std::string& metric, const TileGrid& grid);
  void put_core_metric(int64_t run_id, int64_t frame_id, uint32_t core, const std::string& metric, double value);

  // Runs any SQL; calls row(columns, values) per result row (NULL as an empty optional-like
  // string flagged in is_null). Throws Error with SQLite's message.
  struct Row {
    std::vector<std::string> values;
    std::vector<bool> is_null;
    std::vector<bool> is_number;
  };
  void query(const std::string& sql, const std::function<void(const std::vector<std::string>& columns, const Row&)>& row);

 private:
  explicit ResultsDb(std::string path) : path_(std::move(path)) {}
  void exec(const std::string& sql);
  sqlite3_stmt* prepare(const char* sql);
  int64_t step_returning_id(sqlite3_stmt* stmt, const char* what);
  [[noreturn]] void fail(const std::string& what) const;
  void check(int rc, const char* what) const;
  int64_t metric_id(const std::string& name);
  void migrate();
  void migrate_tile_grids();  // migration 3's conversion of tile_metric rows (schema/sqlite/003)
  int64_t put_grid_data(uint32_t tiles_x, const std::string& text);
  void put_tile_grid_row(int64_t run_id, int64_t frame_id, int64_t metric_id, int64_t grid_id);
  void check_identity();

  std::string path_;
  sqlite3* db_ = nullptr;
  int schema_version_ = 0;
  std::map<std::string, sqlite3_stmt*> statements_;  // prepared once, by SQL text
  std::map<std::string, int64_t> metric_ids_;
};

}  // namespace tessera::results
