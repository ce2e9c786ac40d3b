#include "tessera/model/hierarchy.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace tessera::model {

namespace {

CacheConfig cacheFromParams(const ParamSet& p, const std::string& prefix, uint32_t requesters) {
  CacheConfig c;
  c.name = prefix;
  c.size_bytes = static_cast<uint64_t>(p.getInt(prefix + ".size"));
  c.ways = p.getU32(prefix + ".ways");
  c.line_bytes = p.getU32(prefix + ".line");
  c.hit_latency = p.getU32(prefix + ".latency");
  c.banks = p.getU32(prefix + ".banks");
  c.policy = p.getString(prefix + ".policy");
  c.write_back = p.getBool(prefix + ".write_back");
  c.write_allocate = p.getBool(prefix + ".write_allocate");
  c.allow_bypass = p.getBool(prefix + ".bypass");
  c.requesters = requesters;
  try {
    validateCacheConfig(c);
  } catch (const std::invalid_argument& e) {
    throw ParamError(std::string("parameters ") + prefix + ".*: " + e.what());
  }
  return c;
}

}  // namespace

HierarchyConfig HierarchyConfig::fromParams(const ParamSet& p) {
  HierarchyConfig h;
  h.shader_cores = p.getU32("gpu.shader_cores");
  h.vertex_processors = p.getU32("gpu.vertex_processors");
  h.l1tex = cacheFromParams(p, "l1tex", 1);
  h.vertex = cacheFromParams(p, "vertex", 1);
  h.tile = cacheFromParams(p, "tile", 1);
  h.l2 = cacheFromParams(p, "l2", h.shader_cores + h.vertex_processors + 1);
  h.dram.latency_row_hit = p.getU32("dram.latency_min");
  h.dram.latency_row_miss = p.getU32("dram.latency_max");
  if (h.dram.latency_row_hit > h.dram.latency_row_miss) {
    throw ParamError("dram.latency_min (" + std::to_string(h.dram.latency_row_hit) + ") exceeds dram.latency_max (" +
                     std::to_string(h.dram.latency_row_miss) + ")");
  }
  // dram.bytes_per_cycle is per memory cycle and channel (paper 000 Table I: 400 MHz, 4 B/cycle,
  // dual channel); the model counts GPU cycles.
  h.dram.bytes_per_cycle = p.getFloat("dram.bytes_per_cycle") * static_cast<double>(p.getInt("dram.freq_mhz")) /
                           static_cast<double>(p.getInt("gpu.freq_mhz"));
  h.dram.channels = p.getU32("dram.channels");
  h.dram.banks = p.getU32("dram.banks");
  h.dram.row_bytes = p.getU32("dram.row_size");
  h.dram.line_bytes = h.l2.line_bytes;
  if (h.dram.row_bytes < h.dram.line_bytes) throw ParamError("dram.row_size is smaller than l2.line");
  h.track_replication = p.getBool("stats.replication");
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
  l2.requesters = l2Requesters();
  l2_.emplace_back(l2);
  config_.l2.requesters = l2.requesters;
  replication_.assign(config.shader_cores + 1, 0);
  dram_fetches_.assign(l2Requesters(), 0);
  l1_line_shift_ = static_cast<uint32_t>(std::countr_zero(config.l1tex.line_bytes));
  if (config.track_replication) {
    holders_ = std::make_unique<LineHolders>(static_cast<size_t>(config.shader_cores) *
                                             (config.l1tex.size_bytes / config.l1tex.line_bytes));
  }
  l1tex_banked_ = config.l1tex.banks > 1;
}

MemoryHierarchy::~MemoryHierarchy() = default;

void MemoryHierarchy::setTextureOrganisation(std::unique_ptr<TextureOrganisation> organisation) {
  organisation_ = std::move(organisation);
  // From here on the organisation may fill or evict L1 lines out of our sight: probe instead.
  if (organisation_) holders_.reset();
}

