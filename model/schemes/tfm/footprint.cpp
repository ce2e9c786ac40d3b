#include "tfm/footprint.h"

namespace tessera::model::tfm {

BilinearFootprint footprint_of_case(FootprintCase footprint_case) {
  BilinearFootprint f;
  f.footprint_case = footprint_case;
  switch (footprint_case) {
    case FootprintCase::SingleBlock:
      f.fetch = {FetchStep{0, true}, FetchStep{1, false}, FetchStep{2, false}, FetchStep{3, false}};
      f.lookups = 1;
      break;
    case FootprintCase::TwoBlocksVertical:
      f.c1 = true;
      f.fetch = {FetchStep{0, true}, FetchStep{1, false}, FetchStep{2, true}, FetchStep{3, false}};
      f.lookups = 2;
      break;
    case FootprintCase::TwoBlocksHorizontal:
      f.c0 = true;
      f.fetch = {FetchStep{0, true}, FetchStep{2, false}, FetchStep{1, true}, FetchStep{3, false}};
      f.lookups = 2;
      break;
    case FootprintCase::FourBlocks:
      f.c0 = f.c1 = true;
      f.fetch = {FetchStep{0, true}, FetchStep{1, true}, FetchStep{2, true}, FetchStep{3, true}};
      f.lookups = 4;
      break;
  }
  return f;
}

BilinearFootprint bilinear_footprint(uint32_t u0, uint32_t v0, uint32_t u1, uint32_t v1, uint32_t log2_bw,
                                     uint32_t log2_bh) {
  const uint32_t bx = u0 >> log2_bw, bx1 = u1 >> log2_bw;
  const uint32_t by = v0 >> log2_bh, by1 = v1 >> log2_bh;
  const bool c0 = bx != bx1, c1 = by != by1;
  BilinearFootprint f = footprint_of_case(!c0 && !c1 ? FootprintCase::SingleBlock
                                          : !c0      ? FootprintCase::TwoBlocksVertical
                                          : !c1      ? FootprintCase::TwoBlocksHorizontal
                                                     : FootprintCase::FourBlocks);
  f.texels = {Texel{u0, v0, bx, by}, Texel{u1, v0, bx1, by}, Texel{u0, v1, bx, by1}, Texel{u1, v1, bx1, by1}};
  return f;
}

}  // namespace tessera::model::tfm
