// A router input port's buffer on the DTM-NUCA mesh (mesh2d.h), bounded in packets.
//
// Under virtual cut-through a router allocates buffer space a whole packet at a time, so the
// bound counts packets: a slot per packet, as a virtual channel holds one packet at a time
// (nuca.router_buffer). A packet holds its slot from the cycle its head arrives until its tail has
// left the router. A packet may cross a link only if the buffer at the link's far end has a free
// slot over the cycles its flits arrive; otherwise it waits whole in the buffer it is in, keeping
// that slot and so blocking the packets behind it: back-pressure, hop by hop, back to the sender.
//
// Bookings come out of cycle order (busy_calendar.h explains why), so the buffer keeps how many
// packets it holds at each cycle, a byte per cycle in a ring of kWindow cycles that ends at the
// latest cycle a packet left (as a link's calendar keeps its bookings). A packet looks for room
// over the shortest stay it can have (its flits passing straight through); its real stay is known
// only when the next hop is booked. If calls made before it hold the buffer at a later cycle of
// that stay, the buffer holds one more packet than its bound there: hold() says so and Mesh2D
// counts such packets (nuca.buffer_overfull_packets) instead of retiming bookings already made.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::model::dtm_nuca {

class InputBuffer {
 public:
  // 2^18 cycles, a quarter of a link calendar's window (256 KiB per buffer that holds a packet;
  // a buffer never used, such as one behind a link on the mesh's edge, takes none; a study runs
  // tens of configurations at once). A cycle before the window is taken as free and the packet
  // counted (Mesh2D, nuca.buffer_late_packets): the paper 000 study at 2160x1080 had 3,780 such
  // packets of 5.7 billion, all on minetest, whose starved cores drift furthest apart.
  static constexpr uint64_t kWindow = uint64_t{1} << 18;
  static constexpr uint32_t kMaxCapacity = 255;  // a byte per cycle

  // `capacity` packets, at most kMaxCapacity; 0: unbounded (never refuses a packet, keeps nothing).
  // Throws std::invalid_argument above kMaxCapacity.
  explicit InputBuffer(uint32_t capacity = 0);

  bool bounded() const { return capacity_ != 0; }
  uint32_t capacity() const { return capacity_; }

  // The first cycle t >= from at which a packet can arrive and stay `stay` cycles: fewer than
  // capacity() packets held at every cycle of [t, t + stay).
  uint64_t first_room(uint64_t from, uint64_t stay) const;
  // Books a packet held over [enter, leave). Returns true when the buffer then holds more than
  // capacity() packets at some cycle of that interval.
  bool hold(uint64_t enter, uint64_t leave);
  // Packets held at `cycle` (0 for a cycle outside the window).
  uint32_t held(uint64_t cycle) const;
  // The first cycle the buffer remembers.
  uint64_t window_start() const { return base_; }
  void clear();

 private:
  // Moves the window so that it holds cycle `last`, forgetting the cycles it leaves behind.
  void advance(uint64_t last);

  uint32_t capacity_;
  std::vector<uint8_t> count_;  // count_[c % kWindow]: packets held at cycle c, for c in [base_, base_ + kWindow)
  uint64_t base_ = 0;
};

}  // namespace tessera::model::dtm_nuca
