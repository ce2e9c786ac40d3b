#include "tessera/model/dram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "tessera/model/timeline.h"

namespace tessera::model {

DramTiming dram_device_timing_ns(std::string_view type) {
  if (type == "lpddr3") {
    constexpr double tck = 1.25;
    return DramTiming{18.0, 18.0, 42.0, 4 * tck, 7.5 + 12 * tck, tck + 5.5};
  }
  if (type == "lpddr4") {
    constexpr double tck = 0.625;
    return DramTiming{18.0, 18.0, 42.0, 8 * tck, 10.0 + 28 * tck, tck + 3.5};
  }
  throw std::invalid_argument("dram: no timing for device '" + std::string(type) + "'");
}

DramTiming dram_timing_cycles(const DramTiming& ns, double gpu_mhz) {
  const double k = gpu_mhz / 1000.0;  // GPU cycles per ns
  return DramTiming{ns.t_rp * k, ns.t_rcd * k, ns.t_ras * k, ns.t_ccd * k, ns.wtr_gap * k, ns.rtw_gap * k};
}

Dram::Dram(const DramConfig& config) : config_(config) {
  if (!(config.bytes_per_cycle > 0) || !std::isfinite(config.bytes_per_cycle)) {
    throw std::invalid_argument("dram: bandwidth must be a positive number of bytes per cycle");
  }
  if (config.channels == 0 || config.banks == 0) throw std::invalid_argument("dram: channels and banks must be at least 1");
  if (config.line_bytes == 0 || config.row_bytes < config.line_bytes) {
    throw std::invalid_argument("dram: row size must be at least one line");
  }
  if (config.latency_row_hit > config.latency_row_miss) {
    throw std::invalid_argument("dram: row-hit latency exceeds row-miss latency");
  }
  if (config.channel_xor && !std::has_single_bit(config.channels)) {
    throw std::invalid_argument("dram: an XOR channel map needs a power-of-two number of channels");
  }
  if (config.size_bytes < kDramPageBytes) throw std::invalid_argument("dram: size is smaller than one 4 KiB page");
  transfer_cycles_ = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(config.line_bytes / config.bytes_per_cycle)));
  line_ = divisor(config.line_bytes);
  channels_ = divisor(config.channels);
  row_ = divisor(config.row_bytes);
  banks_ = divisor(config.banks);
  page_capacity_ = config.size_bytes / kDramPageBytes;
  const DramTiming& t = config.timing;
  for (double v : {t.t_rp, t.t_rcd, t.t_ras, t.t_ccd, t.wtr_gap, t.rtw_gap}) {
    if (!(v >= 0) || !std::isfinite(v)) throw std::invalid_argument("dram: timings must be finite and not negative");
  }
  channel_.resize(config.channels);
  bank_.resize(static_cast<size_t>(config.channels) * config.banks);
  const auto cycles = [](double v) { return static_cast<uint64_t>(std::ceil(v)); };
  // A row miss holds its bank until the new row is open and burst, and at least a row cycle
  // (tRAS, plus the precharge when a row was open) so that the bank's next activation respects
  // tRC = tRAS + tRP.
  hit_cycles_ = cycles(t.t_ccd);
  miss_cycles_ = cycles(std::max(t.t_ras, t.t_rcd + t.t_ccd));
  open_miss_cycles_ = cycles(t.t_rp + std::max(t.t_ras, t.t_rcd + t.t_ccd));
}

Dram::Divisor Dram::divisor(uint64_t d) {
  Divisor r;
  r.d = d;
  r.shift = std::has_single_bit(d) ? std::countr_zero(d) : -1;
  return r;
}

uint64_t Dram::physical(uint64_t addr) {
  const uint64_t vpage = addr / kDramPageBytes;
  // Consecutive transfers mostly stay in one page (a tile's flush, a texture block row).
  if (vpage != last_vpage_) {
    auto [it, inserted] = page_map_.try_emplace(vpage, page_map_.size());
    if (inserted && page_map_.size() > page_capacity_) {
      page_map_.erase(it);
      throw DramCapacityError("main memory: the run touches more than dram.size (" +
                              std::to_string(config_.size_bytes >> 20) + " MiB = " + std::to_string(page_capacity_) +
                              " pages of 4 KiB)");
    }
    last_vpage_ = vpage;
    last_ppage_ = it->second;
  }
  return last_ppage_ * kDramPageBytes + addr % kDramPageBytes;
}

