// The distributed Affinity Tables of DTM-NUCA-Dist (paper 000 section IV-B, Fig. 5(b)): one table
// per node, synchronised at every epoch by a background broadcast over the mesh, applied lazily.
//
// What the paper fixes: initially every node owns every bucket (IV-B: "all Fragment Processors
// own all the buckets since there has been no communication among them yet"), so every node's
// lookups name itself and its misses go to L2, as with private caches, until the first
// synchronisation; at every epoch each node broadcasts its owned buckets; the broadcast never
// stalls a node, which keeps answering lookups with its current table and updates it "as packets
// arrive ... with the most up-to-date owner"; between equal counters the lowest node id wins.
//
// The protocol as implemented, with the choices the paper leaves open marked [choice]:
//  - Counting: an access of node n increments n's own counter of the block's bucket in n's table
//    (III-B: "every time a Fragment Processor accesses a texture block ... its counter is
//    incremented"; the table is local, so counting costs no traffic; the caller chooses which
//    accesses count, nuca.count_hits). The counters exist to say "what Fragment Processor has
//    accessed each bucket more times" (III-B). The central table keeps that order by halving all
//    the processors' counters of a bucket together; a node's table holds only its own live
//    counter, and halving it alone would lose the order (with 4 bits, 22 accesses would end at 14
//    and 23 at 7). [choice] So a node's counter saturates at 2^counter_bits - 1 and holds until
//    the epoch ends, and the node notes the epoch position (GPU-wide texture accesses since the
//    epoch began) of the access that saturated it. Below saturation the counter is the exact
//    count; among saturated counters the earliest saturation marks the node that reached
//    2^counter_bits - 1 accesses first, the highest access rate -- the processor the central
//    table hands the bucket to when its counter saturates (III-B).
//  - Epoch: [choice] a GPU-wide tick every epoch_accesses texture accesses of all nodes together
//    (the definition of III-B and Table I, shared with the centralized flavour); the access that
//    completes an epoch belongs to it.
//  - Claims: [choice] at the end of an epoch each node claims every bucket it accessed during the
//    epoch (its "owned buckets": the ones it bids for), with its counter value and saturation
//    position, and sends one packet holding a claim bit, a counter and a position for every
//    bucket to every other node (unicast copies over X-Y routes, contending like any packet).
//    Its own counters then restart from 0.
//  - Update: a node's own claims apply at once; each arriving packet applies its claims: for each
//    claimed bucket, the best claim seen in this round (highest counter; between saturated ones
//    the earlier saturation; then the lowest id, IV-B) becomes the node's owner for that bucket.
//    Buckets nobody claimed keep their owner. Once every packet of a round has arrived, all
//    tables agree on every claimed bucket. A packet of a round that a node has already left (a
//    newer epoch ended before it arrived) is dropped: the newer claims supersede it.
//  - ownership_changes counts, per round, the buckets whose agreed owner (the best claim over
//    all nodes) differs from the previous round's; the first agreement on a bucket is not a
//    change. The lazy per-node views are what lookups see.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dtm-nuca/bucket_map.h"
#include "dtm-nuca/mesh2d.h"

namespace tessera::model::dtm_nuca {

struct DistributedTablesConfig {
  uint32_t nodes = 32;             // fragment processors = mesh endpoints 0 .. nodes-1
  uint32_t buckets = 32;           // nuca.buckets
  uint32_t counter_bits = 4;       // nuca.counter_bits, 1..16
  uint32_t page_blocks = 8;        // nuca.page_blocks
  uint64_t epoch_accesses = 20000; // nuca.epoch_accesses
  uint32_t flit_bytes = 16;        // nuca.flit_bytes
};

class DistributedAffinityTables {
 public:
  // The mesh must outlive the tables and have at least `nodes` endpoints. Throws
  // std::invalid_argument on a bad configuration.
  DistributedAffinityTables(const DistributedTablesConfig& config, Mesh2D& mesh);

  // The owner node `node`'s table names for `block` at cycle `now` (packets delivered by `now`
  // applied first).
  uint32_t owner(uint32_t node, uint64_t block, uint64_t now);

  // `node` counts an access to `block` in its own table (which accesses count: nuca.count_hits).
  void count(uint32_t node, uint64_t block);
  // One texture access of the GPU; returns true when it ended an epoch (the broadcast is then sent
  // at `now`).
  bool count_access(uint64_t now);

