#include "tfm/texture_filter_memory.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace tessera::model::tfm {

void TextureFilterMemory::select_set(uint32_t level) {
  uint32_t set = 0;  // bilinear: one set, the other off (section IV)
  if (trilinear_) set = has_level_ && level != level_ ? set_ ^ 1u : set_;
  if (set != set_) {
    set_ = set;
    ++counters_.set_switches;
  }
  level_ = level;
  has_level_ = true;
}

uint32_t TextureFilterMemory::lookup(uint64_t block, ProbeResult& result) {
  ++counters_.lookups;
  ++result.lookups;
  if (const std::optional<uint32_t> hit = tba_.lookup(set_, block)) {
    ++counters_.lookup_hits;
    ++counters_.hits;
    result.hit_ready = std::max(result.hit_ready, tba_.ready(set_, *hit));
    return *hit;
  }
  const uint32_t buffer = tba_.fill(set_, block).buffer;
  ++counters_.fills;
  result.fill_slots[result.fills] = TbaSlot{static_cast<uint8_t>(set_), static_cast<uint8_t>(buffer)};
  result.l1_blocks[result.fills++] = block;
  return buffer;
}

ProbeResult TextureFilterMemory::bilinear(uint32_t level, const BilinearFootprint& footprint,
                                          const std::array<uint64_t, 4>& blocks) {
  select_set(level);
  ++counters_.probes;
  ++counters_.cases[static_cast<size_t>(footprint.footprint_case)];
  ProbeResult result;
  uint64_t previous = 0;
  uint32_t buffer = 0;
  for (const FetchStep& step : footprint.fetch) {
    const uint64_t block = blocks[step.texel];
    ++counters_.accesses;
    if (step.lookup) {
      buffer = lookup(block, result);
    } else {
      if (block != previous) throw std::invalid_argument("TFM: a direct access of the footprint reads another block");
      ++counters_.direct;
      ++counters_.hits;
      result.hit_ready = std::max(result.hit_ready, tba_.ready(set_, buffer));
    }
    previous = block;
  }
  return result;
}

ProbeResult TextureFilterMemory::nearest(uint32_t level, uint64_t block) {
  select_set(level);
  ++counters_.probes;
  ++counters_.accesses;
  ProbeResult result;
  lookup(block, result);
  return result;
}

ProbeResult TextureFilterMemory::irregular(uint32_t level, std::span<const uint64_t> blocks) {
  if (blocks.size() > ProbeResult{}.l1_blocks.size())
    throw std::invalid_argument("TFM: more than twelve blocks in one probe");
  select_set(level);
  ++counters_.probes;
  ProbeResult result;
  for (uint64_t block : blocks) {
    ++counters_.accesses;
    lookup(block, result);
  }
  return result;
}

void TfmCounters::add(const TfmCounters& o) {
  probes += o.probes;
  accesses += o.accesses;
  hits += o.hits;
  direct += o.direct;
  lookups += o.lookups;
  lookup_hits += o.lookup_hits;
  fills += o.fills;
  set_switches += o.set_switches;
  for (size_t k = 0; k < cases.size(); ++k) cases[k] += o.cases[k];
}

void TextureFilterMemory::clear() {
  tba_.clear();
  set_ = 0;
  trilinear_ = false;
  level_ = 0;
  has_level_ = false;
}

}  // namespace tessera::model::tfm