LineHolders::LineHolders(size_t max_lines) {
  size_t n = 16;
  while (n < 2 * max_lines) n *= 2;  // load factor at most 1/2
  keys_.assign(n, 0);
  counts_.assign(n, 0);
  mask_ = n - 1;
  shift_ = static_cast<uint32_t>(64 - std::countr_zero(n));
}

uint32_t LineHolders::increment(uint64_t line) {
  size_t i = slot(line);
  while (keys_[i] != 0 && keys_[i] != line + 1) i = (i + 1) & mask_;
  keys_[i] = line + 1;
  return ++counts_[i];
}

void LineHolders::decrement(uint64_t line) {
  size_t i = slot(line);
  while (keys_[i] != line + 1) {
    if (keys_[i] == 0) return;  // not tracked (cannot happen while every fill is counted)
    i = (i + 1) & mask_;
  }
  if (--counts_[i] != 0) return;
  // Backward-shift deletion: move later entries of the probe run into the hole.
  size_t hole = i;
  for (size_t j = (i + 1) & mask_; keys_[j] != 0; j = (j + 1) & mask_) {
    const size_t home = slot(keys_[j] - 1);
    // Entry j may fill the hole when its home is not cyclically in (hole, j].
    const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (stays) continue;
    keys_[hole] = keys_[j];
    counts_[hole] = counts_[j];
    hole = j;
  }
  keys_[hole] = 0;
  counts_[hole] = 0;
}

MemResponse MemoryHierarchy::accessBelowL1(uint32_t l2_requester, uint64_t addr, bool write, const AccessInfo& info,
                                           uint64_t now) {
  AnyCache& l2 = l2_[0];
  // Only banked structures arbitrate: with banks=1 ports are not modelled.
  const uint64_t start = config_.l2.banks > 1 ? l2.reserveBank(addr, now) : now;
  const CacheOutcome o = l2.access(addr, write, l2_requester, info);
  uint64_t t = start + config_.l2.hit_latency;
  // Write-backs and write-throughs are posted: they take DRAM bandwidth but nobody waits.
  if (o.writeback) dram_.access(o.writeback_addr, true, t, DramSource::L2Write);
  if (o.forward_write) dram_.access(addr, true, t, DramSource::L2Write);
  if (o.fetch) {
    ++dram_fetches_[l2_requester];
    t = dram_.access(addr, false, t, DramSource::L2Fetch);
    return {static_cast<uint32_t>(t - now), ServedBy::Dram};
  }
  return {static_cast<uint32_t>(t - now), ServedBy::L2};
}

template <class Cache>
MemResponse MemoryHierarchy::serveFirstLevel(Cache& cache, const CacheConfig& cfg, uint32_t l2_requester,
                                             const MemRequest& request, uint64_t now) {
  const AccessInfo info{request.next_use, request.priority_class, request.full_line};
  const uint64_t start = cfg.banks > 1 ? cache.reserveBank(request.addr, now) : now;
  const CacheOutcome o = cache.access(request.addr, request.write, 0, info);
  uint64_t t = start + cfg.hit_latency;
  if (o.hit && !o.forward_write) return {static_cast<uint32_t>(t - now), ServedBy::L1};
  ServedBy served = ServedBy::L1;
  // The next-use numbers of a first-level stream mean nothing to L2: only the class passes down.
  if (o.writeback) accessBelowL1(l2_requester, o.writeback_addr, true, AccessInfo{kNoNextUse, request.priority_class, true}, t);
  if (o.forward_write) accessBelowL1(l2_requester, request.addr, true, AccessInfo{kNoNextUse, request.priority_class, request.full_line}, t);
  if (o.fetch) {
    const MemResponse r = accessBelowL1(l2_requester, request.addr, false, AccessInfo{kNoNextUse, request.priority_class, false}, t);
    t += r.latency;
    served = r.served_by;
  }
  return {static_cast<uint32_t>(t - now), served};
}

