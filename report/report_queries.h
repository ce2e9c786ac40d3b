// Read-only queries of a results database for `tessera report` and `tessera compare`: the SQL
// files of report/figures/ (embedded at build time), their rows, and the numbers read from them.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "report_catalogue.h"
#include "results_db.h"

namespace tessera::report {

// Creates the temporary views and series tables of report/views.sql on db's connection: what
// every figure's SQL reads (measured_frame_metrics, normalised_rows, ...). Temp objects, so a
// database opened read-only takes them and its file is not changed; creating them again is a
// no-op. Throws results::Error.
void create_figure_views(results::ResultsDb& db);
// The database opened read-only with the figure views created: what tessera report, compare and
// query run SQL on.
std::unique_ptr<results::ResultsDb> open_for_figures(const std::string& path);

// For a connection that runs many figures (tessera report): replaces the temp view
// measured_frame_metrics with a temp table of the same rows, indexed by configuration and metric,
// so that each figure reads it rather than filtering every frame metric again. Call it after any
// temp view that restricts frame_metrics (--captures): the rows are taken once, here.
void materialize_measured_frames(results::ResultsDb& db);

// The text of report/figures/<name>.sql; throws std::out_of_range for an unknown name.
const std::string& figure_sql(std::string_view name);
// Every embedded figure file, by name (without .sql).
std::vector<std::string> figure_names();

// A query's result: column names and rows (NULL cells are std::nullopt).
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
  // The column's index; throws std::out_of_range naming it when absent.
  size_t column(std::string_view name) const;
};
Table run(results::ResultsDb& db, const std::string& sql);

// One row of a figure's SQL (columns capture, series, part, x, value).
struct FigureRow {
  std::string capture;
  std::string series;
  std::string part;          // "" when NULL
  std::optional<double> x;
  double value = 0;
};
std::vector<FigureRow> figure_rows(results::ResultsDb& db, const std::string& figure_id);

// The headline's number read from a figure's rows, in the unit the paper prints (Show); nullopt
// when the rows it needs are absent.
std::optional<double> headline_value(const std::vector<FigureRow>& rows, const Headline& h);
// "-46.8 %", "1.20x", "66.3 %".
std::string format_headline(double value, Show show);

// Our number against the paper's (the report's verdict column; the rules are printed on the page,
// kVerdictRules). A claim's effect is its number as printed, or v - 1 for a ratio (kTimes); an
// effect under 1 point (0.01 for a ratio) is no change. Direction: the effects' signs agree
// (both no change included), are opposite, or one of them is no change while the other is not
// (kFlat); a share (kPercent: local hits, hit rates) has none (kNone). Within 2x: the directions
// agree and the larger effect (a share's value) is at most twice the smaller, or both are no
// change.
enum class Direction { kAgrees, kOpposite, kFlat, kNone };
struct Verdict {
  Direction direction = Direction::kNone;
  bool within_2x = false;
};
Verdict judge(double paper, double ours, Show show);
extern const char* const kVerdictRules;

// pair-deltas.sql with its params replaced: each (config, base) pair, each metric in order.
std::string pair_deltas_sql(const std::vector<std::pair<std::string, std::string>>& pairs,
                            const std::vector<std::string>& metrics);

// Every configuration with a run, by name.
std::vector<std::string> configurations(results::ResultsDb& db);

// An SQL string literal: quoted, with quotes doubled.
std::string sql_literal(std::string_view text);

}  // namespace tessera::report
