// The Texture Buffer Array (paper 004 Fig. 7): two sets of four block buffers; replacement within
// a set (our choice, LRU; FIFO selectable).
#include <gtest/gtest.h>

#include "tfm/texture_buffer_array.h"

namespace tessera::model::tfm {
namespace {

TEST(TextureBufferArray, Geometry) {
  EXPECT_EQ(TextureBufferArray::kSets * TextureBufferArray::kBuffersPerSet, 8u);
  EXPECT_EQ(TextureBufferArray::kTexelsPerBuffer, 16u);
  // 7-bit TBA address: 1 set bit + 2 buffer bits + 4 offset bits.
  EXPECT_EQ(1u << TextureBufferArray::kAddressBits,
            TextureBufferArray::kSets * TextureBufferArray::kBuffersPerSet * TextureBufferArray::kTexelsPerBuffer);
}

TEST(TextureBufferArray, LookupAndFill) {
  TextureBufferArray tba;
  EXPECT_FALSE(tba.lookup(0, 10).has_value());
  const TbaFill f = tba.fill(0, 10);
  EXPECT_FALSE(f.evicted);
  EXPECT_EQ(tba.lookup(0, 10), f.buffer);
  EXPECT_FALSE(tba.lookup(1, 10).has_value());  // the other set has its own buffers and comparators
  tba.clear();
  EXPECT_FALSE(tba.holds(0, 10));
}

// A B C D fill a set; A is looked up again; E needs a buffer. LRU evicts B (A was refreshed),
// FIFO evicts A (filled first).
TEST(TextureBufferArray, LruAndFifoDiffer) {
  for (const TbaReplacement r : {TbaReplacement::Lru, TbaReplacement::Fifo}) {
    TextureBufferArray tba(r);
    for (uint64_t b : {1, 2, 3, 4}) EXPECT_FALSE(tba.fill(0, b).evicted);
    EXPECT_TRUE(tba.lookup(0, 1).has_value());
    tba.fill(1, 99);  // set 1 does not disturb set 0
    const TbaFill f = tba.fill(0, 5);
    ASSERT_TRUE(f.evicted);
    EXPECT_EQ(f.evicted_block, r == TbaReplacement::Lru ? 2u : 1u);
    EXPECT_TRUE(tba.holds(0, 5));
  }
  EXPECT_EQ(tba_replacement("fifo"), TbaReplacement::Fifo);
  EXPECT_THROW(tba_replacement("random"), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::tfm
