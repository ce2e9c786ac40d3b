// Paper 002's reference prefetcher: the Global History Buffer's G/DC prefetches on miss streams
// whose deltas are known.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "prefetch-ghb/global_history_buffer.h"

namespace tessera::model {
namespace {

// Nesbit and Smith's G/DC on a stride: the pair (s, s) recurs from the fourth miss on and
// replays s, s, ... ; a repeating delta pattern (1, 3) is replayed in order.
TEST(GlobalHistoryBuffer, StrideAndDeltaPatterns) {
  ghb::GlobalHistoryBuffer g(16, 16, 3);
  std::vector<uint64_t> out;
  for (uint64_t line : {100, 102, 104}) {
    g.miss(line, out);
    EXPECT_TRUE(out.empty());
  }
  g.miss(106, out);
  EXPECT_EQ(out, (std::vector<uint64_t>{108, 110, 112}));
  ghb::GlobalHistoryBuffer p(16, 16, 4);
  out.clear();
  // Deltas 1, 3, 1, 3: at the miss on 8 the pair (3, 1) recurs; it last completed at the miss on
  // 4, and the deltas since (1, 3) are replayed from 8 until the degree is reached.
  for (uint64_t line : {0, 1, 4, 5, 8}) p.miss(line, out);
  EXPECT_EQ(out, (std::vector<uint64_t>{9, 12, 13, 16}));
}

}  // namespace
}  // namespace tessera::model
