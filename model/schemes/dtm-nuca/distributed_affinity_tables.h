// The distributed Affinity Tables of DTM-NUCA-Dist (paper 000 section IV-B, Fig. 5(b)): each node
// has "its own local version" of the Affinity Table, synchronised with the others at every epoch by
// a background broadcast over the mesh and updated lazily as the packets arrive.
//
// What the paper fixes (IV-B, with the counters of III-B):
//  - A node's table is an Affinity Table as in III-A/B (Fig. 4): per bucket one saturating counter
//    per node and an owner field. The node counts its own accesses in it (the table is local, so
//    counting costs no traffic; which accesses count is the caller's, nuca.count_hits).
//  - When a counter saturates, the bucket's counters are halved (a 1-bit right shift) and the
//    ownership moves to the saturating node if its counter beats the owner's by a percentage
//    (III-B). In a node's table only the node's own counter counts, so only the node itself can
//    saturate there, and it takes the bucket in its own table at once, mid-epoch.
//  - Initially every node owns every bucket ("there has been no communication among them yet"):
//    every node's lookups name itself until the first synchronisation.
//  - At every epoch each node broadcasts its owned buckets; the broadcast never stalls a node,
//    which keeps answering with its current table and updates it "on-the-fly, as packets arrive
//    ... with the most up-to-date owner"; between two equal counters the lowest node id wins.
//
// Our reading where the paper is silent, marked [choice]:
//  - Epoch: [choice] a GPU-wide tick every epoch_accesses texture accesses of all nodes together
//    (the definition of III-B and Table I, shared with the centralized flavour); the access that
//    completes an epoch belongs to it.
//  - Hysteresis: [choice] a node knows the other nodes' counters only as last broadcast, so its
//    saturating counter (2^counter_bits - 1) is compared, before halving, with the counter its
//    table holds for the current owner: the value the owner broadcast at the last epoch end,
//    halved by each of this node's saturations of the bucket since (0 when the owner sent nothing
//    this round). The margin is the central table's (AffinityTable::beats_owner, nuca.hysteresis).
//  - Broadcast: [choice] at the end of an epoch each node reads, for every bucket its own table
//    says it owns, its own counter, and sends one packet -- per bucket an owned bit and a counter --
//    to every other node (unicast copies over X-Y routes, in increasing destination id,
//    contending like any packet). A node that owns no bucket sends nothing.
//  - Reset: [choice] the reset event of each epoch (III-B) clears every counter of the node's table
//    once its owned buckets are read for the broadcast: its own counters restart from 0, and the
//    other nodes' counters are refilled by this round's packets as they arrive.
//  - Update: [choice] a round's claims are ranked by counter, then by the strictly lowest id
//    (IV-B); a node's own claims rank at once, each arriving packet's as it arrives; the owner of
//    a bucket in the node's table becomes the best claim ranked so far, and each arriving claim's
//    counter is written into the table. Buckets no claim has reached keep their owner. A
//    mid-epoch take outranks every claim of the round (it is newer than the epoch they describe):
//    it ranks as a saturated counter, which no broadcast counter reaches since counters halve on
//    saturating. Once every packet of a round has arrived, all tables agree on every bucket that
//    no node took since. A packet of a round that a node has already left (a newer epoch ended
//    before it arrived) is dropped: the newer round supersedes it.
//  - ownership_changes counts, per round, the buckets whose agreed owner (the best claim over all
//    nodes) differs from the previous round's; the first round is not a change (every node owned
//    every bucket). A node's mid-epoch take is counted apart (takes()).
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
  uint32_t hysteresis_pct = 25;    // nuca.hysteresis
};

class DistributedAffinityTables {
 public:
  // The mesh must outlive the tables and have at least `nodes` endpoints. Throws
  // std::invalid_argument on a bad configuration.
  DistributedAffinityTables(const DistributedTablesConfig& config, Mesh2D& mesh);

  // The owner node `node`'s table names for `block` at cycle `now` (packets delivered by `now`
  // applied first).
  uint32_t owner(uint32_t node, uint64_t block, uint64_t now);

  // `node` counts an access to `block` in its own table (which accesses count: nuca.count_hits);
  // on saturation the bucket's counters halve and the node may take the bucket (header). It
  // applies no packet: read owner() first at the access's cycle, as the organisation does.
  void count(uint32_t node, uint64_t block);
  // One texture access of the GPU; returns true when it ended an epoch (the broadcast is then sent
  // at `now`).
  bool count_access(uint64_t now);

