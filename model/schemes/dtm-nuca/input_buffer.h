// A router input port's buffer on the DTM-NUCA mesh (mesh2d.h), bounded in packets.
//
// Under virtual cut-through a router allocates buffer space a whole packet at a time, so the
// bound counts packets: a slot per packet, as a virtual channel holds one packet at a time (gem5
// Garnet 2.0's routers: 4 virtual channels per virtual network by default; nuca.router_buffer).
// A packet holds its slot from the cycle its head arrives until its tail has left the router.
// A packet may cross a link only if the buffer at the link's far end has a free slot when its head
// arrives there; otherwise it waits whole in the buffer it is in, keeping that slot and so
// blocking the packets behind it: back-pressure, hop by hop, back to the sending endpoint.
//
// Bookings come out of cycle order (busy_calendar.h explains why), so the buffer keeps how many
// packets it holds as a step function of the cycle rather than as a queue. A packet looks for room
// over the shortest stay it can have (its flits passing straight through); its real stay is known
// only when the next hop is booked. If calls made before it hold the buffer at a later cycle of
// that stay, the buffer holds one more packet than its bound there: hold() says so and Mesh2D
// counts such packets (nuca.buffer_overfull_packets) instead of retiming bookings already made.
#pragma once

#include <cstdint>
#include <map>

namespace tessera::model::dtm_nuca {

class InputBuffer {
 public:
  // `capacity` packets; 0: unbounded (the buffer never refuses a packet and keeps nothing).
  explicit InputBuffer(uint32_t capacity = 0) : capacity_(capacity) {}

  bool bounded() const { return capacity_ != 0; }
  uint32_t capacity() const { return capacity_; }

  // The first cycle t >= from at which a packet can arrive and stay `stay` cycles: fewer than
  // capacity() packets held at every cycle of [t, t + stay).
  uint64_t first_room(uint64_t from, uint64_t stay) const;
  // Books a packet held over [enter, leave). Returns true when the buffer then holds more than
  // capacity() packets at some cycle of that interval.
  bool hold(uint64_t enter, uint64_t leave);
  // Packets held at `cycle` (0 for a cycle the buffer has forgotten).
  uint32_t held(uint64_t cycle) const;
  void clear();

  // Cycles this far behind the latest cycle a packet left are forgotten (treated as free), as a
  // link's calendar forgets them (BusyCalendar::kWindow): the step function stays small.
  static constexpr uint64_t kWindow = uint64_t{1} << 20;

 private:
  // Splits the step at `cycle` and returns the step starting there.
  std::map<uint64_t, uint32_t>::iterator split(uint64_t cycle);
  // Joins the step starting at `it` to the one before it when they hold as many packets.
  void join(std::map<uint64_t, uint32_t>::iterator it);
  void forget_before(uint64_t cycle);

  uint32_t capacity_;
  // Packets held from a key's cycle up to the next key's; none before the first key or from the
  // last (whose count is 0).
  std::map<uint64_t, uint32_t> level_;
  uint64_t latest_ = 0;  // the latest cycle a packet left
};

}  // namespace tessera::model::dtm_nuca
