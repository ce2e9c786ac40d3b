// The private L1 texture caches of the GPU model organised as a NUCA (paper 000): the texture
// organisation (hierarchy.h) that the dtm-nuca, dtm-nuca-dist and d-nuca variants install.
//
// A request of core c for block a, issued at `now` (remote_access.h lists the reading of the
// paper behind each step):
//  1. c probes its own L1 (`l1tex.latency` cycles). A hit is served there; it refreshes the LRU
//     state unless c is the just-exchanged owner of a's bucket (III-B).
//  2. A miss looks for a's owner: c owns the bucket and knows it (DTM-NUCA, unless
//     nuca.owner_lookup); otherwise DTM-NUCA asks the centralized Affinity Table, a node of the mesh
//     (a one-flit request; the table takes one request per cycle, so simultaneous requests
//     contend and serialise, IV-A, and answers `nuca.table_latency` cycles later); DTM-NUCA-Dist
//     reads c's own table with the tag probe (IV-B); D-NUCA asks its directory, a node at the
//     same place (`nuca.directory_latency`).
//  3. c is the owner (D-NUCA: nobody holds a): c reads L2 through its MSHRs and fills its L1.
//     Otherwise the table forwards the request (DTM-NUCA-Dist: c sends it) to the owner, whose L1
//     serves a hit, or misses, reads L2 through its own MSHRs and fills its own L1 (not c's, but
//     at c's LRU position too with nuca.requester_fill); the line returns to c over the mesh
//     (1 + 64 / nuca.flit_bytes flits).
//  4. Every hop costs `nuca.hop_latency` cycles; links and ports carry one flit per cycle and
//     packets wait for them, and for a slot in the next router's input buffer
//     (`nuca.router_buffer` packets, mesh2d.h): contention and back-pressure.
//  5. The affinity counters count every access (nuca.count_hits=true, III-B) or only the local
//     misses that ask for an owner (false, III-A); the epoch counts every texture access.
//
// Model choices (stated):
//  - Counting the local hits of DTM-NUCA: the increment of a local hit reaches the centralized
//    table without a mesh packet and without taking the table's port (the table is charged its
//    energy). Sent as packets they would exceed the table's one flit per cycle on their own (the
//    replayed frames make about two texture accesses per cycle, most of them local hits), and the
//    paper reports the centralized table as the fastest flavour, which its simulator could not
//    have found with one port saturated by counter updates. nuca.count_hits=false measures the
//    other reading.
//  - A core knows at once which buckets it owns and which it just lost (the LRU rule of step 1,
//    the owner's miss of step 2); the table's one-flit
//    notifications to the old and the new owner of a bucket are sent over the mesh and counted,
//    but the rule does not wait for them (a few cycles against 20K-access epochs).
//  - The local probe of a request served remotely is not an access of the requester's L1 in the
//    L1 counters: l1tex.accesses counts each request once (where it was served: the owner's L1
//    for a remote request), so l1tex.hits = local + remote hits and l1tex.misses = the requests
//    that read L2. The probe's read energy is charged as energy.l1tex_remote_probes_nj.
//  - A local miss holds one of the requester's MSHRs (`l1tex.mshrs`) from its probe until its
//    line arrives, whoever serves it: the MSHR is what matches the returning line to the quads
//    waiting on it and merges later misses to the same line, and a remote request has quads
//    waiting as an L2 one has, so releasing it when the request leaves would need another
//    structure to do that job (the paper names none);
//    a remote miss also holds one of the owner's while the owner fills. With no MSHR free the
//    miss waits, and so does its requester (MemResponse::accept_delay), as in the baseline.
//  - A request for a line whose fill is still in flight (at the requester or at the owner) waits
//    for that fill (cache.h in-flight fills), as in the baseline.
//  - The replication degree (Fig. 1) is recorded after each request by probing every L1
//    (MemoryHierarchy::record_replication).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dtm-nuca/affinity_table.h"
#include "dtm-nuca/distributed_affinity_tables.h"
#include "dtm-nuca/dnuca_directory.h"
#include "dtm-nuca/mesh2d.h"
#include "dtm-nuca/nuca_config.h"
#include "dtm-nuca/remote_access.h"
#include "tessera/model/energy.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {
struct FrameResults;
}

