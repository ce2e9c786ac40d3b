// tessera report DB [-o report.html] [--base SPEC] [--captures NAME...] [--png DIR] [--svg DIR]
//
// One self-contained HTML page (opens offline) that shows what the database holds the way the
// papers show it: the workload suite, each paper's evaluation figures our metrics support with the
// paper's headline numbers beside ours, per-tile heat maps, the replication histogram of paper 000
// and a summary of every configuration against its base. Numbers come from the SQL files of
// report/figures/ (the same a user can run with tessera query); charts are drawn in the page by
// Debian's Vega, whose modules are inlined from their install path, except the heat maps, which
// travel as deflated 8-bit levels (report/heatmaps.h) and are drawn on a canvas. --svg renders the
// page in headless Chromium and writes each chart as its own SVG file (a heat map's holds its
// canvas as a PNG).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "config_spec.h"
#include "heatmaps.h"
#include "report_assets.h"
#include "report_catalogue.h"
#include "report_queries.h"
#include "results_db.h"
#include "thumbnail.h"

namespace tessera::cli {
namespace {

namespace fs = std::filesystem;
using report::Table;

struct ReportOptions {
  std::string db;
  std::string output = "report.html";
  std::string base;
  std::vector<std::string> captures;
  std::string png_dir;
  std::string svg_dir;
  std::string chromium = "chromium";
  std::string vega_dir = TESSERA_VEGA_DIR;
};

// A failure to report: one line, exit 1 (2 for bad arguments).
struct ReportError : std::runtime_error {
  ReportError(const std::string& what, int code = 1) : std::runtime_error(what), exit_code(code) {}
  int exit_code;
};

// --- small writers -------------------------------------------------------------------------

std::string html(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// JSON for the page's data block, which sits inside <script>: "</" is written "<\/" so no string
// can close the element.
class Json {
 public:
  Json& raw(std::string_view s) {
    sep();
    out_ += s;
    return *this;
  }
  Json& str(std::string_view s) {
    sep();
    out_ += '"';
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += static_cast<char>(c);
      } else if (c == '/' && i > 0 && s[i - 1] == '<') {
        out_ += "\\/";
      } else if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out_ += buf;
      } else {
        out_ += static_cast<char>(c);
      }
    }
    out_ += '"';
    return *this;
  }
  Json& num(double v) {
    if (!std::isfinite(v)) return raw("null");
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return raw(buf);
  }
  Json& opt(const std::optional<double>& v) { return v ? num(*v) : raw("null"); }
  Json& key(std::string_view k) {
    str(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  Json& open(char c) {
    sep();
    out_ += c;
    first_ = true;
    return *this;
  }
  Json& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  const std::string& text() const { return out_; }

 private:
  void sep() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string out_;
  bool first_ = true;
  bool after_key_ = false;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ReportError(path.string() + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string base64(std::string_view bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = (uint8_t(bytes[i]) << 16) | (uint8_t(bytes[i + 1]) << 8) | uint8_t(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += k[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = uint8_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= uint8_t(bytes[i + 1]) << 8;
    out += k[(v >> 18) & 63];
    out += k[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? k[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string unbase64(std::string_view text) {
  std::string out;
  uint32_t v = 0;
  int bits = 0;
  for (char c : text) {
    int d;
    if (c >= 'A' && c <= 'Z') d = c - 'A';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
    else if (c >= '0' && c <= '9') d = c - '0' + 52;
    else if (c == '+') d = 62;
    else if (c == '/') d = 63;
    else continue;  // padding, white space
    v = (v << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((v >> bits) & 0xff);
    }
  }
  return out;
}

// "out/vkcube.tcap" -> "vkcube": how the page and PNG folders name a capture.
std::string capture_label(const std::string& name) { return fs::path(name).stem().string(); }

// A capture's heat map: its id is also an SVG file name, so only [A-Za-z0-9._-] stay.
std::string heatmap_id(const std::string& capture) {
  std::string id = "heatmap-";
  for (char c : capture_label(capture)) id += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '-';
  return id;
}

// --- the database, as the report sees it ---------------------------------------------------

// With --captures, temporary views shadow frame_metrics, tile_metrics and capture (SQLite resolves
// the temp schema first), so every figure's SQL, means included, and the views of report/views.sql
// it reads (names resolved when a query runs) see only those captures.
void restrict_captures(results::ResultsDb& db, const std::vector<std::string>& wanted) {
  if (wanted.empty()) return;
  std::vector<std::string> names;
  for (const auto& r : report::run(db, "SELECT name FROM capture ORDER BY name").rows)
    if (r[0]) names.push_back(*r[0]);
  std::string list;
  for (const std::string& w : wanted) {
    bool found = false;
    for (const std::string& n : names) {
      if (n == w || capture_label(n) == w) {
        list += (list.empty() ? "" : ", ") + report::sql_literal(n);
        found = true;
      }
    }
    if (!found) {
      std::string known;
      for (const std::string& n : names) known += (known.empty() ? "" : ", ") + capture_label(n);
      throw ReportError(db.path() + ": no capture '" + w + "' (captures: " + known + ")", 2);
    }
  }
  auto none = [](const std::vector<std::string>&, const results::ResultsDb::Row&) {};
  db.query("CREATE TEMP VIEW frame_metrics AS SELECT * FROM main.frame_metrics WHERE capture IN (" + list + ")", none);
  db.query("CREATE TEMP VIEW tile_metrics AS SELECT * FROM main.tile_metrics WHERE capture IN (" + list + ")", none);
  db.query("CREATE TEMP VIEW capture AS SELECT * FROM main.capture WHERE name IN (" + list + ")", none);
}

struct FigureData {
  const report::Figure* figure;
  std::vector<report::FigureRow> rows;
  std::vector<std::optional<double>> ours;  // per headline
};

FigureData load_figure(results::ResultsDb& db, const report::Figure& f) {
  FigureData d{&f, report::figure_rows(db, f.id), {}};
  for (const auto& h : f.headlines) d.ours.push_back(report::headline_value(d.rows, h));
  return d;
}

// Heat maps: per capture, per view (a configuration, or a configuration minus its base), per
// metric, the tile grid (report/heatmaps.h, which packs them for the page).
using report::Grid;
using report::HeatMaps;

// --- the page -------------------------------------------------------------------------------

void figure_json(Json& j, const FigureData& d) {
  const report::Figure& f = *d.figure;
  j.open('{');
  j.key("id").str(f.id).key("title").str(f.title).key("chart").str(chart_name(f.chart));
  j.key("y_title").str(f.y_title).key("x_title").str(f.x_title).key("log_x").raw(f.log_x ? "true" : "false");
  j.key("rule").opt(f.rule);
  j.key("rows").open('[');
  for (const auto& r : d.rows) {
    j.open('[').str(r.capture).str(r.series).str(r.part).opt(r.x).num(r.value).close(']');
  }
  j.close(']');
  j.close('}');
}

std::string figure_html(const FigureData& d, const std::string& heading_prefix) {
  const report::Figure& f = *d.figure;
  std::string s = "<figure class=\"fig\" id=\"" + html(f.id) + "\" data-fig=\"" + html(f.id) + "\" data-rows=\"" +
                  std::to_string(d.rows.size()) + "\">\n";
  s += "<figcaption><b>" + html(heading_prefix + f.title) + "</b> <span class=\"sql\">report/figures/" +
       html(f.id) + ".sql</span></figcaption>\n";
  if (d.rows.empty()) {
    s += "<p class=\"notice\">No data in this database: needs " + html(f.needs) + ".</p>\n";
  } else {
    s += "<div class=\"chart\" data-fig=\"" + html(f.id) + "\"></div>\n";
  }
  // Without data the paper's numbers are in the headline table at the top: the notice is the line.
  if (!f.headlines.empty() && !d.rows.empty()) {
    s += "<table class=\"headline\"><tr><th>paper</th><th>claim</th><th>ours</th></tr>\n";
    for (size_t i = 0; i < f.headlines.size(); ++i) {
      const auto& h = f.headlines[i];
      s += "<tr><td class=\"num\">" + html(report::format_headline(h.paper, h.show)) + "</td><td>" + html(h.text) +
           "</td><td class=\"num\">" +
           (d.ours[i] ? html(report::format_headline(*d.ours[i], h.show)) : std::string("no data")) + "</td></tr>\n";
    }
    s += "</table>\n";
  }
  return s + "</figure>\n";
}

// One paragraph per paper on its baseline (figures/baseline.sql): where its shader cores' cycles
// go, how much of its main-memory traffic is tile flushes that no texture or Parameter Buffer
// scheme touches, the memory hierarchy's share of its energy and what its tiles write back -- the
// context a scheme's time and energy figures are read in.
std::string baseline_html(const std::vector<report::FigureRow>& rows, const std::string& preset) {
  std::map<std::string, double> v;
  for (const auto& r : rows) {
    if (r.capture == "mean" && r.series == preset) v[r.part] = r.value;
  }
  std::string s = "<p class=\"baseline\" data-fig=\"baseline-" + html(preset) + "\">Baseline <code>" + html(preset) +
                  "</code> <span class=\"sql\">report/figures/baseline.sql</span>: ";
  if (!v.count("busy")) return s + "no runs of it in this database.</p>\n";
  const auto pct = [&](const char* part) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * v[part]);
    return std::string(buf);
  };
  s += "its shader cores issue " + pct("busy") + " of the cycles, wait for texture data " + pct("texture_wait") +
       ", for the varying or load/store unit " + pct("unit_wait") + ", at barriers " + pct("barrier_wait") +
       ", blocked by blending or the flush " + pct("blocked") + ", starved " + pct("starved") + "; tile flushes (" +
       std::string(v.count("writeback_color") && v["writeback_color"] > 0 ? "colour only, as the papers' tiler"
                                                                          : "every attachment its store ops name") +
       ") are " + pct("flush_share") + " of its main-memory accesses, which no texture or Parameter Buffer scheme "
       "touches; the memory hierarchy is " + pct("memory_energy_share") +
       " of its GPU energy (mean over the captures' measured frames).</p>\n";
  return s;
}

std::string fmt(const std::optional<std::string>& v, int decimals) {
  if (!v) return "\u2014";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::stod(*v));
  return buf;
}

// A file path as the href of a link on the page at `page`: relative to the page's folder (the page
// and the PNGs move together, as out/report.html and out/png/ do), percent-encoded.
std::string href_from(const fs::path& page, const fs::path& file) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(file, ec), fs::absolute(page, ec).parent_path(), ec);
  if (ec || rel.empty()) rel = fs::absolute(file, ec);
  std::string out;
  for (unsigned char c : rel.generic_string()) {
    if (std::isalnum(c) || std::strchr("/-._~", c)) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// The suite table and, with --png, the worst replayed frame of each capture beside the presented
// one. PNGs are read from the folder tessera replay --png wrote (DIR/<capture>/frameN.png and
// frameN-presented.png) and embedded as data URIs: the database stays a table of numbers, and the
// page carries the images it shows. The page shows them 240 px wide, so each is embedded shrunk to
// at most report::kThumbnailMaxWidth (report/thumbnail.h; a full-size frame is 0.5-2 MB), linked to
// its full-size file, whose path is printed under it.
std::string suite_html(results::ResultsDb& db, const std::string& png_dir, const fs::path& page, int* thumbnails) {
  const Table t = report::run(db, report::figure_sql("suite"));
  std::string s = "<section id=\"suite\"><h2>The suite</h2>\n";
  s += "<p>Each capture as replayed: resolution, frames in the database, and per frame the draws, quads and "
       "overdraw (fragments per pixel) of the functional pass, the texture footprint and the PSNR of the replayed "
       "image against the one the application presented. The papers evaluate ten Android games with texture "
       "footprints of 0.2-6.8 MiB (paper 001 Table I). <span class=\"sql\">report/figures/suite.sql</span></p>\n";
  if (t.rows.empty()) return s + "<p class=\"notice\" data-fig=\"suite\">No captures in this database.</p></section>\n";
  bool any_texture = false;
  const size_t c_tex = t.column("texture_mib");
  for (const auto& r : t.rows) any_texture = any_texture || r[c_tex].has_value();
  s += "<table class=\"data\" data-fig=\"suite\"><tr><th>capture</th><th>resolution</th><th>frames</th>"
       "<th>configurations</th><th>draws</th><th>quads</th><th>overdraw</th><th>texture MiB</th>"
       "<th>PSNR min dB</th><th>PSNR mean dB</th></tr>\n";
  auto psnr = [](const std::optional<std::string>& v) {
    if (!v) return std::string("n/a");
    return std::stod(*v) >= 999 ? std::string("exact") : fmt(v, 2);
  };
  for (const auto& r : t.rows) {
    s += "<tr><td>" + html(capture_label(r[t.column("capture")].value_or(""))) + "</td><td>" +
         html(r[t.column("resolution")].value_or("")) + "</td><td class=\"num\">" +
         html(r[t.column("frames")].value_or("")) + "</td><td class=\"num\">" +
         html(r[t.column("configurations")].value_or("")) + "</td><td class=\"num\">" + fmt(r[t.column("draws")], 1) +
         "</td><td class=\"num\">" + fmt(r[t.column("quads")], 0) + "</td><td class=\"num\">" +
         fmt(r[t.column("overdraw")], 2) + "</td><td class=\"num\">" + fmt(r[c_tex], 2) + "</td><td class=\"num\">" +
         psnr(r[t.column("psnr_min_db")]) + "</td><td class=\"num\">" + psnr(r[t.column("psnr_mean_db")]) +
         "</td></tr>\n";
  }
  s += "</table>\n";
  if (!any_texture)
    s += "<p class=\"note\">Texture footprint: no capture has the workload.texture_bytes metric in this "
         "database.</p>\n";
  if (png_dir.empty()) {
    s += "<p class=\"note\">Thumbnails: give tessera report --png DIR, the folder tessera replay --png wrote "
         "(DIR/&lt;capture&gt;/frameN.png).</p>\n";
    return s + "</section>\n";
  }
  s += "<div class=\"thumbs\">\n";
  for (const auto& r : t.rows) {
    const std::string label = capture_label(r[t.column("capture")].value_or(""));
    const auto frame = r[t.column("worst_frame")];
    const fs::path dir = fs::path(png_dir) / label;
    std::string stem = frame ? "frame" + *frame : "";
    const fs::path replayed = dir / (stem + ".png"), presented = dir / (stem + "-presented.png");
    std::error_code ec;
    if (!frame || !fs::is_regular_file(replayed, ec) || !fs::is_regular_file(presented, ec)) {
      s += "<p class=\"note\">" + html(label) + ": no PNG of " + (frame ? "frame " + html(*frame) : "a compared frame") +
           " under " + html(dir.string()) + ".</p>\n";
      continue;
    }
    s += "<div class=\"thumb\"><div>" + html(label) + ", frame " + html(*frame) + " (lowest PSNR " +
         psnr(r[t.column("psnr_min_db")]) + " dB)</div>";
    std::string full;
    for (const auto& [file, name] : {std::pair{replayed, "replayed"}, std::pair{presented, "presented"}}) {
      report::Thumbnail th;
      std::string error;
      if (!report::png_thumbnail(file.string(), report::kThumbnailMaxWidth, &th, &error)) throw ReportError(error);
      const std::string href = html(href_from(page, file));
      s += std::string("<figure><a href=\"") + href + "\"><img alt=\"" + name + "\" src=\"data:image/png;base64," +
           base64(th.png) + "\"></a><figcaption>" + name + "</figcaption></figure>";
      full += std::string(full.empty() ? "" : ", ") + "<a href=\"" + href + "\">" + html(file.string()) + "</a> (" +
              std::to_string(th.source_width) + "x" + std::to_string(th.source_height) + ")";
    }
    s += "<div class=\"full\">Full size: " + full + "</div></div>\n";
    ++*thumbnails;
  }
  return s + "</div></section>\n";
}

// Every configuration against its base: mean over captures of the per-capture ratio of means.
std::string summary_html(results::ResultsDb& db, const std::vector<std::string>& configs,
                         const std::map<std::string, std::string>& bases) {
  static const std::vector<std::string> metrics = {"cycles", "l2.accesses", "dram.accesses", "energy.total_nj"};
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& c : configs) pairs.emplace_back(c, bases.at(c));
  const Table t = report::run(db, report::pair_deltas_sql(pairs, metrics));
  // config -> metric -> (mean ratio, captures)
  std::map<std::string, std::map<std::string, std::pair<std::optional<std::string>, int>>> cells;
  for (const auto& r : t.rows) {
    auto& cell = cells[*r[t.column("config")]][*r[t.column("metric")]];
    if (*r[t.column("capture")] == "mean") cell.first = r[t.column("ratio")];
    else ++cell.second;
  }
  std::string s = "<section id=\"summary\"><h2>Summary: every configuration against its base</h2>\n";
  s += "<p>Mean over captures of each capture's ratio (frames both runs measured); the base of a configuration "
       "is its plain preset unless the report was given --base. <span class=\"sql\">report/figures/"
       "pair-deltas.sql</span></p>\n";
  if (configs.empty()) return s + "<p class=\"notice\" data-fig=\"summary\">No runs in this database.</p></section>\n";
  s += "<table class=\"data\" data-fig=\"summary\"><tr><th>configuration</th><th>base</th><th>captures</th>";
  for (const auto& m : metrics) s += "<th>" + html(m) + "</th>";
  s += "</tr>\n";
  for (const auto& c : configs) {
    const std::string& base = bases.at(c);
    auto row = cells.find(c);
    int captures = 0;
    if (row != cells.end())
      for (const auto& [m, cell] : row->second) captures = std::max(captures, cell.second);
    s += "<tr><td>" + html(c) + "</td><td>" + html(base) + "</td><td class=\"num\">" + std::to_string(captures) + "</td>";
    if (row == cells.end()) {
      s += "<td colspan=\"" + std::to_string(metrics.size()) + "\">no frame where both runs have one of these metrics</td></tr>\n";
      continue;
    }
    for (const auto& m : metrics) {
      auto cell = row->second.find(m);
      s += "<td class=\"num\">" + (cell == row->second.end() ? std::string("\u2014") : fmt(cell->second.first, 3)) +
           "</td>";
    }
    s += "</tr>\n";
  }
  return s + "</table></section>\n";
}

// Per capture: the tile grid's size, the metrics and views of the two menus and, per view and
// metric the view measures, where its levels are in the capture's buffer and the range they
// quantise (report/heatmaps.h); the buffer itself deflated and base64, which the page inflates.
void heatmaps_json(Json& j, const HeatMaps& h) {
  j.open('[');
  for (const report::PackedCapture& p : report::pack_heat_maps(h)) {
    j.open('{').key("capture").str(p.capture).key("label").str(capture_label(p.capture));
    j.key("width").num(p.width).key("height").num(p.height);
    j.key("metrics").open('[');
    for (const auto& m : p.metrics) j.str(m);
    j.close(']');
    j.key("views").open('[');
    for (const report::PackedView& v : p.views) {
      j.open('{').key("name").str(v.name).key("diff").raw(v.diff ? "true" : "false");
      j.key("grids").open('{');
      for (const auto& [m, g] : v.grids) {
        j.key(m).open('{').key("offset").num(g.offset).key("lo").num(g.lo).key("hi").num(g.hi).close('}');
      }
      j.close('}').close('}');
    }
    j.close(']');
    j.key("bytes").num(static_cast<double>(p.levels_bytes)).key("levels").str(base64(p.deflated));
    j.close('}');
  }
  j.close(']');
}

// Debian's libjs-vega ships each Vega module as its own UMD bundle, and each sets the global
// `vega` to a fresh object, so they cannot be loaded as plain scripts one after the other. The page
// gives each module the CommonJS environment its UMD wrapper checks for (exports, module,
// require), in dependency order; report_page.js then assembles them as the `vega` package does.
const std::vector<std::string>& vega_modules() {
  static const std::vector<std::string> modules = {
      "vega-util", "vega-time", "vega-format", "vega-loader", "vega-dataflow", "vega-scale",
      "vega-canvas", "vega-scenegraph", "vega-statistics", "vega-expression", "vega-selection",
      "vega-event-selector", "vega-functions", "vega-runtime", "vega-view", "vega-parser",
      "vega-encode", "vega-transforms", "vega-view-transforms"};
  return modules;
}

std::string vega_scripts(const std::string& dir) {
  std::string s = "<script>\nconst tesseraVegaModules = {};\n"
                  "function tesseraVegaModule(name, body) {\n"
                  "  const module = {exports: {}};\n"
                  "  body.call(globalThis, module.exports, module, (dep) => {\n"
                  "    const m = tesseraVegaModules[dep === 'vega-selections' ? 'vega-selection' : dep];\n"
                  "    if (!m) throw new Error('Vega module ' + dep + ' is not loaded');\n"
                  "    return m;\n"
                  "  });\n"
                  "  tesseraVegaModules[name] = module.exports;\n"
                  "}\n</script>\n";
  for (const std::string& m : vega_modules()) {
    const fs::path path = fs::path(dir) / (m + ".min.js");
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      throw ReportError(path.string() + ": not found (the report draws with Debian's libjs-vega: apt-get install "
                        "libjs-vega)");
    std::string code = read_file(path);
    // The source-map comment points at a file the page does not carry.
    const size_t map = code.rfind("//# sourceMappingURL=");
    if (map != std::string::npos) code.erase(map);
    if (code.find("</script") != std::string::npos)
      throw ReportError(path.string() + ": holds \"</script\", which cannot be inlined in a page");
    s += "<script>tesseraVegaModule('" + m + "', function (exports, module, require) {\n" + code + "\n});</script>\n";
  }
  return s;
}

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

struct HeadlineLine {
  std::string paper, figure, claim, paper_value, ours;
  std::optional<report::Verdict> verdict;  // none without data
  std::string explain;                     // the figure's `explain`
};

// The verdict cells of a headline: direction, within 2x.
std::pair<std::string, std::string> verdict_words(const HeadlineLine& h) {
  if (!h.verdict) return {"", ""};
  const report::Verdict& v = *h.verdict;
  const char* dir = v.direction == report::Direction::kAgrees     ? "agrees"
                    : v.direction == report::Direction::kOpposite ? "opposite"
                    : v.direction == report::Direction::kFlat     ? "no change"
                                                                  : "(a share)";
  return {dir, v.within_2x ? "yes" : "no"};
}

// "N of M claims agree in direction, K within 2x": the page's and the terminal's summary line.
std::string verdict_summary(const std::vector<HeadlineLine>& headlines) {
  size_t with_data = 0, directed = 0, agree = 0, within = 0, none = 0;
  for (const auto& h : headlines) {
    if (!h.verdict) {
      ++none;
      continue;
    }
    ++with_data;
    if (h.verdict->direction != report::Direction::kNone) ++directed;
    if (h.verdict->direction == report::Direction::kAgrees) ++agree;
    if (h.verdict->within_2x) ++within;
  }
  return std::to_string(agree) + " of " + std::to_string(directed) + " claims agree in direction, " +
         std::to_string(within) + " of " + std::to_string(with_data) + " within 2x" +
         (none ? " (" + std::to_string(none) + " without data)" : std::string());
}

// --- --svg: each chart as its own file, rendered by headless Chromium -------------------------

// Runs `chromium --headless --dump-dom` on the page with #svg-export; report_page.js then writes
// each chart's view.toSVG() (a heat map: its canvas, at twice the page's resolution, as a PNG in an
// SVG) as base64 into <pre class="svg-export" data-fig=ID>, which is read back from the dumped DOM.
int write_svgs(const ReportOptions& opt, const std::vector<std::string>& expected) {
  std::error_code ec;
  fs::create_directories(opt.svg_dir, ec);
  if (ec) throw ReportError(opt.svg_dir + ": " + ec.message());
  const fs::path page = fs::absolute(opt.output);
  char profile_template[] = "/tmp/tessera-report-chromium-XXXXXX";
  if (!mkdtemp(profile_template)) throw ReportError(std::string("cannot create a Chromium profile folder: ") + std::strerror(errno));
  const std::string profile = profile_template;
  const std::string dump = profile + "/dom.html";
  const std::vector<std::string> args = {opt.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                         "--no-first-run", "--disable-background-networking",
                                         "--disable-component-update", "--disable-sync",
                                         "--user-data-dir=" + profile, "--virtual-time-budget=60000",
                                         "--dump-dom", "file://" + page.string() + "#svg-export"};
  std::fflush(nullptr);  // else the child's freopen would write our buffered stdout a second time
  const pid_t pid = fork();
  if (pid < 0) throw ReportError(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    FILE* out = std::freopen(dump.c_str(), "w", stdout);
    FILE* err = std::freopen("/dev/null", "w", stderr);
    if (!out || !err) _exit(126);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string dom;
  if (fs::exists(dump, ec)) dom = read_file(dump);
  fs::remove_all(profile, ec);
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
    throw ReportError(opt.chromium + ": cannot run it for --svg (Debian's chromium package)");
  if (WEXITSTATUS(status) != 0)
    throw ReportError(opt.chromium + ": exited with status " + std::to_string(WEXITSTATUS(status)) + " rendering " +
                      page.string());
  int written = 0;
  std::set<std::string> seen;
  const std::string open_tag = "<pre class=\"svg-export\" data-fig=\"";
  for (size_t at = dom.find(open_tag); at != std::string::npos; at = dom.find(open_tag, at + 1)) {
    const size_t id_begin = at + open_tag.size(), id_end = dom.find('"', id_begin);
    const size_t body = dom.find('>', id_end), end = dom.find("</pre>", body);
    if (id_end == std::string::npos || body == std::string::npos || end == std::string::npos) break;
    const std::string id = dom.substr(id_begin, id_end - id_begin);
    const std::string svg = unbase64(std::string_view(dom).substr(body + 1, end - body - 1));
    std::ofstream out(fs::path(opt.svg_dir) / (id + ".svg"), std::ios::binary);
    out << svg;
    if (!out) throw ReportError(opt.svg_dir + "/" + id + ".svg: cannot write");
    seen.insert(id);
    ++written;
  }
  for (const auto& id : expected)
    if (!seen.count(id))
      throw ReportError(page.string() + ": Chromium rendered no SVG for chart " + id +
                        (dom.find("data-render-error") != std::string::npos ? " (the page reports a render error)"
                                                                            : ""));
  return written;
}

int run_report(const ReportOptions& opt) {
  try {
    std::unique_ptr<results::ResultsDb> db;
    try {
      db = report::open_for_figures(opt.db);
    } catch (const results::Error& e) {
      throw ReportError(e.what());
    }
    restrict_captures(*db, opt.captures);
    report::materialize_measured_frames(*db);

    const std::vector<std::string> configs = report::configurations(*db);
    std::map<std::string, std::string> bases;
    if (!opt.base.empty() && std::find(configs.begin(), configs.end(), opt.base) == configs.end())
      throw ReportError(opt.db + ": --base " + opt.base + ": no runs of that configuration", 2);
    for (const auto& c : configs) {
      try {
        bases[c] = opt.base.empty() ? report::ConfigSpec::parse(c).default_base() : opt.base;
      } catch (const std::invalid_argument& e) {
        throw ReportError(opt.db + ": " + e.what());
      }
    }

    // Everything the page shows, computed before a byte is written.
    std::vector<HeadlineLine> headlines;
    std::vector<std::string> chart_ids;
    auto load = [&](const report::Figure& f) {
      FigureData d = load_figure(*db, f);
      if (!d.rows.empty()) chart_ids.push_back(f.id);
      for (size_t i = 0; i < f.headlines.size(); ++i) {
        const auto& h = f.headlines[i];
        headlines.push_back({f.paper, f.id, h.text, report::format_headline(h.paper, h.show),
                             d.ours[i] ? report::format_headline(*d.ours[i], h.show) : "no data",
                             d.ours[i] ? std::optional(report::judge(h.paper, *d.ours[i], h.show)) : std::nullopt,
                             f.explain});
      }
      return d;
    };
    std::vector<std::vector<FigureData>> paper_figures;
    for (const auto& p : report::papers()) {
      paper_figures.emplace_back();
      for (const auto& f : p.figures) paper_figures.back().push_back(load(f));
    }
    std::vector<FigureData> replication;
    for (const auto& f : report::replication_figures()) replication.push_back(load(f));
    const HeatMaps tiles = report::load_heat_maps(*db, bases);
    for (const auto& [capture, views] : tiles.captures) chart_ids.push_back(heatmap_id(capture));
    int thumbnails = 0;
    const std::string suite = suite_html(*db, opt.png_dir, opt.output, &thumbnails);
    const std::string summary = summary_html(*db, configs, bases);

    Json j;
    j.open('{');
    j.key("papers").open('[');
    for (const auto& figures : paper_figures)
      for (const auto& d : figures)
        if (!d.rows.empty()) figure_json(j, d);
    for (const auto& d : replication)
      if (!d.rows.empty()) figure_json(j, d);
    j.close(']');
    j.key("heatmaps");
    heatmaps_json(j, tiles);
    j.close('}');

    std::string page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Tessera report: " +
                       html(fs::path(opt.db).filename().string()) + "</title>\n<style>\n" +
                       report::page_assets().at("report_page.css") + "</style>\n</head>\n<body>\n";
    page += "<header><h1>Tessera report</h1><p>Database <code>" + html(opt.db) + "</code>, " +
            std::to_string(configs.size()) + " configurations, written " + now_utc() + " by tessera " +
            TESSERA_VERSION + ". Base of each configuration: " +
            (opt.base.empty() ? std::string("its plain preset") : html(opt.base)) +
            ". A run's first frame (cold caches, sim.warm = 0) is left out when the run has warm frames.</p>"
            "<nav><a href=\"#headlines\">headlines</a> <a href=\"#suite\">suite</a>";
    for (const auto& p : report::papers()) page += " <a href=\"#paper-" + p.id + "\">paper " + p.id + "</a>";
    page += " <a href=\"#heatmaps\">heat maps</a> <a href=\"#replication\">replication</a> <a "
            "href=\"#summary\">summary</a></nav></header>\n";

    const std::string verdict = verdict_summary(headlines);
    page += "<section id=\"headlines\"><h2>Headline numbers: the papers' and ours</h2>\n<p class=\"verdict\" "
            "id=\"verdict-summary\">" + html(verdict) + ".</p>\n<p class=\"rules\">" + html(report::kVerdictRules) +
            " Each claim links to its figure; one not within 2x names the metrics that explain it.</p>\n"
            "<table class=\"data\" data-fig=\"headlines\"><tr><th>paper</th><th>claim</th><th>paper</th><th>ours</th>"
            "<th>direction</th><th>within 2x</th></tr>\n";
    for (const auto& h : headlines) {
      const auto [dir, within] = verdict_words(h);
      const bool off = h.verdict && !h.verdict->within_2x;
      std::string claim = "<a href=\"#" + html(h.figure) + "\">" + html(h.claim) + "</a>";
      if (off && !h.explain.empty()) claim += "<br><span class=\"explain\">explained by: " + html(h.explain) + "</span>";
      const std::string dir_class = !h.verdict                                               ? ""
                                    : h.verdict->direction == report::Direction::kOpposite ? " opposite"
                                    : h.verdict->direction == report::Direction::kFlat     ? " apart"
                                    : h.verdict->direction == report::Direction::kAgrees   ? " agrees"
                                                                                           : "";
      const std::string within_class = !h.verdict ? "" : h.verdict->within_2x ? " agrees" : " apart";
      page += "<tr><td>" + html(h.paper) + "</td><td>" + claim + "</td><td class=\"num\">" + html(h.paper_value) +
              "</td><td class=\"num\">" + html(h.ours) + "</td><td class=\"verdict" + dir_class + "\">" + html(dir) +
              "</td><td class=\"verdict" + within_class + "\">" + html(within) + "</td></tr>\n";
    }
    page += "</table></section>\n";
    page += suite;

    const std::vector<report::FigureRow> baseline = report::figure_rows(*db, "baseline");
    for (size_t i = 0; i < report::papers().size(); ++i) {
      const auto& p = report::papers()[i];
      page += "<section id=\"paper-" + p.id + "\" class=\"paper\"><h2>Paper " + p.id + ": " + html(p.title) +
              "</h2>\n<p>Schemes: " + html(p.scheme) + ".</p>\n";
      page += baseline_html(baseline, p.preset);
      for (const auto& d : paper_figures[i]) page += figure_html(d, "");
      page += "</section>\n";
    }

    page += "<section id=\"heatmaps\"><h2>Per-tile heat maps</h2>\n<p>Each tile's cycles, quads and per-core busy "
            "cycles (tile_metrics), mean over the measured frames, per configuration and as the difference against "
            "its base. <span class=\"sql\">report/figures/tiles.sql</span></p>\n";
    if (!tiles.captures.empty()) {
      // The query that gives a map's exact values, for the first map on the page.
      const auto& [capture, views] = *tiles.captures.begin();
      std::string config = views.begin()->first;
      for (const auto& [view, metrics] : views)
        if (!report::is_difference_view(view)) {
          config = view;
          break;
        }
      const auto& metrics = views.at(config);
      const std::string metric = metrics.count("cycles") ? "cycles" : metrics.begin()->first;
      page += "<p class=\"note\">The colours are quantised to " + std::to_string(report::kHeatMapSteps + 1) +
              " levels per map, evenly spaced over the map's own range (a difference's " +
              std::to_string(report::kHeatMapDifferenceSteps + 1) + ", symmetric about 0, with 0 a level of its own), and a tile's tooltip gives the value of its level, the nearest to the "
              "tile's. The exact values, per frame, are in the database's "
              "tile_metrics view, e.g. <code>tessera query " + html(opt.db) + " \"SELECT frame, tile_x, tile_y, "
              "value FROM tile_metrics WHERE capture = " + html(report::sql_literal(capture)) + " AND config = " +
              html(report::sql_literal(config)) + " AND metric = " + html(report::sql_literal(metric)) +
              " ORDER BY frame, tile_y, tile_x\"</code>; the maps are the means over the measured frames of "
              "report/figures/tiles.sql's grids, tile by tile.</p>\n";
    }
    if (tiles.captures.empty()) page += "<p class=\"notice\" data-fig=\"heatmaps\">No per-tile metrics in this database.</p>\n";
    for (const auto& [capture, views] : tiles.captures) {
      const std::string id = heatmap_id(capture);
      page += "<figure class=\"fig\" id=\"" + html(id) + "\" data-fig=\"" + html(id) + "\" data-rows=\"" +
              std::to_string(views.size()) + "\"><figcaption><b>" + html(capture_label(capture)) +
              "</b></figcaption><div class=\"chart\" data-fig=\"" + html(id) + "\" data-heatmap=\"" + html(capture) +
              "\"></div></figure>\n";
    }
    page += "</section>\n";

    page += "<section id=\"replication\"><h2>Replication in the L1 texture caches</h2>\n";
    for (const auto& d : replication) page += figure_html(d, "");
    page += "</section>\n";
    page += summary;

    page += "<script type=\"application/json\" id=\"tessera-data\">" + j.text() + "</script>\n";
    page += vega_scripts(opt.vega_dir);
    page += "<script>\n" + report::page_assets().at("report_page.js") + "</script>\n</body></html>\n";

    {
      std::ofstream out(opt.output, std::ios::binary);
      out << page;
      out.close();
      if (!out) throw ReportError(opt.output + ": cannot write (" + std::strerror(errno) + ")");
    }

    // The headline table on the terminal (what .ci/main prints): the numbers we have, and per
    // paper how many still wait for runs.
    size_t claim_w = 5;
    for (const auto& h : headlines) claim_w = std::max(claim_w, h.claim.size());
    claim_w = std::min<size_t>(claim_w, 90);
    std::printf("verdict: %s\n", verdict.c_str());
    std::printf("%-5s  %-*s  %10s  %10s  %-9s  %s\n", "paper", static_cast<int>(claim_w), "claim", "paper", "ours",
                "direction", "within 2x");
    std::map<std::string, int> missing;
    for (const auto& h : headlines) {
      if (!h.verdict) {
        ++missing[h.paper];
        continue;
      }
      const auto [dir, within] = verdict_words(h);
      std::printf("%-5s  %-*.*s  %10s  %10s  %-9s  %s\n", h.paper.c_str(), static_cast<int>(claim_w),
                  static_cast<int>(claim_w), h.claim.c_str(), h.paper_value.c_str(), h.ours.c_str(), dir.c_str(),
                  within.c_str());
    }
    for (const auto& [paper, n] : missing)
      std::printf("%-5s  %d headline number%s without runs in this database (see the report)\n", paper.c_str(), n,
                  n == 1 ? "" : "s");
    std::printf("report: %s (%zu charts, %d thumbnails)\n", opt.output.c_str(), chart_ids.size(), thumbnails);

    if (!opt.svg_dir.empty()) {
      const int n = write_svgs(opt, chart_ids);
      std::printf("svg: %d files in %s\n", n, opt.svg_dir.c_str());
    }
    return 0;
  } catch (const ReportError& e) {
    std::fprintf(stderr, "tessera report: %s\n", e.what());
    return e.exit_code;
  } catch (const results::Error& e) {
    std::fprintf(stderr, "tessera report: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {  // a value the figure SQL did not expect, and the like
    std::fprintf(stderr, "tessera report: %s: %s\n", opt.db.c_str(), e.what());
    return 1;
  }
}

}  // namespace

void setup_report(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "Write an HTML report with the papers' figures drawn from a results database");
  cmd->add_option("db", opt->db, "Results database (SQLite)")->required();
  cmd->add_option("-o,--output", opt->output, "HTML file to write (default report.html)");
  cmd->add_option("--base", opt->base, "Normalise every configuration to this one (default: each one's plain preset)");
  cmd->add_option("--captures", opt->captures, "Only these captures (stored name or file stem, e.g. vkcube)");
  cmd->add_option("--png", opt->png_dir, "Folder tessera replay --png wrote, as DIR/<capture>/frameN.png: thumbnails");
  cmd->add_option("--svg", opt->svg_dir, "Also write each chart as DIR/<figure>.svg (renders the page in headless Chromium)");
  cmd->add_option("--chromium", opt->chromium, "Chromium binary for --svg (default chromium)");
  cmd->add_option("--vega-dir", opt->vega_dir, "Directory of Debian's libjs-vega modules (default " TESSERA_VEGA_DIR ")");
  cmd->callback([opt, exit_code] { *exit_code = run_report(*opt); });
}

}  // namespace tessera::cli
