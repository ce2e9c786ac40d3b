#include "results_db.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <tuple>

#include "tessera/capture/bytes.h"
#include "tessera/capture/hash.h"

#ifndef TESSERA_VERSION
#error "TESSERA_VERSION must be defined by the build"
#endif

namespace tessera::results {

int latest_schema_version() { return static_cast<int>(migrations().size()); }

std::unique_ptr<ResultsDb> ResultsDb::open(const std::string& path, Mode mode) {
  std::unique_ptr<ResultsDb> db(new ResultsDb(path));
  const int flags = mode == Mode::kReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (sqlite3_open_v2(path.c_str(), &db->db_, flags, nullptr) != SQLITE_OK) {
    const std::string msg = db->db_ ? sqlite3_errmsg(db->db_) : "out of memory";
    throw Error(path + ": cannot open results database: " + msg);
  }
  sqlite3_extended_result_codes(db->db_, 1);
  sqlite3_busy_timeout(db->db_, 5000);
  db->check_identity();
  if (mode == Mode::kReadWrite) {
    db->exec("PRAGMA journal_mode=WAL");
    db->exec("PRAGMA foreign_keys=ON");
    // tile_grid's release triggers (schema/sqlite/003) fire on the rows an INSERT OR REPLACE
    // removes only with recursive triggers on.
    db->exec("PRAGMA recursive_triggers=ON");
    db->migrate();
  }
  return db;
}

ResultsDb::~ResultsDb() {
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

void ResultsDb::fail(const std::string& what) const { throw Error(path_ + ": " + what); }

void ResultsDb::check(int rc, const char* what) const {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    fail(std::string(what) + ": " + sqlite3_errmsg(db_));
  }
}

void ResultsDb::exec(const std::string& sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    const std::string text = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    fail(text);
  }
}

void ResultsDb::check_identity() {
  int64_t app_id = 0, version = 0;
  query("PRAGMA application_id", [&](auto&, const Row& r) { app_id = std::stoll(r.values[0]); });
  query("PRAGMA user_version", [&](auto&, const Row& r) { version = std::stoll(r.values[0]); });
  int64_t objects = 0;
  query("SELECT count(*) FROM sqlite_schema", [&](auto&, const Row& r) { objects = std::stoll(r.values[0]); });
  if (app_id != kApplicationId && !(app_id == 0 && objects == 0)) {
    fail("not a Tessera results database (application_id " + std::to_string(app_id) + ")");
  }
  if (version > latest_schema_version()) {
    fail("results database schema version " + std::to_string(version) + " is newer than this build (" +
         std::to_string(latest_schema_version()) + "); use a newer tessera");
  }
  schema_version_ = static_cast<int>(version);
}

void ResultsDb::migrate() {
  const auto& all = migrations();
  for (int v = schema_version_ + 1; v <= latest_schema_version(); ++v) {
    // Each migration and its version bump commit together, or not at all.
    exec("BEGIN IMMEDIATE");
    try {
      exec(all[static_cast<size_t>(v - 1)].sql);
      if (v == 3) migrate_tile_grids();
      exec("PRAGMA application_id=" + std::to_string(kApplicationId));
      exec("PRAGMA user_version=" + std::to_string(v));
      exec("COMMIT");
    } catch (const Error& e) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      fail(std::string("migration ") + all[static_cast<size_t>(v - 1)].name + " failed: " + e.what());
    }
    schema_version_ = v;
  }
}

sqlite3_stmt* ResultsDb::prepare(const char* sql) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) {
    sqlite3_reset(it->second);
    sqlite3_clear_bindings(it->second);
    return it->second;
  }
  sqlite3_stmt* stmt = nullptr;
  check(sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr), "prepare");
  statements_.emplace(sql, stmt);
  return stmt;
}

int64_t ResultsDb::step_returning_id(sqlite3_stmt* stmt, const char* what) {
  // Every upsert here ends in RETURNING <id>: one row, one column.
  check(sqlite3_step(stmt), what);
  const int64_t id = sqlite3_column_int64(stmt, 0);
  sqlite3_reset(stmt);
  return id;
}

void ResultsDb::begin() { exec("BEGIN IMMEDIATE"); }
void ResultsDb::commit() { exec("COMMIT"); }
void ResultsDb::rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