namespace tessera::model::dtm_nuca {

// Requests by where they were served (paper 000 Fig. 8: local and remote, each with its L2 hits
// and misses). The six counts partition the texture requests.
struct TexturePathStats {
  uint64_t local_hits = 0;
  uint64_t remote_hits = 0;
  uint64_t local_l2_hits = 0;
  uint64_t local_l2_misses = 0;
  uint64_t remote_l2_hits = 0;
  uint64_t remote_l2_misses = 0;
  // `l2_hit` is read only for the services that read L2.
  void count(Service service, bool l2_hit);
  uint64_t requests() const {
    return local_hits + remote_hits + local_l2_hits + local_l2_misses + remote_l2_hits + remote_l2_misses;
  }
};

class NucaOrganisation final : public TextureOrganisation {
 public:
  // A mesh link or the table's port busier than this share of a frame's cycles is reported in
  // FrameResults::warnings (our threshold: queueing delay grows without bound as it nears 1).
  static constexpr double kSaturatedUtilisation = 0.9;

  // Throws std::invalid_argument on a configuration the structures refuse (a mesh_cols that does
  // not divide the cores, counter_bits out of range).
  NucaOrganisation(const DtmNucaConfig& config, const MemoryHierarchy& hierarchy);

  MemResponse access(MemoryHierarchy& hierarchy, const MemRequest& request, uint64_t now) override;

  // A new frame: the counters restart; cache contents, tables and the mesh's bookings carry over.
  void begin_frame();
  // This frame's metrics (metric_names(); nuca.owners only with an Affinity Table).
  void append_metrics(FrameResults& results) const;
  // This frame's energy of the structures the organisation adds, `cycles` long.
  void append_energy(const EnergyParams& params, uint64_t cycles, std::vector<StructureEnergy>& out) const;

  const DtmNucaConfig& config() const { return config_; }
  const TexturePathStats& stats() const { return stats_; }
  const Mesh2D& mesh() const { return *mesh_; }
  const RemoteAccessPath& path() const { return *path_; }
  const AffinityTable* table() const { return table_ ? &*table_ : nullptr; }
  const DistributedAffinityTables* distributed_tables() const { return dist_ ? &*dist_ : nullptr; }
  const DNucaDirectory* directory() const { return directory_ ? &*directory_ : nullptr; }
  // Ownership changes since the frame began.
  uint64_t ownership_changes() const;

  // The metric names append_metrics emits, in order.
  static const std::vector<std::string>& metric_names();

 private:
  // Cumulative counts of the tables, differenced per frame.
  struct Totals {
    uint64_t ownership_changes = 0;
    uint64_t table_updates = 0;  // entry read-modify-writes of the affinity table(s)
    uint64_t directory_lookups = 0;
    uint64_t directory_writes = 0;
    uint64_t directory_evictions = 0;
    uint64_t epochs = 0;
    uint64_t takes = 0;  // DTM-NUCA-Dist: mid-epoch takes in a node's own table
  };
  Totals totals() const;

  // Whether a local hit of `core` on `block` refreshes its LRU state (III-B: not in the
  // just-exchanged owner's cache).
  bool touches_lru(uint32_t core, uint64_t block, uint64_t t);
  // Whether `core` goes to L2 without asking the centralized table: it owns `block`'s bucket and
  // nuca.owner_lookup is off.
  bool knows_it_owns(uint32_t core, uint64_t block) const;
  // An access of `core` to `block` counts in its affinity counter (DTM-NUCA: returns the owner
  // the table answers with).
  uint32_t count(uint32_t core, uint64_t block, uint64_t t);
  // One texture access of the GPU: the epoch.
  void tick(uint64_t t);
  void notify(const OwnershipChange& change, uint64_t t);
  MemResponse serve_miss(MemoryHierarchy& h, const MemRequest& request, const AccessInfo& info, uint64_t start,
                         uint64_t probed, uint64_t now);
  // The D-NUCA directory after the requester allocated `block` (outcome o of its L1).
  void track_fill(MemoryHierarchy& h, uint32_t core, uint64_t block, const CacheOutcome& o);

  DtmNucaConfig config_;
  uint32_t cores_;
  uint32_t line_shift_;
  uint32_t line_bytes_;
  uint32_t l1_latency_;
  bool banked_;
  bool track_replication_;
  std::unique_ptr<Mesh2D> mesh_;  // stable address: the tables and the path refer to it
  std::unique_ptr<RemoteAccessPath> path_;
  std::optional<AffinityTable> table_;
  std::optional<DistributedAffinityTables> dist_;
  std::optional<DNucaDirectory> directory_;
  uint64_t directory_bits_ = 0;
  std::vector<OwnershipChange> epoch_changes_;  // reused
  TexturePathStats stats_;
  uint64_t remote_probes_ = 0;  // local probes of requests served remotely, this frame
  uint64_t requester_fills_ = 0;  // nuca.requester_fill: copies put in requesters' L1s, this frame
  uint64_t counted_ = 0;        // DTM-NUCA-Dist: own-counter increments, cumulative
  Totals frame_begin_;
};

}  // namespace tessera::model::dtm_nuca
