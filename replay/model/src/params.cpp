#include "tessera/model/params.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "tessera/model/replacement/policies.h"

namespace tessera::model {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string formatFloat(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Integers accept binary size suffixes (16KiB, 1MiB, 1GiB; K/M/G mean the same) because cache
// and memory sizes are written that way in the papers' tables.
ParamValue parseValue(const ParamSpec& spec, std::string_view text) {
  const std::string bad = "parameter '" + spec.name + "': ";
  switch (spec.type) {
    case ParamType::Int: {
      int64_t v = 0;
      auto res = std::from_chars(text.data(), text.data() + text.size(), v);
      if (res.ec != std::errc() || res.ptr == text.data()) {
        throw ParamError(bad + "'" + std::string(text) + "' is not an integer");
      }
      const std::string suffix = lower(std::string_view(res.ptr, static_cast<size_t>(text.data() + text.size() - res.ptr)));
      int shift = 0;
      if (suffix.empty()) shift = 0;
      else if (suffix == "k" || suffix == "kib") shift = 10;
      else if (suffix == "m" || suffix == "mib") shift = 20;
      else if (suffix == "g" || suffix == "gib") shift = 30;
      else throw ParamError(bad + "'" + std::string(text) + "' has an unknown suffix (use KiB, MiB or GiB)");
      if (shift && (v < 0 || v > (std::numeric_limits<int64_t>::max() >> shift))) {
        throw ParamError(bad + "'" + std::string(text) + "' is out of range");
      }
      v *= int64_t{1} << shift;
      if (static_cast<double>(v) < spec.min || static_cast<double>(v) > spec.max) {
        throw ParamError(bad + std::to_string(v) + " is outside [" + formatFloat(spec.min) + ", " + formatFloat(spec.max) + "]");
      }
      return v;
    }
    case ParamType::Float: {
      double v = 0;
      auto res = std::from_chars(text.data(), text.data() + text.size(), v);
      if (res.ec != std::errc() || res.ptr != text.data() + text.size() || !std::isfinite(v)) {
        throw ParamError(bad + "'" + std::string(text) + "' is not a number");
      }
      if (v < spec.min || v > spec.max) {
        throw ParamError(bad + std::string(text) + " is outside [" + formatFloat(spec.min) + ", " + formatFloat(spec.max) + "]");
      }
      return v;
    }
    case ParamType::Bool: {
      const std::string t = lower(text);
      if (t == "true" || t == "1" || t == "on" || t == "yes") return true;
      if (t == "false" || t == "0" || t == "off" || t == "no") return false;
      throw ParamError(bad + "'" + std::string(text) + "' is not a boolean (true/false)");
    }
    case ParamType::String: {
      if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) {
        std::string known;
        for (const auto& c : spec.choices) known += (known.empty() ? "" : ", ") + c;
        throw ParamError(bad + "'" + std::string(text) + "' is not one of: " + known);
      }
      if (text.find_first_of("\n=") != std::string_view::npos) throw ParamError(bad + "value may not contain '=' or a newline");
      return std::string(text);
    }
  }
  throw ParamError(bad + "unknown type");
}

std::string formatValue(const ParamValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) return formatFloat(*d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

constexpr double kMaxInt = 9.0e18;

ParamSpec intParam(std::string name, std::string def, std::string desc, double min, double max = kMaxInt) {
  return ParamSpec{std::move(name), ParamType::Int, std::move(def), std::move(desc), min, max, {}};
}
ParamSpec floatParam(std::string name, std::string def, std::string desc, double min, double max) {
  return ParamSpec{std::move(name), ParamType::Float, std::move(def), std::move(desc), min, max, {}};
}
ParamSpec boolParam(std::string name, std::string def, std::string desc) {
  return ParamSpec{std::move(name), ParamType::Bool, std::move(def), std::move(desc), 0, 0, {}};
}
ParamSpec stringParam(std::string name, std::string def, std::string desc, std::vector<std::string> choices) {
  return ParamSpec{std::move(name), ParamType::String, std::move(def), std::move(desc), 0, 0, std::move(choices)};
}

void addCache(ParamRegistry& r, const std::string& p, const std::string& what, const std::string& size,
              const std::string& ways, const std::string& latency, const std::string& banks, bool write_back) {
  std::vector<std::string> policies;
  for (auto n : replacementPolicyNames()) policies.emplace_back(n);
  r.add(intParam(p + ".size", size, what + " capacity in bytes (KiB/MiB suffixes accepted)", 64, 1e12));
  r.add(intParam(p + ".ways", ways, what + " associativity", 1, 1024));
  r.add(intParam(p + ".line", "64", what + " line size in bytes", 4, 4096));
  r.add(intParam(p + ".latency", latency, what + " hit latency in GPU cycles", 0, 10000));
  r.add(intParam(p + ".banks", banks, what + " banks (line-interleaved, one access per bank per cycle)", 1, 1024));
  r.add(stringParam(p + ".policy", "lru", what + " replacement policy", policies));
  r.add(boolParam(p + ".write_back", write_back ? "true" : "false", what + ": write-back (true) or write-through (false)"));
  r.add(boolParam(p + ".write_allocate", "true", what + ": allocate a line on a write miss"));
  r.add(boolParam(p + ".bypass", "false", what + ": let a future-aware policy (opt) bypass instead of evicting"));
}

ParamRegistry buildModelRegistry() {
  ParamRegistry r;
  // GPU (DESIGN.md section 6; the defaults are the mobile4 preset).
  r.add(intParam("gpu.freq_mhz", "600", "GPU clock in MHz (all latencies are in GPU cycles)", 1, 100000));
  r.add(intParam("gpu.shader_cores", "4", "shader cores (fragment processors), each with a private L1 texture cache", 1, 1024));
  r.add(intParam("gpu.vertex_processors", "1", "vertex processors, each with its own vertex cache", 1, 256));
  r.add(intParam("gpu.tile_width", "32", "tile width in pixels", 1, 4096));
  r.add(intParam("gpu.tile_height", "32", "tile height in pixels", 1, 4096));
  r.add(stringParam("gpu.tile_order", "z", "tile traversal order (paper 001 Fig. 7)", {"scanline", "z", "hilbert", "s-hilbert"}));
  r.add(intParam("gpu.earlyz_inflight_quads", "8", "quads in flight in the early-Z stage", 1, 1 << 20));
  // Timing model (gpu_model.h). Paper 001 section III-E: each raster stage has one parallel unit
  // per shader core with a throughput of 1 quad per cycle; the rest are our stated choices.
  r.add(stringParam("gpu.barrier", "tile", "raster barriers: per tile (paper 001 II-C) or per subtile (decoupled, III-E)",
                    {"tile", "subtile"}));
  r.add(intParam("raster.quads_per_cycle", "1", "quads the rasterizer emits per cycle", 1, 1024));
  r.add(intParam("core.max_quads", "16", "quads resident per shader core (multithreading hides texture latency)", 1, 1 << 20));
  r.add(intParam("core.issue_lanes", "4", "lane-instructions a shader core issues per cycle (4: one quad instruction)", 1, 1024));
  r.add(intParam("vp.issue_lanes", "4", "lane-instructions a vertex processor issues per cycle", 1, 1024));
  r.add(intParam("tex.lines_per_cycle", "1", "texture lines a core's texture unit sends to its L1 per cycle", 1, 64));
  r.add(intParam("tex.latency", "4", "texture unit address + filter pipeline cycles added to each texture instruction", 0, 10000));
  r.add(intParam("tfm.latency", "1", "hit latency of a buffer in front of L1 (paper 004 TFM; only with that hook)", 0, 10000));
  // Queues between pipeline stages (paper 000 Table I).
  r.add(intParam("queue.vertex", "16", "vertex queue entries", 1, 1 << 20));
  r.add(intParam("queue.triangle", "16", "triangle / tile queue entries", 1, 1 << 20));
  r.add(intParam("queue.fragment", "64", "fragment queue entries", 1, 1 << 20));
  r.add(intParam("queue.color", "64", "color queue entries", 1, 1 << 20));
  // Caches.
  addCache(r, "l1tex", "L1 texture cache (one per shader core)", "16KiB", "4", "1", "1", true);
  addCache(r, "vertex", "vertex cache (one per vertex processor)", "8KiB", "4", "1", "1", true);
  addCache(r, "tile", "tile cache (Parameter Buffer)", "64KiB", "4", "1", "1", true);
  addCache(r, "l2", "shared L2 cache", "1MiB", "8", "12", "1", true);
  r.add(intParam("colorbuf.size", "1KiB", "on-chip color buffer bytes", 16, 1e9));
  r.add(intParam("colorbuf.latency", "1", "color buffer access latency in cycles", 0, 10000));
  r.add(intParam("depthbuf.size", "1KiB", "on-chip depth (Z) buffer bytes", 16, 1e9));
  r.add(intParam("depthbuf.latency", "1", "depth buffer access latency in cycles", 0, 10000));
  // Main memory.
  r.add(intParam("dram.latency_min", "50", "main memory latency on a row-buffer hit, GPU cycles", 0, 1e6));
  r.add(intParam("dram.latency_max", "100", "main memory latency on a row-buffer miss, GPU cycles", 0, 1e6));
  r.add(intParam("dram.freq_mhz", "400", "memory clock in MHz (converts dram.bytes_per_cycle to GPU cycles)", 1, 100000));
  r.add(floatParam("dram.bytes_per_cycle", "4", "bytes per memory cycle per channel", 0.001, 1e6));
  r.add(intParam("dram.channels", "2", "memory channels (line-interleaved)", 1, 64));
  r.add(intParam("dram.banks", "8", "banks per channel (one open row each)", 1, 1024));
  r.add(intParam("dram.row_size", "2KiB", "DRAM row (page) size in bytes", 64, 1 << 20));
  r.add(intParam("dram.size", "1GiB", "main memory capacity in bytes", 1 << 20, 1e15));
  r.add(stringParam("dram.type", "lpddr3", "DRAM device for energy per access (DESIGN.md section 7)", {"lpddr3", "lpddr4"}));
  // DTM-NUCA (paper 000 Table I), used by that scheme.
  r.add(intParam("nuca.buckets", "32", "DTM-NUCA buckets in the Affinity Table", 1, 1 << 20));
  r.add(intParam("nuca.counter_bits", "4", "DTM-NUCA affinity saturating counter bits", 1, 32));
  r.add(intParam("nuca.page_blocks", "8", "DTM-NUCA blocks per page", 1, 1 << 20));
  r.add(intParam("nuca.hop_latency", "1", "cycles per hop on the 2D mesh between texture caches", 0, 1000));
  r.add(intParam("nuca.epoch_accesses", "20000", "DTM-NUCA epoch length in accesses", 1, 1e12));
  // Energy (DESIGN.md section 7).
  r.add(stringParam("energy.tech", "32nm-lop", "CACTI 7.0 technology variant for SRAM energies",
                    {"32nm-hp", "32nm-lop", "22nm-hp", "22nm-lop"}));
  r.add(floatParam("energy.leakage_scale", "1", "multiplier on the stated SRAM leakage powers (energy.h)", 0, 1e6));
  r.add(floatParam("energy.dram_background_mw", "20", "DRAM background (standby + refresh) power in mW (stated assumption)", 0, 1e6));
  // Statistics.
  r.add(boolParam("stats.replication", "true", "measure the replication degree of serviced blocks in the L1 texture caches (paper 000 Fig. 1)"));
  return r;
}

}  // namespace

std::string_view paramTypeName(ParamType type) {
  switch (type) {
    case ParamType::Int: return "int";
    case ParamType::Float: return "float";
    case ParamType::Bool: return "bool";
    case ParamType::String: return "string";
  }
  return "?";
}

void ParamRegistry::add(ParamSpec spec) {
  if (index_.count(spec.name)) throw ParamError("parameter '" + spec.name + "' registered twice");
  (void)parseValue(spec, spec.default_value);  // a bad default is a programming error: fail loudly
  index_.emplace(spec.name, specs_.size());
  specs_.push_back(std::move(spec));
}

const ParamSpec* ParamRegistry::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &specs_[it->second];
}