namespace {

void bind_text(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

}  // namespace

int64_t ResultsDb::put_capture(const CaptureRow& row) {
  auto* s = prepare(
      "INSERT INTO capture (fingerprint, name, application, device, frame_count, file_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT (fingerprint) DO UPDATE SET name = ?2, application = ?3, device = ?4, frame_count = ?5, file_bytes = ?6 "
      "RETURNING capture_id");
  bind_text(s, 1, row.fingerprint);
  bind_text(s, 2, row.name);
  bind_text(s, 3, row.application);
  bind_text(s, 4, row.device);
  sqlite3_bind_int64(s, 5, row.frame_count);
  sqlite3_bind_int64(s, 6, row.file_bytes);
  return step_returning_id(s, "put capture");
}

int64_t ResultsDb::put_frame(int64_t capture_id, uint32_t present, uint32_t width, uint32_t height) {
  auto* s = prepare(
      "INSERT INTO frame (capture_id, present, width, height) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT (capture_id, present) DO UPDATE SET width = ?3, height = ?4 RETURNING frame_id");
  sqlite3_bind_int64(s, 1, capture_id);
  sqlite3_bind_int64(s, 2, present);
  sqlite3_bind_int64(s, 3, width);
  sqlite3_bind_int64(s, 4, height);
  return step_returning_id(s, "put frame");
}

std::string params_hash(Params params) {
  std::sort(params.begin(), params.end());
  std::string canonical;
  for (const auto& [k, v] : params) canonical += k + "=" + v + "\n";
  return capture::hash128(capture::as_bytes_view(canonical)).hex();
}

int64_t ResultsDb::put_config(const std::string& name, Params params) {
  const std::string hash = params_hash(params);
  auto* find = prepare("SELECT config_id FROM config WHERE name = ?1 AND params_hash = ?2");
  bind_text(find, 1, name);
  bind_text(find, 2, hash);
  if (sqlite3_step(find) == SQLITE_ROW) {
    const int64_t id = sqlite3_column_int64(find, 0);
    sqlite3_reset(find);
    return id;
  }
  sqlite3_reset(find);
  auto* ins = prepare("INSERT INTO config (name, params_hash) VALUES (?1, ?2) RETURNING config_id");
  bind_text(ins, 1, name);
  bind_text(ins, 2, hash);
  const int64_t id = step_returning_id(ins, "put config");
  auto* p = prepare("INSERT INTO config_param (config_id, key, value) VALUES (?1, ?2, ?3)");
  for (const auto& [k, v] : params) {
    sqlite3_reset(p);
    sqlite3_bind_int64(p, 1, id);
    bind_text(p, 2, k);
    bind_text(p, 3, v);
    check(sqlite3_step(p), "put config parameter");
  }
  sqlite3_reset(p);
  return id;
}

int64_t ResultsDb::put_run(int64_t capture_id, int64_t config_id) {
  char stamp[32];
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  auto* s = prepare(
      "INSERT INTO run (capture_id, config_id, tessera_version, updated_at) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT (capture_id, config_id) DO UPDATE SET tessera_version = ?3, updated_at = ?4 RETURNING run_id");
  sqlite3_bind_int64(s, 1, capture_id);
  sqlite3_bind_int64(s, 2, config_id);
  bind_text(s, 3, TESSERA_VERSION);
  bind_text(s, 4, stamp);
  return step_returning_id(s, "put run");
}

void ResultsDb::replace_runs_named(int64_t capture_id, const std::string& config_name, int64_t config_id) {
  auto* s = prepare(
      "DELETE FROM run WHERE capture_id = ?1 AND config_id != ?3 "
      "AND config_id IN (SELECT config_id FROM config WHERE name = ?2)");
  sqlite3_bind_int64(s, 1, capture_id);
  bind_text(s, 2, config_name);
  sqlite3_bind_int64(s, 3, config_id);
  check(sqlite3_step(s), "replace runs");
  sqlite3_reset(s);
}

void ResultsDb::clear_frame(int64_t run_id, int64_t frame_id) {
  for (const char* sql : {"DELETE FROM frame_metric WHERE run_id = ?1 AND frame_id = ?2",
                          "DELETE FROM tile_grid WHERE run_id = ?1 AND frame_id = ?2",
                          "DELETE FROM core_metric WHERE run_id = ?1 AND frame_id = ?2"}) {
    auto* s = prepare(sql);
    sqlite3_bind_int64(s, 1, run_id);
    sqlite3_bind_int64(s, 2, frame_id);
    check(sqlite3_step(s), "clear frame");
    sqlite3_reset(s);
  }
}

int64_t ResultsDb::metric_id(const std::string& name) {
  auto it = metric_ids_.find(name);
  if (it != metric_ids_.end()) return it->second;
  auto* s = prepare("INSERT INTO metric (name) VALUES (?1) ON CONFLICT (name) DO UPDATE SET name = name RETURNING metric_id");
  bind_text(s, 1, name);
  const int64_t id = step_returning_id(s, "put metric");
  metric_ids_.emplace(name, id);
  return id;
}

void ResultsDb::put_frame_metric(int64_t run_id, int64_t frame_id, const std::string& metric, double value) {
  const int64_t m = metric_id(metric);
  auto* s = prepare("INSERT OR REPLACE INTO frame_metric (run_id, frame_id, metric_id, value) VALUES (?1, ?2, ?3, ?4)");
  sqlite3_bind_int64(s, 1, run_id);
  sqlite3_bind_int64(s, 2, frame_id);
  sqlite3_bind_int64(s, 3, m);
  sqlite3_bind_double(s, 4, value);
  check(sqlite3_step(s), "put frame metric");
  sqlite3_reset(s);
}

std::string encode_tile_grid(const TileGrid& grid) {
  if (grid.tiles_x == 0 || grid.values.empty() || grid.values.size() % grid.tiles_x != 0) {
    throw Error("tile grid of " + std::to_string(grid.values.size()) + " values is not whole rows of " +
                std::to_string(grid.tiles_x) + " tiles");
  }
  std::string text;
  text.reserve(grid.values.size() * 6 + 2);
  text += '[';
  char buf[32];
  for (size_t i = 0; i < grid.values.size(); ++i) {
    if (i) text += ',';
    const auto& v = grid.values[i];
    if (!v) {
      text += "null";
      continue;
    }
    if (std::isnan(*v)) throw Error("tile " + std::to_string(i) + " of a tile grid is not a number (NaN)");
    if (std::isinf(*v)) {
      // JSON has no infinity; a number too large for a double reads as one, in SQLite's JSON
      // functions and in decode_tile_grid (version 2's REAL column held infinities).
      text += *v > 0 ? "9e999" : "-9e999";
      continue;
    }
    // Counts are most of the values: "320" rather than "320.0" (exact below 2^53). Negative zero
    // is written 0, as version 2's REAL column and SQLite's JSON functions read it.
    std::to_chars_result r;
    if (*v == std::trunc(*v) && std::fabs(*v) < 9007199254740992.0) {
      r = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(*v));
    } else {
      r = std::to_chars(buf, buf + sizeof buf, *v);  // shortest form that reads back exactly
    }
    text.append(buf, r.ptr);
  }
  text += ']';
  return text;
}

