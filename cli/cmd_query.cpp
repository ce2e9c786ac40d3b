// tessera query DB "SQL": runs SQL on a results database, prints an aligned table or CSV. The
// figures' views (report/views.sql) are there too, so one figure runs by hand:
// tessera query DB "$(cat report/figures/NAME.sql)".
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "report_queries.h"
#include "results_db.h"

namespace tessera::cli {
namespace {

struct QueryOptions {
  std::string db;
  std::string sql;
  bool csv = false;
};

std::string csv_field(const std::string& v) {
  // RFC 4180: quote fields holding a comma, quote or line break; double the quotes inside.
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

int run_query(const QueryOptions& opt) {
  try {
    auto db = report::open_for_figures(opt.db);
    std::vector<std::string> columns;
    std::vector<results::ResultsDb::Row> rows;
    db->query(opt.sql, [&](const std::vector<std::string>& cols, const results::ResultsDb::Row& r) {
      if (columns.empty()) columns = cols;
      rows.push_back(r);
    });
    if (opt.csv) {
      for (size_t i = 0; i < columns.size(); ++i) std::printf("%s%s", i ? "," : "", csv_field(columns[i]).c_str());
      if (!columns.empty()) std::printf("\n");
      for (const auto& r : rows) {
        for (size_t i = 0; i < r.values.size(); ++i) std::printf("%s%s", i ? "," : "", csv_field(r.values[i]).c_str());
        std::printf("\n");
      }
      return 0;
    }
    if (columns.empty()) return 0;  // a statement without rows
    std::vector<size_t> width(columns.size());
    for (size_t i = 0; i < columns.size(); ++i) width[i] = columns[i].size();
    for (const auto& r : rows) {
      for (size_t i = 0; i < r.values.size(); ++i) width[i] = std::max(width[i], r.is_null[i] ? 4 : r.values[i].size());
    }
    auto cell = [&](const std::string& v, size_t i, bool right) {
      std::printf(right ? "%*s" : "%-*s", static_cast<int>(width[i]), v.c_str());
      std::printf(i + 1 < columns.size() ? "  " : "\n");
    };
    for (size_t i = 0; i < columns.size(); ++i) cell(columns[i], i, false);
    for (size_t i = 0; i < columns.size(); ++i) cell(std::string(width[i], '-'), i, false);
    for (const auto& r : rows) {
      for (size_t i = 0; i < r.values.size(); ++i) cell(r.is_null[i] ? "NULL" : r.values[i], i, r.is_number[i]);
    }
    std::printf("(%zu row%s)\n", rows.size(), rows.size() == 1 ? "" : "s");
    return 0;
  } catch (const results::Error& e) {
    std::fprintf(stderr, "tessera query: %s\n", e.what());
    return 1;
  }
}

}  // namespace

void setup_query(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<QueryOptions>();
  auto* cmd = app.add_subcommand("query", "Run SQL on a results database (e.g. over the frame_metrics view, or a figure's SQL file)");
  cmd->add_option("db", opt->db, "Results database (SQLite)")->required();
  cmd->add_option("sql", opt->sql, "SQL to run")->required();
  cmd->add_flag("--csv", opt->csv, "Print CSV instead of an aligned table");
  cmd->callback([opt, exit_code] { *exit_code = run_query(*opt); });
}

}  // namespace tessera::cli
