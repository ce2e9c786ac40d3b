// A router input buffer bounded in packets (input_buffer.h): room, holding, the bound's overrun
// by out-of-order bookings, forgetting old cycles, the capacity's limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "dtm-nuca/input_buffer.h"

namespace tessera::model::dtm_nuca {
namespace {

TEST(InputBuffer, UnboundedAlwaysHasRoomAndKeepsNothing) {
  InputBuffer b;
  EXPECT_FALSE(b.bounded());
  EXPECT_FALSE(b.hold(0, 100));
  EXPECT_FALSE(b.hold(0, 100));
  EXPECT_EQ(b.first_room(5, 10), 5u);
  EXPECT_EQ(b.held(50), 0u);
}

TEST(InputBuffer, RoomAfterTheStepsThatAreFull) {
  InputBuffer b(2);
  EXPECT_FALSE(b.hold(10, 20));  // one packet over [10, 20)
  EXPECT_FALSE(b.hold(15, 30));  // two over [15, 20), one over [20, 30)
  EXPECT_EQ(b.held(9), 0u);
  EXPECT_EQ(b.held(10), 1u);
  EXPECT_EQ(b.held(15), 2u);
  EXPECT_EQ(b.held(19), 2u);
  EXPECT_EQ(b.held(20), 1u);
  EXPECT_EQ(b.held(30), 0u);
  // A 3-cycle stay from 5 would reach the full [15, 20): [5, 8) is free, so it fits at 5.
  EXPECT_EQ(b.first_room(5, 3), 5u);
  // From 13 it would overlap the full step: the first room is at 20.
  EXPECT_EQ(b.first_room(13, 3), 20u);
  EXPECT_EQ(b.first_room(16, 1), 20u);
  // A third packet over [20, 25) fills [20, 25): a stay from 21 now starts at 25.
  EXPECT_FALSE(b.hold(20, 25));
  EXPECT_EQ(b.first_room(21, 2), 25u);
  EXPECT_EQ(b.first_room(13, 3), 25u);  // [20, 25) follows [15, 20) with no gap of 3 between
}

TEST(InputBuffer, AHoldPastTheBoundIsReported) {
  InputBuffer b(1);
  EXPECT_FALSE(b.hold(100, 110));  // booked first, though later in time
  // A packet that found room over [90, 92) but stays until 105 overlaps it.
  EXPECT_EQ(b.first_room(90, 2), 90u);
  EXPECT_TRUE(b.hold(90, 105));
  EXPECT_EQ(b.held(104), 2u);
  EXPECT_EQ(b.held(105), 1u);
}

TEST(InputBuffer, OldCyclesAreForgotten) {
  InputBuffer b(1);
  EXPECT_FALSE(b.hold(0, 10));
  EXPECT_EQ(b.held(5), 1u);
  EXPECT_EQ(b.window_start(), 0u);
  // A packet leaving kWindow + 20 cycles in moves the window to start at 20: the first packet is
  // forgotten (its cycles read as free), the new one is not.
  const uint64_t far = InputBuffer::kWindow + 20;
  EXPECT_FALSE(b.hold(far - 5, far));
  EXPECT_EQ(b.window_start(), 20u);
  EXPECT_EQ(b.held(5), 0u);
  EXPECT_EQ(b.first_room(5, 2), 5u);
  EXPECT_EQ(b.held(far - 1), 1u);
  EXPECT_EQ(b.first_room(far - 6, 2), far);
  b.clear();
  EXPECT_EQ(b.held(far - 1), 0u);
  EXPECT_EQ(b.window_start(), 0u);
}

// first_room() against the definition, cycle by cycle (the first t >= from with fewer than
// capacity() packets held at every cycle of [t, t + stay) that the window remembers), over random
// out-of-order bookings that move the window several times round its ring: the full-cycle words
// must agree with the counts across word boundaries, the ring's wrap and forgotten cycles.
TEST(InputBuffer, RoomMatchesACycleByCycleScan) {
  std::mt19937_64 rng(7);
  InputBuffer b(3);
  const auto reference = [&](uint64_t from, uint64_t stay) {
    const uint64_t lo = b.window_start(), hi = lo + InputBuffer::kWindow;
    for (uint64_t t = from;; ++t) {
      bool fits = true;
      for (uint64_t c = std::max(t, lo); c < t + stay && c < hi && fits; ++c) fits = b.held(c) < b.capacity();
      if (fits) return t;
    }
  };
  uint64_t now = 0;
  uint64_t checks = 0;
  for (int i = 0; i < 40000; ++i) {
    now += rng() % 97;  // about 7 times round the ring in all
    const uint64_t enter = now + rng() % 300, leave = enter + 1 + rng() % 200;
    b.hold(enter, leave);
    if (i % 8 == 0) {
      const uint64_t from = now > 500 ? now - 500 + rng() % 1000 : rng() % 1000, stay = 1 + rng() % 150;
      ASSERT_EQ(b.first_room(from, stay), reference(from, stay)) << "from " << from << " stay " << stay;
      ++checks;
    }
  }
  EXPECT_GT(now, 3 * InputBuffer::kWindow);
  EXPECT_EQ(checks, 5000u);
}

// The counts the buffer keeps against a sparse reference, over bookings that sometimes jump ahead
// by more than a window, by part of one or not at all: a cycle the window leaves behind is
// cleared (only the cycles before the latest one held can hold a packet, so only those are
// cleared), and the ring's slots that come round again read as free.
TEST(InputBuffer, HeldMatchesAReferenceAcrossJumps) {
  std::mt19937_64 rng(11);
  InputBuffer b(3);
  std::map<uint64_t, uint32_t> reference;  // cycle -> packets held, cycles in the window only
  uint64_t base = 0, now = 0, checks = 0;
  for (int i = 0; i < 6000; ++i) {
    const uint64_t jump = rng() % 40;
    now += jump == 0 ? InputBuffer::kWindow + rng() % 1000 : jump == 1 ? InputBuffer::kWindow / 3 : rng() % 50;
    const uint64_t enter = now + rng() % 100, leave = enter + 1 + rng() % 60;
    b.hold(enter, leave);
    if (leave - 1 >= base + InputBuffer::kWindow) base = leave - InputBuffer::kWindow;
    reference.erase(reference.begin(), reference.lower_bound(base));
    for (uint64_t c = std::max(enter, base); c < leave; ++c) ++reference[c];
    ASSERT_EQ(b.window_start(), base) << i;
    // Every cycle the reference holds, and cycles across the whole window where it holds none.
    for (const auto& [cycle, packets] : reference) ASSERT_EQ(b.held(cycle), packets) << "cycle " << cycle;
    for (int k = 0; k < 64; ++k) {
      const uint64_t c = base + rng() % InputBuffer::kWindow;
      const auto it = reference.find(c);
      ASSERT_EQ(b.held(c), it == reference.end() ? 0u : it->second) << "cycle " << c;
      ++checks;
    }
  }
  EXPECT_GT(now, 100 * InputBuffer::kWindow);
  EXPECT_EQ(checks, 6000u * 64);
}

TEST(InputBuffer, CapacityIsAByte) {
  EXPECT_NO_THROW(InputBuffer(InputBuffer::kMaxCapacity));
  EXPECT_THROW(InputBuffer(InputBuffer::kMaxCapacity + 1), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