std::vector<std::optional<double>> decode_tile_grid(const std::string& text) {
  std::vector<std::optional<double>> values;
  const char* p = text.data();
  const char* const end = p + text.size();
  auto skip = [&] {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) ++p;
  };
  auto bad = [&](const char* what) -> Error {
    return Error(std::string("tile grid: ") + what + " at character " + std::to_string(p - text.data()));
  };
  skip();
  if (p == end || *p++ != '[') throw bad("expected '['");
  // A JSON number (RFC 8259 section 6): -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; from_chars
  // alone would also take nan, inf, 01, 1. and .5, which SQLite's json_each reads otherwise.
  auto json_number_end = [&](const char* q) -> const char* {
    auto digits = [&](const char* d) {
      const char* start = d;
      while (d < end && *d >= '0' && *d <= '9') ++d;
      return d == start ? nullptr : d;
    };
    if (q < end && *q == '-') ++q;
    if (q < end && *q == '0') {
      ++q;
    } else if (!(q = digits(q))) {
      return nullptr;
    }
    if (q < end && *q == '.' && !(q = digits(q + 1))) return nullptr;
    if (q < end && (*q == 'e' || *q == 'E')) {
      ++q;
      if (q < end && (*q == '+' || *q == '-')) ++q;
      if (!(q = digits(q))) return nullptr;
    }
    return q;
  };
  skip();
  if (p < end && *p == ']') {
    ++p;
  } else {
    for (;;) {
      skip();
      if (end - p >= 4 && std::string_view(p, 4) == "null") {
        values.emplace_back();
        p += 4;
      } else {
        const char* number_end = json_number_end(p);
        if (number_end == nullptr) throw bad("expected a number or null");
        double v = 0;
        const auto r = std::from_chars(p, number_end, v);
        if (r.ec == std::errc::result_out_of_range) {
          // Beyond a double: infinity (encode_tile_grid's 9e999) or an underflow to zero, by the
          // number's magnitude as strtod reads it (from_chars gives no value here). The text is a
          // JSON number, which strtod reads the same in the C locale.
          v = std::strtod(std::string(p, number_end).c_str(), nullptr);
        } else if (r.ec != std::errc() || r.ptr != number_end) {
          throw bad("expected a number or null");
        }
        values.emplace_back(v);
        p = number_end;
      }
      skip();
      if (p == end) throw bad("unterminated array");
      if (*p == ']') break;
      if (*p++ != ',') throw bad("expected ','");
    }
    ++p;
  }
  skip();
  if (p != end) throw bad("text after the array");
  return values;
}

