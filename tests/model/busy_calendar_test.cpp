// Bookings of a shared resource: earliest free gap, a later call for an earlier cycle, the window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>

#include "tessera/model/busy_calendar.h"

namespace tessera::model {
namespace {

TEST(BusyCalendar, EarliestGap) {
  BusyCalendar c;
  EXPECT_EQ(c.reserve(10, 5), 10u);  // [10,15)
  EXPECT_EQ(c.reserve(12, 2), 15u);  // busy until 15: [15,17)
  EXPECT_EQ(c.reserve(0, 10), 0u);   // the gap before fits exactly: [0,10)
  EXPECT_EQ(c.reserve(20, 3), 20u);  // [20,23)
  EXPECT_EQ(c.reserve(16, 4), 23u);  // [17,20) is too short for 4
  EXPECT_EQ(c.reserve(16, 3), 17u);  // but fits 3: [0,27) is busy now
  for (uint64_t t = 0; t < 27; ++t) EXPECT_TRUE(c.busy(t)) << t;
  EXPECT_FALSE(c.busy(27));
  EXPECT_EQ(c.reserve(5, 0), 5u);    // nothing to book
  EXPECT_EQ(c.reserve(0, 1), 27u);
}

TEST(BusyCalendar, GapsAcrossWordsAndTheRingEdge) {
  BusyCalendar c;
  // A booking that straddles a 64-cycle word and the end of the ring.
  const uint64_t edge = BusyCalendar::kWindow;
  EXPECT_EQ(c.reserve(edge - 3, 7), edge - 3);  // [edge-3, edge+4): the window moves to hold it
  EXPECT_EQ(c.window_start(), 4u);               // the window ends at edge + 3
  EXPECT_EQ(c.reserve(edge - 5, 3), edge + 4);   // only 2 free before the booking
  EXPECT_EQ(c.reserve(edge - 5, 2), edge - 5);
  EXPECT_EQ(c.reserve(60, 10), 60u);             // across the word at 64
  EXPECT_EQ(c.reserve(58, 3), 70u);              // [58,60) too short
}

TEST(BusyCalendar, WindowForgetsTheOldestCycles) {
  BusyCalendar c;
  c.reserve(0, 10);
  c.reserve(100, 10);
  EXPECT_TRUE(c.busy(5));
  // A booking kWindow cycles after the first one moves the window past it.
  const uint64_t far = 10 + BusyCalendar::kWindow;
  EXPECT_EQ(c.reserve(far, 1), far);
  EXPECT_EQ(c.window_start(), 11u);
  EXPECT_FALSE(c.busy(5));
  EXPECT_TRUE(c.busy(100));
  // A call for a cycle before the window starts at the window (the mesh counts it as late).
  EXPECT_EQ(c.reserve(3, 2), 11u);
}

// With every cycle of the window booked, the word holding the window's last cycle also holds its
// first cycles (a ring): they are not the cycles after the window, which are all free.
TEST(BusyCalendar, AFullWindowEndsAtItsLastCycle) {
  BusyCalendar c(256);
  EXPECT_EQ(c.reserve(10, 200), 10u);   // [10, 210)
  EXPECT_EQ(c.reserve(210, 56), 210u);  // [210, 266): the window is [10, 266), all busy
  EXPECT_EQ(c.window_start(), 10u);
  EXPECT_EQ(c.reserve(200, 1), 266u);
  EXPECT_EQ(c.reserve(200, 4), 267u);
  EXPECT_TRUE(c.busy(270));
  EXPECT_FALSE(c.busy(271));
}

// Requests in cycle order book without a search; one back to back with the bookings before it
// too, and the result is the search's.
TEST(BusyCalendar, InOrderRequestsBookWhereTheSearchWould) {
  BusyCalendar c(1024);
  uint64_t t = 0;
  for (int i = 0; i < 5000; ++i) {
    const uint64_t length = 1 + i % 7;
    const uint64_t start = c.reserve(t, length);
    EXPECT_EQ(start, t) << i;  // nothing booked at or after t
    t = start + length + (i % 3 == 0 ? 5 : 0);
  }
  // Back to back: a request for an earlier cycle goes after the busy run.
  EXPECT_EQ(c.reserve(t - 3, 2), t);
}

// find() answers what reserve() would book and books nothing: on out-of-order requests of mixed
// lengths, each find equals the reserve that follows it, and a second find still agrees.
TEST(BusyCalendar, FindIsTheStartReserveBooks) {
  BusyCalendar c(4096);
  uint64_t seed = 12345;
  for (int i = 0; i < 3000; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t t = (seed >> 33) % 6000;
    const uint64_t length = 1 + (seed >> 20) % 9;
    const uint64_t found = c.find(t, length);
    EXPECT_EQ(c.find(t, length), found) << i;
    EXPECT_EQ(c.reserve(t, length), found) << i;
  }
}

// Bookings against a reference set of booked cycles, with jumps of more than a window, of part of
// one, and requests for cycles the window has left: every start equals the reference search from
// max(t, window start), and every cycle of the window reads as the reference has it. The cycles
// the window leaves behind are cleared only up to the latest booking (nothing after it was
// booked), so a jump past every booking must still leave the ring free where it comes round.
TEST(BusyCalendar, ForgettingMatchesAReference) {
  constexpr uint64_t kWindow = 256;
  BusyCalendar c(kWindow);
  std::set<uint64_t> booked;
  uint64_t base = 0, now = 0;
  uint64_t seed = 99;
  const auto next = [&] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return seed >> 33;
  };
  for (int i = 0; i < 20000; ++i) {
    const uint64_t jump = next() % 50;
    now += jump == 0 ? kWindow + next() % 700 : jump == 1 ? kWindow / 2 + next() % 64 : next() % 4;
    const uint64_t t = now > 300 && next() % 4 == 0 ? now - 300 + next() % 300 : now + next() % 20;
    const uint64_t length = 1 + next() % 70;
    uint64_t start = std::max(t, base);
    const auto taken = [&](uint64_t s) {
      const auto it = booked.lower_bound(s);
      return it != booked.end() && *it < s + length;
    };
    while (taken(start)) ++start;
    ASSERT_EQ(c.reserve(t, length), start) << i;
    for (uint64_t k = start; k < start + length; ++k) booked.insert(k);
    if (start + length - 1 >= base + kWindow) base = start + length - kWindow;
    booked.erase(booked.begin(), booked.lower_bound(base));
    ASSERT_EQ(c.window_start(), base) << i;
    for (uint64_t k = base; k < base + kWindow; ++k) ASSERT_EQ(c.busy(k), booked.count(k) == 1) << "cycle " << k;
  }
  EXPECT_GT(now, 200 * kWindow);
}

}  // namespace
}  // namespace tessera::model
