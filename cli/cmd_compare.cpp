// tessera compare DB --base SPEC --vs SPEC [--metric M ...] [--csv]
//
// One configuration against another, per capture and metric: the means over the frames both runs
// measured (a run's cold first frame left out when it has warm ones), their ratio and the change
// in percent, and the mean ratio over captures. Computed by report/figures/pair-deltas.sql.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "report_queries.h"
#include "results_db.h"

namespace tessera::cli {
namespace {

struct CompareOptions {
  std::string db;
  std::string base;
  std::string vs;
  std::vector<std::string> metrics = {"cycles", "l2.accesses", "dram.accesses", "energy.total_nj"};
  bool csv = false;
};

int run_compare(const CompareOptions& opt) {
  try {
    auto db = report::open_for_figures(opt.db);
    const std::vector<std::string> configs = report::configurations(*db);
    for (const std::string* spec : {&opt.base, &opt.vs}) {
      if (std::find(configs.begin(), configs.end(), *spec) == configs.end()) {
        std::string known;
        for (size_t i = 0; i < configs.size() && i < 8; ++i) known += (i ? ", " : "") + configs[i];
        if (configs.size() > 8) known += ", ... " + std::to_string(configs.size() - 8) + " more: tessera query";
        std::fprintf(stderr, "tessera compare: %s: no runs of configuration '%s' (configurations: %s)\n",
                     opt.db.c_str(), spec->c_str(), known.empty() ? "none" : known.c_str());
        return 2;
      }
    }
    const report::Table t = report::run(*db, report::pair_deltas_sql({{opt.vs, opt.base}}, opt.metrics));
    if (t.rows.empty()) {
      std::fprintf(stderr, "tessera compare: %s: %s and %s share no measured frame with metrics %s...\n",
                   opt.db.c_str(), opt.vs.c_str(), opt.base.c_str(), opt.metrics.front().c_str());
      return 1;
    }
    const size_t c_capture = t.column("capture"), c_metric = t.column("metric"), c_value = t.column("value"),
                 c_base = t.column("base_value"), c_ratio = t.column("ratio"), c_frames = t.column("frames");
    auto num = [](const std::optional<std::string>& v) { return v ? std::stod(*v) : NAN; };
    if (opt.csv) {
      std::printf("capture,metric,base,vs,base_mean,vs_mean,ratio,change_percent,frames\n");
      for (const auto& r : t.rows) {
        const double ratio = num(r[c_ratio]);
        std::printf("%s,%s,%s,%s,%s,%s,%.6g,%.4f,%s\n", r[c_capture]->c_str(), r[c_metric]->c_str(), opt.base.c_str(),
                    opt.vs.c_str(), r[c_base].value_or("").c_str(), r[c_value].value_or("").c_str(), ratio,
                    (ratio - 1) * 100, r[c_frames].value_or("").c_str());
      }
      return 0;
    }
    size_t cw = 7, mw = 6;
    for (const auto& r : t.rows) {
      cw = std::max(cw, r[c_capture]->size());
      mw = std::max(mw, r[c_metric]->size());
    }
    std::printf("%s against %s (base); means over the frames both runs measured\n", opt.vs.c_str(), opt.base.c_str());
    std::printf("%-*s  %-*s  %14s  %14s  %8s  %9s  %6s\n", static_cast<int>(cw), "capture", static_cast<int>(mw),
                "metric", "base", "vs", "ratio", "change", "frames");
    for (const auto& r : t.rows) {
      const double ratio = num(r[c_ratio]);
      char base[32] = "", vs[32] = "";
      if (r[c_base]) std::snprintf(base, sizeof base, "%.6g", num(r[c_base]));
      if (r[c_value]) std::snprintf(vs, sizeof vs, "%.6g", num(r[c_value]));
      std::printf("%-*s  %-*s  %14s  %14s  %8.4f  %+8.2f%%  %6s\n", static_cast<int>(cw), r[c_capture]->c_str(),
                  static_cast<int>(mw), r[c_metric]->c_str(), base, vs, ratio, (ratio - 1) * 100,
                  r[c_frames].value_or("").c_str());
    }
    return 0;
  } catch (const results::Error& e) {
    std::fprintf(stderr, "tessera compare: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {  // a value the figure SQL did not expect, and the like
    std::fprintf(stderr, "tessera compare: %s: %s\n", opt.db.c_str(), e.what());
    return 1;
  }
}

}  // namespace

void setup_compare(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<CompareOptions>();
  auto* cmd = app.add_subcommand("compare", "Compare two configurations per capture and metric (normalised deltas)");
  cmd->add_option("db", opt->db, "Results database (SQLite)")->required();
  cmd->add_option("--base", opt->base, "Configuration to normalise to, e.g. mobile4")->required();
  cmd->add_option("--vs", opt->vs, "Configuration to compare, e.g. mobile4+dtexl")->required();
  cmd->add_option("--metric", opt->metrics, "Metrics (default cycles l2.accesses dram.accesses energy.total_nj)");
  cmd->add_flag("--csv", opt->csv, "Print CSV instead of an aligned table");
  cmd->callback([opt, exit_code] { *exit_code = run_compare(*opt); });
}

}  // namespace tessera::cli
