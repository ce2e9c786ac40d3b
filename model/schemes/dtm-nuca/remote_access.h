// The texture request path of DTM-NUCA, DTM-NUCA-Dist and D-NUCA (paper 000 sections III-B, IV,
// VI), in two simulator-independent pieces used by the organisation (nuca_organisation.h):
//  - decide(): who serves a request and who fills what, from the facts (a pure function);
//  - RemoteAccessPath: the legs of a request over the mesh (to the lookup node, to the server,
//    the line back), with the lookup node's serialisation.
//
// Our reading of the paper, where it is silent [choice]:
//  1. The requester probes its local L1 first (III-B: "local Texture Caches are probed first, and
//     the block is served locally in case of a hit, regardless of a recent ownership change").
//  2. A local hit updates the LRU state unless the requester is the just-exchanged owner: "the LRU
//     counters are not updated when the local cache of a just-exchanged owner serves the block",
//     so that owner's copies age out. With the centralized table that is the owner the bucket was
//     last taken from (AffinityTable::previous_owner); the owner and every other holder of a copy
//     refresh it like any hit. In DTM-NUCA-Dist the node's own table says it: the node it named
//     before its last change of the bucket (DistributedAffinityTables::previous_owner). D-NUCA
//     has no owners: every local hit touches.
//  3. On a local miss the owner is found: in the node's own table (Dist: read in parallel with the
//     L1 tag probe, no network), or by a request to the centralized Affinity Table node, which
//     [choice] forwards the request straight to the owner (requester -> table -> owner ->
//     requester, as a home node forwards to an owner in a directory protocol) or, when the
//     requester is the owner, answers it. [choice] A requester that owns the bucket knows it (the
//     rule of point 2 needs every node to know its own buckets) and reads L2 without the round
//     trip (nuca.owner_lookup=false; true sends it through the table too). D-NUCA's directory
//     sits at the same mesh node.
//  4. Requester is owner (or, for D-NUCA, no L1 holds the block): it reads L2 and fills its own L1.
//  5. Another owner: the request crosses the mesh; the owner's L1 serves a hit (and updates its
//     LRU: a normal access of the owner's cache); on a miss the owner reads L2 and [choice] fills
//     its own L1 only. [choice] The requester never fills its L1 with a block of a bucket it does
//     not own: placing blocks at their owner is what removes replication (III); replicas appear
//     only from ownership changes (III-B: "there is a point in which a texture block can be
//     replicated in both an old and a new owner") and, in the distributed flavour, from tables
//     that disagree. D-NUCA likewise serves a held block remotely without copying it. Our
//     sensitivity run nuca.requester_fill=true also puts the line in the requester's L1, at the
//     LRU position (the organisation does it, not decide()).
//  6. In DTM-NUCA-Dist an owner that is not the owner in its own table still serves the request
//     as owner (it has no way to redirect it).
#pragma once

#include <cstdint>

#include "dtm-nuca/bucket_map.h"
#include "dtm-nuca/mesh2d.h"

namespace tessera::model::dtm_nuca {

// Where a request was served (paper 000 Fig. 8: local and remote accesses, each broken down
// into L2 hits and misses).
enum class Service : uint8_t {
  LocalHit,    // requester's L1
  RemoteHit,   // owner's (D-NUCA: holder's) L1, over the mesh
  LocalMiss,   // requester is the owner (or nobody holds the block): requester reads L2
  RemoteMiss,  // owner's L1 missed: owner reads L2
};

struct Decision {
  Service service = Service::LocalHit;
  uint32_t server = 0;     // the L1 that serves or is filled: the requester for Local*, else the owner
  bool touch_lru = true;   // LocalHit only: update the requester's replacement state (point 2)
  bool fill = false;       // the server's L1 allocates the block (Local/RemoteMiss)
  bool remote() const { return service == Service::RemoteHit || service == Service::RemoteMiss; }
  bool reads_l2() const { return service == Service::LocalMiss || service == Service::RemoteMiss; }
  bool operator==(const Decision&) const = default;
};

// requester_owns: the requester owns the block's bucket (always true for D-NUCA); server: the
// owner (DTM-NUCA) or holder (D-NUCA, kNoOwner when none), used only on a local miss;
// server_hit: the server's L1 holds the block.
Decision decide(uint32_t requester, bool local_hit, bool requester_owns, uint32_t server, bool server_hit);

// Flits of a packet carrying `payload_bits` after its header: one head flit plus the payload in
// flits of `flit_bytes` (a 64 B line: 2 with 64 B flits, 5 with 16 B flits).
uint32_t packet_flits(uint32_t payload_bits, uint32_t flit_bytes);

struct PathConfig {
  uint32_t lookup_latency = 1;  // nuca.table_latency (Affinity Table) or nuca.directory_latency
  uint32_t line_bytes = 64;     // a line's payload
  uint32_t flit_bytes = 64;     // nuca.flit_bytes
};

// The legs of one request through the mesh (points 3-5 above). The lookup node (the centralized
// Affinity Table or the D-NUCA directory) is a mesh endpoint: its ejection port takes one flit per
// cycle, so one-flit requests arriving together wait for each other in arrival order (paper 000
// IV-A: the centralized table "leads to contention when multiple nodes try to access it
// concurrently" and "imposes serialization"); its SRAM takes one request per cycle too and
// answers lookup_latency cycles after taking it (pipelined: the 2-cycle directory of D-NUCA still
// takes one per cycle), and its answers and forwards leave through its injection port, one flit
// per cycle. kNoOwner as lookup endpoint means each node reads its own table (DTM-NUCA-Dist) and
// the legs through the lookup node vanish.
class RemoteAccessPath {
 public:
  // Throws std::invalid_argument when the lookup endpoint is not on the mesh.
  RemoteAccessPath(Mesh2D& mesh, const PathConfig& config, uint32_t lookup_endpoint);

  // `requester` asks the lookup node at cycle t; returns the cycle the node has answered (t
  // itself without a lookup node).
  uint64_t lookup(uint32_t requester, uint64_t t);
  // The cycle the request of `requester`, answered at `answered`, reaches `server`: the lookup
  // node forwards it (server == requester: its answer goes back); without a lookup node the
  // requester sends it itself.
  uint64_t forward(uint32_t requester, uint32_t server, uint64_t answered);
  // The cycle a line `server` sends at `ready` has reached `requester`.
  uint64_t reply(uint32_t server, uint32_t requester, uint64_t ready);
  // A one-flit message from the lookup node to `node` (an ownership change), posted at t.
  void notify(uint32_t node, uint64_t t);

  bool central() const { return lookup_endpoint_ != kNoOwner; }
  uint32_t lookup_endpoint() const { return lookup_endpoint_; }
  uint64_t lookups() const { return lookups_; }
  void clear_counters() { lookups_ = 0; }

 private:
  Mesh2D& mesh_;
  PathConfig config_;
  uint32_t lookup_endpoint_;
  uint32_t data_flits_;
  uint64_t lookups_ = 0;
};

}  // namespace tessera::model::dtm_nuca