const ParamRegistry& ParamRegistry::model() {
  static const ParamRegistry registry = buildModelRegistry();
  return registry;
}

ParamSet::ParamSet(const ParamRegistry& registry) : registry_(&registry) {
  for (const auto& spec : registry.all()) values_.emplace(spec.name, parseValue(spec, spec.default_value));
}

void ParamSet::set(std::string_view name, std::string_view value) {
  const ParamSpec* spec = registry_->find(name);
  if (!spec) {
    std::string msg = "unknown parameter '" + std::string(name) + "'";
    const ParamSpec* nearest = nullptr;
    size_t best = 4;  // suggest only close names
    for (const auto& s : registry_->all()) {
      const size_t d = editDistance(name, s.name);
      if (d < best) { best = d; nearest = &s; }
    }
    if (nearest) msg += " (did you mean '" + nearest->name + "'?)";
    throw ParamError(msg);
  }
  values_[spec->name] = parseValue(*spec, trim(value));
}

void ParamSet::apply(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    throw ParamError("'" + std::string(assignment) + "' is not of the form key=value");
  }
  const std::string_view key = trim(assignment.substr(0, eq));
  if (key.empty()) throw ParamError("'" + std::string(assignment) + "' has an empty key");
  set(key, trim(assignment.substr(eq + 1)));
}

