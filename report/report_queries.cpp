#include "report_queries.h"

#include "report_assets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace tessera::report {

void create_figure_views(results::ResultsDb& db) {
  db.query(figure_views(), [](const std::vector<std::string>&, const results::ResultsDb::Row&) {});
}

std::unique_ptr<results::ResultsDb> open_for_figures(const std::string& path) {
  auto db = results::ResultsDb::open(path, results::ResultsDb::Mode::kReadOnly);
  // The figures' SQL reads the latest schema (e.g. version 3's tile grids); a reader does not
  // rewrite the file it was asked to read.
  if (db->schema_version() < results::latest_schema_version()) {
    throw results::Error(path + ": results database schema version " + std::to_string(db->schema_version()) +
                         " is older than this build's " + std::to_string(results::latest_schema_version()) +
                         "; bring it up to date with: tessera migrate " + path);
  }
  create_figure_views(*db);
  return db;
}

void materialize_measured_frames(results::ResultsDb& db) {
  // The figures name measured_frame_metrics and resolve it when they run (report/views.sql), so a
  // table under that name serves them all; the view's own SQL stays the one definition.
  bool table = false;
  db.query("SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = 'measured_frame_metrics'",
           [&](const std::vector<std::string>&, const results::ResultsDb::Row&) { table = true; });
  if (table) return;  // taken already on this connection
  db.query("CREATE TEMP TABLE measured_frame_rows AS SELECT * FROM measured_frame_metrics;"
           "DROP VIEW temp.measured_frame_metrics;"
           "CREATE TEMP TABLE measured_frame_metrics AS SELECT * FROM measured_frame_rows;"
           "DROP TABLE temp.measured_frame_rows;"
           "CREATE INDEX temp.measured_frame_metrics_by_config ON measured_frame_metrics (config, metric, capture, frame);",
           [](const std::vector<std::string>&, const results::ResultsDb::Row&) {});
}

const std::string& figure_sql(std::string_view name) {
  const auto& all = embedded_figures();
  auto it = all.find(name);
  if (it == all.end()) throw std::out_of_range("no figure SQL named '" + std::string(name) + "'");
  return it->second;
}

std::vector<std::string> figure_names() {
  std::vector<std::string> names;
  for (const auto& [name, sql] : embedded_figures()) names.push_back(name);
  return names;
}

size_t Table::column(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return i;
  throw std::out_of_range("query result has no column '" + std::string(name) + "'");
}

Table run(results::ResultsDb& db, const std::string& sql) {
  Table t;
  db.query(sql, [&](const std::vector<std::string>& columns, const results::ResultsDb::Row& r) {
    if (t.columns.empty()) t.columns = columns;
    std::vector<std::optional<std::string>> row(r.values.size());
    for (size_t i = 0; i < r.values.size(); ++i)
      if (!r.is_null[i]) row[i] = r.values[i];
    t.rows.push_back(std::move(row));
  });
  return t;
}

std::vector<FigureRow> figure_rows(results::ResultsDb& db, const std::string& figure_id) {
  const Table t = run(db, figure_sql(figure_id));
  std::vector<FigureRow> rows;
  if (t.rows.empty()) return rows;
  const size_t capture = t.column("capture"), series = t.column("series"), part = t.column("part"),
               x = t.column("x"), value = t.column("value");
  for (const auto& r : t.rows) {
    if (!r[value]) continue;  // no number to draw
    FigureRow f;
    f.capture = r[capture].value_or("");
    f.series = r[series].value_or("");
    f.part = r[part].value_or("");
    if (r[x]) f.x = std::stod(*r[x]);
    f.value = std::stod(*r[value]);
    rows.push_back(std::move(f));
  }
  return rows;
}

namespace {

// The summary row a headline reads: 'mean' for figures over captures, 'suite' for pooled ones.
std::optional<double> read(const std::vector<FigureRow>& rows, const Headline& h, const std::string& series) {
  std::optional<double> sum;
  for (const auto& r : rows) {
    if (r.capture != "mean" && r.capture != "suite") continue;
    if (r.series != series) continue;
    if (!h.part.empty() && r.part != h.part) continue;
    if (h.x && (!r.x || std::fabs(*r.x - *h.x) > 1e-9)) continue;
    // Without a part, a stacked series is the sum of its parts (a bar's full height).
    sum = sum.value_or(0) + r.value;
    if (!h.part.empty() || h.x || r.part.empty()) break;
  }
  return sum;
}

}  // namespace

