// The 2D mesh that connects the texture caches of DTM-NUCA (paper 000 section IV-A, Fig. 5):
// X-Y (dimension-order) routing, `hop_latency` cycles per hop (Table I: 1 cycle/hop).
//
// Layout: `nodes` fragment processors in rows x cols, node id = row * cols + col (row-major).
// Automatic shape (mesh_cols = 0): the most square exact factorisation with rows <= cols, i.e.
// cols = the smallest divisor of nodes that is >= ceil(sqrt(nodes)): 32 -> 4 x 8, 16 -> 4 x 4,
// 8 -> 2 x 4, 4 -> 2 x 2, 9 -> 3 x 3, 12 -> 3 x 4, a prime p -> 1 x p. An exact rectangle keeps
// X-Y routing total (a partial last row would leave X-first routes through missing routers).
// An explicit mesh_cols must divide nodes.
//
// Timing (virtual cut-through with link reservation): every router output link and every
// endpoint's injection and ejection port carries one flit per cycle, so a packet of F flits
// holds each of them for F consecutive cycles. The head crosses a link in the first free gap of F
// cycles from its arrival (busy_calendar.h) and reaches the next router hop_latency cycles
// later; a blocked packet waits whole in the router's buffer and frees the links behind it. A
// packet is delivered when its last flit leaves the ejection port: with no contention,
// now + hops x hop_latency + F - 1. Packets contending for the same cycles are served in call
// order.
//
// Buffers (input_buffer.h): each router input port -- one per link into the router and one per
// endpoint's injection port -- holds at most `buffer_packets` packets (0: unbounded). A packet
// crosses a link (or is injected) only in a gap where the buffer at the far end has a slot free
// over the cycles its flits arrive; until then it waits in the buffer it is in, holding that slot, and the
// packets behind it wait for it: back-pressure reaches the sender, whose send() returns later.
// The ejection port's endpoint always takes the flits (it consumes them, as the paper's caches
// and table do).
//
// Extra endpoints (add_endpoint) share a router with a processor but have their own injection and
// ejection ports: the centralized Affinity Table sits at the router nearest the centre of the
// mesh (Fig. 5(a) draws it in the centre of a 3 x 3 mesh).
//
// Energy: each bit a packet carries costs a fixed energy per router traversal (hops + 1 routers:
// buffer write and read, crossbar, allocation) and per link traversal (hops links), see
// network_energy.h; the idle wires of a partly filled flit cost nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "dtm-nuca/input_buffer.h"
#include "tessera/model/busy_calendar.h"

namespace tessera::model::dtm_nuca {

struct MeshShape {
  uint32_t rows = 1;
  uint32_t cols = 1;
  // Throws std::invalid_argument for nodes == 0 or a `cols` that does not divide `nodes`.
  static MeshShape for_nodes(uint32_t nodes, uint32_t cols = 0);
};

// Every packet starts with a header (destination, source, kind, line address): our choice of 64
// bits. A request or a notification is a header alone; a line is a header and 64 bytes.
inline constexpr uint32_t kHeaderBits = 64;

struct MeshCounters {
  uint64_t packets = 0;
  uint64_t flits = 0;
  uint64_t hops = 0;                // summed over packets
  uint64_t flit_hops = 0;           // link traversals of flits
  uint64_t bit_hops = 0;            // link traversals of the bits packets carry
  uint64_t router_bits = 0;         // router traversals of those bits: bits x (hops + 1) per packet
  uint64_t contention_cycles = 0;   // delivery minus zero-load delivery, summed over packets
  // Cycles packets waited, over all their hops, for a slot in the next input buffer after the link
  // or port itself was free: the back-pressure part of contention_cycles' waits.
  uint64_t buffer_wait_cycles = 0;
  // Packets that found room where they looked but held a buffer beyond its bound later in their
  // stay, because calls made before them hold it then (input_buffer.h): a measure of how far the
  // out-of-order booking strays from a strict bound; 0 with unbounded buffers.
  uint64_t overfull = 0;
  // Packets that reached a link or port at a cycle its calendar no longer remembered (it started
  // at the calendar's window instead, busy_calendar.h): 0 unless cores drift apart by more than
  // BusyCalendar::kWindow cycles.
  uint64_t late = 0;
  // Packets that reached a router buffer at a cycle it had forgotten (taken as free, so timed
  // without back-pressure there, input_buffer.h): cores more than InputBuffer::kWindow cycles apart.
  uint64_t buffer_late = 0;
  double mean_hops() const { return packets ? static_cast<double>(hops) / static_cast<double>(packets) : 0.0; }
};

class Mesh2D {
 public:
  // `buffer_packets`: the packets each router input port holds (0: unbounded). Throws
  // std::invalid_argument on a zero dimension.
  Mesh2D(MeshShape shape, uint32_t hop_latency, uint32_t buffer_packets = 0);

