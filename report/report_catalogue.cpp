// The catalogue, read from the figure and paper files themselves (format: report/README.md). The
// headline numbers were checked against the paper text in ../papers (000 DTM-NUCA, 001 DTexL,
// 002 DAE, 003 TCOR, 004 TFM); each headline's text cites the figure and section it comes from.
#include "report_catalogue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include "report_assets.h"

namespace tessera::report {

namespace {

// Where a line came from, for the one-line error: "report/figures/000-fig06-l2-nuca.sql:7".
struct Place {
  std::string file;
  int line = 0;
  [[noreturn]] void fail(const std::string& why) const {
    throw CatalogueError(file + ":" + std::to_string(line) + ": " + why);
  }
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

double number(std::string_view text, const Place& at, const std::string& what) {
  text = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    at.fail(what + " '" + std::string(text) + "' is not a finite number");
  return v;
}

Chart chart_of(std::string_view name, const Place& at) {
  for (Chart c : {Chart::kBars, Chart::kStacked, Chart::kLines, Chart::kScatter})
    if (name == chart_name(c)) return c;
  at.fail("chart '" + std::string(name) + "' is none of bars, stacked, lines, scatter");
}

Show show_of(std::string_view name, const Place& at) {
  if (name == "change") return Show::kChange;
  if (name == "percent") return Show::kPercent;
  if (name == "times") return Show::kTimes;
  if (name == "points") return Show::kPoints;
  at.fail("headline shows '" + std::string(name) + "', none of change, percent, times, points");
}

// Splits "a | b | c" at each '|', trimming every field.
std::vector<std::string> fields(std::string_view text) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t bar = text.find('|', start);
    out.emplace_back(trim(text.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start)));
    if (bar == std::string_view::npos) return out;
    start = bar + 1;
  }
}

// headline: SERIES | NUMBER | SHOW | TEXT [| part=P] [| over=SERIES] [| x=NUMBER]
Headline headline_of(std::string_view value, const Place& at) {
  const std::vector<std::string> f = fields(value);
  if (f.size() < 4) at.fail("a headline is 'series | number | change|percent|times|points | text', then part=, over=, x=");
  Headline h;
  h.series = f[0];
  h.paper = number(f[1], at, "the paper's number");
  h.show = show_of(f[2], at);
  h.text = f[3];
  if (h.series.empty() || h.text.empty()) at.fail("a headline needs its series and its text");
  std::set<std::string> seen;
  for (size_t i = 4; i < f.size(); ++i) {
    const size_t eq = f[i].find('=');
    if (eq == std::string::npos) at.fail("headline field '" + f[i] + "' is not part=, over= or x=");
    const std::string key(trim(std::string_view(f[i]).substr(0, eq)));
    const std::string val(trim(std::string_view(f[i]).substr(eq + 1)));
    if (key != "part" && key != "over" && key != "x") at.fail("headline field '" + f[i] + "' is not part=, over= or x=");
    if (val.empty()) at.fail("headline field " + key + "= has no value");
    if (!seen.insert(key).second) at.fail("headline field " + key + "= given twice");
    if (key == "part") {
      h.part = val;
    } else if (key == "over") {
      h.over = val;
    } else {
      h.x = number(val, at, "x");
    }
  }
  return h;
}

// Calls line(key, value, place) for each "key: value" line of `text`, refusing an empty value. A
// figure file's lines are the `--@` lines of its leading comment block (prefix "--@": the SQL
// after the block is not read, so a string literal cannot pass for one); a paper file's are every
// line but blank and '#' ones (prefix "").
template <typename F>
void each_line(const std::string& file, const std::string& text, std::string_view prefix, F&& line) {
  Place at{file, 0};
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view l(text.data() + start, end - start);
    ++at.line;
    start = end + 1;
    if (prefix.empty()) {
      if (trim(l).empty() || trim(l).front() == '#') continue;
    } else {
      if (l.substr(0, 2) != "--") {
        if (trim(l).substr(0, prefix.size()) == prefix) at.fail("a '" + std::string(prefix) + "' line must start in column 1");
        if (!trim(l).empty()) return;  // the SQL begins
        continue;
      }
      if (l.substr(0, prefix.size()) != prefix) continue;
    }
    const std::string_view body = l.substr(prefix.size());
    const size_t colon = body.find(':');
    if (colon == std::string_view::npos) {
      std::string why = "'";  // appended, not "'" + string: GCC 12 warns of a memcpy overlap (-Wrestrict)
      why.append(trim(body)).append("' is not 'key: value'");
      at.fail(why);
    }
    const std::string key(trim(body.substr(0, colon)));
    const std::string_view value = trim(body.substr(colon + 1));
    if (value.empty()) at.fail("'" + key + "' has no value");
    line(key, value, at);
  }
}

struct ParsedFigure {
  Figure figure;
  bool replication = false;
  int paper_line = 0;  // where `--@ paper:` is
};

