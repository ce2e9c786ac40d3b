// The bilinear footprint of paper 004 (Fig. 4, Fig. 5, Algorithm 2): which 4x4-texel blocks the
// four texels of a bilinear filter fall in, and the order and kind of the Texture Filter Memory
// accesses that fetch them.
//
// Fig. 4 / Algorithm 1 filter order: t1 = (u0, v0), t2 = (u1, v0), t3 = (u0, v1), t4 = (u1, v1),
// with u1 = u0 + 1 and v1 = v0 + 1 in Algorithm 2 (after wrapping they may be anywhere: the
// renderer passes the two wrapped columns and rows, replay/texture sampler.cpp).
// Algorithm 2: bx = u0 >> log2(bw), bx1 = u1 >> log2(bw), by likewise; c0 = (bx != bx1),
// c1 = (by != by1). Cases, numbered as the algorithm's branches (and as replay/texture's
// FootprintCase):
//   case 1  c0 = 0, c1 = 0  one block:   lookup t1, then t2, t3, t4 read from the same block
//   case 2  c0 = 0, c1 = 1  two blocks, one above the other:
//                                        lookup t1, direct t2, lookup t3, direct t4
//   case 3  c0 = 1, c1 = 0  two blocks side by side:
//                                        lookup t1, direct t3, lookup t2, direct t4
//   case 4  c0 = 1, c1 = 1  four blocks: lookup t1, t2, t3, t4
// A direct access reads the buffer the previous lookup found (no tag comparison, section IV).
#pragma once

#include <array>
#include <cstdint>

namespace tessera::model::tfm {

enum class FootprintCase : uint8_t { SingleBlock = 1, TwoBlocksVertical = 2, TwoBlocksHorizontal = 3, FourBlocks = 4 };

struct Texel {
  uint32_t u = 0, v = 0;    // texel coordinates in the level
  uint32_t bx = 0, by = 0;  // block coordinates
  bool operator==(const Texel&) const = default;
};

struct FetchStep {
  uint8_t texel = 0;   // 0..3 = t1..t4
  bool lookup = true;  // false: direct access to the buffer of the previous step
  bool operator==(const FetchStep&) const = default;
};

struct BilinearFootprint {
  FootprintCase footprint_case = FootprintCase::SingleBlock;
  bool c0 = false, c1 = false;
  std::array<Texel, 4> texels;     // filter order t1..t4
  std::array<FetchStep, 4> fetch;  // Algorithm 2 order
  uint32_t lookups = 1;            // 1, 2, 2 or 4
};

// Algorithm 2's accesses for a footprint case: fetch order, lookups; texels left at zero.
BilinearFootprint footprint_of_case(FootprintCase footprint_case);

// The footprint of the texels at columns u0, u1 and rows v0, v1 (after wrapping), with blocks of
// 2^log2_bw x 2^log2_bh texels (paper 004: 4 x 4).
BilinearFootprint bilinear_footprint(uint32_t u0, uint32_t v0, uint32_t u1, uint32_t v1, uint32_t log2_bw = 2,
                                    uint32_t log2_bh = 2);

// Algorithm 2 as written: texel coordinates (tu, tv), no wrap.
inline BilinearFootprint algorithm2(uint32_t tu, uint32_t tv, uint32_t log2_bw = 2, uint32_t log2_bh = 2) {
  return bilinear_footprint(tu, tv, tu + 1, tv + 1, log2_bw, log2_bh);
}

}  // namespace tessera::model::tfm