void ParamSet::applyText(std::string_view text, std::string_view origin) {
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    try {
      apply(line);
    } catch (const ParamError& e) {
      throw ParamError(std::string(origin) + ":" + std::to_string(line_no) + ": " + e.what());
    }
  }
}

const ParamValue& ParamSet::value(std::string_view name, ParamType type) const {
  const ParamSpec* spec = registry_->find(name);
  if (!spec) throw ParamError("unknown parameter '" + std::string(name) + "'");
  if (spec->type != type) {
    throw ParamError("parameter '" + std::string(name) + "' is " + std::string(paramTypeName(spec->type)) + ", read as " +
                     std::string(paramTypeName(type)));
  }
  return values_.find(name)->second;
}

int64_t ParamSet::getInt(std::string_view name) const { return std::get<int64_t>(value(name, ParamType::Int)); }
uint32_t ParamSet::getU32(std::string_view name) const {
  const int64_t v = getInt(name);
  if (v < 0 || v > int64_t{std::numeric_limits<uint32_t>::max()}) {
    throw ParamError("parameter '" + std::string(name) + "': " + std::to_string(v) + " does not fit 32 bits");
  }
  return static_cast<uint32_t>(v);
}
double ParamSet::getFloat(std::string_view name) const { return std::get<double>(value(name, ParamType::Float)); }
bool ParamSet::getBool(std::string_view name) const { return std::get<bool>(value(name, ParamType::Bool)); }
const std::string& ParamSet::getString(std::string_view name) const {
  return std::get<std::string>(value(name, ParamType::String));
}

