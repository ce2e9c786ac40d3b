// Energy of the structures DTM-NUCA adds (paper 000 reports energy from McPAT without
// per-component figures, so these are stated estimates; the network constant is OUR derivation,
// not a published ORION or DSENT figure).
//
// Network, per bit carried (header and payload), one figure for every technology variant (wire
// capacitance per mm hardly changes between nodes, and hp and lop differ in transistors, not
// wires):
//  - link: a 1 mm full-swing repeated wire between neighbouring routers (kTilePitchMm: a shader
//    core with its 16 KiB texture cache per mesh tile, our assumption). Wire capacitance is about
//    0.2 fF/um in every node (R. Ho, K. Mai, M. Horowitz, "The Future of Wires", Proc. IEEE 89(4),
//    2001) and repeaters add about half again: 0.3 pF/mm; E = a C V^2 with activity a = 0.5 at
//    0.9 V: 0.5 x 0.3 pF x 0.81 V^2 = 0.12 pJ per bit per mm.
//  - router traversal (input buffer write and read, crossbar, allocation): our assumption, equal
//    to one tile pitch of link, 0.12 pJ per bit.
//  Cross-check against a measured chip: the 4x4 mesh of S. Park, T. Krishna, C.-H. O. Chen,
//  B. Daya, A. P. Chandrakasan, L.-S. Peh ("Approaching the theoretical limits of a mesh NoC with
//  a 16-node chip prototype in 45nm SOI", DAC 2012; 1.1 V, 1 GHz, 1 cycle per hop) delivers
//  892 Gb/s at 531.4 mW, 0.60 pJ per delivered bit (clock and leakage included) over 1 to 2.5
//  hops of its unicast and broadcast mix: 0.24-0.60 pJ per bit-hop at 45 nm / 1.1 V, 0.11-0.29
//  scaled to 32 nm / 0.9 V (C x 32/45, V^2 x 0.67). Our 0.24 pJ per bit-hop (router + link)
//  lies inside.
//  A packet of B bits over h hops: B x (h links + (h + 1) routers) bit traversals.
//  Router leakage: each router's input buffers at the model's SRAM leakage per KiB (energy.h: a
//  stated assumption too): 5 ports x nuca.router_buffer slots, a slot the size of a line packet
//  (the largest the caches send); an unbounded buffer (nuca.router_buffer=0, a timing
//  idealisation) is charged as kDefaultBufferSlots slots.
//
// Tables (the Affinity Table, 0.51 KiB, paper 000 Table I; each DTM-NUCA-Dist node's copy; the
// D-NUCA directory): small RAMs, energy.h's small_ram (the docs/model.md ("Energy") 1 KiB RAM with a
// 128-bit port, CACTI 7.0, scaled by technology and by the square root of the capacity); an
// entry update is one read and one write, leakage the model's SRAM leakage per KiB.
//
// The local probe of a request served remotely reads the requester's L1 as a demand read does
// (the docs/model.md ("Energy") 16 KiB 4-way read energy); the model charges only the access the owner's
// L1 makes, so the organisation adds the probe (nuca_organisation.h).
#pragma once

#include <cstdint>

#include "dtm-nuca/mesh2d.h"
#include "tessera/model/energy.h"

namespace tessera::model::dtm_nuca {

// The model's wire figures (energy.h), which the L1-to-L2 interconnect is charged with too.
inline constexpr double kLinkPjPerBitMm = kWirePjPerBitMm;
inline constexpr double kRouterPjPerBit = kSwitchPjPerBit;
using ::tessera::model::kTilePitchMm;
inline constexpr uint32_t kRouterPorts = 5;
inline constexpr uint32_t kDefaultBufferSlots = 4;  // nuca.router_buffer's default

// Dynamic network energy of everything `counters` recorded, in pJ.
double network_energy_pj(const MeshCounters& counters);

// Leakage power of `routers` routers' input buffers of `slots` packets per port (0: unbounded,
// charged as kDefaultBufferSlots), each slot `slot_flits` flits of `flit_bytes`, in mW.
double router_leakage_mw(uint32_t routers, uint32_t slots, uint32_t slot_flits, uint32_t flit_bytes, TechVariant tech);

// `updates` entry updates (one read + one write each) and `reads` entry reads of a table of
// `storage_bits` bits in `tech`, in pJ.
double table_energy_pj(uint64_t updates, uint64_t reads, uint64_t storage_bits, TechVariant tech);

}  // namespace tessera::model::dtm_nuca
