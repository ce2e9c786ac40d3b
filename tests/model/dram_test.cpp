// DRAM: bandwidth saturation, latency range by row-buffer outcome, counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tessera/model/dram.h"

namespace tessera::model {
namespace {

TEST(Dram, IdleRequestSeesLatencyPlusTransfer) {
  DramConfig c;
  c.bytes_per_cycle = 4.0;  // 16 cycles per 64 B line
  c.channels = 1;
  Dram dram(c);
  EXPECT_EQ(dram.access(0, false, 1000, DramSource::L2Fetch), 1000u + 16 + 100);  // row miss
  EXPECT_EQ(dram.access(64, false, 2000, DramSource::L2Fetch), 2000u + 16 + 50);  // same row: hit
  EXPECT_EQ(dram.counters().row_misses, 1u);
  EXPECT_EQ(dram.counters().row_hits, 1u);
  EXPECT_DOUBLE_EQ(dram.counters().queue_cycles, 0.0);
}

TEST(Dram, RowBufferTracking) {
  DramConfig c;
  c.channels = 1;
  c.banks = 2;
  c.row_bytes = 2048;  // 32 lines per row; rows alternate between the 2 banks
  Dram dram(c);
  for (uint64_t l = 0; l < 32; ++l) dram.access(l * 64, false, 0, DramSource::L2Fetch);
  EXPECT_EQ(dram.counters().row_misses, 1u);
  EXPECT_EQ(dram.counters().row_hits, 31u);
  dram.access(2048, false, 0, DramSource::L2Fetch);      // bank 1 row 0: miss
  dram.access(0, false, 0, DramSource::L2Fetch);         // bank 0 row 0 still open: hit
  dram.access(2 * 2048, true, 0, DramSource::L2Write);   // bank 0 row 1: miss
  dram.access(0, false, 0, DramSource::L2Fetch);         // bank 0 row 0 again: miss
  EXPECT_EQ(dram.counters().row_misses, 4u);
  EXPECT_EQ(dram.counters().row_hits, 32u);
  EXPECT_EQ(dram.counters().reads, 35u);
  EXPECT_EQ(dram.counters().writes, 1u);
  EXPECT_EQ(dram.counters().bytes, 36u * 64);
  EXPECT_EQ(dram.counters().per_source[static_cast<int>(DramSource::L2Write)], 1u);
}

// N requests issued together: the bus is the bottleneck, so the last completes after about
// N x 64 / bandwidth cycles, and the ratio approaches 1 as N grows.
double saturationRatio(uint64_t n, const DramConfig& c) {
  Dram dram(c);
  uint64_t last = 0;
  for (uint64_t i = 0; i < n; ++i) last = std::max(last, dram.access(i * 64 * 37, false, 0, DramSource::L2Fetch));
  const double ideal = static_cast<double>(n) * 64.0 / (c.bytes_per_cycle * c.channels);
  return static_cast<double>(last) / ideal;
}

TEST(Dram, BandwidthSaturation) {
  DramConfig c;
  c.bytes_per_cycle = 4.0 * 400 / 600;  // paper 000: 4 B per 400 MHz cycle, in 600 MHz cycles
  c.channels = 2;
  const double r100 = saturationRatio(100, c);
  const double r1k = saturationRatio(1000, c);
  const double r10k = saturationRatio(10000, c);
  EXPECT_GT(r100, 1.0);
  EXPECT_LT(r1k, r100);
  EXPECT_LT(r10k, r1k);
  EXPECT_GE(r10k, 1.0);
  EXPECT_LT(r10k, 1.005);
}

TEST(Dram, SpacedRequestsDoNotQueue) {
  DramConfig c;
  c.bytes_per_cycle = 2.0;  // 32 cycles per line, one channel
  c.channels = 1;
  Dram dram(c);
  for (uint64_t i = 0; i < 100; ++i) dram.access(i * 64, false, i * 32, DramSource::L2Fetch);
  EXPECT_DOUBLE_EQ(dram.counters().queue_cycles, 0.0);
  Dram busy(c);
  for (uint64_t i = 0; i < 100; ++i) busy.access(i * 64, false, i * 16, DramSource::L2Fetch);
  EXPECT_GT(busy.counters().queue_cycles, 0.0);
  EXPECT_DOUBLE_EQ(busy.busy_until(), 100.0 * 32);
}

// A row miss holds its bank for a row cycle: a second miss to another row of the same bank
// waits until the first row has been open tRAS, then pays the precharge and activation; a hit to
// the new row waits for them too; a row in another bank does not wait. Whole cycles.
TEST(Dram, BankBusyWithRowMisses) {
  DramConfig c;
  c.channels = 1;
  c.banks = 2;
  c.row_bytes = 2048;  // rows alternate between the banks: bank 0 holds rows 0, 2, ...
  c.bytes_per_cycle = 64;  // one cycle a line: the bus stays out of the way
  c.timing = dram_timing_cycles(dram_device_timing_ns("lpddr3"), 600);
  const DramTiming& t = c.timing;
  const auto up = [](double v) { return static_cast<uint64_t>(std::ceil(v)); };
  Dram dram(c);
  const uint64_t first = dram.access(0, false, 0, DramSource::L2Fetch);  // bank 0 closed: activate
  EXPECT_EQ(first, 1u + c.latency_row_miss);
  dram.access(2048, false, 0, DramSource::L2Fetch);  // bank 1: no wait
  EXPECT_DOUBLE_EQ(dram.counters().bank_wait_cycles, 0.0);
  // Bank 0, another row: not before the first row has been open tRAS (its activation is 18 ns,
  // its burst 5 ns: tRAS, 42 ns, is longer).
  const uint64_t second = dram.access(2 * 2048, false, 0, DramSource::L2Fetch);
  EXPECT_DOUBLE_EQ(dram.counters().bank_wait_cycles, static_cast<double>(up(t.t_ras)));
  EXPECT_EQ(second, up(t.t_ras) + 1 + c.latency_row_miss);
  // A hit to that new row waits for the bank's whole row cycle: the model holds a bank for tRP +
  // max(tRAS, tRCD + tCCD) on a miss (one calendar keeps activations tRC apart), where JEDEC would
  // let the column command follow tRCD after the activation (dram.h: stated simplification).
  const uint64_t hit = dram.access(2 * 2048 + 64, false, 0, DramSource::L2Fetch);
  EXPECT_EQ(hit, up(t.t_ras) + up(t.t_rp + t.t_ras) + 1 + c.latency_row_hit);
  EXPECT_EQ(dram.counters().row_hits, 1u);
}

// The data bus pays the write-to-read and read-to-write gaps when its direction changes.
TEST(Dram, ReadWriteTurnaround) {
  DramConfig c;
  c.channels = 1;
  c.bytes_per_cycle = 4.0;  // 16 cycles a line
  c.timing = dram_timing_cycles(dram_device_timing_ns("lpddr3"), 600);
  const DramTiming& t = c.timing;
  const auto up = [](double v) { return static_cast<uint64_t>(std::ceil(v)); };
  Dram dram(c);
  const uint64_t r0 = dram.access(0, false, 0, DramSource::L2Fetch);
  const uint64_t w = dram.access(64, true, 0, DramSource::L2Write);  // same row: hit
  const uint64_t r1 = dram.access(128, false, 0, DramSource::L2Fetch);
  EXPECT_EQ(r0, 16u + c.latency_row_miss);
  // The write waits for its bank (the first activation's row cycle), by when the bus has been
  // idle longer than the read-to-write gap; the second read waits for the write-to-read gap.
  const uint64_t write_burst = up(std::max(t.t_ras, t.t_rcd + t.t_ccd));
  ASSERT_GT(static_cast<double>(write_burst), 16 + t.rtw_gap);
  EXPECT_EQ(w, write_burst + 16 + c.latency_row_hit);
  EXPECT_EQ(r1, up(static_cast<double>(write_burst + 16) + t.wtr_gap) + 16 + c.latency_row_hit);
  EXPECT_EQ(dram.counters().turnarounds, 1u);
  // Back to back on an open row: the write pays the read-to-write gap.
  Dram open_row(c);
  open_row.access(0, false, 0, DramSource::L2Fetch);
  const uint64_t read = open_row.access(64, false, 100, DramSource::L2Fetch);
  const uint64_t write = open_row.access(128, true, 100, DramSource::L2Write);
  EXPECT_EQ(read, 100u + 16 + c.latency_row_hit);
  EXPECT_EQ(write, up(116 + t.rtw_gap) + 16 + c.latency_row_hit);
}

// Requests computed later for earlier cycles (the timing units compute ahead): a read arriving
// before a write posted for later takes the bus first; the write keeps its own cycle.
TEST(Dram, ABurstBookedAheadDoesNotHoldBackAnEarlierOne) {
  DramConfig c;
  c.channels = 1;
  c.bytes_per_cycle = 4.0;  // 16 cycles a line
  Dram dram(c);
  const uint64_t late = dram.access(0, true, 10000, DramSource::L2Write);
  const uint64_t early = dram.access(2048, false, 100, DramSource::L2Fetch);  // the next row: another bank
  EXPECT_EQ(late, 10000u + 16 + c.latency_row_miss);
  EXPECT_EQ(early, 100u + 16 + c.latency_row_miss);
  EXPECT_DOUBLE_EQ(dram.counters().queue_cycles, 0.0);
  EXPECT_DOUBLE_EQ(dram.busy_until(), 10016.0);
}

// A column of a render target's lines: 1280 RGBA8 pixels a row is 80 lines, an even number (and
// stays even through the first-touch page map: a page is 64 lines), so with plain line
// interleaving every line of the column is on one channel; the XOR map spreads them, and within
// each pair of consecutive lines the two channels still alternate.
TEST(Dram, TheXorChannelMapSpreadsAColumnOfLines) {
  const auto last_write = [](bool xor_map, uint64_t stride_lines, uint64_t n) {
    DramConfig c;
    c.channels = 2;
    c.bytes_per_cycle = 2.0;  // 32 cycles a line on a channel
    c.channel_xor = xor_map;
    Dram dram(c);
    uint64_t last = 0;
    for (uint64_t k = 0; k < n; ++k) last = std::max(last, dram.access(k * stride_lines * 64, true, 0, DramSource::ColorFlush));
    return last;
  };
  const uint64_t line_map = last_write(false, 80, 64), xor_map = last_write(true, 80, 64);
  EXPECT_GE(line_map, 64u * 32);  // one channel carries all 64
  EXPECT_LT(xor_map, 48u * 32);   // at most three quarters of them on one channel
  // Consecutive lines: both maps put a pair on the two channels, so two take as long as one.
  EXPECT_EQ(last_write(true, 1, 2), last_write(true, 1, 1));
  EXPECT_EQ(last_write(false, 1, 2), last_write(false, 1, 1));
  // A non-power-of-two channel count cannot be XOR-folded.
  DramConfig three;
  three.channels = 3;
  three.channel_xor = true;
  EXPECT_THROW(Dram{three}, std::invalid_argument);
}

// JEDEC timings in GPU cycles: LPDDR3-1600's tRCD is 18 ns, 10.8 cycles of a 600 MHz clock.
TEST(Dram, DeviceTimings) {
  const DramTiming l3 = dram_timing_cycles(dram_device_timing_ns("lpddr3"), 600);
  EXPECT_DOUBLE_EQ(l3.t_rcd, 18.0 * 0.6);
  EXPECT_DOUBLE_EQ(l3.t_ccd, 4 * 1.25 * 0.6);
  EXPECT_DOUBLE_EQ(l3.wtr_gap, (7.5 + 12 * 1.25) * 0.6);
  const DramTiming l4 = dram_device_timing_ns("lpddr4");
  EXPECT_DOUBLE_EQ(l4.t_ccd, 8 * 0.625);
  EXPECT_THROW(dram_device_timing_ns("ddr5"), std::invalid_argument);
}

TEST(Dram, RejectsBadConfig) {
  DramConfig c;
  c.bytes_per_cycle = 0;
  EXPECT_THROW(Dram{c}, std::invalid_argument);
  c = DramConfig{};
  c.latency_row_hit = 200;
  EXPECT_THROW(Dram{c}, std::invalid_argument);
  c = DramConfig{};
  c.timing.t_rp = -1;
  EXPECT_THROW(Dram{c}, std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model