  // One synchronisation packet: a head flit plus buckets x (1 + counter_bits + position bits)
  // in flits (position bits: enough for an epoch position, 0 .. epoch_accesses - 1). A link
  // books a packet's flits in one calendar, so the constructor refuses a packet longer than its
  // window (BusyCalendar::kWindow); the nuca.* parameter ranges cannot make one (nuca_config.cpp).
  static constexpr uint64_t sync_packet_bits(const DistributedTablesConfig& config) {
    return kHeaderBits + uint64_t{config.buckets} * (1 + config.counter_bits + bits_for(config.epoch_accesses));
  }
  static constexpr uint64_t sync_packet_flits(const DistributedTablesConfig& config) {
    const uint64_t flit_bits = uint64_t{config.flit_bytes} * 8;
    return 1 + (sync_packet_bits(config) - kHeaderBits + flit_bits - 1) / flit_bits;
  }
  uint32_t packet_flits() const { return packet_flits_; }
  uint32_t packet_bits() const { return packet_bits_; }
  uint32_t counter(uint32_t node, uint32_t bucket) const { return counts_[index(node, bucket)].count; }
  // The epoch position of the access that saturated the counter (meaningful once it has).
  uint64_t saturated_at(uint32_t node, uint32_t bucket) const { return counts_[index(node, bucket)].saturated_at; }
  // The owner node's table holds right now, without applying packets.
  uint32_t view(uint32_t node, uint32_t bucket) const { return view_[index(node, bucket)]; }
  const BucketMap& map() const { return map_; }

  // The owner the last round with a claim on `bucket` agreed on (kNoOwner before any).
  uint32_t agreed_owner(uint32_t bucket) const { return agreed_[bucket]; }
  uint64_t ownership_changes() const { return ownership_changes_; }
  uint64_t epochs() const { return round_; }
  uint64_t packets_dropped() const { return dropped_; }
  // Claims a node's table compared with its entry (a read-modify-write each): its own and those
  // of every packet applied.
  uint64_t claims_applied() const { return claims_applied_; }
  // Bits of the node's table: the same entry as the centralized table (paper 000 Table I area)
  // plus the node's saturation position per bucket.
  uint64_t storage_bits_per_node() const;

 private:
  // A node's counter of a bucket in this epoch.
  struct Counter {
    uint16_t count = 0;         // 0 = no claim
    uint64_t saturated_at = 0;  // epoch position of the access that saturated it; 0 below saturation
  };
  struct Claim {
    Counter counter;
    uint32_t node = kNoOwner;
  };
  struct Packet {
    uint64_t arrival = 0;
    uint32_t src = 0;
  };
  size_t index(uint32_t node, uint32_t bucket) const { return static_cast<size_t>(node) * config_.buckets + bucket; }
  // Highest count; between equal (saturated) counts the earlier saturation; then the lowest id.
  static bool better(const Counter& c, uint32_t node, const Claim& than) {
    const Counter& t = than.counter;
    if (c.count != t.count) return c.count > t.count;
    if (c.count == 0) return false;
    if (c.saturated_at != t.saturated_at) return c.saturated_at < t.saturated_at;
    return node < than.node;
  }
  void end_epoch(uint64_t now);
  void deliver(uint32_t node, uint64_t now);
  void apply(uint32_t node, uint32_t src);

  DistributedTablesConfig config_;
  Mesh2D& mesh_;
  BucketMap map_;
  uint16_t counter_max_;
  uint32_t packet_flits_;
  uint32_t packet_bits_;
  std::vector<Counter> counts_;         // nodes x buckets: this epoch's own counters
  std::vector<uint32_t> view_;          // nodes x buckets: owner in each node's table
  std::vector<Claim> best_;             // nodes x buckets: best claim applied in this round
  std::vector<Counter> sent_;           // nodes x buckets: each node's claims of this round
  std::vector<std::vector<Packet>> inbox_;  // per node, this round's packets by arrival
  std::vector<size_t> next_packet_;     // per node, first packet not yet applied
  std::vector<uint32_t> agreed_;        // per bucket: the best claim of the last round with one
  uint64_t accesses_ = 0;
  uint64_t round_ = 0;
  uint64_t ownership_changes_ = 0;
  uint64_t dropped_ = 0;
  uint64_t claims_applied_ = 0;
};

}  // namespace tessera::model::dtm_nuca
