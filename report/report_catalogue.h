// What `tessera report` draws: per paper, each evaluation figure our metrics support, the SQL file
// under report/figures/ that computes it (configuration and metric names live in that file, one
// line each), how the paper draws it, and the paper's headline numbers to print beside ours.
// Each figure file says all of this about itself in its `--@ key: value` lines, and each paper's
// heading is report/papers/<id>.txt (format: report/README.md); the catalogue is read from those
// files as embedded at build time, so a new figure or scheme touches no code here.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
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
// "bars", "stacked", "lines", "scatter": the name a figure file and the page's script use.
const char* chart_name(Chart c);

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
  std::string paper;   // the paper whose claims it checks ("" for a figure of ours alone)
  std::string title;   // as the paper captions it
  Chart chart = Chart::kBars;
  std::string y_title;
  std::string x_title;            // lines and scatter
  std::optional<double> rule;     // a reference line (1 for normalised values)
  bool log_x = false;
  std::string needs;   // what runs the figure needs, said when the database has none
  std::string explain; // the metrics (and README) that explain where ours and the paper differ
  std::vector<Headline> headlines;
};

struct Paper {
  std::string id;      // "001"
  std::string title;
  std::string scheme;  // the scheme names, as tessera replay --config takes them
  std::string preset;  // the paper's baseline configuration (figures/baseline.sql describes it)
  std::vector<Figure> figures;
};

// A figure or paper file whose catalogue lines are wrong; the message names the file and the line.
class CatalogueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Catalogue {
  std::vector<Paper> papers;             // by id, each with its figures by file name
  std::vector<Figure> replication;       // the files that say `section: replication`, by file name
};

using NamedTexts = std::map<std::string, std::string, std::less<>>;

// The catalogue of figure files (name without .sql -> SQL) and paper files (id -> text). A figure
// file is one with `--@` lines; the others (suite, tiles, baseline, pair-deltas) are the page's own
// queries. Throws CatalogueError on an unknown key or chart, a missing title, y, chart or needs, a
// number that does not parse, a headline without a paper or a paper without its file.
Catalogue parse_catalogue(const NamedTexts& figures, const NamedTexts& papers);

// The catalogue of the files embedded in this build (report/figures/, report/papers/).
const Catalogue& catalogue();
const std::vector<Paper>& papers();
// Figures drawn outside the paper sections: replication (paper 000 Fig. 1 and the mean degree).
const std::vector<Figure>& replication_figures();

}  // namespace tessera::report
