// The 2D mesh of paper 000 section IV-A: layout rule, X-Y hop counts and paths on the 4 x 8 mesh
// of 32 fragment processors, and contention with exact delivery cycles.
#include <gtest/gtest.h>

#include <vector>

#include "dtm-nuca/mesh2d.h"

namespace tessera::model::dtm_nuca {
namespace {

constexpr uint32_t kLine = kHeaderBits + 512;  // a header and a 64 B line

TEST(MeshShape, LayoutRule) {
  const auto shape = [](uint32_t n, uint32_t cols = 0) {
    const MeshShape s = MeshShape::for_nodes(n, cols);
    return std::vector<uint32_t>{s.rows, s.cols};
  };
  EXPECT_EQ(shape(32), (std::vector<uint32_t>{4, 8}));
  EXPECT_EQ(shape(16), (std::vector<uint32_t>{4, 4}));
  EXPECT_EQ(shape(8), (std::vector<uint32_t>{2, 4}));
  EXPECT_EQ(shape(4), (std::vector<uint32_t>{2, 2}));
  EXPECT_EQ(shape(9), (std::vector<uint32_t>{3, 3}));
  EXPECT_EQ(shape(12), (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(shape(7), (std::vector<uint32_t>{1, 7}));
  EXPECT_EQ(shape(1), (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(shape(32, 4), (std::vector<uint32_t>{8, 4}));
  EXPECT_THROW(MeshShape::for_nodes(32, 5), std::invalid_argument);
  EXPECT_THROW(MeshShape::for_nodes(0), std::invalid_argument);
}

TEST(Mesh2D, XYHopsAndPathsOn4x8) {
  const Mesh2D mesh(MeshShape::for_nodes(32), 1);
  EXPECT_EQ(mesh.routers(), 32u);
  EXPECT_EQ(mesh.hops(0, 31), 10u);
  EXPECT_EQ(mesh.route(0, 31), (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 15, 23, 31}));
  // X first, then Y: from the bottom-right corner west along row 3, then north along column 0.
  EXPECT_EQ(mesh.route(31, 0), (std::vector<uint32_t>{31, 30, 29, 28, 27, 26, 25, 24, 16, 8, 0}));
  // (1,1) -> (2,6): five hops east, one south.
  EXPECT_EQ(mesh.hops(9, 22), 6u);
  EXPECT_EQ(mesh.route(9, 22), (std::vector<uint32_t>{9, 10, 11, 12, 13, 14, 22}));
  EXPECT_EQ(mesh.route(5, 5), (std::vector<uint32_t>{5}));
  EXPECT_EQ(mesh.hops(5, 5), 0u);
  // Rows 0..3, columns 0..7: the router nearest the centre is (1,3).
  EXPECT_EQ(mesh.centre(), 11u);
  EXPECT_EQ(Mesh2D(MeshShape::for_nodes(9), 1).centre(), 4u);  // Fig. 5(a): the centre of 3 x 3
}

TEST(Mesh2D, ZeroLoadLatency) {
  Mesh2D mesh(MeshShape::for_nodes(32), 1);
  EXPECT_EQ(mesh.send(0, 31, 1, kHeaderBits, 100), 110u);  // 10 hops x 1 cycle
  Mesh2D slow(MeshShape::for_nodes(32), 3);
  EXPECT_EQ(slow.send(0, 31, 5, kLine, 0), 34u);  // 10 x 3 + the 4 flits behind the head
  EXPECT_EQ(mesh.send(7, 7, 5, kLine, 50), 50u);  // to itself: no network
  EXPECT_EQ(mesh.counters().packets, 1u);
}

TEST(Mesh2D, ContentionSerialises) {
  Mesh2D mesh(MeshShape::for_nodes(32), 1);
  // A: 5 flits 0 -> 3 at cycle 0 holds links 0>1 [0,5), 1>2 [1,6), 2>3 [2,7): delivered 3 + 4 = 7.
  EXPECT_EQ(mesh.send(0, 3, 5, kLine, 0), 7u);
  // B: 5 flits 1 -> 3 at cycle 0 waits for link 1>2 until 6, then 2>3 until 7, ejection at 8:
  // delivered 12 instead of 6 without contention.
  EXPECT_EQ(mesh.send(1, 3, 5, kLine, 0), 12u);
  // C: 1 flit 0 -> 1 at cycle 0 waits for 0's injection port and link 0>1, both free at 5.
  EXPECT_EQ(mesh.send(0, 1, 1, kHeaderBits, 0), 6u);
  // D: the opposite direction 3 -> 0 uses other links: no contention.
  EXPECT_EQ(mesh.send(3, 0, 5, kLine, 0), 7u);
  const MeshCounters& c = mesh.counters();
  EXPECT_EQ(c.packets, 4u);
  EXPECT_EQ(c.flits, 16u);
  EXPECT_EQ(c.hops, 3u + 2u + 1u + 3u);
  EXPECT_EQ(c.flit_hops, 15u + 10u + 1u + 15u);
  EXPECT_EQ(c.bit_hops, kLine * 3 + kLine * 2 + kHeaderBits * 1 + kLine * 3);
  EXPECT_EQ(c.router_bits, kLine * 4 + kLine * 3 + kHeaderBits * 2 + kLine * 4);
  EXPECT_EQ(c.contention_cycles, 0u + 6u + 5u + 0u);
  EXPECT_DOUBLE_EQ(c.mean_hops(), 9.0 / 4.0);
  mesh.reset();
  EXPECT_EQ(mesh.send(1, 3, 5, kLine, 0), 6u);
  EXPECT_EQ(mesh.counters().packets, 1u);
}

// The flits each link and port carried, for the utilisation metrics: on a 1 x 3 mesh a 3-flit
// packet from node 0 to node 2 crosses the two eastward links and leaves 0's injection port and
// 2's ejection port; a 1-flit answer back crosses the two westward links.
TEST(Mesh2D, CountsTheFlitsOfEachLinkAndPort) {
  Mesh2D mesh(MeshShape{1, 3}, 1);
  EXPECT_EQ(mesh.links(), 4u);  // 0-1 and 1-2, each way
  EXPECT_EQ(Mesh2D(MeshShape{4, 8}, 1).links(), 2u * (4 * 7 + 8 * 3));
  mesh.send(0, 2, 3, kLine, 0);
  mesh.send(2, 0, 1, kHeaderBits, 10);
  EXPECT_EQ(mesh.busiest_link_flits(), 3u);
  EXPECT_EQ(mesh.link_flits(), 3u * 2 + 1 * 2);
  EXPECT_EQ(mesh.port_flits(0), 3u);  // injected 3, ejected 1
  EXPECT_EQ(mesh.port_flits(2), 3u);
  EXPECT_EQ(mesh.port_flits(1), 0u);
  mesh.clear_counters();
  EXPECT_EQ(mesh.busiest_link_flits(), 0u);
  EXPECT_EQ(mesh.link_flits(), 0u);
  EXPECT_EQ(mesh.port_flits(0), 0u);
  const uint32_t table = mesh.add_endpoint(1);
  mesh.send(0, table, 1, kHeaderBits, 100);
  EXPECT_EQ(mesh.port_flits(table), 1u);
}

TEST(Mesh2D, TableEndpointHasItsOwnPorts) {
  Mesh2D mesh(MeshShape::for_nodes(32), 1);
  const uint32_t table = mesh.add_endpoint(mesh.centre());
  EXPECT_EQ(table, 32u);
  EXPECT_EQ(mesh.router_of(table), 11u);
  EXPECT_EQ(mesh.send(0, table, 1, kHeaderBits, 0), 4u);  // (0,0) -> (1,3): 4 hops
  // Two requests reaching the table at the same cycle serialise on its ejection port.
  EXPECT_EQ(mesh.send(10, table, 1, kHeaderBits, 3), 4u + 1u);
  // The processor at the table's router reaches it without a hop but through its own ports.
  EXPECT_EQ(mesh.send(11, table, 1, kHeaderBits, 6), 6u);
  EXPECT_EQ(mesh.send(table, 11, 1, kHeaderBits, 6), 6u);
  EXPECT_THROW(mesh.send(0, 33, 1, kHeaderBits, 0), std::out_of_range);
}

// Back-pressure on a 1 x 4 row with one packet per input port and 1 cycle per hop. The cycles
// come from the rule: a packet crosses a link when the link is free and the far input buffer has a
// slot at its head's arrival; it holds its slot until its tail has left the router.
TEST(Mesh2D, FullBufferBackPressuresTheHopBefore) {
  constexpr uint32_t kFlits = 5;
  const auto run = [](uint32_t buffer) {
    Mesh2D mesh(MeshShape{1, 4}, 1, buffer);
    std::vector<uint64_t> delivered;
    // A: 3 -> 2 at 0: crosses 3>2 at 0, reaches router 2 at 1, ejects [1, 6): delivered 5.
    delivered.push_back(mesh.send(3, 2, kFlits, kLine, 0));
    // B: 1 -> 2 at 0: reaches router 2 at 1 from the west; the ejection port is A's until 6, so B
    // ejects [6, 11) (delivered 10) and holds router 2's west input over [1, 11).
    delivered.push_back(mesh.send(1, 2, kFlits, kLine, 0));
    // C: one flit 0 -> 2 at 0: reaches router 1 at 1; link 1>2 is B's over [0, 5) and free from 5,
    // but its far buffer is B's until 11, so C crosses at 10, reaches router 2 at 11, ejects at 11.
    // It holds router 1's west input over [1, 11).
    delivered.push_back(mesh.send(0, 2, 1, kHeaderBits, 0));
    // D: one flit 0 -> 1 at 1, to another destination: link 0>1 is free from 1, but router 1's
    // west input is C's until 11, so D crosses at 10 and is delivered at 11.
    delivered.push_back(mesh.send(0, 1, 1, kHeaderBits, 1));
    return std::pair{delivered, mesh.counters()};
  };
  const auto [bounded, b] = run(1);
  EXPECT_EQ(bounded, (std::vector<uint64_t>{5, 10, 11, 11}));
  // C waited 10 - 5 cycles for the slot, D 10 - 1.
  EXPECT_EQ(b.buffer_wait_cycles, 5u + 9u);
  EXPECT_EQ(b.overfull, 0u);
  // Unbounded: C still waits for the ejection port (delivered 11) but D passes at once (2).
  const auto [unbounded, u] = run(0);
  EXPECT_EQ(unbounded, (std::vector<uint64_t>{5, 10, 11, 2}));
  EXPECT_EQ(u.buffer_wait_cycles, 0u);
  // With two slots per port C no longer blocks D either.
  EXPECT_EQ(run(2).first, unbounded);
}

// The injection port's buffer bounds the packets an endpoint has in its own router: a third
// packet from endpoint 0 waits for the first to leave, though the injection port is free.
TEST(Mesh2D, InjectionWaitsForTheRoutersInputBuffer) {
  Mesh2D mesh(MeshShape{1, 3}, 1, 1);
  // A: 2 -> 1, 5 flits at 0, ejects at 1 over [1, 6); B: 0 -> 1, 5 flits at 0: crosses 0>1 at 0
  // into router 1's west input, waits for the ejection port until 6 (delivered 10), holding that
  // input over [1, 11).
  EXPECT_EQ(mesh.send(2, 1, 5, kLine, 0), 5u);
  EXPECT_EQ(mesh.send(0, 1, 5, kLine, 0), 10u);
  // C: 0 -> 1, one flit at 5 (0's injection port is free from 5): enters router 0 at 5 but link
  // 0>1's far buffer is B's until 11, so C crosses at 10 and, the ejection port being B's until
  // 11, is delivered at 11; it holds router 0's injection buffer over [5, 11).
  EXPECT_EQ(mesh.send(0, 1, 1, kHeaderBits, 5), 11u);
  // D: 0 -> 2, one flit at 6: 0's injection buffer is C's until 11, so D enters at 11, crosses
  // 0>1 at 11 (router 1's west input is C's over [11, 12) and free when D arrives at 12) and 1>2
  // at 12: delivered 13.
  EXPECT_EQ(mesh.send(0, 2, 1, kHeaderBits, 6), 13u);
  EXPECT_EQ(mesh.counters().buffer_wait_cycles, 5u + 5u);
}

// Back-pressure with 2 cycles per hop and bookings out of cycle order: a later call for an earlier
// cycle still finds the buffers as the calls before it left them, and only the buffers' shifts
// count as back-pressure. 1 x 3 row, one packet per port.
TEST(Mesh2D, BackPressureWithTwoCycleHopsOutOfCycleOrder) {
  Mesh2D mesh(MeshShape{1, 3}, 2, 1);
  // A: 2 -> 1, 4 flits at 0: crosses 2>1 at 0, reaches router 1 at 2, ejects [2, 6): delivered 5.
  EXPECT_EQ(mesh.send(2, 1, 4, kLine, 0), 5u);
  // B: 0 -> 1, 4 flits at 0: crosses 0>1 at 0 [0, 4), reaches router 1 at 2, waits for the
  // ejection port until 6, ejects [6, 10): delivered 9; holds router 1's west input over [2, 10).
  EXPECT_EQ(mesh.send(0, 1, 4, kLine, 0), 9u);
  // C: 0 -> 1, 3 flits at 20, books link 0>1 over [20, 23) out of cycle order, before D; it
  // holds router 1's west input over [22, 25) (ejected [22, 25), delivered 24).
  EXPECT_EQ(mesh.send(0, 1, 3, kLine, 20), 24u);
  // D: 0 -> 1, 3 flits at 4: link 0>1 is free from 4, its head would reach router 1 at 6, but the
  // west input is B's until 10: D crosses at 8 (buffer shift 4), arrives at 10, ejects at 10:
  // delivered 12; it holds 0's injection buffer over [4, 11) and router 1's west input over
  // [10, 13). E: 0 -> 1, 3 flits at 7: 0's injection port is free at 7, but its buffer is D's
  // until 11, so E enters at 11 (shift 4); link 0>1 is free from 11 and E's head reaches router 1
  // at 13, when D has left the west input; C's later booking of the link, [20, 23), is clear of
  // E's [11, 14). E ejects at 13: delivered 15.
  EXPECT_EQ(mesh.send(0, 1, 3, kLine, 4), 12u);
  EXPECT_EQ(mesh.send(0, 1, 3, kLine, 7), 15u);
  EXPECT_EQ(mesh.counters().buffer_wait_cycles, 4u + 4u);
  EXPECT_EQ(mesh.counters().overfull, 0u);
  EXPECT_EQ(mesh.counters().late, 0u);
}

// A packet that found room over its shortest stay but then waits at the next hop holds its buffer
// past a packet booked there earlier for a later cycle: the bound is exceeded and counted.
TEST(Mesh2D, AStayPastAnEarlierBookingIsCountedOverfull) {
  Mesh2D mesh(MeshShape{1, 3}, 1, 1);
  // A: 0 -> 2, one flit at 10: router 1's west input over [11, 12).
  EXPECT_EQ(mesh.send(0, 2, 1, kHeaderBits, 10), 12u);
  // B: 2 -> 1 ... keeps router 1's ejection port over [1, 21): five 4-flit packets back to back.
  for (uint64_t t = 0; t < 5; ++t) mesh.send(2, 1, 4, kLine, 0);
  // C: 0 -> 1, one flit at 0: router 1's west input is free over [1, 2), so C crosses 0>1 at 0;
  // the ejection port is busy until 21, so C stays there over [1, 22), past A's [11, 12).
  EXPECT_EQ(mesh.send(0, 1, 1, kHeaderBits, 0), 21u);
  EXPECT_EQ(mesh.counters().overfull, 1u);
}

// A packet for a cycle the far buffer has forgotten (more than InputBuffer::kWindow cycles behind
// the buffer's latest) is timed as if the buffer were free and counted apart from the calendars'
// late packets, whose window is longer.
TEST(Mesh2D, APacketBehindTheBuffersWindowIsCountedBufferLate) {
  Mesh2D mesh(MeshShape{1, 2}, 1, 1);
  const uint64_t ahead = InputBuffer::kWindow + 100;
  EXPECT_EQ(mesh.send(0, 1, 1, kHeaderBits, ahead), ahead + 1);
  EXPECT_EQ(mesh.send(0, 1, 1, kHeaderBits, 10), 11u);  // zero-load: nothing remembered blocks it
  EXPECT_EQ(mesh.counters().buffer_late, 1u);
  EXPECT_EQ(mesh.counters().late, 0u);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
