#include "tessera/model/dram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

namespace tessera::model {

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
  if (config.size_bytes < kDramPageBytes) throw std::invalid_argument("dram: size is smaller than one 4 KiB page");
  transfer_cycles_ = config.line_bytes / config.bytes_per_cycle;
  line_ = divisor(config.line_bytes);
  channels_ = divisor(config.channels);
  row_ = divisor(config.row_bytes);
  banks_ = divisor(config.banks);
  page_capacity_ = config.size_bytes / kDramPageBytes;
  bus_free_.assign(config.channels, 0.0);
  open_row_.assign(static_cast<size_t>(config.channels) * config.banks, 0);
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

uint64_t Dram::access(uint64_t addr, bool write, uint64_t now, DramSource source) {
  const uint64_t line = line_.div(physical(addr));
  const uint32_t channel = static_cast<uint32_t>(channels_.mod(line));
  const uint64_t channel_addr = channels_.div(line) * config_.line_bytes;
  const uint64_t row_global = row_.div(channel_addr);
  const uint32_t bank = static_cast<uint32_t>(banks_.mod(row_global));
  const uint64_t row = banks_.div(row_global);

  uint64_t& open = open_row_[static_cast<size_t>(channel) * config_.banks + bank];
  const bool row_hit = open == row + 1;
  open = row + 1;
  const uint32_t latency = row_hit ? config_.latency_row_hit : config_.latency_row_miss;

  // The bus carries one line every transfer_cycles_; a request starts its transfer when the bus is
  // free, so N back-to-back requests finish after about N x line / bandwidth cycles.
  const double arrival = static_cast<double>(now);
  const double start = std::max(arrival, bus_free_[channel]);
  bus_free_[channel] = start + transfer_cycles_;
  counters_.queue_cycles += start - arrival;

  if (write) ++counters_.writes; else ++counters_.reads;
  if (row_hit) ++counters_.row_hits; else ++counters_.row_misses;
  counters_.bytes += config_.line_bytes;
  ++counters_.per_source[static_cast<uint32_t>(source)];
  return static_cast<uint64_t>(std::ceil(start + transfer_cycles_)) + latency;
}

double Dram::busy_until() const { return *std::max_element(bus_free_.begin(), bus_free_.end()); }

}  // namespace tessera::model