  // One synchronisation packet: a head flit plus buckets x (1 + counter_bits) bits in flits. A
  // link books a packet's flits in one calendar, so the constructor refuses a packet longer than
  // its window (BusyCalendar::kWindow); the nuca.* parameter ranges cannot make one
  // (nuca_config.cpp).
  static constexpr uint64_t sync_packet_bits(const DistributedTablesConfig& config) {
    return kHeaderBits + uint64_t{config.buckets} * (1 + config.counter_bits);
  }
  static constexpr uint64_t sync_packet_flits(const DistributedTablesConfig& config) {
    const uint64_t flit_bits = uint64_t{config.flit_bytes} * 8;
    return 1 + (sync_packet_bits(config) - kHeaderBits + flit_bits - 1) / flit_bits;
  }
  uint32_t packet_flits() const { return packet_flits_; }
  uint32_t packet_bits() const { return packet_bits_; }
  // In `node`'s table, the counter of node `of` for `bucket` (its own when of == node).
  uint32_t counter(uint32_t node, uint32_t bucket, uint32_t of) const { return counters_[cell(node, bucket, of)]; }
  uint32_t counter(uint32_t node, uint32_t bucket) const { return counter(node, bucket, node); }
  uint32_t counter_max() const { return counter_max_; }
  // The owner node's table holds right now, without applying packets.
  uint32_t view(uint32_t node, uint32_t bucket) const { return view_[entry(node, bucket)]; }
  // The owner node's table named before its last change of `bucket` (kNoOwner before any; the
  // claims of one round count as one change, from the owner named when the round began): when it
  // is the node itself and the table now names another, the node is the just-exchanged owner
  // whose local hits leave its LRU state alone (III-B).
  uint32_t previous_owner(uint32_t node, uint32_t bucket) const { return previous_[entry(node, bucket)]; }
  const BucketMap& map() const { return map_; }

  // The owner the last round agreed on: the best claim over every node (kNoOwner before any).
  uint32_t agreed_owner(uint32_t bucket) const { return agreed_[bucket]; }
  uint64_t ownership_changes() const { return ownership_changes_; }
  // Buckets nodes took in their own tables when their counters saturated.
  uint64_t takes() const { return takes_; }
  uint64_t epochs() const { return round_; }
  uint64_t packets_dropped() const { return dropped_; }
  // Claims a node's table compared with its entry (a read-modify-write each): its own and those
  // of every packet applied.
  uint64_t claims_applied() const { return claims_applied_; }
  // Bits of a node's table: the centralized table's entry (paper 000 III-A: a counter per node
  // and the owner) plus the counter of the round's best claim per bucket.
  uint64_t storage_bits_per_node() const;

 private:
  // A claim on a bucket: the claimant's counter and id (kNoOwner: none).
  struct Claim {
    uint32_t count = 0;
    uint32_t node = kNoOwner;
  };
  struct Packet {
    uint64_t arrival = 0;
    uint32_t src = 0;
  };
  size_t entry(uint32_t node, uint32_t bucket) const { return static_cast<size_t>(node) * config_.buckets + bucket; }
  size_t cell(uint32_t node, uint32_t bucket, uint32_t of) const { return entry(node, bucket) * config_.nodes + of; }
  // Whether `c` ranks above `than`: any claim above none; a higher counter; between equal counters
  // the strictly lower id (IV-B).
  static bool better(const Claim& c, const Claim& than) {
    if (than.node == kNoOwner) return true;
    if (c.count != than.count) return c.count > than.count;
    return c.node < than.node;
  }
  static const DistributedTablesConfig& checked(const DistributedTablesConfig& config, const Mesh2D& mesh);
  void end_epoch(uint64_t now);
  void deliver(uint32_t node, uint64_t now);
  void apply(uint32_t node, uint32_t src);

  DistributedTablesConfig config_;
  Mesh2D& mesh_;
  BucketMap map_;
  uint16_t counter_max_;
  uint32_t packet_flits_;
  uint32_t packet_bits_;
  std::vector<uint16_t> counters_;      // nodes x buckets x nodes: in each node's table, every node's counter
  std::vector<uint32_t> view_;          // nodes x buckets: owner in each node's table
  std::vector<uint32_t> previous_;      // nodes x buckets: the owner before the last change there
  std::vector<uint32_t> round_owner_;   // nodes x buckets: the owner when this round's claims began
  std::vector<Claim> best_;             // nodes x buckets: best claim ranked in this round
  std::vector<Claim> sent_;             // nodes x buckets: each node's claims of this round
  std::vector<std::vector<Packet>> inbox_;  // per node, this round's packets by arrival
  std::vector<size_t> next_packet_;     // per node, first packet not yet applied
  std::vector<uint32_t> agreed_;        // per bucket: the best claim of the last round
  uint64_t accesses_ = 0;
  uint64_t round_ = 0;
  uint64_t ownership_changes_ = 0;
  uint64_t takes_ = 0;
  uint64_t dropped_ = 0;
  uint64_t claims_applied_ = 0;
};

}  // namespace tessera::model::dtm_nuca
