// The Global History Buffer prefetcher of K. J. Nesbit and J. E. Smith, "Data Cache Prefetching
// Using a Global History Buffer", HPCA 2004, in its G/DC form (global delta correlation), with
// no simulator dependency: the miss addresses of one cache in a circular buffer, each entry
// linked to the previous entry whose delta pair (the last two address differences) was the same;
// an index table maps a delta pair to its latest entry. On a miss, the deltas that followed the
// previous occurrence of the current pair are replayed from the miss address (delta
// correlation); a constant stride is the pair (s, s) and replays s, s, ... Paper 002 section 3
// evaluates "the Global History Buffer (GHB) prefetcher [NS04]" on a mobile GPU.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::model::ghb {

class GlobalHistoryBuffer {
 public:
  // `entries` miss addresses kept, `index_entries` delta pairs indexed (direct mapped, tagged),
  // up to `degree` lines predicted per miss.
  GlobalHistoryBuffer(uint32_t entries, uint32_t index_entries, uint32_t degree);

  // A miss on `line` (a line number): records it and appends the `degree` predicted lines to `out`
  // when the current delta pair occurred before (nothing otherwise).
  void miss(uint64_t line, std::vector<uint64_t>& out);

  void clear();

 private:
  struct Entry {
    uint64_t line = 0;
  };
  struct IndexEntry {
    int64_t d1 = 0, d2 = 0;
    uint64_t seq = 0;  // sequence number + 1 of the latest miss completing this pair (0: empty)
  };
  bool held(uint64_t seq) const { return seq < next_ && next_ - seq <= buffer_.size(); }
  uint64_t line_at(uint64_t seq) const { return buffer_[seq % buffer_.size()].line; }

  std::vector<Entry> buffer_;
  std::vector<IndexEntry> index_;
  uint32_t degree_;
  uint64_t next_ = 0;  // sequence number of the next miss
};

}  // namespace tessera::model::ghb