uint32_t Dram::channel_of(uint64_t line) const {
  if (!config_.channel_xor || config_.channels == 1) return static_cast<uint32_t>(channels_.mod(line));
  // XOR of every group of log2(channels) bits of the line index: within each run of `channels`
  // consecutive lines the channels are a permutation, so a channel's address (line / channels)
  // stays unique.
  const int bits = channels_.shift;
  uint64_t fold = 0;
  for (uint64_t x = line; x != 0; x >>= bits) fold ^= x;
  return static_cast<uint32_t>(channels_.mod(fold));
}

uint64_t Dram::access(uint64_t addr, bool write, uint64_t now, DramSource source) {
  const uint64_t line = line_.div(physical(addr));
  const uint32_t channel = channel_of(line);
  const uint64_t channel_addr = channels_.div(line) * config_.line_bytes;
  const uint64_t row_global = row_.div(channel_addr);
  const uint32_t bank_index = static_cast<uint32_t>(banks_.mod(row_global));
  const uint64_t row = banks_.div(row_global);
  const DramTiming& t = config_.timing;
  Bank& bank = bank_[static_cast<size_t>(channel) * config_.banks + bank_index];
  Channel& ch = channel_[channel];

  // The bank takes the request at its first free cycle (its calendar). A row hit bursts at once
  // and holds the bank for one burst; a miss precharges the open row, activates the new one and
  // bursts, holding the bank a row cycle. Paper 000 Table I's latency already holds an unloaded
  // miss's precharge and activate: only the waits behind other accesses add.
  const bool row_hit = bank.open_row == row + 1;
  const uint64_t hold = row_hit ? hit_cycles_ : bank.open_row != 0 ? open_miss_cycles_ : miss_cycles_;
  const uint64_t start = bank.busy.reserve(now, hold);
  if (timeline_) {
    timeline_->unit_cycles(Timeline::Unit::DramBank, channel * config_.banks + bank_index, Timeline::Activity::Busy,
                           start, start + hold);
  }
  bank.open_row = row + 1;
  counters_.bank_wait_cycles += static_cast<double>(start - now);
  const uint32_t latency = row_hit ? config_.latency_row_hit : config_.latency_row_miss;

  // The bus carries one line every transfer_cycles_ (whole cycles); a request takes the first
  // free burst once its bank has started it, so N back-to-back requests finish after about
  // N x line / bandwidth cycles. A burst in the other direction than the one booked last waits
  // for the turnaround gap after it.
  // (Only when the burst booked last ends near this one's start: one booked far ahead of it
  // says nothing of the direction of the bus at this one's cycle.)
  uint64_t earliest = start;
  if (ch.used && ch.last_write != write) {
    const double gap = write ? t.rtw_gap : t.wtr_gap;
    const uint64_t after = static_cast<uint64_t>(std::ceil(static_cast<double>(ch.last_end) + gap));
    if (after >= start && ch.last_end <= start + 2 * transfer_cycles_) {
      ++counters_.turnarounds;
      earliest = after;
    }
  }
  const uint64_t bus = ch.bus.reserve(earliest, transfer_cycles_);
  counters_.queue_cycles += static_cast<double>(bus - start);
  ch.last_end = bus + transfer_cycles_;
  ch.busy_until = std::max(ch.busy_until, ch.last_end);
  ch.last_write = write;
  ch.used = true;

  if (write) ++counters_.writes; else ++counters_.reads;
  if (row_hit) ++counters_.row_hits; else ++counters_.row_misses;
  counters_.bytes += config_.line_bytes;
  ++counters_.per_source[static_cast<uint32_t>(source)];
  const uint64_t done = bus + transfer_cycles_ + latency;
  if (!write) counters_.read_latency_cycles += static_cast<double>(done - now);
  return done;
}

double Dram::busy_until() const {
  double t = 0;
  for (const Channel& c : channel_) t = std::max(t, static_cast<double>(c.busy_until));
  return t;
}

}  // namespace tessera::model
