#include "dtm-nuca/distributed_affinity_tables.h"

#include "dtm-nuca/affinity_table.h"
#include "tessera/model/busy_calendar.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessera::model::dtm_nuca {

const DistributedTablesConfig& DistributedAffinityTables::checked(const DistributedTablesConfig& config,
                                                                  const Mesh2D& mesh) {
  if (config.nodes == 0) throw std::invalid_argument("DTM-NUCA-Dist: no nodes");
  if (config.counter_bits < 1 || config.counter_bits > 16) {
    throw std::invalid_argument("DTM-NUCA-Dist: counter_bits " + std::to_string(config.counter_bits) + " is outside 1..16");
  }
  if (config.epoch_accesses == 0) throw std::invalid_argument("DTM-NUCA-Dist: an epoch needs at least one access");
  if (config.flit_bytes == 0) throw std::invalid_argument("DTM-NUCA-Dist: flits need at least one byte");
  // A link books a packet's flits in one calendar (busy_calendar.h), at most its window long.
  if (sync_packet_flits(config) > BusyCalendar::kWindow) {
    throw std::invalid_argument("DTM-NUCA-Dist: a synchronisation packet of " +
                                std::to_string(sync_packet_flits(config)) + " flits exceeds the mesh's " +
                                std::to_string(BusyCalendar::kWindow) + "-cycle booking window");
  }
  if (mesh.endpoints() < config.nodes) {
    throw std::invalid_argument("DTM-NUCA-Dist: " + std::to_string(config.nodes) + " nodes on a mesh of " +
                                std::to_string(mesh.endpoints()) + " endpoints");
  }
  return config;
}

DistributedAffinityTables::DistributedAffinityTables(const DistributedTablesConfig& config, Mesh2D& mesh)
    : config_(checked(config, mesh)),
      mesh_(mesh),
      map_(config.page_blocks, config.buckets),
      counter_max_(static_cast<uint16_t>((1u << config.counter_bits) - 1)),
      packet_flits_(static_cast<uint32_t>(sync_packet_flits(config))),
      packet_bits_(static_cast<uint32_t>(sync_packet_bits(config))),
      counters_(static_cast<size_t>(config.nodes) * config.buckets * config.nodes, 0),
      view_(static_cast<size_t>(config.nodes) * config.buckets, 0),
      previous_(static_cast<size_t>(config.nodes) * config.buckets, kNoOwner),
      round_owner_(static_cast<size_t>(config.nodes) * config.buckets, 0),
      best_(static_cast<size_t>(config.nodes) * config.buckets),
      sent_(static_cast<size_t>(config.nodes) * config.buckets),
      inbox_(config.nodes),
      next_packet_(config.nodes, 0),
      agreed_(config.buckets, kNoOwner) {
  // Initially every node owns every bucket (section IV-B).
  for (uint32_t n = 0; n < config.nodes; ++n) {
    std::fill_n(view_.begin() + static_cast<std::ptrdiff_t>(entry(n, 0)), config.buckets, n);
  }
}

uint64_t DistributedAffinityTables::storage_bits_per_node() const {
  return uint64_t{config_.buckets} *
         (uint64_t{config_.nodes} * config_.counter_bits + bits_for(config_.nodes) + config_.counter_bits);
}

uint32_t DistributedAffinityTables::owner(uint32_t node, uint64_t block, uint64_t now) {
  if (node >= config_.nodes) throw std::out_of_range("DTM-NUCA-Dist: node " + std::to_string(node));
  deliver(node, now);
  return view_[entry(node, map_.bucket(block))];
}

void DistributedAffinityTables::count(uint32_t node, uint64_t block) {
  if (node >= config_.nodes) throw std::out_of_range("DTM-NUCA-Dist: node " + std::to_string(node));
  const uint32_t bucket = map_.bucket(block);
  uint16_t* counters = &counters_[cell(node, bucket, 0)];
  if (++counters[node] < counter_max_) return;
  // Saturation (III-B): the node takes the bucket in its own table if its counter beats the
  // owner's as this table knows it, compared before halving; then every counter of the entry halves.
  uint32_t& owner = view_[entry(node, bucket)];
  if (owner != node && AffinityTable::beats_owner(counters[node], counters[owner], config_.hysteresis_pct)) {
    previous_[entry(node, bucket)] = owner;
    owner = node;
    best_[entry(node, bucket)] = Claim{counter_max_, node};  // outranks this round's claims (header)
    ++takes_;
  }
  for (uint32_t n = 0; n < config_.nodes; ++n) counters[n] = static_cast<uint16_t>(counters[n] >> 1);
}

