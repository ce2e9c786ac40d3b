// The Many-Thread Aware hardware prefetcher of J. Lee, N. B. Lakshminarayana, H. Kim and R. Vuduc,
// "Many-Thread Aware Prefetching Mechanisms for GPGPU Applications", MICRO 2010 (paper 002's
// reference [LLKV10]), with no simulator dependency. Three tables, all looked up by the PC of the
// memory instruction:
//   - PWS, per-warp stride: one entry per (PC, warp), trained on that warp's own accesses only
//     (a conventional per-PC stride table trained on the interleaved accesses of many warps
//     would see no stride: the MTA paper's "scalable training");
//   - GS, global stride: a stride that `promote_warps` warps' PWS entries agree on for one PC is
//     promoted to a single entry for the PC (their PWS entries freed), so a new warp predicts
//     from its first access on;
//   - IP, inter-warp (the MTA paper's hardware inter-thread prefetching): the stride between
//     consecutive accesses to one PC by different warps; trained, it prefetches for the warp that
//     will execute the PC next.
// GS and IP are looked up first (GS wins), PWS only when neither predicts. And a throttle that
// sets, once per period, how many of the predicted prefetches are sent, from the early eviction
// rate (prefetched lines evicted before any use, over the useful ones) and the merge ratio
// (requests merged into an outstanding miss, over the requests reaching the MSHRs).
// Addresses and strides are in any unit the caller chooses (the scheme passes line numbers).
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::model::mta {

struct Config {
  uint32_t pws_entries = 32;   // per-warp stride entries (fully associative, LRU)
  uint32_t gs_entries = 8;     // global stride entries
  uint32_t ip_entries = 8;     // inter-warp entries
  uint32_t promote_warps = 3;  // trained PWS entries of one PC agreeing on a stride that promote it to GS
  uint32_t train_accesses = 3; // accesses with one repeated stride that train a PWS or IP entry (3: two equal deltas)
  uint32_t distance = 1;       // the first prefetch is `distance` strides ahead
  uint32_t degree = 1;         // prefetches per prediction: distance, distance + 1, ... strides ahead
};

// Which table predicted an access's prefetches.
enum class Source : uint8_t { None = 0, GlobalStride = 1, InterWarp = 2, PerWarp = 3 };

class ManyThreadAware {
 public:
  // Throws std::invalid_argument on an empty table, a training length under 2 or a zero distance
  // or degree.
  explicit ManyThreadAware(const Config& config);

  // One access of `warp` executing instruction `pc` to `addr`: trains the tables, appends the
  // predicted addresses (`degree` of them, none for a stride of 0) to `out` and says which table
  // gave them.
  Source access(uint64_t pc, uint32_t warp, uint64_t addr, std::vector<uint64_t>& out);

  uint64_t promotions() const { return promotions_; }
  void clear();

 private:
  struct Stride {
    bool valid = false;
    uint64_t pc = 0;
    uint32_t warp = 0;      // PWS: the warp; IP: the warp of the last access
    uint64_t last = 0;      // the last access's address
    int64_t stride = 0;     // the last delta
    uint32_t repeats = 0;   // deltas in a row equal to `stride` (1 after a new one)
    uint64_t used = 0;      // LRU stamp
    bool trained(uint32_t need) const { return repeats + 1 >= need; }
  };
  struct Global {
    bool valid = false;
    uint64_t pc = 0;
    int64_t stride = 0;
    uint64_t used = 0;
  };
  template <class E>
  static E& victim(std::vector<E>& table);
  void predict(uint64_t addr, int64_t stride, std::vector<uint64_t>& out) const;
  // A new delta `d` for an entry: repeats grow while it equals the stride, else it starts over.
  static void observe(Stride& e, uint64_t addr);
  void promote(uint64_t pc, int64_t stride);

  Config config_;
  std::vector<Stride> pws_, ip_;
  std::vector<Global> gs_;
  uint64_t clock_ = 0, promotions_ = 0;
};

// The adaptive throttle, one per core: `levels` + 1 degrees, 0 sending every prediction and
// `levels` none; at degree d, of each `levels` consecutive predictions the first levels - d are
// sent. At each period's end: an early eviction rate above `early_high` stops prefetching, one
// from `early_low` to `early_high` raises the degree; below `early_low`, a (smoothed) merge
// ratio above `merge_high` lowers it and a lower one stops prefetching.
struct ThrottleConfig {
  uint32_t levels = 5;
  uint32_t initial = 2;
  double early_high = 0.02, early_low = 0.01, merge_high = 0.15;
};

class Throttle {
 public:
  explicit Throttle(const ThrottleConfig& config);
  // Whether the next prediction is sent (counts it).
  bool allow();
  // A period ended with these events in it: early evictions, useful prefetches, merged requests
  // and requests reaching the MSHRs (misses + merged).
  void period_end(uint64_t early_evictions, uint64_t useful, uint64_t merges, uint64_t requests);
  uint32_t degree() const { return degree_; }
  double merge_ratio() const { return merge_; }

 private:
  ThrottleConfig config_;
  uint32_t degree_;
  uint32_t position_ = 0;  // predictions since the last multiple of `levels`
  double merge_ = 0;       // the smoothed merge ratio
};

}  // namespace tessera::model::mta
