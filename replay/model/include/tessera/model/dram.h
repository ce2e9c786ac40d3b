// Main memory: latency range by row-buffer outcome, per-channel data bus with a bandwidth in
// bytes per GPU cycle (requests queue behind each other on the bus, so a bandwidth-bound
// stream saturates), open-row tracking per bank, and a physical address map of `size_bytes`.
//
// Address map: the replayed frame's addresses are the simulated GPU's virtual addresses
// (replay/frontend's map places images and memory objects terabytes apart). Main memory maps
// each 4 KiB virtual page to a physical page on first touch, in touch order, the way an OS
// allocator hands out free pages; channels, banks and rows are then decoded from the physical
// address. Caches above stay virtually addressed. A run that touches more pages than main memory
// holds is refused (access() throws DramCapacityError): the frame does not fit the configured
// memory.
//
// Simplifications (stated): one open row per bank (open-page policy), no bank busy time beyond
// the row outcome, no refresh, requests served in arrival order per channel. Paper 000 Table I
// gives "50-100 cycles" and 4 B/cycle; the row hit / row miss split of that range is ours.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace tessera::model {

struct DramConfig {
  uint32_t latency_row_hit = 50;    // GPU cycles, open-row access
  uint32_t latency_row_miss = 100;  // GPU cycles, precharge + activate + access
  double bytes_per_cycle = 2.0;     // per channel, in GPU cycles
  uint32_t channels = 2;            // line-interleaved
  uint32_t banks = 8;               // per channel, row-interleaved
  uint32_t row_bytes = 2048;
  uint32_t line_bytes = 64;
  uint64_t size_bytes = uint64_t{1} << 30;  // capacity: physical pages available
};

inline constexpr uint32_t kDramPageBytes = 4096;

// Requesters of main memory, for per-source counters.
enum class DramSource : uint8_t { L2Fetch = 0, L2Write = 1, ColorFlush = 2, Other = 3 };
inline constexpr uint32_t kDramSources = 4;

struct DramCounters {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t row_hits = 0;
  uint64_t row_misses = 0;
  uint64_t bytes = 0;
  double queue_cycles = 0;   // total time requests waited for the data bus
  uint64_t per_source[kDramSources] = {};
  uint64_t accesses() const { return reads + writes; }
};

// More distinct pages touched than main memory holds.
class DramCapacityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Dram {
 public:
  // Throws std::invalid_argument on a bad configuration.
  explicit Dram(const DramConfig& config);

  // One line transfer issued at `now`; returns the cycle its data is delivered (reads) or
  // written (writes).
  uint64_t access(uint64_t addr, bool write, uint64_t now, DramSource source);

  // Cycle at which every issued transfer has finished on the bus.
  double busy_until() const;
  // Physical pages mapped so far (the footprint of the run in main memory).
  uint64_t pages_mapped() const { return page_map_.size(); }
  // Counters restart for a new frame; open rows, the bus and the page map carry over.
  void clear_counters() { counters_ = DramCounters{}; }
  const DramCounters& counters() const { return counters_; }
  const DramConfig& config() const { return config_; }

 private:
  uint64_t physical(uint64_t addr);

  // x / d by a shift when d is a power of two (the usual geometry), else by a division.
  struct Divisor {
    uint64_t d = 1;
    int shift = 0;  // -1: not a power of two
    uint64_t div(uint64_t x) const { return shift >= 0 ? x >> shift : x / d; }
    uint64_t mod(uint64_t x) const { return shift >= 0 ? x & (d - 1) : x % d; }
  };
  static Divisor divisor(uint64_t d);

  DramConfig config_;
  Divisor line_, channels_, row_, banks_;
  double transfer_cycles_;
  uint64_t page_capacity_;
  std::vector<double> bus_free_;        // per channel
  std::vector<uint64_t> open_row_;      // per channel x bank, row + 1 (0 = closed)
  std::unordered_map<uint64_t, uint64_t> page_map_;  // virtual page -> physical page
  uint64_t last_vpage_ = ~uint64_t{0}, last_ppage_ = 0;
  DramCounters counters_;
};

}  // namespace tessera::model
