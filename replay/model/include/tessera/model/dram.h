// Main memory: latency range by row-buffer outcome, per-channel data bus with a bandwidth in
// bytes per GPU cycle (requests queue behind each other on the bus, so a bandwidth-bound
// stream saturates), open-row tracking per bank.
//
// Simplifications (stated): one open row per bank (open-page policy), no bank busy time beyond
// the row outcome, no refresh, requests served in arrival order per channel. Paper 000 Table I
// gives "50-100 cycles" and 4 B/cycle; the row hit / row miss split of that range is ours.
#pragma once

#include <cstdint>
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
};

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

class Dram {
 public:
  // Throws std::invalid_argument on a bad configuration.
  explicit Dram(const DramConfig& config);

  // One line transfer issued at `now`; returns the cycle its data is delivered (reads) or
  // written (writes).
  uint64_t access(uint64_t addr, bool write, uint64_t now, DramSource source);

  // Cycle at which every issued transfer has finished on the bus.
  double busyUntil() const;
  const DramCounters& counters() const { return counters_; }
  const DramConfig& config() const { return config_; }

 private:
  DramConfig config_;
  double transfer_cycles_;
  std::vector<double> bus_free_;        // per channel
  std::vector<uint64_t> open_row_;      // per channel x bank, row + 1 (0 = closed)
  DramCounters counters_;
};

}  // namespace tessera::model