bool DistributedAffinityTables::count_access(uint64_t now) {
  if (++accesses_ % config_.epoch_accesses != 0) return false;
  end_epoch(now);
  return true;
}

void DistributedAffinityTables::end_epoch(uint64_t now) {
  ++round_;
  // Packets of the previous round delivered by now apply; those still in flight are superseded
  // by this round's claims.
  for (uint32_t n = 0; n < config_.nodes; ++n) {
    deliver(n, now);
    dropped_ += inbox_[n].size() - next_packet_[n];
    inbox_[n].clear();
    next_packet_[n] = 0;
  }
  // Each node's claims: the buckets its own table says it owns, with its own counters. Then the
  // reset event (III-B) clears every counter of every table.
  for (uint32_t n = 0; n < config_.nodes; ++n) {
    for (uint32_t b = 0; b < config_.buckets; ++b) {
      sent_[entry(n, b)] = view_[entry(n, b)] == n ? Claim{counters_[cell(n, b, n)], n} : Claim{};
    }
  }
  std::fill(counters_.begin(), counters_.end(), uint16_t{0});
  std::fill(best_.begin(), best_.end(), Claim{});
  round_owner_ = view_;

  // The agreed owner of this round: the best claim over every node.
  for (uint32_t b = 0; b < config_.buckets; ++b) {
    Claim top;
    for (uint32_t n = 0; n < config_.nodes; ++n) {
      const Claim& claim = sent_[entry(n, b)];
      if (claim.node != kNoOwner && better(claim, top)) top = claim;
    }
    if (top.node == kNoOwner) continue;
    if (agreed_[b] != kNoOwner && agreed_[b] != top.node) ++ownership_changes_;
    agreed_[b] = top.node;
  }

  for (uint32_t src = 0; src < config_.nodes; ++src) {
    const auto claims = sent_.begin() + static_cast<std::ptrdiff_t>(entry(src, 0));
    if (std::none_of(claims, claims + config_.buckets, [](const Claim& c) { return c.node != kNoOwner; })) continue;
    apply(src, src);  // a node knows its own claims at once
    for (uint32_t dst = 0; dst < config_.nodes; ++dst) {
      if (dst == src) continue;
      inbox_[dst].push_back(Packet{mesh_.send(src, dst, packet_flits_, packet_bits_, now), src});
    }
  }
  for (auto& inbox : inbox_) {
    std::stable_sort(inbox.begin(), inbox.end(), [](const Packet& a, const Packet& b) { return a.arrival < b.arrival; });
  }
}

void DistributedAffinityTables::deliver(uint32_t node, uint64_t now) {
  std::vector<Packet>& inbox = inbox_[node];
  size_t& next = next_packet_[node];
  while (next < inbox.size() && inbox[next].arrival <= now) apply(node, inbox[next++].src);
}

void DistributedAffinityTables::apply(uint32_t node, uint32_t src) {
  for (uint32_t b = 0; b < config_.buckets; ++b) {
    const Claim& claim = sent_[entry(src, b)];
    if (claim.node == kNoOwner) continue;  // src does not own this bucket
    ++claims_applied_;
    // The claimant's counter as broadcast (a node's own counter restarted at the reset instead).
    if (src != node) counters_[cell(node, b, src)] = static_cast<uint16_t>(claim.count);
    Claim& best = best_[entry(node, b)];
    if (!better(claim, best)) continue;
    best = claim;
    // A round's claims are one exchange: the owner it replaces is the one the table named when
    // the round began, not a claim that led only until a better one arrived.
    uint32_t& owner = view_[entry(node, b)];
    if (owner != src && round_owner_[entry(node, b)] != src) previous_[entry(node, b)] = round_owner_[entry(node, b)];
    owner = src;
  }
}

}  // namespace tessera::model::dtm_nuca