std::optional<double> headline_value(const std::vector<FigureRow>& rows, const Headline& h) {
  std::optional<double> v = read(rows, h, h.series);
  if (!v) return std::nullopt;
  if (!h.over.empty()) {
    const std::optional<double> base = read(rows, h, h.over);
    if (!base || *base == 0) return std::nullopt;
    *v /= *base;
  }
  switch (h.show) {
    case Show::kChange: return (*v - 1) * 100;
    case Show::kPercent: return *v * 100;
    case Show::kTimes:
    case Show::kPoints: return *v;
  }
  return v;
}

std::string format_headline(double value, Show show) {
  char buf[48];
  switch (show) {
    case Show::kChange: std::snprintf(buf, sizeof buf, "%+.1f %%", value); break;
    case Show::kPercent:
    case Show::kPoints: std::snprintf(buf, sizeof buf, "%.1f %%", value); break;
    case Show::kTimes: std::snprintf(buf, sizeof buf, "%.2fx", value); break;
  }
  return buf;
}

namespace {

// Percent points for changes, shares and points; a ratio's effect is v - 1.
double effect(double v, Show show) { return show == Show::kTimes ? v - 1 : v; }
double no_effect(Show show) { return show == Show::kTimes ? 0.01 : 1.0; }
int sign(double e, Show show) { return std::fabs(e) < no_effect(show) ? 0 : (e > 0 ? 1 : -1); }

}  // namespace

const char* const kVerdictRules =
    "Direction: the sign of the claim's effect (its change, or a ratio less 1), an effect under 1 point "
    "(0.01 for a ratio) counting as no change: agrees, opposite, or no change where the other has one; "
    "shares (hit rates, local hits) have none. Within 2x: the same direction and the larger effect at most "
    "twice the smaller (shares: their values), or both no change.";

Verdict judge(double paper, double ours, Show show) {
  Verdict v;
  const double p = effect(paper, show), o = effect(ours, show);
  if (show != Show::kPercent) {
    const int sp = sign(p, show), so = sign(o, show);
    v.direction = sp == so ? Direction::kAgrees : sp * so < 0 ? Direction::kOpposite : Direction::kFlat;
    if (v.direction != Direction::kAgrees) return v;
    if (sp == 0) {
      v.within_2x = true;
      return v;
    }
  } else if ((p > 0) != (o > 0)) {
    return v;
  }
  const double a = std::fabs(p), b = std::fabs(o);
  v.within_2x = std::max(a, b) <= 2 * std::min(a, b);
  return v;
}

std::string sql_literal(std::string_view text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string pair_deltas_sql(const std::vector<std::pair<std::string, std::string>>& pairs,
                            const std::vector<std::string>& metrics) {
  std::string sql = figure_sql("pair-deltas");
  const std::string begin_mark = "-- params begin\n", end_mark = "-- params end\n";
  const size_t begin = sql.find(begin_mark), end = sql.find(end_mark);
  if (begin == std::string::npos || end == std::string::npos || end < begin)
    throw std::logic_error("pair-deltas.sql: params markers missing");
  // An empty VALUES list is not SQL: a pair of NULLs matches no run.
  std::string params = "pairs(config, base) AS (VALUES ";
  if (pairs.empty()) params += "(NULL, NULL)";
  for (size_t i = 0; i < pairs.size(); ++i)
    params += (i ? ", (" : "(") + sql_literal(pairs[i].first) + ", " + sql_literal(pairs[i].second) + ")";
  params += "),\nmetrics(ord, metric) AS (VALUES ";
  if (metrics.empty()) params += "(0, NULL)";
  for (size_t i = 0; i < metrics.size(); ++i)
    params += (i ? ", (" : "(") + std::to_string(i) + ", " + sql_literal(metrics[i]) + ")";
  params += "),\n";
  return sql.substr(0, begin) + params + sql.substr(end + end_mark.size());
}

std::vector<std::string> configurations(results::ResultsDb& db) {
  std::vector<std::string> names;
  const Table t = run(db, "SELECT DISTINCT config FROM frame_metrics ORDER BY config");
  for (const auto& r : t.rows)
    if (r[0]) names.push_back(*r[0]);
  return names;
}

}  // namespace tessera::report
