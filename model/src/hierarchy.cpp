#include "tessera/model/hierarchy.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "tessera/model/timeline.h"

namespace tessera::model {

namespace {

CacheConfig cache_from_params(const ParamSet& p, const std::string& prefix, uint32_t requesters) {
  CacheConfig c;
  c.name = prefix;
  c.size_bytes = static_cast<uint64_t>(p.get_int(prefix + ".size"));
  c.ways = p.get_u32(prefix + ".ways");
  c.line_bytes = p.get_u32(prefix + ".line");
  // Fully associative: one set holding every line (paper 003 Figs. 1 and 11).
  if (c.ways == 0) c.ways = static_cast<uint32_t>(std::min<uint64_t>(c.size_bytes / c.line_bytes, UINT32_MAX));
  c.hit_latency = p.get_u32(prefix + ".latency");
  // Parameters a cache does not register (params.cpp: read-only caches have no write policy,
  // single-ported ones no banks) keep the CacheConfig defaults.
  auto has = [&](const char* name) { return p.registry().find(prefix + name) != nullptr; };
  if (has(".banks")) c.banks = p.get_u32(prefix + ".banks");
  c.mshrs = p.get_u32(prefix + ".mshrs");
  c.policy = p.get_string(prefix + ".policy");
  if (has(".write_back")) c.write_back = p.get_bool(prefix + ".write_back");
  if (has(".write_allocate")) c.write_allocate = p.get_bool(prefix + ".write_allocate");
  if (has(".bypass")) c.allow_bypass = p.get_bool(prefix + ".bypass");
  if (c.allow_bypass && c.policy != OptPolicy::kName) {
    throw ParamError(prefix + ".bypass=true needs " + prefix + ".policy=opt: only a policy that knows each line's next use "
                     "may decline to allocate");
  }
  c.requesters = requesters;
  try {
    validate_cache_config(c);
  } catch (const std::invalid_argument& e) {
    throw ParamError(std::string("parameters ") + prefix + ".*: " + e.what());
  }
  return c;
}

}  // namespace

HierarchyConfig HierarchyConfig::from_params(const ParamSet& p) {
  HierarchyConfig h;
  h.shader_cores = p.get_u32("gpu.shader_cores");
  h.vertex_processors = p.get_u32("gpu.vertex_processors");
  h.l1tex = cache_from_params(p, "l1tex", 1);
  h.vertex = cache_from_params(p, "vertex", 1);
  h.tile = cache_from_params(p, "tile", 1);
  h.l2 = cache_from_params(p, "l2", h.shader_cores + h.vertex_processors + 1);
  // Paper 000 Table I gives main memory's latency ("50-100 cycles") and bandwidth ("4 B/cycle
  // (dual channel LPDDR3)") under its 400 MHz memory clock: both are in memory cycles, the
  // bandwidth is the whole interface's. The model counts GPU cycles.
  const double gpu_mhz = static_cast<double>(p.get_int("gpu.freq_mhz"));
  const double to_gpu = gpu_mhz / static_cast<double>(p.get_int("dram.freq_mhz"));
  const uint32_t lat_min = p.get_u32("dram.latency_min"), lat_max = p.get_u32("dram.latency_max");
  if (lat_min > lat_max) {
    throw ParamError("dram.latency_min (" + std::to_string(lat_min) + ") exceeds dram.latency_max (" +
                     std::to_string(lat_max) + ")");
  }
  h.dram.latency_row_hit = static_cast<uint32_t>(std::lround(lat_min * to_gpu));
  h.dram.latency_row_miss = static_cast<uint32_t>(std::lround(lat_max * to_gpu));
  h.dram.channels = p.get_u32("dram.channels");
  h.dram.channel_xor = p.get_string("dram.channel_map") == "xor";
  if (h.dram.channel_xor && !std::has_single_bit(h.dram.channels)) {
    throw ParamError("dram.channel_map=xor needs a power-of-two dram.channels (got " + std::to_string(h.dram.channels) + ")");
  }
  h.dram.bytes_per_cycle = p.get_float("dram.bytes_per_cycle") / h.dram.channels / to_gpu;
  h.dram.timing = dram_timing_cycles(dram_device_timing_ns(p.get_string("dram.type")), gpu_mhz);
  h.dram.banks = p.get_u32("dram.banks");
  h.dram.row_bytes = p.get_u32("dram.row_size");
  h.dram.line_bytes = h.l2.line_bytes;
  h.dram.size_bytes = static_cast<uint64_t>(p.get_int("dram.size"));
  if (h.dram.row_bytes < h.dram.line_bytes) throw ParamError("dram.row_size is smaller than l2.line");
  h.interconnect.topology = p.get_string("interconnect.topology") == "crossbar" ? InterconnectConfig::Topology::Crossbar
                                                                                 : InterconnectConfig::Topology::Bus;
  h.interconnect.width_bytes = p.get_u32("interconnect.width");
  h.interconnect.latency = p.get_u32("interconnect.latency");
  h.track_replication = p.get_bool("stats.replication");
  return h;
}

MemoryHierarchy::MemoryHierarchy(const HierarchyConfig& config) : config_(config), dram_(config.dram) {
  if (config.shader_cores == 0 || config.vertex_processors == 0) {
    throw std::invalid_argument("hierarchy: at least one shader core and one vertex processor are needed");
  }
  CacheConfig l1 = config.l1tex;
  l1.requesters = 1;
  l1tex_.reserve(config.shader_cores);
  for (uint32_t i = 0; i < config.shader_cores; ++i) l1tex_.emplace_back(l1);
  CacheConfig vc = config.vertex;
  vc.requesters = 1;
  vertex_.reserve(config.vertex_processors);
  for (uint32_t i = 0; i < config.vertex_processors; ++i) vertex_.emplace_back(vc);
  CacheConfig tc = config.tile;
  tc.requesters = 1;
  tile_.emplace_back(tc);
  CacheConfig l2 = config.l2;
  l2.requesters = l2_requesters();
  l2_.emplace_back(l2);
  config_.l2.requesters = l2.requesters;
  replication_.assign(config.shader_cores + 1, 0);
  dram_fetches_.assign(l2_requesters(), 0);
  dram_writes_.assign(l2_requesters(), 0);
  l2_writer_.assign(config.l2.size_bytes / config.l2.line_bytes, kNoWriter);
  l1_line_shift_ = static_cast<uint32_t>(std::countr_zero(config.l1tex.line_bytes));
  if (config.track_replication) {
    holders_ = std::make_unique<LineHolders>(static_cast<size_t>(config.shader_cores) *
                                             (config.l1tex.size_bytes / config.l1tex.line_bytes));
  }
  l1tex_banked_ = config.l1tex.banks > 1;
  if (config.interconnect.width_bytes == 0) throw std::invalid_argument("interconnect: a flit needs at least one byte");
  const size_t channels = config.interconnect.topology == InterconnectConfig::Topology::Crossbar ? config.l2.banks : 1;
  l2_banks_.resize(config.l2.banks);
  request_channels_.resize(channels);
  response_channels_.resize(channels);
  line_flits_ = (config.l2.line_bytes + config.interconnect.width_bytes - 1) / config.interconnect.width_bytes;
}

uint64_t MemoryHierarchy::cross(bool response, uint64_t addr, uint32_t flits, uint64_t t) {
  std::vector<BusyCalendar>& channels = response ? response_channels_ : request_channels_;
  const size_t c = channels.size() == 1 ? 0 : (addr / config_.l2.line_bytes) % channels.size();
  const uint64_t start = channels[c].reserve(t, flits);
  (response ? interconnect_counters_.response_flits : interconnect_counters_.request_flits) += flits;
  interconnect_counters_.wait_cycles += start - t;
  return start + flits - 1 + config_.interconnect.latency;
}

MemoryHierarchy::~MemoryHierarchy() = default;

void MemoryHierarchy::set_texture_organisation(std::unique_ptr<TextureOrganisation> organisation) {
  organisation_ = std::move(organisation);
  // From here on the organisation may fill or evict L1 lines out of our sight: probe instead.
  if (organisation_) holders_.reset();
}

void MemoryHierarchy::set_tile_organisation(std::unique_ptr<TileCacheOrganisation> organisation) {
  tile_organisation_ = std::move(organisation);
}

void MemoryHierarchy::begin_frame() {
  for (auto* level : {&l1tex_, &vertex_, &tile_, &l2_}) {
    for (AnyCache& c : *level) c.clear_counters();
  }
  dram_.clear_counters();
  interconnect_counters_ = InterconnectCounters{};
  std::fill(replication_.begin(), replication_.end(), 0);
  misses_remote_resident_ = 0;
  std::fill(dram_fetches_.begin(), dram_fetches_.end(), 0);
  std::fill(dram_writes_.begin(), dram_writes_.end(), 0);
}

MemResponse MemoryHierarchy::access_below_l1(uint32_t l2_requester, uint64_t addr, bool write, const AccessInfo& info,
                                             uint64_t now) {
  AnyCache& l2 = l2_[0];
  // The request crosses the interconnect (a write carries its line); a read's line comes back
  // over the response channel once L2 has it.
  const uint64_t arrive = cross(false, addr, write ? 1 + line_flits_ : 1, now);
  const size_t bank = (addr / config_.l2.line_bytes) % l2_banks_.size();
  const uint64_t start = l2_banks_[bank].reserve(arrive, 1);
  if (timeline_) {
    timeline_->unit_cycles(Timeline::Unit::L2Bank, static_cast<uint32_t>(bank), Timeline::Activity::Busy, start, start + 1);
  }
  const CacheOutcome o = l2.access(addr, write, l2_requester, info, start);
  const uint64_t t = start + config_.l2.hit_latency;
  const uint32_t accept = static_cast<uint32_t>(start - now);
  // Write-backs and write-throughs are posted: they take DRAM bandwidth but nobody waits. A
  // write-back is the traffic of whoever last wrote the victim (the slot still names it).
  if (o.writeback) {
    dram_.access(o.writeback_addr, true, t, DramSource::L2Write);
    if (l2_writer_[o.slot] != kNoWriter) ++dram_writes_[l2_writer_[o.slot]];
  }
  if (o.forward_write) {
    dram_.access(addr, true, t, DramSource::L2Write);
    ++dram_writes_[l2_requester];
  }
  if (o.filled) {
    l2_writer_[o.slot] = write ? static_cast<uint16_t>(l2_requester) : kNoWriter;
  } else if (o.hit && write) {
    l2_writer_[o.slot] = static_cast<uint16_t>(l2_requester);
  }
  if (o.fetch) {
    ++dram_fetches_[l2_requester];
    const uint64_t issue = l2.reserve_mshr(t);
    const uint64_t ready = dram_.access(addr, false, issue, DramSource::L2Fetch);
    l2.set_ready(o, ready);
    l2.commit_mshr(ready);
    // A write that fetched (a partial line) needs no data back.
    const uint64_t back = write ? ready : cross(true, addr, line_flits_, ready);
    return {static_cast<uint32_t>(back - now), ServedBy::Dram, accept};
  }
  // A full-line write allocating without a fetch holds its data from now on.
  if (o.filled) l2.set_ready(o, t);
  const uint64_t ready = std::max(t, o.ready);
  const uint64_t back = write ? ready : cross(true, addr, line_flits_, ready);
  return {static_cast<uint32_t>(back - now), ServedBy::L2, accept};
}

template <class Cache>
MemResponse MemoryHierarchy::first_level_miss(Cache& cache, const CacheOutcome& o, uint32_t l2_requester,
                                              const MemRequest& request, uint64_t t, uint64_t now) {
  // The next-use numbers of a first-level stream mean nothing to L2: only the class passes down.
  if (o.writeback) {
    access_below_l1(l2_requester, o.writeback_addr, true, AccessInfo{kNoNextUse, request.priority_class, true}, t);
  }
  if (o.forward_write) {
    access_below_l1(l2_requester, request.addr, true,
                    AccessInfo{kNoNextUse, request.priority_class, request.full_line}, t);
  }
  const uint64_t accepted = t - cache.config().hit_latency;
  if (!o.fetch) {
    // A write that allocated without a fetch (full line), or one passed below: done at t.
    if (o.filled) cache.set_ready(o, t);
    return {static_cast<uint32_t>(t - now), ServedBy::L1, static_cast<uint32_t>(accepted - now)};
  }
  // The miss holds an MSHR until its line arrives; with none free it (and its requester) waits.
  const uint64_t issue = cache.reserve_mshr(t);
  const MemResponse below =
      access_below_l1(l2_requester, request.addr, false, AccessInfo{kNoNextUse, request.priority_class, false}, issue);
  const uint64_t ready = issue + below.latency;
  cache.set_ready(o, ready);
  cache.commit_mshr(ready);
  return {static_cast<uint32_t>(ready - now), below.served_by, static_cast<uint32_t>(accepted + (issue - t) - now)};
}

template <class Cache>
MemResponse MemoryHierarchy::serve_first_level(Cache& cache, const CacheConfig& cfg, uint32_t l2_requester,
                                               const MemRequest& request, uint64_t now) {
  const AccessInfo info{request.next_use, request.priority_class, request.full_line};
  const uint64_t start = cfg.banks > 1 ? cache.reserve_bank(request.addr, now) : now;
  const CacheOutcome o = cache.access(request.addr, request.write, 0, info, start);
  const uint64_t t = start + cfg.hit_latency;
  if (o.hit && !o.forward_write) {
    return {static_cast<uint32_t>(std::max(t, o.ready) - now), ServedBy::L1, static_cast<uint32_t>(start - now)};
  }
  return first_level_miss(cache, o, l2_requester, request, t, now);
}

MemResponse MemoryHierarchy::l1tex_miss(const CacheOutcome& o, const MemRequest& request, uint64_t t, uint64_t now) {
  return l1tex_[request.unit].visit(
      [&](auto& l1) { return first_level_miss(l1, o, l2_requester_texture(request.unit), request, t, now); });
}

void MemoryHierarchy::throw_no_such_core(uint32_t core) const {
  throw std::out_of_range("texture request for shader core " + std::to_string(core) + " but only " +
                          std::to_string(config_.shader_cores) + " exist");
}

MemResponse MemoryHierarchy::access_other(const MemRequest& request, uint64_t now) {
  if (request.stream == Stream::Vertex) {
    if (request.unit >= config_.vertex_processors) {
      throw std::out_of_range("vertex request for vertex processor " + std::to_string(request.unit) + " but only " +
                              std::to_string(config_.vertex_processors) + " exist");
    }
    return vertex_[request.unit].visit(
        [&](auto& c) { return serve_first_level(c, config_.vertex, l2_requester_vertex(request.unit), request, now); });
  }
  if (request.stream == Stream::Tile) {
    if (tile_organisation_) return tile_organisation_->access(*this, request, now);
    return access_tile_cache(request, now);
  }
  throw std::invalid_argument("memory request with an unknown stream");
}

MemResponse MemoryHierarchy::access_tile_cache(const MemRequest& request, uint64_t now) {
  return tile_[0].visit([&](auto& c) { return serve_first_level(c, config_.tile, l2_requester_tile(), request, now); });
}

MemoryHierarchy::PrefetchOutcome MemoryHierarchy::prefetch_texture(uint32_t core, uint64_t addr, uint64_t now,
                                                                   uint32_t source, uint32_t remote_latency) {
  if (core >= config_.shader_cores) throw std::out_of_range("prefetch for a shader core that does not exist");
  if (source != kNoSourceCore && (source >= config_.shader_cores || source == core)) {
    throw std::out_of_range("prefetch source " + std::to_string(source) + " is not another shader core");
  }
  AnyCache& l1 = l1tex_[core];
  const CacheOutcome o = l1.prefetch(addr, AccessInfo{});
  if (holders_) {
    if (o.evicted) holders_->decrement(o.evicted_addr >> l1_line_shift_);
    if (o.filled) holders_->increment(addr >> l1_line_shift_);
  }
  const uint64_t t = now + config_.l1tex.hit_latency;
  if (o.hit) return {std::max(t, o.ready), ServedBy::L1, false};
  if (o.writeback) {
    access_below_l1(l2_requester_texture(core), o.writeback_addr, true, AccessInfo{kNoNextUse, 0, true}, t);
  }
  if (!o.fetch) return {t, ServedBy::L1, false};
  // The fill holds an MSHR until its line arrives, from another L1 or from below.
  const uint64_t issue = l1.reserve_mshr(t);
  PrefetchOutcome out;
  uint64_t below_at = issue;
  if (source != kNoSourceCore) {
    uint64_t remote_ready = 0;
    if (l1tex_[source].probe(addr, &remote_ready)) {
      // The source's L1 reads the line (hit latency) once its own fill has arrived, and the
      // interconnect brings it back.
      out.ready = std::max(issue + config_.l1tex.hit_latency, remote_ready) + remote_latency;
      out.served_by = ServedBy::Remote;
    } else {
      out.remote_miss = true;
      below_at = issue + remote_latency;
    }
  }
  if (out.served_by != ServedBy::Remote) {
    const MemResponse below = access_below_l1(l2_requester_texture(core), addr, false, AccessInfo{}, below_at);
    out.ready = below_at + below.latency;
    out.served_by = below.served_by;
  }
  l1.set_ready(o, out.ready);
  l1.commit_mshr(out.ready);
  return out;
}

uint64_t MemoryHierarchy::flush_color_line(uint64_t addr, uint64_t now) {
  return dram_.access(addr, true, now, DramSource::ColorFlush);
}

void MemoryHierarchy::record_replication(uint64_t addr) {
  // All L1s share one geometry and policy: locate the set once, then scan it in each cache.
  const uint32_t holders = l1tex_[0].visit([&](const auto& first) {
    using Cache = std::remove_cvref_t<decltype(first)>;
    const LineLocation loc = first.locate(addr);
    uint32_t n = 0;
    for (const AnyCache& c : l1tex_) n += c.as<Cache>()->holds(loc) ? 1 : 0;
    return n;
  });
  ++replication_[holders];
}

CacheCounters MemoryHierarchy::l1tex_totals() const {
  CacheCounters t;
  for (const AnyCache& c : l1tex_) t += c.counters();
  return t;
}

CacheCounters MemoryHierarchy::vertex_totals() const {
  CacheCounters t;
  for (const AnyCache& c : vertex_) t += c.counters();
  return t;
}

}  // namespace tessera::model
