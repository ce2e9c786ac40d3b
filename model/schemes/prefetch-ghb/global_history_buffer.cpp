#include "prefetch-ghb/global_history_buffer.h"

#include <stdexcept>

namespace tessera::model::ghb {

GlobalHistoryBuffer::GlobalHistoryBuffer(uint32_t entries, uint32_t index_entries, uint32_t degree)
    : buffer_(entries), index_(index_entries), degree_(degree) {
  if (entries < 3 || index_entries == 0 || degree == 0) {
    throw std::invalid_argument("a global history buffer needs 3 entries, an index entry and a degree of 1");
  }
}

void GlobalHistoryBuffer::miss(uint64_t line, std::vector<uint64_t>& out) {
  const uint64_t seq = next_++;
  buffer_[seq % buffer_.size()].line = line;
  if (seq < 2) return;
  const int64_t d1 = static_cast<int64_t>(line - line_at(seq - 1));
  const int64_t d2 = static_cast<int64_t>(line_at(seq - 1) - line_at(seq - 2));
  const uint64_t h = (static_cast<uint64_t>(d1) * 0x9E3779B97F4A7C15ull) ^ (static_cast<uint64_t>(d2) * 0xC2B2AE3D27D4EB4Full);
  IndexEntry& ix = index_[(h >> 17) % index_.size()];
  if (ix.seq != 0 && ix.d1 == d1 && ix.d2 == d2 && held(ix.seq - 1)) {
    // Replay from the miss address the deltas that followed the pair's previous occurrence (up
    // to this miss), repeating them when the degree asks for more: a constant stride s gives
    // s, s, s, ...
    const uint64_t first = ix.seq - 1;
    const uint64_t n = seq - first;
    uint64_t predicted = line;
    for (uint32_t i = 0; i < degree_; ++i) {
      const uint64_t p = first + i % n;
      predicted += line_at(p + 1) - line_at(p);
      out.push_back(predicted);
    }
  }
  ix = IndexEntry{d1, d2, seq + 1};
}

void GlobalHistoryBuffer::clear() {
  for (Entry& e : buffer_) e = {};
  for (IndexEntry& e : index_) e = {};
  next_ = 0;
}

}  // namespace tessera::model::ghb