int64_t ResultsDb::put_grid_data(uint32_t tiles_x, const std::string& text) {
  const std::string keyed = std::to_string(tiles_x) + ":" + text;
  const auto hash = static_cast<int64_t>(capture::hash64(capture::as_bytes_view(keyed)));
  auto* find = prepare("SELECT grid_id FROM tile_grid_data WHERE hash = ?1 AND tiles_x = ?2 AND grid = ?3");
  sqlite3_bind_int64(find, 1, hash);
  sqlite3_bind_int64(find, 2, tiles_x);
  bind_text(find, 3, text);
  if (sqlite3_step(find) == SQLITE_ROW) {
    const int64_t id = sqlite3_column_int64(find, 0);
    sqlite3_reset(find);
    return id;
  }
  sqlite3_reset(find);
  auto* ins = prepare("INSERT INTO tile_grid_data (hash, tiles_x, grid) VALUES (?1, ?2, ?3) RETURNING grid_id");
  sqlite3_bind_int64(ins, 1, hash);
  sqlite3_bind_int64(ins, 2, tiles_x);
  bind_text(ins, 3, text);
  return step_returning_id(ins, "put tile grid");
}

void ResultsDb::put_tile_grid(int64_t run_id, int64_t frame_id, const std::string& metric, const TileGrid& grid) {
  std::string text;
  try {
    text = encode_tile_grid(grid);
  } catch (const Error& e) {
    fail(std::string(e.what()) + " (metric " + metric + ")");
  }
  put_tile_grid_row(run_id, frame_id, metric_id(metric), put_grid_data(grid.tiles_x, text));
}

void ResultsDb::put_tile_grid_row(int64_t run_id, int64_t frame_id, int64_t metric_id, int64_t grid_id) {
  auto* s = prepare(
      "INSERT INTO tile_grid (run_id, frame_id, metric_id, grid_id) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT (run_id, frame_id, metric_id) DO UPDATE SET grid_id = excluded.grid_id");
  sqlite3_bind_int64(s, 1, run_id);
  sqlite3_bind_int64(s, 2, frame_id);
  sqlite3_bind_int64(s, 3, metric_id);
  sqlite3_bind_int64(s, 4, grid_id);
  check(sqlite3_step(s), "put tile grid");
  sqlite3_reset(s);
}

