// The request path of paper 000 (sections III-B, IV, VI): the decision helper on every branch and
// exact latencies of the legs over the mesh with a contended table node. The wired organisation
// (the LRU rule on real caches, fills, the D-NUCA directory) is tested in nuca_organisation_test.
#include <gtest/gtest.h>

#include "dtm-nuca/remote_access.h"

namespace tessera::model::dtm_nuca {
namespace {

TEST(Decide, EveryBranch) {
  // Local hit by the owner: served locally, LRU updated.
  EXPECT_EQ(decide(1, true, true, kNoOwner, false), (Decision{Service::LocalHit, 1, true, false}));
  // Local hit by a just-exchanged owner (not the owner now): served locally, LRU not updated.
  EXPECT_EQ(decide(1, true, false, kNoOwner, false), (Decision{Service::LocalHit, 1, false, false}));
  // Local miss by the owner: the requester reads L2 and fills its own L1.
  EXPECT_EQ(decide(1, false, true, 1, false), (Decision{Service::LocalMiss, 1, true, true}));
  // D-NUCA: nobody holds the block.
  EXPECT_EQ(decide(1, false, true, kNoOwner, false), (Decision{Service::LocalMiss, 1, true, true}));
  // Another owner holds it: a remote hit, nothing filled.
  EXPECT_EQ(decide(1, false, false, 2, true), (Decision{Service::RemoteHit, 2, true, false}));
  // Another owner misses: it reads L2 and fills its own L1; the requester does not fill.
  EXPECT_EQ(decide(1, false, false, 2, false), (Decision{Service::RemoteMiss, 2, true, true}));
  EXPECT_TRUE(decide(1, false, false, 2, false).reads_l2());
  EXPECT_TRUE(decide(1, false, false, 2, true).remote());
  EXPECT_FALSE(decide(1, false, true, 1, false).remote());
}

// A request composed as the organisation does: lookup, forward, the server's L1 (2 cycles), L2
// (18 cycles) on a miss, the line back.
uint64_t remote(RemoteAccessPath& path, uint32_t requester, uint32_t server, bool l2, uint64_t probed) {
  const uint64_t at_server = path.forward(requester, server, path.lookup(requester, probed));
  return path.reply(server, requester, at_server + 2 + (l2 ? 18 : 0));
}
uint64_t own(RemoteAccessPath& path, uint32_t requester, uint64_t probed) {
  const uint64_t answered = path.lookup(requester, probed);
  return (path.central() ? path.forward(requester, requester, answered) : answered) + 18;
}

TEST(RemoteAccessPath, CentralTableLatencies) {
  // 2 x 2 mesh (0 1 / 2 3), 1 cycle per hop, the table at the router of node 0 (the centre of a
  // 2 x 2 mesh), table 1 cycle, 1-flit requests, 16 B flits: 5-flit lines; requests issued at 10,
  // probed at 12.
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  const uint32_t table = mesh.add_endpoint(mesh.centre());
  RemoteAccessPath path(mesh, PathConfig{1, 64, 16}, table);

  // A, remote hit, core 3 -> owner 1: 3 -> table 2 hops (14); table 14..15; forwarded table -> 1
  // one hop (16); owner's L1 until 18; 5 flits 1 -> 3 one hop: 23.
  EXPECT_EQ(remote(path, 3, 1, false, 12), 23u);
  // B, core 1 is the owner: its request reaches the table at 13, before A's, and is answered at
  // 14; the answer is back at 15 and L2 delivers at 33. A's bookings later in time do not delay it.
  EXPECT_EQ(own(path, 1, 12), 33u);
  // C, remote miss, core 2 -> owner 3: its request waits for the table's ejection port (B at 13,
  // A at 14: delivered 15), is answered at 16, forwarded 0 -> 1 -> 3 (18), the owner probes until
  // 20, reads L2 until 38 and sends 5 flits one hop west: 43.
  EXPECT_EQ(remote(path, 2, 3, true, 12), 43u);
  EXPECT_EQ(path.lookups(), 3u);
  EXPECT_EQ(mesh.counters().contention_cycles, 2u);  // C's request 2 cycles behind B's and A's
}

TEST(RemoteAccessPath, TwoSimultaneousRequestsSerialiseAtTheTable) {
  // 4 x 8 mesh, the table at router 11 (row 1, column 3). Nodes 10 and 12, one hop west and east
  // of it, send their requests at the same cycle: they reach the router together, the first is
  // delivered after its hop (101) and answered at 102, the second waits one cycle for the table's
  // ejection port (102) and is answered at 103.
  Mesh2D mesh(MeshShape::for_nodes(32), 1);
  const uint32_t table = mesh.add_endpoint(mesh.centre());
  RemoteAccessPath path(mesh, PathConfig{1, 64, 16}, table);
  EXPECT_EQ(path.lookup(10, 100), 102u);
  EXPECT_EQ(path.lookup(12, 100), 103u);
  // With a 3-cycle table, each answer is 3 cycles after the table took the request.
  Mesh2D mesh3(MeshShape::for_nodes(32), 1);
  RemoteAccessPath slow(mesh3, PathConfig{3, 64, 16}, mesh3.add_endpoint(mesh3.centre()));
  EXPECT_EQ(slow.lookup(10, 100), 104u);
  EXPECT_EQ(slow.lookup(12, 100), 105u);
}

TEST(RemoteAccessPath, DistributedTableLatencies) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  RemoteAccessPath path(mesh, PathConfig{1, 64, 16}, kNoOwner);
  // The own table is read with the L1 tags: remote miss 0 -> owner 3 probed at 2: request two
  // hops (4), owner probe (6), L2 (24), 5 flits back two hops: 24 + 2 + 4 = 30.
  EXPECT_EQ(remote(path, 0, 3, true, 2), 30u);
  EXPECT_EQ(own(path, 1, 2), 20u);
  EXPECT_EQ(path.lookups(), 0u);
  EXPECT_EQ(packet_flits(512, 16), 5u);
  EXPECT_EQ(packet_flits(512, 32), 3u);
  EXPECT_EQ(packet_flits(512, 24), 4u);
  EXPECT_EQ(packet_flits(512, 64), 2u);
  EXPECT_EQ(packet_flits(0, 64), 1u);
}

TEST(RemoteAccessPath, NotificationsLeaveTheTable) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  RemoteAccessPath path(mesh, PathConfig{1, 64, 16}, mesh.add_endpoint(mesh.centre()));
  path.notify(3, 0);
  EXPECT_EQ(mesh.counters().packets, 1u);
  EXPECT_EQ(mesh.counters().hops, 2u);
  RemoteAccessPath own_tables(mesh, PathConfig{1, 64, 16}, kNoOwner);
  own_tables.notify(3, 0);  // no table node: nothing to send
  EXPECT_EQ(mesh.counters().packets, 1u);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
