#include "tessera/model/params.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "tessera/model/replacement/policies.h"

namespace tessera::model {

ParamSpec int_param(std::string name, std::string def, std::string desc, double min, double max) {
  return ParamSpec{std::move(name), ParamType::Int, std::move(def), std::move(desc), min, max, {}};
}
ParamSpec float_param(std::string name, std::string def, std::string desc, double min, double max) {
  return ParamSpec{std::move(name), ParamType::Float, std::move(def), std::move(desc), min, max, {}};
}
ParamSpec bool_param(std::string name, std::string def, std::string desc) {
  return ParamSpec{std::move(name), ParamType::Bool, std::move(def), std::move(desc), 0, 0, {}};
}
ParamSpec string_param(std::string name, std::string def, std::string desc, std::vector<std::string> choices) {
  return ParamSpec{std::move(name), ParamType::String, std::move(def), std::move(desc), 0, 0, std::move(choices)};
}

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

size_t edit_distance(std::string_view a, std::string_view b) {
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

std::string format_float(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// Integers accept binary size suffixes (16KiB, 1MiB, 1GiB; K/M/G mean the same) because cache
// and memory sizes are written that way in the papers' tables.
ParamValue parse_value(const ParamSpec& spec, std::string_view text) {
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
        throw ParamError(bad + std::to_string(v) + " is outside [" + format_float(spec.min) + ", " + format_float(spec.max) + "]");
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
        throw ParamError(bad + std::string(text) + " is outside [" + format_float(spec.min) + ", " + format_float(spec.max) + "]");
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

std::string format_value(const ParamValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) return format_float(*d);
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return std::get<std::string>(v);
}

// One cache's parameters. Only what the cache can use is registered: a read-only cache (texture,
// vertex) has no write policy, a cache served one request per cycle by construction (vertex,
// tile) no banks, only the tile cache receives next-use numbers for OPT (paper 003), and only
// the L2 receives Parameter Buffer classes and last tiles for the dead-line policy (III-D).
struct CacheParams {
  std::string prefix, what, size, ways, latency, mshrs;
  bool written = false;     // receives writes: write_back, write_allocate
  std::string banks;        // several requests per cycle can reach it: banks, with this default
  bool next_use = false;    // its requests carry OPT numbers: policy opt and bypass
  bool dead_lines = false;  // its requests carry PB classes and last tiles: policy dead-line
};

void add_cache(ParamRegistry& r, const CacheParams& c) {
  std::vector<std::string> policies;
  for (auto n : replacement_policy_names()) {
    if ((n != OptPolicy::kName || c.next_use) && (n != DeadLinePolicy::kName || c.dead_lines)) policies.emplace_back(n);
  }
  const std::string& p = c.prefix;
  r.add(int_param(p + ".size", c.size, c.what + " capacity in bytes (KiB/MiB suffixes accepted)", 64, 1e12));
  r.add(int_param(p + ".ways", c.ways, c.what + " associativity; 0 = fully associative (one set of size / line ways)", 0,
                  1 << 24));
  r.add(int_param(p + ".line", "64", c.what + " line size in bytes", 4, 4096));
  r.add(int_param(p + ".latency", c.latency, c.what + " hit latency in GPU cycles", 0, 10000));
  if (!c.banks.empty()) {
    r.add(int_param(p + ".banks", c.banks, c.what + " banks (line-interleaved, one access per bank per cycle)", 1, 1024));
  }
  r.add(int_param(p + ".mshrs", c.mshrs, c.what + " outstanding misses (MSHRs); a miss finding none free waits; 0 = unbounded",
                  0, 4096));
  r.add(string_param(p + ".policy", "lru", c.what + " replacement policy", policies));
  if (c.written) {
    r.add(bool_param(p + ".write_back", "true", c.what + ": write-back (true) or write-through (false)"));
    r.add(bool_param(p + ".write_allocate", "true", c.what + ": allocate a line on a write miss"));
  }
  if (c.next_use) {
    r.add(bool_param(p + ".bypass", "false", c.what + ": with policy opt, bypass a line used later than every resident one"));
  }
}

ParamRegistry build_model_registry() {
  ParamRegistry r;
  // GPU (docs/model.md, "Presets"; the defaults are the mobile4 preset).
  r.add(int_param("gpu.freq_mhz", "600", "GPU clock in MHz (all latencies are in GPU cycles)", 1, 100000));
  r.add(int_param("gpu.shader_cores", "4", "shader cores (fragment processors), each with a private L1 texture cache", 1, 1024));
  r.add(int_param("gpu.vertex_processors", "1", "vertex processors, each with its own vertex cache", 1, 256));
  r.add(int_param("gpu.tile_width", "32", "tile width in pixels: the renderer tiles with it (one shading pass per tile size)", 1, 4096));
  r.add(int_param("gpu.tile_height", "32", "tile height in pixels: the renderer tiles with it (one shading pass per tile size)", 1, 4096));
  r.add(string_param("gpu.tile_order", "z", "order the tile fetcher visits the tiles (paper 001 Fig. 7 and section III-C)",
                    {"scanline", "z", "hilbert", "s-hilbert"}));
  r.add(int_param("gpu.earlyz_inflight_quads", "8", "quads past early-Z not yet taken by the shader cores", 1, 1 << 20));
  // Paper 001 section II-A: "from the Early Z-Test stage onwards, [the Raster Pipeline] is
  // implemented with several parallel pipelines that operate independently", quads "propagated
  // between stages through FIFO queues": a queue and an in-flight budget per pipeline (core).
  // Paper 000's Table I gives one value per queue and for early-Z, and no per-pipeline structure:
  // mobile32 shares them.
  r.add(string_param("gpu.earlyz_scope", "per-core",
                     "gpu.earlyz_inflight_quads bounds the whole GPU (shared) or each core's early-Z (per-core)",
                     {"shared", "per-core"}));
  r.add(string_param("gpu.tile_writeback", "color",
                     "what a tile loads and writes back: colour attachments only, depth and stencil staying on chip "
                     "(color, the papers' tiler), or every attachment its pass's load and store ops name (store-ops)",
                     {"color", "store-ops"}));
  // A bound, not a design: paper 002 section 3's "perfect caches" make the pixel caches perfect
  // too; on a tiler the pixel caches' traffic is the tile buffers' loads and flushes (the
  // perfect-memory scheme sets it, schemes/perfect-memory/README.md).
  r.add(string_param("gpu.framebuffer", "dram",
                     "where the tile buffers load from and flush to: main memory (dram), or a perfect pixel cache "
                     "holding the whole framebuffer (perfect: loads present at once, flushes write nothing)",
                     {"dram", "perfect"}));
  r.add(int_param("gpu.flush_buffer", "64",
                  "lines of the write buffer tile flushes are posted through (0: blending waits for the writes)", 0,
                  1 << 20));
  // Timing model (gpu_model.h). Paper 001 section III-E: each raster stage has one parallel unit
  // per shader core with a throughput of 1 quad per cycle; the rest are our stated choices.
  r.add(string_param("gpu.barrier", "tile", "raster barriers: per tile (paper 001 II-C) or per subtile (decoupled, III-E)",
                    {"tile", "subtile"}));
  // Paper 001 section III-E and Fig. 10: with decoupled barriers a parallel unit runs ahead on
  // later tiles ("two tiles ahead of the third parallel unit"). The in-order rasterizer can feed
  // a fast core only past the slow core's quads, which wait in the slow core's fragment queue;
  // a queue bounded in quads alone (queue.fragment, 64: about one subtile) stops it at the slow
  // core's quads of the next tile. The paper gives no queue size; this window (ours) is how far
  // the other cores may get whatever that queue holds -- a floor: over tiles in which the slow
  // core has no quads they may go further.
  r.add(int_param("raster.runahead_tiles", "2",
                  "with gpu.barrier=subtile: a core's fragment queue takes, beyond queue.fragment, every quad of the "
                  "tiles up to this many past the one at its head, so the other cores may get this many tiles past a "
                  "slow core whatever its queue holds (paper 001 Fig. 10 shows two); 0: queue.fragment alone",
                  0, 1 << 20));
  r.add(int_param("raster.quads_per_cycle", "1", "quads the rasterizer emits per cycle", 1, 1024));
  r.add(int_param("core.max_quads", "16", "quads resident per shader core (multithreading hides texture latency)", 1, 1 << 20));
  r.add(int_param("core.issue_lanes", "4",
                  "lanes of an execution engine (4: a quad warp); core.cost=instructions: lane-instructions issued per cycle",
                  1, 1024));
  // Shader cost by machine operation (model/README.md, "Shader core"): the access stream
  // counts each quad's operations per class; each class runs on its unit.
  r.add(string_param("core.cost", "classes",
                     "shader cost: per operation class on its unit (classes), or one issue slot per dynamic SPIR-V "
                     "instruction of a lane (instructions, the earlier model)",
                     {"classes", "instructions"}));
  r.add(int_param("core.engines", "3", "execution engines per shader core, each running one quad (warp) at a time", 1, 64));
  r.add(int_param("core.alu_rate", "2", "scalar arithmetic operations an engine issues per lane per cycle", 1, 64));
  r.add(int_param("core.sfu_ops", "4", "arithmetic issue slots a transcendental (sqrt, exp, sin, ...) takes", 1, 1024));
  r.add(int_param("core.varying_rate", "1", "varying components a core's varying unit interpolates per cycle for a quad",
                  1, 1024));
  r.add(int_param("core.ls_rate", "1", "32-bit loads/stores a core's load/store unit serves per cycle for a quad", 1, 1024));
  r.add(int_param("tex.probes_per_cycle", "1", "bilinear filter probes a core's texture unit takes per cycle", 1, 1024));
  r.add(int_param("blend.fragments_per_cycle", "4", "fragments a core's blend unit blends per cycle", 1, 1024));
  r.add(int_param("core.registers", "16",
                 "32-bit registers per lane: the register file holds core.max_quads x 4 lanes x this (its energy grows with it)",
                 1, 4096));
  r.add(int_param("vp.issue_lanes", "4", "lane-instructions a vertex processor issues per cycle", 1, 1024));
  // One bilinear sample a clock (a small Bifrost core) reads every 4x4-texel block its footprint
  // touches in that clock: up to four (paper 004 Algorithm 2, case 4).
  r.add(int_param("tex.lines_per_cycle", "4", "texture lines a core's texture unit sends to its L1 per cycle", 1, 64));
  r.add(int_param("tex.latency", "4", "texture unit address + filter pipeline cycles added to each texture instruction", 0, 10000));
  // Queues between pipeline stages (paper 000 Table I).
  r.add(int_param("queue.vertex", "16", "vertex queue entries: vertices fetched ahead of the vertex processors", 1, 1 << 20));
  r.add(int_param("queue.triangle", "16", "triangle (tile) queue entries: primitives the tile fetcher holds for the rasterizer", 1, 1 << 20));
  r.add(int_param("queue.fragment", "64", "fragment queue entries: quads between the rasterizer and early-Z", 1, 1 << 20));
  r.add(int_param("queue.color", "64", "color queue entries: shaded quads waiting for blending", 1, 1 << 20));
  r.add(string_param("queue.scope", "per-core",
                     "queue.fragment and queue.color hold that many entries for all cores together (shared) or for each "
                     "core (per-core)",
                     {"shared", "per-core"}));
  // Caches.
  // L1 texture banks: 1 leaves its ports to the texture unit (tex.lines_per_cycle). L2: 4 banks,
  // the geometry of the CACTI figure its energy comes from (energy.h); always ported.
  add_cache(r, {"l1tex", "L1 texture cache (one per shader core)", "16KiB", "4", "1", "16", false, "1", false, false});
  add_cache(r, {"vertex", "vertex cache (one per vertex processor)", "8KiB", "4", "1", "8", false, "", false, false});
  add_cache(r, {"tile", "tile cache (Parameter Buffer)", "64KiB", "4", "1", "8", true, "", true, false});
  add_cache(r, {"l2", "shared L2 cache", "1MiB", "8", "12", "32", true, "4", false, true});
  // The L1-to-L2 interconnect (hierarchy.h; paper 000 section IV-A: a common bus).
  r.add(string_param("interconnect.topology", "bus",
                     "L1-to-L2 interconnect: one shared bus (paper 000 IV-A) or a crossbar with a channel per L2 bank",
                     {"bus", "crossbar"}));
  r.add(int_param("interconnect.width", "64", "L1-to-L2 interconnect flit width in bytes (one flit per channel per cycle)",
                  1, 4096));
  r.add(int_param("interconnect.latency", "1", "L1-to-L2 interconnect cycles per traversal (request, and response)", 0,
                  10000));
  r.add(int_param("colorbuf.size", "1KiB", "on-chip color buffer bytes per shader core (its access energy and leakage)", 16, 1e9));
  r.add(int_param("colorbuf.latency", "1", "color buffer access latency in cycles (blending)", 0, 10000));
  r.add(int_param("depthbuf.size", "1KiB", "on-chip depth (Z) buffer bytes per shader core (its access energy and leakage)", 16, 1e9));
  r.add(int_param("depthbuf.latency", "1", "depth buffer access latency in cycles (early-Z)", 0, 10000));
  // Main memory.
  r.add(int_param("dram.latency_min", "50", "main memory latency of an unloaded row-buffer hit, memory cycles", 0, 1e6));
  r.add(int_param("dram.latency_max", "100", "main memory latency of an unloaded row-buffer miss, memory cycles", 0, 1e6));
  r.add(int_param("dram.freq_mhz", "400", "memory clock in MHz (latencies and bandwidth are in its cycles)", 1, 100000));
  r.add(float_param("dram.bytes_per_cycle", "4", "bytes per memory cycle over all channels", 0.001, 1e6));
  r.add(int_param("dram.channels", "2", "memory channels (line-interleaved, dram.channel_map)", 1, 64));
  r.add(string_param("dram.channel_map", "xor",
                     "which channel a line is on: line (line n on channel n mod channels) or xor (its channel bits "
                     "XOR-folded with the higher line-index bits, a power of two channels; dram.h)",
                     {"line", "xor"}));
  r.add(int_param("dram.banks", "8", "banks per channel (one open row each)", 1, 1024));
  r.add(int_param("dram.row_size", "2KiB", "DRAM row (page) size in bytes", 64, 1 << 20));
  r.add(int_param("dram.size", "1GiB",
                 "main memory capacity: 4 KiB pages are mapped on first touch; a run touching more is refused", 1 << 20, 1e15));
  r.add(string_param("dram.type", "lpddr3",
                     "DRAM device: bank and bus timing (JEDEC LPDDR3-1600 / LPDDR4-3200, dram.h) and energy per access "
                     "(docs/model.md, Energy)",
                     {"lpddr3", "lpddr4"}));
  // Energy (docs/model.md, "Energy"; energy.h cites every constant).
  r.add(string_param("energy.tech", "32nm-lop", "CACTI 7.0 technology variant for SRAM energies",
                    {"32nm-hp", "32nm-lop", "22nm-hp", "22nm-lop"}));
  r.add(float_param("energy.leakage_scale", "1", "multiplier on the stated leakage powers (energy.h)", 0, 1e6));
  r.add(float_param("energy.dram_background_mw", "20", "DRAM background (standby + refresh) power in mW (stated assumption)", 0, 1e6));
  // Simulation and statistics.
  r.add(bool_param("sim.cold_caches", "false",
                  "start every frame with cold caches (default: a run's consecutive frames keep caches warm)"));
  r.add(bool_param("stats.replication", "true", "measure the replication degree of serviced blocks in the L1 texture caches (paper 000 Fig. 1)"));
  return r;
}

}  // namespace

std::string_view param_type_name(ParamType type) {
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
  (void)parse_value(spec, spec.default_value);  // a bad default is a programming error: fail loudly
  index_.emplace(spec.name, specs_.size());
  specs_.push_back(std::move(spec));
}

const ParamSpec* ParamRegistry::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &specs_[it->second];
}

const ParamRegistry& ParamRegistry::model() {
  static const ParamRegistry registry = build_model_registry();
  return registry;
}

ParamSet::ParamSet(const ParamRegistry& registry) : registry_(&registry) {
  for (const auto& spec : registry.all()) values_.emplace(spec.name, parse_value(spec, spec.default_value));
}

void ParamSet::set(std::string_view name, std::string_view value) {
  const ParamSpec* spec = registry_->find(name);
  if (!spec) {
    std::string msg = "unknown parameter '" + std::string(name) + "'";
    const ParamSpec* nearest = nullptr;
    size_t best = 4;  // suggest only close names
    for (const auto& s : registry_->all()) {
      const size_t d = edit_distance(name, s.name);
      if (d < best) { best = d; nearest = &s; }
    }
    if (nearest) msg += " (did you mean '" + nearest->name + "'?)";
    throw ParamError(msg);
  }
  values_[spec->name] = parse_value(*spec, trim(value));
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

void ParamSet::apply_text(std::string_view text, std::string_view origin) {
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
    throw ParamError("parameter '" + std::string(name) + "' is " + std::string(param_type_name(spec->type)) + ", read as " +
                     std::string(param_type_name(type)));
  }
  return values_.find(name)->second;
}

int64_t ParamSet::get_int(std::string_view name) const { return std::get<int64_t>(value(name, ParamType::Int)); }
uint32_t ParamSet::get_u32(std::string_view name) const {
  const int64_t v = get_int(name);
  if (v < 0 || v > int64_t{std::numeric_limits<uint32_t>::max()}) {
    throw ParamError("parameter '" + std::string(name) + "': " + std::to_string(v) + " does not fit 32 bits");
  }
  return static_cast<uint32_t>(v);
}
double ParamSet::get_float(std::string_view name) const { return std::get<double>(value(name, ParamType::Float)); }
bool ParamSet::get_bool(std::string_view name) const { return std::get<bool>(value(name, ParamType::Bool)); }
const std::string& ParamSet::get_string(std::string_view name) const {
  return std::get<std::string>(value(name, ParamType::String));
}

std::string ParamSet::text(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw ParamError("unknown parameter '" + std::string(name) + "'");
  return format_value(it->second);
}

std::string ParamSet::to_text() const {
  std::string out;
  for (const auto& [name, v] : values_) out += name + "=" + format_value(v) + "\n";
  return out;
}

std::vector<PresetInfo> presets() {
  return {
      {"mobile4", "paper 001 Table II (and 003's timing): 600 MHz, 4 shader cores, 16 KiB 4-way L1 texture caches, 64 KiB tile cache, 1 MiB L2"},
      {"mobile32", "paper 000 Table I: 32 fragment processors, 4 vertex processors, 8-bank 1 MiB L2, LPDDR3"},
      {"mobile4-64k", "paper 003 Table I: mobile4 with 64 KiB 4-way vertex, texture and tile caches"},
      {"mobile-256k", "paper 004 section IV: 16 KiB 2-way L1 texture caches + 256 KiB 4-way L2 (cores, clock and memory of mobile4: the paper gives none)"},
      {"tegra2", "paper 002 sections 2-3: a Tegra 2-like GPU whose pixel processors run one warp (1 quad, Fig. 3's baseline); the paper's only numbers are the warp counts (1, 2, 16) -- cores, clock, caches, memory and the tile-based pipeline (Tegra 2 renders immediate-mode) are ours, model/README.md"},
  };
}

ParamSet make_preset(std::string_view name, const ParamRegistry& registry) {
  ParamSet set(registry);
  // docs/model.md, "Presets", mobile4 (paper 001 Table II). Main memory bandwidth is not in those
  // tables: the LPDDR3 defaults of mobile32 are kept.
  static constexpr std::string_view kMobile4 =
      "gpu.freq_mhz=600\n gpu.shader_cores=4\n gpu.vertex_processors=1\n gpu.tile_width=32\n gpu.tile_height=32\n"
      "gpu.tile_order=z\n"
      "vertex.size=8KiB\n vertex.ways=4\n vertex.line=64\n vertex.latency=1\n"
      "l1tex.size=16KiB\n l1tex.ways=4\n l1tex.line=64\n l1tex.latency=1\n"
      "tile.size=64KiB\n tile.ways=4\n tile.line=64\n tile.latency=1\n"
      "l2.size=1MiB\n l2.ways=8\n l2.line=64\n l2.latency=12\n"
      "dram.latency_min=50\n dram.latency_max=100\n dram.size=1GiB\n";
  if (name == "mobile4") {
    set.apply_text(kMobile4, "preset mobile4");
  } else if (name == "mobile4-64k") {
    // Paper 003 Table I: the mobile4 machine with 64 KiB vertex and texture caches.
    set.apply_text(kMobile4, "preset mobile4-64k");
    set.apply_text("vertex.size=64KiB\n vertex.ways=4\n l1tex.size=64KiB\n l1tex.ways=4\n tile.size=64KiB\n tile.ways=4\n",
                   "preset mobile4-64k");
  } else if (name == "mobile-256k") {
    // Paper 004 section IV, configuration 1: "the conventional 16KB, 2-way set associative cache
    // as L1 and 256KB 4-way set associative L2 cache". Cores, clock, latencies and memory are not
    // given there: those of mobile4.
    set.apply_text(kMobile4, "preset mobile-256k");
    set.apply_text("l1tex.size=16KiB\n l1tex.ways=2\n l2.size=256KiB\n l2.ways=4\n", "preset mobile-256k");
  } else if (name == "tegra2") {
    // Paper 002 section 2: a GPU "similar to the one in the NVIDIA Tegra 2 chipset" whose pixel
    // processors run one warp (the baseline of Fig. 3 is single-threaded). What the paper gives:
    // vertex and pixel processors (in-order, warps interleaved), specialized first-level vertex,
    // pixel and texture caches and an on-chip L2 (Fig. 1b), one warp per pixel processor in the
    // baseline, 2 and 16 in its comparisons (section 3). No size, clock or count: chosen (README)
    // 4 pixel and 4 vertex processors, the ULP GeForce's 4 + 4 shader cores, 300 MHz, a warp = one
    // quad (core.max_quads=1), 16 KiB 4-way texture caches, 128 KiB 8-way L2, single-channel
    // 32-bit LPDDR2 (8 B per 300 MHz memory cycle). The tile-based pipeline is ours too: Tegra 2
    // renders immediate-mode (schemes/dae/README.md, "Immediate-mode or tile-based").
    set.apply_text(kMobile4, "preset tegra2");
    set.apply_text(
        "gpu.freq_mhz=300\n gpu.vertex_processors=4\n core.max_quads=1\n l2.size=128KiB\n l2.ways=8\n l2.latency=12\n"
        "dram.freq_mhz=300\n dram.bytes_per_cycle=8\n dram.channels=1\n dram.size=1GiB\n",
        "preset tegra2");
  } else if (name == "mobile32") {
    // docs/model.md, "Presets", mobile32 (paper 000 Table I).
    set.apply_text(
        "gpu.freq_mhz=600\n gpu.shader_cores=32\n gpu.vertex_processors=4\n gpu.tile_width=32\n gpu.tile_height=32\n"
        "dram.freq_mhz=400\n dram.latency_min=50\n dram.latency_max=100\n dram.bytes_per_cycle=4\n dram.channels=2\n"
        "dram.type=lpddr3\n"
        "queue.vertex=16\n queue.triangle=16\n queue.fragment=64\n queue.color=64\n"
        "vertex.size=4KiB\n vertex.ways=2\n vertex.line=64\n vertex.latency=1\n"
        "l1tex.size=16KiB\n l1tex.ways=4\n l1tex.line=64\n l1tex.latency=2\n"
        "tile.size=32KiB\n tile.ways=2\n tile.line=64\n tile.latency=2\n"
        "l2.size=1MiB\n l2.banks=8\n l2.ways=8\n l2.line=64\n l2.latency=18\n"
        "colorbuf.size=1KiB\n colorbuf.latency=1\n depthbuf.size=1KiB\n depthbuf.latency=1\n"
        "gpu.earlyz_inflight_quads=8\n gpu.earlyz_scope=shared\n queue.scope=shared\n energy.tech=22nm-lop\n",
        "preset mobile32");
  } else {
    std::string known;
    for (const auto& p : presets()) known += (known.empty() ? "" : ", ") + std::string(p.name);
    throw ParamError("unknown preset '" + std::string(name) + "' (known: " + known + ")");
  }
  return set;
}

}  // namespace tessera::model
