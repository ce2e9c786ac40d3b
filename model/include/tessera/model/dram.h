// Main memory: per-channel data bus with a bandwidth in bytes per GPU cycle (requests queue
// behind each other on the bus, so a bandwidth-bound stream saturates), banks with an open row
// each and the time they are busy, read/write turnaround on the data bus, and a physical address
// map of `size_bytes`.
//
// Latency: paper 000 Table I gives main memory "50-100 cycles" of its 400 MHz memory clock; the
// row-buffer hit / miss split of that range is ours (a hit the low end, a miss the high end, as
// an open-page controller sees them unloaded). The latency counts from the cycle a request
// starts at its bank and its line has crossed the channel's bus, so queueing adds to it: busy
// banks, the bus, turnarounds.
//
// Bank and bus timing (DramTiming, from the LPDDR3-1600 / LPDDR4-3200 JEDEC parameters that
// dram.type selects, see hierarchy.cpp): a row hit occupies its bank for one burst (tCCD); a row
// miss precharges the open row (tRP), activates the new one and bursts, holding the bank for
// max(tRAS, tRCD + tCCD) after the precharge (so consecutive activations are tRC apart); the
// data bus pays a write-to-read gap (tWTR + read latency) and a read-to-write gap when its
// direction changes.
//
// Address map: the replayed frame's addresses are the simulated GPU's virtual addresses
// (replay/frontend's map places images and memory objects terabytes apart). Main memory maps
// each 4 KiB virtual page to a physical page on first touch, in touch order, the way an OS
// allocator hands out free pages; channels, banks and rows are then decoded from the physical
// address. Caches above stay virtually addressed. A run that touches more pages than main memory
// holds is refused (access() throws DramCapacityError): the frame does not fit the configured
// memory.
//
// Channel map: line n of the physical address space is on channel n mod channels (`line`), or on
// the channel whose index is n's low channel bits XOR-folded with every higher group of them
// (`xor`, a permutation interleaving: Zhang, Zhu and Zhang, MICRO-33 2000, XOR the bank index
// with higher address bits; DRAM simulators ship channel-XOR maps, e.g. Ramulator's). With plain
// line interleaving and a render target whose row pitch is an even number of lines (1280 RGBA8
// pixels: 80 lines), a column of a tile's lines -- all a core's lines when a tile is split among
// the cores by columns or quadrants -- sits on one channel; the XOR spreads it.
//
// Simplifications (stated): one open row per bank (open-page policy), no refresh, requests served
// in arrival order per bank and per channel (no FR-FCFS reordering, reads not ahead of writes). A
// row miss holds its bank for tRP + max(tRAS, tRCD + tCCD), so one calendar per bank keeps its
// activations a row cycle (tRC) apart; a hit to the row just opened therefore waits for tRAS where
// JEDEC allows its column command tRCD after the activation (up to 11 GPU cycles more at 600 MHz
// with LPDDR3).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tessera/model/busy_calendar.h"