// What a chart can draw: a stacked figure's parts, a line figure's points at x, an x axis only
// where values lie along one.
void check_chart(const std::string& file, const Figure& f) {
  const bool along_x = f.chart == Chart::kLines || f.chart == Chart::kScatter;
  const auto fail = [&](const std::string& why) {
    throw CatalogueError(file + ": " + why + " (chart: " + chart_name(f.chart) + ")");
  };
  if (along_x && f.x_title.empty()) fail("a chart along x needs '--@ x:'");
  if (!along_x && !f.x_title.empty()) fail("'--@ x:' titles an x axis this chart has not");
  if (!along_x && f.log_x) fail("'--@ log-x:' needs an x axis");
  for (const Headline& h : f.headlines) {
    if (!h.part.empty() && f.chart != Chart::kStacked) fail("headline '" + h.text + "' reads a part= of an unstacked chart");
    if (h.x && f.chart != Chart::kLines) fail("headline '" + h.text + "' reads a point x= of a chart without lines");
  }
}

std::optional<ParsedFigure> parse_figure(const std::string& name, const std::string& sql) {
  const std::string file = "report/figures/" + name + ".sql";
  ParsedFigure p;
  Figure& f = p.figure;
  f.id = name;
  std::set<std::string> seen;
  bool any = false;
  each_line(file, sql, "--@", [&](const std::string& key, std::string_view value, const Place& at) {
    any = true;
    if (key != "headline" && !seen.insert(key).second) at.fail("'" + key + "' given twice");
    const std::string v(value);
    if (key == "paper") {
      f.paper = v;
      p.paper_line = at.line;
    } else if (key == "section") {
      if (v != "replication") at.fail("section '" + v + "' is not replication (a paper's figures say paper:)");
      p.replication = true;
    } else if (key == "title") {
      f.title = v;
    } else if (key == "chart") {
      f.chart = chart_of(v, at);
    } else if (key == "y") {
      f.y_title = v;
    } else if (key == "x") {
      f.x_title = v;
    } else if (key == "rule") {
      f.rule = number(v, at, "rule");
    } else if (key == "log-x") {
      if (v != "yes" && v != "no") at.fail("log-x is yes or no, not '" + v + "'");
      f.log_x = v == "yes";
    } else if (key == "needs") {
      f.needs = v;
    } else if (key == "explain") {
      f.explain = v;
    } else if (key == "headline") {
      f.headlines.push_back(headline_of(value, at));
    } else {
      at.fail("unknown key '" + key + "' (paper, section, title, chart, y, x, rule, log-x, needs, explain, headline)");
    }
  });
  if (!any) return std::nullopt;
  for (const char* key : {"title", "chart", "y", "needs"})
    if (!seen.count(key)) throw CatalogueError(file + ": no '--@ " + key + ":' line");
  if (f.paper.empty() && !p.replication) throw CatalogueError(file + ": neither '--@ paper:' nor '--@ section:'");
  if (f.paper.empty() && !f.headlines.empty())
    throw CatalogueError(file + ": headlines need the paper they quote ('--@ paper:')");
  // A paper's figures are named after it, so that its files sort together (report/README.md).
  if (!p.replication && name.rfind(f.paper + "-", 0) != 0)
    throw CatalogueError(file + ": a figure of paper " + f.paper + " is named " + f.paper + "-<figure>.sql");
  check_chart(file, f);
  return p;
}

Paper parse_paper(const std::string& id, const std::string& text) {
  const std::string file = "report/papers/" + id + ".txt";
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw CatalogueError(file + ": a paper file is named by the paper's number, as 000.txt");
  Paper p;
  p.id = id;
  std::set<std::string> seen;
  each_line(file, text, "", [&](const std::string& key, std::string_view value, const Place& at) {
    if (!seen.insert(key).second) at.fail("'" + key + "' given twice");
    if (key == "title") {
      p.title = value;
    } else if (key == "schemes") {
      p.scheme = value;
    } else if (key == "preset") {
      p.preset = value;
    } else {
      at.fail("unknown key '" + key + "' (title, schemes, preset)");
    }
  });
  for (const char* key : {"title", "schemes", "preset"})
    if (!seen.count(key)) throw CatalogueError(file + ": no '" + std::string(key) + ":' line");
  return p;
}

}  // namespace

const char* chart_name(Chart c) {
  switch (c) {
    case Chart::kBars: return "bars";
    case Chart::kStacked: return "stacked";
    case Chart::kLines: return "lines";
    case Chart::kScatter: return "scatter";
  }
  return "bars";
}

Catalogue parse_catalogue(const NamedTexts& figures, const NamedTexts& papers) {
  Catalogue c;
  std::map<std::string, size_t, std::less<>> paper_at;
  for (const auto& [id, text] : papers) {  // a std::map: by id
    paper_at[id] = c.papers.size();
    c.papers.push_back(parse_paper(id, text));
  }
  for (const auto& [name, sql] : figures) {  // by file name, the order each section draws them in
    std::optional<ParsedFigure> p = parse_figure(name, sql);
    if (!p) continue;
    const auto paper = paper_at.find(p->figure.paper);
    if (!p->figure.paper.empty() && paper == paper_at.end())
      throw CatalogueError("report/figures/" + name + ".sql:" + std::to_string(p->paper_line) + ": paper '" +
                           p->figure.paper + "' has no report/papers/" + p->figure.paper + ".txt");
    if (p->replication) {
      c.replication.push_back(std::move(p->figure));
    } else {
      c.papers[paper->second].figures.push_back(std::move(p->figure));
    }
  }
  return c;
}

const Catalogue& catalogue() {
  static const Catalogue all = parse_catalogue(embedded_figures(), embedded_papers());
  return all;
}

const std::vector<Paper>& papers() { return catalogue().papers; }

const std::vector<Figure>& replication_figures() { return catalogue().replication; }

}  // namespace tessera::report