void MemoryHierarchy::throwNoSuchCore(uint32_t core) const {
  throw std::out_of_range("texture request for shader core " + std::to_string(core) + " but only " +
                          std::to_string(config_.shader_cores) + " exist");
}

MemResponse MemoryHierarchy::l1texMiss(const CacheOutcome& o, const MemRequest& request, uint64_t t, uint64_t now) {
  const uint32_t requester = l2RequesterTexture(request.unit);
  // Texture is read-only in the baseline: a miss only fetches. Writes are still honoured so a
  // later scheme that writes through this path is counted correctly.
  if (o.writeback) accessBelowL1(requester, o.writeback_addr, true, AccessInfo{kNoNextUse, request.priority_class, true}, t);
  if (o.forward_write) accessBelowL1(requester, request.addr, true, AccessInfo{kNoNextUse, request.priority_class, request.full_line}, t);
  ServedBy served = ServedBy::L1;
  if (o.fetch) {
    const MemResponse r = accessBelowL1(requester, request.addr, false, AccessInfo{kNoNextUse, request.priority_class, false}, t);
    t += r.latency;
    served = r.served_by;
  }
  return {static_cast<uint32_t>(t - now), served};
}

MemResponse MemoryHierarchy::accessOther(const MemRequest& request, uint64_t now) {
  if (request.stream == Stream::Vertex) {
    if (request.unit >= config_.vertex_processors) {
      throw std::out_of_range("vertex request for vertex processor " + std::to_string(request.unit) + " but only " +
                              std::to_string(config_.vertex_processors) + " exist");
    }
    return vertex_[request.unit].visit(
        [&](auto& c) { return serveFirstLevel(c, config_.vertex, l2RequesterVertex(request.unit), request, now); });
  }
  if (request.stream == Stream::Tile) {
    return tile_[0].visit([&](auto& c) { return serveFirstLevel(c, config_.tile, l2RequesterTile(), request, now); });
  }
  throw std::invalid_argument("memory request with an unknown stream");
}

uint64_t MemoryHierarchy::prefetchTexture(uint32_t core, uint64_t addr, uint64_t now) {
  if (core >= config_.shader_cores) throw std::out_of_range("prefetch for a shader core that does not exist");
  const CacheOutcome o = l1tex_[core].prefetch(addr, AccessInfo{});
  if (holders_) {
    if (o.evicted) holders_->decrement(o.evicted_addr >> l1_line_shift_);
    if (o.filled) holders_->increment(addr >> l1_line_shift_);
  }
  uint64_t t = now + config_.l1tex.hit_latency;
  if (o.writeback) accessBelowL1(l2RequesterTexture(core), o.writeback_addr, true, AccessInfo{kNoNextUse, 0, true}, t);
  if (o.fetch) t += accessBelowL1(l2RequesterTexture(core), addr, false, AccessInfo{}, t).latency;
  return t;
}

uint64_t MemoryHierarchy::flushColorLine(uint64_t addr, uint64_t now) {
  return dram_.access(addr, true, now, DramSource::ColorFlush);
}

void MemoryHierarchy::recordReplication(uint64_t addr) {
  uint32_t holders = 0;
  for (const AnyCache& c : l1tex_) holders += c.contains(addr) ? 1 : 0;
  ++replication_[holders];
}

CacheCounters MemoryHierarchy::l1texTotals() const {
  CacheCounters t;
  for (const AnyCache& c : l1tex_) {
    const CacheCounters& k = c.counters();
    t.accesses += k.accesses; t.reads += k.reads; t.writes += k.writes; t.hits += k.hits; t.misses += k.misses;
    t.read_misses += k.read_misses; t.write_misses += k.write_misses; t.fills += k.fills; t.fetches += k.fetches;
    t.evictions += k.evictions; t.writebacks += k.writebacks; t.write_throughs += k.write_throughs;
    t.bypasses += k.bypasses; t.prefetches += k.prefetches; t.prefetch_fills += k.prefetch_fills;
    t.invalidations += k.invalidations;
  }
  return t;
}

}  // namespace tessera::model