std::string ParamSet::text(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw ParamError("unknown parameter '" + std::string(name) + "'");
  return formatValue(it->second);
}

std::string ParamSet::toText() const {
  std::string out;
  for (const auto& [name, v] : values_) out += name + "=" + formatValue(v) + "\n";
  return out;
}

std::vector<PresetInfo> presets() {
  return {
      {"mobile4", "papers 001 (Table II) and 003 (Table I): 4 shader cores, 16 KiB L1 texture caches, 1 MiB L2"},
      {"mobile32", "paper 000 (Table I): 32 fragment processors, 4 vertex processors, 8-bank L2, LPDDR3"},
  };
}

ParamSet makePreset(std::string_view name, const ParamRegistry& registry) {
  ParamSet set(registry);
  if (name == "mobile4") {
    // DESIGN.md section 6, mobile4. Main memory bandwidth is not in those tables: the LPDDR3
    // defaults of mobile32 are kept.
    set.applyText(
        "gpu.freq_mhz=600\n gpu.shader_cores=4\n gpu.vertex_processors=1\n gpu.tile_width=32\n gpu.tile_height=32\n"
        "gpu.tile_order=z\n"
        "vertex.size=8KiB\n vertex.ways=4\n vertex.line=64\n vertex.latency=1\n"
        "l1tex.size=16KiB\n l1tex.ways=4\n l1tex.line=64\n l1tex.latency=1\n"
        "tile.size=64KiB\n tile.ways=4\n tile.line=64\n tile.latency=1\n"
        "l2.size=1MiB\n l2.ways=8\n l2.line=64\n l2.latency=12\n"
        "dram.latency_min=50\n dram.latency_max=100\n dram.size=1GiB\n",
        "preset mobile4");
  } else if (name == "mobile32") {
    // DESIGN.md section 6, mobile32 (paper 000 Table I).
    set.applyText(
        "gpu.freq_mhz=600\n gpu.shader_cores=32\n gpu.vertex_processors=4\n gpu.tile_width=32\n gpu.tile_height=32\n"
        "dram.freq_mhz=400\n dram.latency_min=50\n dram.latency_max=100\n dram.bytes_per_cycle=4\n dram.channels=2\n"
        "dram.type=lpddr3\n"
        "queue.vertex=16\n queue.triangle=16\n queue.fragment=64\n queue.color=64\n"
        "vertex.size=4KiB\n vertex.ways=2\n vertex.line=64\n vertex.latency=1\n"
        "l1tex.size=16KiB\n l1tex.ways=4\n l1tex.line=64\n l1tex.latency=2\n"
        "tile.size=32KiB\n tile.ways=2\n tile.line=64\n tile.latency=2\n"
        "l2.size=1MiB\n l2.banks=8\n l2.ways=8\n l2.line=64\n l2.latency=18\n"
        "colorbuf.size=1KiB\n colorbuf.latency=1\n depthbuf.size=1KiB\n depthbuf.latency=1\n"
        "gpu.earlyz_inflight_quads=8\n"
        "nuca.buckets=32\n nuca.counter_bits=4\n nuca.page_blocks=8\n nuca.hop_latency=1\n nuca.epoch_accesses=20000\n",
        "preset mobile32");
  } else {
    std::string known;
    for (const auto& p : presets()) known += (known.empty() ? "" : ", ") + std::string(p.name);
    throw ParamError("unknown preset '" + std::string(name) + "' (known: " + known + ")");
  }
  return set;
}

}  // namespace tessera::model
