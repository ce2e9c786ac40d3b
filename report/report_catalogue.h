// What `tessera report` draws: per paper, each evaluation figure our metrics support, the SQL file
// under report/figures/ that computes it (configuration and metric names live in that file, one
// line each), how the paper draws it, and the paper's headline numbers to print beside ours.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tessera::report {

// How a figure is drawn. Every figure's SQL returns the columns (capture, series, part, x, value).
enum class Chart {
  kBars,     // grouped bars: one group per capture plus the mean, one bar per series
  kStacked,  // stacked bars of the parts, one per series within each capture's group
  kLines,    // value against x, one line per series (the 'mean' or 'suite' rows)
  kScatter,  // value against x, one labelled point per series (the 'mean' rows)
};

// How a headline number is printed: the figure's value v (or v over another series' value) as
//   kChange  (v - 1) x 100, "-46.8 %"      kPercent v x 100, "66.3 %"
//   kTimes   v, "1.20x"                    kPoints  v already in percent, "46.5 %"
enum class Show { kChange, kPercent, kTimes, kPoints };

struct Headline {
  std::string text;    // the paper's claim, citing figure and section
  double paper = 0;    // the paper's number, as `show` prints it
  Show show = Show::kChange;
  std::string series;  // the row it is read from: capture 'mean' (or 'suite'), this series,
  std::string part;    // stacked figures: this part ("" = the sum of the series' parts)
  std::optional<double> x;  // line figures: the point at this x
  std::string over;    // when set: the value of `series` over the value of this series
};

struct Figure {
  std::string id;      // also the SQL file: report/figures/<id>.sql
  std::string title;   // as the paper captions it
  Chart chart = Chart::kBars;
  std::string y_title;
  std::string x_title;            // lines and scatter
  std::optional<double> rule;     // a reference line (1 for normalised values)
  bool log_x = false;
  std::string needs;   // what runs the figure needs, said when the database has none
  std::vector<Headline> headlines;
};

struct Paper {
  std::string id;      // "001"
  std::string title;
  std::string scheme;  // the scheme names, as tessera replay --config takes them
  std::string preset;  // the paper's baseline configuration (figures/baseline.sql describes it)
  std::vector<Figure> figures;
};

const std::vector<Paper>& papers();

// Figures drawn outside the paper sections: replication (paper 000 Fig. 1 and the mean degree).
const std::vector<Figure>& replication_figures();

}  // namespace tessera::report