namespace tessera::model {

// Bank and bus timing in GPU cycles (0 everywhere: no bank or turnaround model).
struct DramTiming {
  double t_rp = 0;       // precharge
  double t_rcd = 0;      // activate to column command
  double t_ras = 0;      // activate to precharge, at least
  double t_ccd = 0;      // one burst: a bank takes a column command per t_ccd
  double wtr_gap = 0;    // data bus idle between a write burst and the next read burst
  double rtw_gap = 0;    // data bus idle between a read burst and the next write burst
};

// A device's bank and bus timing in nanoseconds (JEDEC), for dram.type:
//  lpddr3: LPDDR3-1600, JESD209-3, tCK 1.25 ns: tRPpb 18, tRCD 18, tRAS 42; tCCD 4 tCK (BL8);
//          write-to-read gap tWTR 7.5 + RL 12 tCK; read-to-write gap 1 tCK + tDQSCKmax 5.5.
//  lpddr4: LPDDR4-3200, JESD209-4, tCK 0.625 ns: tRPpb 18, tRCD 18, tRAS 42; tCCD 8 tCK (BL16);
//          write-to-read gap tWTR 10 + RL 28 tCK; read-to-write gap 1 tCK + tDQSCKmax 3.5.
// (The same JEDEC values DRAM simulators' LPDDR3-1600 and LPDDR4-3200 configurations carry.)
// Throws std::invalid_argument for another name.
DramTiming dram_device_timing_ns(std::string_view type);
// The same in GPU cycles of a `gpu_mhz` clock.
DramTiming dram_timing_cycles(const DramTiming& ns, double gpu_mhz);

struct DramConfig {
  uint32_t latency_row_hit = 50;    // GPU cycles, open-row access, unloaded
  uint32_t latency_row_miss = 100;  // GPU cycles, precharge + activate + access, unloaded
  double bytes_per_cycle = 2.0;     // per channel, in GPU cycles
  uint32_t channels = 2;            // line-interleaved
  bool channel_xor = false;         // channel bits XOR-folded with the higher line-index bits (a power of two channels)
  uint32_t banks = 8;               // per channel, row-interleaved
  uint32_t row_bytes = 2048;
  uint32_t line_bytes = 64;
  uint64_t size_bytes = uint64_t{1} << 30;  // capacity: physical pages available
  DramTiming timing;
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
  double queue_cycles = 0;         // total time requests waited for the data bus
  double bank_wait_cycles = 0;     // total time requests waited for their bank (earlier accesses)
  uint64_t turnarounds = 0;        // data-bus direction changes
  double read_latency_cycles = 0;  // sum over reads of arrival to data, GPU cycles
  uint64_t per_source[kDramSources] = {};
  uint64_t accesses() const { return reads + writes; }
};

// More distinct pages touched than main memory holds.
class DramCapacityError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Timeline;

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
  // Counters restart for a new frame; open rows, banks, the bus and the page map carry over.
  void clear_counters() { counters_ = DramCounters{}; }
  const DramCounters& counters() const { return counters_; }
  const DramConfig& config() const { return config_; }
  // Each bank's busy intervals also go to `timeline` (null: none), bank index channel x banks + bank.
  void set_timeline(Timeline* timeline) { timeline_ = timeline; }

 private:
  Timeline* timeline_ = nullptr;
  uint64_t physical(uint64_t addr);
  // The channel of physical line `line` (the channel map above).
  uint32_t channel_of(uint64_t line) const;

  // x / d by a shift when d is a power of two (the usual geometry), else by a division.
  struct Divisor {
    uint64_t d = 1;
    int shift = 0;  // -1: not a power of two
    uint64_t div(uint64_t x) const { return shift >= 0 ? x >> shift : x / d; }
    uint64_t mod(uint64_t x) const { return shift >= 0 ? x & (d - 1) : x % d; }
  };
  static Divisor divisor(uint64_t d);

  // Banks and buses are booked on calendars: the timing units compute requests ahead of time,
  // and a request computed later for an earlier cycle must still find the resource free then.
  // Which row is open follows the order requests are computed in (an approximation).
  struct Bank {
    BusyCalendar busy{kBankWindow};
    uint64_t open_row = 0;    // row + 1 (0 = closed)
  };
  static constexpr uint64_t kBankWindow = uint64_t{1} << 16;
  static constexpr uint64_t kBusWindow = BusyCalendar::kWindow;
  struct Channel {
    // The data bus, a burst of transfer_cycles_ at a time, booked in cycle order whatever order
    // the requests are computed in (the timing units compute ahead: a write posted for later must
    // not hold back a read that reaches the controller before it).
    BusyCalendar bus{kBusWindow};
    uint64_t last_end = 0;    // end of the burst booked last
    uint64_t busy_until = 0;  // end of the latest burst
    bool last_write = false;  // direction of the burst booked last
    bool used = false;
  };

  DramConfig config_;
  Divisor line_, channels_, row_, banks_;
  // Bank occupancy in whole cycles: a row hit's burst, a row miss's precharge (when a row is
  // open), activation and burst.
  uint64_t hit_cycles_ = 0, miss_cycles_ = 0, open_miss_cycles_ = 0;
  uint64_t transfer_cycles_;  // a line's burst on a channel's bus, whole GPU cycles
  uint64_t page_capacity_;
  std::vector<Channel> channel_;
  std::vector<Bank> bank_;      // per channel x bank
  std::unordered_map<uint64_t, uint64_t> page_map_;  // virtual page -> physical page
  uint64_t last_vpage_ = ~uint64_t{0}, last_ppage_ = 0;
  DramCounters counters_;
};

}  // namespace tessera::model