// Version 2 kept a row per tile; a (run, frame)'s grids span the tiles any of its metrics has
// (the frame's extent), with null where a metric had no row. Values are read as doubles, not as
// text, so the conversion is exact.
void ResultsDb::migrate_tile_grids() {
  std::map<std::pair<int64_t, int64_t>, std::pair<uint32_t, uint32_t>> extent;  // (run, frame) -> (tiles x, y)
  sqlite3_stmt* s = nullptr;
  check(sqlite3_prepare_v2(db_, "SELECT t.run_id, t.frame_id, max(t.tile_x) + 1, max(t.tile_y) + 1 FROM tile_metric t "
                                "JOIN run r ON r.run_id = t.run_id JOIN frame f ON f.frame_id = t.frame_id "
                                "JOIN metric m ON m.metric_id = t.metric_id GROUP BY t.run_id, t.frame_id",
                                -1, &s, nullptr),
        "migrate tile grids");
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    extent[{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)}] = {
        static_cast<uint32_t>(sqlite3_column_int64(s, 2)), static_cast<uint32_t>(sqlite3_column_int64(s, 3))};
  }
  sqlite3_finalize(s);
  check(rc, "migrate tile grids");

  // Not the rows whose run, frame or metric is gone (deleted with foreign keys off, as the sqlite3
  // shell has them): the version 2 view never showed them, and they would fail the new keys.
  check(sqlite3_prepare_v2(db_, "SELECT t.run_id, t.frame_id, t.metric_id, t.tile_x, t.tile_y, t.value FROM tile_metric t "
                                "JOIN run r ON r.run_id = t.run_id JOIN frame f ON f.frame_id = t.frame_id "
                                "JOIN metric m ON m.metric_id = t.metric_id ORDER BY t.run_id, t.frame_id, t.metric_id",
                                -1, &s, nullptr),
        "migrate tile grids");
  std::tuple<int64_t, int64_t, int64_t> key{-1, -1, -1};
  TileGrid grid;
  auto flush = [&] {
    if (std::get<0>(key) < 0) return;
    std::string text;
    try {
      text = encode_tile_grid(grid);
    } catch (const Error& e) {
      fail(std::string(e.what()) + " (run " + std::to_string(std::get<0>(key)) + ", frame " +
           std::to_string(std::get<1>(key)) + ", metric " + std::to_string(std::get<2>(key)) + ")");
    }
    put_tile_grid_row(std::get<0>(key), std::get<1>(key), std::get<2>(key), put_grid_data(grid.tiles_x, text));
  };
  // The statement is finalised however the conversion ends (a value JSON cannot hold throws).
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> rows(s, sqlite3_finalize);
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    const std::tuple<int64_t, int64_t, int64_t> k{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
                                                  sqlite3_column_int64(s, 2)};
    if (k != key) {
      flush();
      key = k;
      const auto [w, h] = extent.at({std::get<0>(k), std::get<1>(k)});
      grid.tiles_x = w;
      grid.values.assign(static_cast<size_t>(w) * h, std::nullopt);
    }
    const auto x = static_cast<size_t>(sqlite3_column_int64(s, 3)), y = static_cast<size_t>(sqlite3_column_int64(s, 4));
    grid.values[y * grid.tiles_x + x] = sqlite3_column_double(s, 5);
  }
  check(rc, "migrate tile grids");
  flush();
  exec("DROP TABLE tile_metric");
}

void ResultsDb::put_core_metric(int64_t run_id, int64_t frame_id, uint32_t core, const std::string& metric, double value) {
  const int64_t m = metric_id(metric);
  auto* s = prepare("INSERT OR REPLACE INTO core_metric (run_id, frame_id, core, metric_id, value) VALUES (?1, ?2, ?3, ?4, ?5)");
  sqlite3_bind_int64(s, 1, run_id);
  sqlite3_bind_int64(s, 2, frame_id);
  sqlite3_bind_int64(s, 3, core);
  sqlite3_bind_int64(s, 4, m);
  sqlite3_bind_double(s, 5, value);
  check(sqlite3_step(s), "put core metric");
  sqlite3_reset(s);
}

void ResultsDb::query(const std::string& sql,
                      const std::function<void(const std::vector<std::string>&, const Row&)>& row) {
  const char* tail = sql.c_str();
  while (*tail != '\0') {
    sqlite3_stmt* s = nullptr;
    const char* next = nullptr;
    if (sqlite3_prepare_v2(db_, tail, -1, &s, &next) != SQLITE_OK) fail(std::string("SQL error: ") + sqlite3_errmsg(db_));
    tail = next;
    if (s == nullptr) continue;  // whitespace or a comment
    std::vector<std::string> columns;
    const int n = sqlite3_column_count(s);
    for (int i = 0; i < n; ++i) columns.emplace_back(sqlite3_column_name(s, i));
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
      Row r;
      for (int i = 0; i < n; ++i) {
        const int type = sqlite3_column_type(s, i);
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
        r.values.emplace_back(text ? text : "");
        r.is_null.push_back(type == SQLITE_NULL);
        r.is_number.push_back(type == SQLITE_INTEGER || type == SQLITE_FLOAT);
      }
      row(columns, r);
    }
    const std::string err = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db_);
    sqlite3_finalize(s);
    if (!err.empty()) fail("SQL error: " + err);
  }
}

}  // namespace tessera::results
