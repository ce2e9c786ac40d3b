// Dynamic energy of the Texture Filter Memory and of the filter caches (paper 004 section V-A2,
// Fig. 9). The paper synthesised its TFM and ran CACTI for the caches but prints no per-access
// figures, so ours are derived, with the derivation stated:
//
// the docs/model.md ("Energy") small RAM (energy.h small_ram: the 1 KiB, 128-bit-port CACTI 7.0 32 nm lop
// figure, 0.82 pJ per row read and 1.14 pJ per row write, moved to the configured technology and
// scaled by sqrt(capacity / 1 KiB): bitline and wordline lengths both grow with the side of the
// array, first-order CACTI behaviour for small arrays).
//  - TBA: only the active set is accessed (the other is turned off, section IV): 4 buffers x 16
//    texels x 4 B = 256 B (32 nm lop: a row read 0.41 pJ, a row write 0.57 pJ). A texel read
//    (direct or after a lookup) reads one 128-bit row: 0.41 pJ. A lookup also reads and compares
//    the four 26-bit block-address registers: one more row read (4 x 26 bits ~ one 128-bit row).
//    A fill writes the block as 4 rows: 2.28 pJ.
//  - 512 B filter cache (32 nm lop: a row read 0.580 pJ, a row write 0.806 pJ): an access is one
//    texel read (Algorithm 1, as the TBA's): it reads the texel's 128-bit row and compares tags,
//    one 26-bit tag costing 26/128 of a row read; direct-mapped 1 tag per line looked up, fully
//    associative 8 (a CAM search of every entry). A fill writes a 64 B line as 4 rows.
// The L1 texture caches and L2 keep the model's CACTI figures (energy.h).
#pragma once

#include <cstdint>

#include "tessera/model/energy.h"
#include "tfm/filter_cache.h"
#include "tfm/texture_filter_memory.h"

namespace tessera::model::tfm {

inline constexpr double kTbaSetBytes = 256;  // one active set: 4 x 16 texels x 4 B
inline constexpr uint32_t kTagBits = 26;
inline constexpr uint32_t kRowsPerLine = 4;  // 64 B over a 128-bit port

// Per-event energies in pJ.
struct TbaEnergy {
  double texel_read = 0;
  double lookup = 0;
  double fill = 0;
};
TbaEnergy tba_energy(TechVariant tech);
struct FilterEnergy {
  double texel_read = 0;   // one row
  double tag_compare = 0;  // one tag
  double fill = 0;         // one line
};
// The same 512 B array for both organisations: they differ in the tags compared per lookup.
FilterEnergy filter_energy(TechVariant tech);

double front_energy_pj(const TfmCounters& counters, TechVariant tech);
double front_energy_pj(const FilterCounters& counters, TechVariant tech);

}  // namespace tessera::model::tfm
