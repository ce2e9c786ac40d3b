#include "dtm-nuca/nuca_organisation.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "dtm-nuca/network_energy.h"
#include "tessera/model/gpu_model.h"

namespace tessera::model::dtm_nuca {

namespace {

double d(uint64_t v) { return static_cast<double>(v); }

}  // namespace

void TexturePathStats::count(Service service, bool l2_hit) {
  switch (service) {
    case Service::LocalHit: ++local_hits; break;
    case Service::RemoteHit: ++remote_hits; break;
    case Service::LocalMiss: ++(l2_hit ? local_l2_hits : local_l2_misses); break;
    case Service::RemoteMiss: ++(l2_hit ? remote_l2_hits : remote_l2_misses); break;
  }
}

NucaOrganisation::NucaOrganisation(const DtmNucaConfig& config, const MemoryHierarchy& hierarchy)
    : config_(config),
      cores_(hierarchy.config().shader_cores),
      line_shift_(static_cast<uint32_t>(std::countr_zero(hierarchy.config().l1tex.line_bytes))),
      line_bytes_(hierarchy.config().l1tex.line_bytes),
      l1_latency_(hierarchy.config().l1tex.hit_latency),
      banked_(hierarchy.config().l1tex.banks > 1),
      track_replication_(hierarchy.config().track_replication),
      mesh_(std::make_unique<Mesh2D>(config.mesh_shape(cores_), config.hop_latency, config.router_buffer)) {
  uint32_t lookup_endpoint = kNoOwner;
  uint32_t lookup_latency = config.table_latency;
  switch (config.organisation) {
    case Organisation::DtmNuca:
      table_.emplace(config.table(cores_));
      lookup_endpoint = mesh_->add_endpoint(mesh_->centre());
      break;
    case Organisation::DtmNucaDist:
      dist_.emplace(config.distributed_tables(cores_), *mesh_);
      break;
    case Organisation::DNuca: {
      // Paper 000 section VI: a directory sized by L2 (one entry per L2 line, organised like it).
      const CacheConfig& l2 = hierarchy.config().l2;
      directory_.emplace(DNucaDirectoryConfig{l2.size_bytes / l2.line_bytes, l2.ways});
      lookup_endpoint = mesh_->add_endpoint(mesh_->centre());
      lookup_latency = config.directory_latency;
      // An entry: the tag of a block of main memory beyond the set index, the holder and a valid bit.
      const uint32_t block_bits = bits_for(hierarchy.config().dram.size_bytes / line_bytes_);
      const uint32_t set_bits = bits_for(directory_->sets());
      const uint64_t entry_bits = (block_bits > set_bits ? block_bits - set_bits : 0) + bits_for(cores_) + 1;
      directory_bits_ = directory_->entries() * entry_bits;
      break;
    }
  }
  // An LRU insertion is the LRU policy's (access.h): another policy would fill at its usual place.
  if (config.requester_fill && hierarchy.config().l1tex.policy != "lru") {
    throw std::invalid_argument("nuca.requester_fill=true puts lines at the LRU position of the L1s, which needs "
                                "l1tex.policy=lru (it is " + hierarchy.config().l1tex.policy + ")");
  }
  path_ = std::make_unique<RemoteAccessPath>(
      *mesh_, PathConfig{lookup_latency, line_bytes_, config.flit_bytes}, lookup_endpoint);
  frame_begin_ = totals();
}

NucaOrganisation::Totals NucaOrganisation::totals() const {
  Totals t;
  if (table_) {
    t.ownership_changes = table_->ownership_changes();
    // Each request is a read-modify-write of one entry; each epoch rewrites every entry.
    t.table_updates = table_->requests() + table_->epochs() * config_.buckets;
    t.epochs = table_->epochs();
  }
  if (dist_) {
    t.ownership_changes = dist_->ownership_changes();
    t.takes = dist_->takes();
    t.table_updates = counted_ + dist_->claims_applied();
    t.epochs = dist_->epochs();
  }
  if (directory_) {
    t.directory_lookups = directory_->lookups();
    t.directory_writes = directory_->writes();
    t.directory_evictions = directory_->evictions();
  }
  return t;
}

uint64_t NucaOrganisation::ownership_changes() const { return totals().ownership_changes - frame_begin_.ownership_changes; }

void NucaOrganisation::begin_frame() {
  stats_ = TexturePathStats{};
  remote_probes_ = 0;
  requester_fills_ = 0;
  mesh_->clear_counters();
  path_->clear_counters();
  frame_begin_ = totals();
}

bool NucaOrganisation::touches_lru(uint32_t core, uint64_t block, uint64_t t) {
  if (table_) {
    // III-B: only the just-exchanged owner -- the one the bucket was last taken from -- leaves
    // its LRU state alone; the owner and any other holder of a copy refresh theirs.
    const uint32_t bucket = table_->map().bucket(block);
    return core != table_->previous_owner(bucket) || core == table_->owner(bucket);
  }
  if (dist_) {
    // The same rule in the node's own table: it leaves its LRU alone when that table last moved
    // the bucket away from it.
    const uint32_t bucket = dist_->map().bucket(block);
    return dist_->owner(core, block, t) == core || dist_->previous_owner(core, bucket) != core;
  }
  return true;  // D-NUCA has no owners: every local hit refreshes LRU
}

bool NucaOrganisation::knows_it_owns(uint32_t core, uint64_t block) const {
  return table_ && !config_.owner_lookup && table_->owner_of_block(block) == core;
}

uint32_t NucaOrganisation::count(uint32_t core, uint64_t block, uint64_t t) {
  if (table_) {
    const TableLookup lookup = table_->request(core, block);
    if (lookup.change) notify(*lookup.change, t);
    return lookup.owner;
  }
  if (dist_) {
    dist_->count(core, block);
    ++counted_;
  }
  return kNoOwner;
}

void NucaOrganisation::notify(const OwnershipChange& change, uint64_t t) {
  if (change.from != kNoOwner) path_->notify(change.from, t);
  path_->notify(change.to, t);
}

void NucaOrganisation::tick(uint64_t t) {
  if (table_) {
    epoch_changes_.clear();
    if (table_->count_access(&epoch_changes_)) {
      for (const OwnershipChange& c : epoch_changes_) notify(c, t);
    }
  } else if (dist_) {
    dist_->count_access(t);
  }
}

MemResponse NucaOrganisation::access(MemoryHierarchy& h, const MemRequest& request, uint64_t now) {
  if (request.write) throw std::invalid_argument("DTM-NUCA: a write reached the texture caches (texture requests are reads)");
  const uint32_t core = request.unit;
  if (core >= cores_) {
    throw std::out_of_range("texture request for shader core " + std::to_string(core) + " but only " +
                            std::to_string(cores_) + " exist");
  }
  const uint64_t block = request.addr >> line_shift_;
  AnyCache& local = h.l1tex(core);
  const uint64_t start = banked_ ? local.reserve_bank(request.addr, now) : now;
  const uint64_t probed = start + l1_latency_;
  AccessInfo info{request.next_use, request.priority_class, false};
  MemResponse out;
  if (local.contains(request.addr)) {
    info.update_replacement = touches_lru(core, block, probed);
    const CacheOutcome o = local.access(request.addr, false, 0, info, start);
    if (config_.count_hits) count(core, block, probed);
    ++stats_.local_hits;
    out = MemResponse{static_cast<uint32_t>(std::max(probed, o.ready) - now), ServedBy::L1,
                      static_cast<uint32_t>(start - now)};
  } else {
    out = serve_miss(h, request, info, start, probed, now);
  }
  tick(now);
  if (track_replication_) h.record_replication(request.addr);
  return out;
}

MemResponse NucaOrganisation::serve_miss(MemoryHierarchy& h, const MemRequest& request, const AccessInfo& info,
                                         uint64_t start, uint64_t probed, uint64_t now) {
  const uint32_t core = request.unit;
  const uint64_t block = request.addr >> line_shift_;
  AnyCache& local = h.l1tex(core);
  // The miss holds one of the requester's MSHRs until its line arrives, wherever it is served
  // from; with none free it (and its requester) waits, as in the baseline.
  const uint64_t issue = local.reserve_mshr(probed);
  const uint32_t accept = static_cast<uint32_t>(start - now + (issue - probed));
  // Who serves: the table's answer (the lookup counts as an access), the node's own table, or
  // the directory's holder. The owner of the bucket knows it (nuca.owner_lookup=false): its miss
  // goes to L2 at once and its counter increment reaches the table as a local hit's does.
  const bool direct = knows_it_owns(core, block);
  const uint64_t answered = direct ? issue : path_->lookup(core, issue);
  uint32_t server = kNoOwner;
  if (direct) {
    // An owner's miss asks for no owner: with nuca.count_hits=false (only requests that ask
    // count, III-A) it is not counted either.
    if (config_.count_hits) count(core, block, issue);
    server = core;
  } else if (table_) {
    server = count(core, block, answered);
  } else if (dist_) {
    server = dist_->owner(core, block, issue);
    count(core, block, issue);
  } else {
    server = directory_->lookup(block);
  }
  const bool server_hit = server != kNoOwner && server != core && h.l1tex(server).contains(request.addr);
  const Decision decision = decide(core, false, true, server, server_hit);
  const AccessInfo below{kNoNextUse, request.priority_class, false};

  if (!decision.remote()) {
    // The requester owns the block (or nobody holds it): it reads L2 and fills its own L1.
    const uint64_t told = path_->central() && !direct ? path_->forward(core, core, answered) : answered;
    const CacheOutcome o = local.access(request.addr, false, 0, info, start);
    if (directory_) track_fill(h, core, block, o);
    const MemResponse l2 = h.access_below_l1(h.l2_requester_texture(core), request.addr, false, below, told);
    const uint64_t ready = told + l2.latency;
    local.set_ready(o, ready);
    local.commit_mshr(ready);
    stats_.count(Service::LocalMiss, l2.served_by == ServedBy::L2);
    return MemResponse{static_cast<uint32_t>(ready - now), l2.served_by, accept};
  }

  // Another L1 serves: the request reaches it, it hits or reads L2 into itself, the line comes back.
  ++remote_probes_;
  AnyCache& remote = h.l1tex(decision.server);
  uint64_t at_server = path_->forward(core, decision.server, answered);
  if (banked_) at_server = remote.reserve_bank(request.addr, at_server);
  AccessInfo owner_info = info;
  owner_info.update_replacement = true;  // a normal access of the owner's cache
  const CacheOutcome o = remote.access(request.addr, false, 0, owner_info, at_server);
  uint64_t ready = at_server + l1_latency_;
  ServedBy served_by = ServedBy::Remote;
  if (o.hit) {
    ready = std::max(ready, o.ready);
    stats_.count(Service::RemoteHit, false);
  } else {
    if (directory_) throw std::logic_error("D-NUCA: the directory named an L1 that does not hold the block");
    const uint64_t fetch = remote.reserve_mshr(ready);  // the owner's own MSHR for its fill
    const MemResponse l2 = h.access_below_l1(h.l2_requester_texture(decision.server), request.addr, false, below, fetch);
    ready = fetch + l2.latency;
    remote.set_ready(o, ready);
    remote.commit_mshr(ready);
    served_by = l2.served_by;
    stats_.count(Service::RemoteMiss, l2.served_by == ServedBy::L2);
  }
  const uint64_t arrived = path_->reply(decision.server, core, ready);
  local.commit_mshr(arrived);
  if (config_.requester_fill) {
    // Our sensitivity run (nuca.requester_fill): the requester keeps a copy at the bottom of its
    // LRU stack, the next victim of its set unless it hits again first. Not an access of its L1:
    // the request was counted where it was served.
    AccessInfo copy = info;
    copy.insert_at_lru = true;
    const CacheOutcome c = local.install(request.addr, copy);
    local.set_ready(c, arrived);
    if (c.filled) ++requester_fills_;
  }
  return MemResponse{static_cast<uint32_t>(arrived - now), served_by, accept};
}

void NucaOrganisation::track_fill(MemoryHierarchy& h, uint32_t core, uint64_t block, const CacheOutcome& o) {
  if (!o.filled) return;
  if (o.evicted && !directory_->erase(o.evicted_addr >> line_shift_, core)) {
    throw std::logic_error("D-NUCA: an L1 evicted a block the directory did not place there");
  }
  // A full directory set drops its least recently used entry: that block leaves its holder's L1.
  if (const auto gone = directory_->insert(block, core)) h.l1tex(gone->holder).invalidate(gone->block << line_shift_);
}

const std::vector<std::string>& NucaOrganisation::metric_names() {
  static const std::vector<std::string> names = {
      "l1tex.local_hits",      "l1tex.remote_hits",       "l1tex.remote_l2_hits", "l1tex.remote_l2_misses",
      "l1tex.local_l2_hits",   "l1tex.local_l2_misses",   "nuca.ownership_changes", "nuca.network_flits",
      "nuca.mean_hops",        "nuca.packets",            "nuca.contention_cycles", "nuca.lookups",
      "nuca.epochs",           "nuca.directory_evictions", "nuca.late_packets", "nuca.requester_fills",
      "nuca.link_utilisation", "nuca.mean_link_utilisation", "nuca.owners", "nuca.table_port_utilisation",
      "nuca.takes",            "nuca.buffer_wait_cycles", "nuca.buffer_overfull_packets", "nuca.buffer_late_packets",
  };
  return names;
}

void NucaOrganisation::append_metrics(FrameResults& r) const {
  const Totals now = totals();
  const MeshCounters& m = mesh_->counters();
  // Flits a link or port carried per cycle of the frame's raster phases (it carries one at most;
  // texture requests, the mesh's only traffic, come from the raster phases alone): a saturated
  // structure queues every packet behind it, which no paper figure shows, so replay warns. An
  // average over the phases: a shorter burst above it is not seen.
  const uint64_t raster = r.raster_cycles ? r.raster_cycles : r.cycles;
  const auto per_cycle = [&](uint64_t flits) { return raster ? d(flits) / d(raster) : 0.0; };
  const double busiest_link = per_cycle(mesh_->busiest_link_flits());
  const double mean_link = mesh_->links() ? per_cycle(mesh_->link_flits()) / mesh_->links() : 0.0;
  const double values[] = {
      d(stats_.local_hits),
      d(stats_.remote_hits),
      d(stats_.remote_l2_hits),
      d(stats_.remote_l2_misses),
      d(stats_.local_l2_hits),
      d(stats_.local_l2_misses),
      d(now.ownership_changes - frame_begin_.ownership_changes),
      d(m.flits),
      m.mean_hops(),
      d(m.packets),
      d(m.contention_cycles),
      d(path_->lookups()),
      d(now.epochs - frame_begin_.epochs),
      d(now.directory_evictions - frame_begin_.directory_evictions),
      d(m.late),
      d(requester_fills_),
      busiest_link,
      mean_link,
  };
  const std::vector<std::string>& names = metric_names();
  static_assert(std::size(values) == 18);
  for (size_t i = 0; i < std::size(values); ++i) r.frame_metrics.emplace_back(names[i], values[i]);
  r.frame_metrics.emplace_back(names[21], d(m.buffer_wait_cycles));
  r.frame_metrics.emplace_back(names[22], d(m.overfull));
  r.frame_metrics.emplace_back(names[23], d(m.buffer_late));
  const auto warn = [&](const char* what, double utilisation) {
    if (utilisation <= kSaturatedUtilisation) return;
    char line[160];
    std::snprintf(line, sizeof line, "%s: %s carried a flit in %.0f %% of the raster cycles (saturated above %.0f %%)",
                  organisation_name(config_.organisation), what, utilisation * 100, kSaturatedUtilisation * 100);
    r.warnings.emplace_back(line);
  };
  warn("the busiest mesh link", busiest_link);
  // How many cores own a bucket at the frame's end (the centralized table's owners, or the
  // owners the distributed tables last agreed on): a hotspot shows as few owners.
  if (table_ || dist_) {
    std::vector<bool> owner(cores_, false);
    for (uint32_t b = 0; b < config_.buckets; ++b) {
      const uint32_t o = table_ ? table_->owner(b) : dist_->agreed_owner(b);
      if (o != kNoOwner) owner[o] = true;
    }
    r.frame_metrics.emplace_back(names[18], d(static_cast<uint64_t>(std::count(owner.begin(), owner.end(), true))));
  }
  // The table (or directory) node's busier port; the distributed tables have none.
  if (path_->central()) {
    const double port = per_cycle(mesh_->port_flits(path_->lookup_endpoint()));
    r.frame_metrics.emplace_back(names[19], port);
    warn(table_ ? "the Affinity Table's port" : "the directory's port", port);
  }
  // The distributed tables' mid-epoch takes: a node's saturating counter moving a bucket to it in
  // its own table (IV-B), which nuca.ownership_changes (the owners each round agrees on) does not see.
  if (dist_) r.frame_metrics.emplace_back(names[20], d(now.takes - frame_begin_.takes));
}

void NucaOrganisation::append_energy(const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) const {
  const Totals now = totals();

  StructureEnergy network{"network", true};
  network.reads = mesh_->counters().flits;
  network.dynamic_nj = network_energy_pj(mesh_->counters()) * 1e-3;
  network.leakage_nj = p.leakage_nj(router_leakage_mw(mesh_->routers(), config_.router_buffer, packet_flits(line_bytes_ * 8, config_.flit_bytes),
                                                    config_.flit_bytes, p.tech), cycles);
  out.push_back(network);

  // The local probes of requests served remotely: one L1 read each.
  StructureEnergy probes{"l1tex_remote_probes", true};
  probes.reads = remote_probes_;
  probes.dynamic_nj = d(remote_probes_) * sram_16kib_4way(p.tech).read_pj * 1e-3;
  out.push_back(probes);

  if (table_ || dist_) {
    const uint64_t bits = table_ ? table_->storage_bits() : dist_->storage_bits_per_node();
    const uint32_t copies = table_ ? 1 : cores_;
    StructureEnergy table{"affinity_table", true};
    table.writes = now.table_updates - frame_begin_.table_updates;
    table.dynamic_nj = table_energy_pj(table.writes, 0, bits, p.tech) * 1e-3;
    table.leakage_nj = p.sram_leakage_nj(static_cast<double>(bits) / 8192.0 * copies, cycles);
    out.push_back(table);
  }
  if (directory_) {
    StructureEnergy directory{"dnuca_directory", true};
    directory.reads = now.directory_lookups - frame_begin_.directory_lookups;
    directory.writes = now.directory_writes - frame_begin_.directory_writes;
    directory.dynamic_nj =
        (table_energy_pj(0, directory.reads, directory_bits_, p.tech) +
         d(directory.writes) * small_ram(p.tech, static_cast<double>(directory_bits_) / 8.0).write_pj) *
        1e-3;
    directory.leakage_nj = p.sram_leakage_nj(static_cast<double>(directory_bits_) / 8192.0, cycles);
    out.push_back(directory);
  }
}

}  // namespace tessera::model::dtm_nuca
