// When one shared resource (a mesh link, an injection or ejection port, a channel of the L1-to-L2
// interconnect) is busy, cycle by cycle.
// A request for `length` cycles from cycle t takes the earliest free gap at or after t.
//
// Why a calendar rather than a "free at" cycle: a texture request is timed whole when it is
// issued (request, lookup, forward, data return), so it books resources up to hundreds of cycles
// ahead; and the timing model's cores do not issue in one global time order (a core whose misses
// wait for a free MSHR sends its next request at that later cycle, thousands of cycles ahead of
// the others when the network is saturated). A later call may therefore ask for an earlier cycle
// and must still find the resource free before the bookings already made, as in the hardware.
//
// A bit per cycle in a ring of kWindow cycles: the window ends at the latest cycle booked, so
// every booking within kWindow cycles of it is remembered (a gap scan walks 64 cycles per word).
// A call for a cycle that already left the window starts at the window's first cycle (Mesh2D
// counts such late packets). 2^20 cycles (128 KiB a calendar): on a saturated mesh a link's
// bookings run far ahead of the requests still to come (mobile32 with 4x multisampled glmark2
// texture at 640x360 left over a thousand packets a frame late with 2^16 cycles, none with 2^20).
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::model {

class BusyCalendar {
 public:
  static constexpr uint64_t kWindow = uint64_t{1} << 20;

  // `window` cycles remembered (a power of two, at least 64): a resource whose bookings never run
  // far ahead of its requests (a DRAM bank) needs a shorter window than a saturated mesh link.
  explicit BusyCalendar(uint64_t window = kWindow);

  // Books the earliest [start, start + length) with start >= t that overlaps no booking; returns
  // start. length 0 books nothing and returns t. length must not exceed the window.
  uint64_t reserve(uint64_t t, uint64_t length);
  // The start reserve(t, length) would book, booking nothing: a packet that also needs room
  // beyond the resource (a router's input buffer, mesh2d.h) looks before it books.
  uint64_t find(uint64_t t, uint64_t length) const;
  bool busy(uint64_t cycle) const;
  // The first cycle the calendar remembers: a call for an earlier one starts there.
  uint64_t window_start() const { return base_; }
  void clear();

 private:
  // The first free cycle at or after c (cycles past the window are free).
  uint64_t first_free(uint64_t c) const;
  // The first busy cycle in [c, end), or end.
  uint64_t first_busy(uint64_t c, uint64_t end) const;
  void fill(uint64_t start, uint64_t end, bool value);
  // Moves the window so that it holds cycle `last`, forgetting the cycles it leaves behind.
  void advance(uint64_t last);

  uint64_t window_, mask_;
  // Every cycle in [base_, frontier_) is busy: a search from before it starts there (a saturated
  // resource books back to back; without it each search would walk the busy run again).
  uint64_t frontier_ = 0;
  // One past the latest cycle booked: from it on every cycle is free.
  uint64_t end_ = 0;
  std::vector<uint64_t> bits_;  // bit (c % window_): cycle c is busy, for c in [base_, base_ + window_)
  uint64_t base_ = 0;
};

}  // namespace tessera::model