  uint32_t rows() const { return rows_; }
  uint32_t cols() const { return cols_; }
  uint32_t routers() const { return rows_ * cols_; }
  uint32_t hop_latency() const { return hop_latency_; }
  uint32_t buffer_packets() const { return buffer_packets_; }
  uint32_t row(uint32_t router) const { return router / cols_; }
  uint32_t col(uint32_t router) const { return router % cols_; }
  // The router nearest the centre: row (rows - 1) / 2, column (cols - 1) / 2.
  uint32_t centre() const { return ((rows_ - 1) / 2) * cols_ + (cols_ - 1) / 2; }

  // Endpoints 0 .. routers()-1 are the processors, one per router. add_endpoint attaches another
  // endpoint to `router` and returns its id.
  uint32_t add_endpoint(uint32_t router);
  uint32_t endpoints() const { return static_cast<uint32_t>(endpoint_router_.size()); }
  uint32_t router_of(uint32_t endpoint) const { return endpoint_router_.at(endpoint); }

  // X-Y routing between routers: hop count, and the routers visited, from first to last.
  uint32_t hops(uint32_t from_router, uint32_t to_router) const;
  std::vector<uint32_t> route(uint32_t from_router, uint32_t to_router) const;

  // Sends a packet of `flits` flits carrying `bits` bits (header included) from endpoint `src` to
  // endpoint `dst`, injected at `now`; returns the cycle its last flit is delivered. src == dst
  // costs nothing and returns now.
  uint64_t send(uint32_t src, uint32_t dst, uint32_t flits, uint32_t bits, uint64_t now);

  const MeshCounters& counters() const { return counters_; }
  // Flits booked since the counters were cleared: on the busiest router output link, on all links
  // together, and through an endpoint's busier port (injection or ejection). Over a frame's
  // cycles they are the utilisations (one flit per cycle each) that show a saturated mesh or
  // table node.
  uint64_t busiest_link_flits() const;
  uint64_t link_flits() const;
  uint64_t port_flits(uint32_t endpoint) const;
  // Router output links that exist: two per pair of neighbouring routers.
  uint32_t links() const { return 2 * (rows_ * (cols_ - 1) + cols_ * (rows_ - 1)); }
  // Restarts the counters; links and ports keep their bookings (a new frame of a run whose clock
  // goes on).
  void clear_counters();
  // Frees every link, port and buffer and clears the counters.
  void reset();

 private:
  enum Direction : uint32_t { kEast = 0, kWest = 1, kSouth = 2, kNorth = 3 };
  uint32_t step(uint32_t router, uint32_t to_router, Direction* dir) const;
  // What one packet met on its way, for the counters.
  struct Passage {
    uint64_t buffer_wait = 0;
    bool late = false, buffer_late = false, overfull = false;
  };
  // Books `flits` cycles of `port` from the first cycle >= ready at which it is free and
  // `into` (the buffer its flits enter `latency` cycles later; null: none) has a slot over the
  // `flits` cycles they arrive in; returns that cycle. Adds the cycles the buffer delayed it to
  // the passage and notes a cycle the port or the buffer no longer remembers.
  uint64_t cross(BusyCalendar& port, InputBuffer* into, uint64_t ready, uint32_t latency, uint32_t flits, Passage& p);

  uint32_t rows_;
  uint32_t cols_;
  uint32_t hop_latency_;
  uint32_t buffer_packets_;
  std::vector<uint32_t> endpoint_router_;
  std::vector<BusyCalendar> links_;   // routers x 4 output directions
  std::vector<InputBuffer> link_in_;  // per link: the input buffer at its far end
  std::vector<InputBuffer> inject_in_;  // per endpoint: its router's input buffer behind the injection port
  std::vector<BusyCalendar> inject_;  // per endpoint
  std::vector<BusyCalendar> eject_;   // per endpoint
  MeshCounters counters_;
  std::vector<uint64_t> link_flits_;    // routers x 4 output directions, since clear_counters
  std::vector<uint64_t> inject_flits_;  // per endpoint
  std::vector<uint64_t> eject_flits_;   // per endpoint
};

}  // namespace tessera::model::dtm_nuca
