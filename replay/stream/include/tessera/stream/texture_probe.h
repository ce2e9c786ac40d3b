// The kinds of filter probe in the access stream (TextureProbe::kind, schema/access-stream.md
// "Probes") and which of a probe's blocks each texel of paper 004's Fig. 4 reads: one definition
// for the renderer that records probes and the model that replays them.
#pragma once

#include <array>
#include <cstdint>

namespace tessera::stream {

enum class ProbeKind : uint8_t {
  None = 0,                 // every texel a border texel: no memory read
  SingleBlock = 1,          // Algorithm 2 case 1 (c0 = 0, c1 = 0): t1..t4 in one block
  TwoBlocksVertical = 2,    // case 2 (c0 = 0, c1 = 1): blocks of t1, t3
  TwoBlocksHorizontal = 3,  // case 3 (c0 = 1, c1 = 0): blocks of t1, t2
  FourBlocks = 4,           // case 4 (c0 = 1, c1 = 1): blocks of t1, t2, t3, t4
  SingleTexel = 5,          // nearest filtering or a texel fetch
  Irregular = 6,            // some border texels or a cube corner: distinct blocks in read order
};

// For the kinds 1..4 (Algorithm 2's cases), the index among the probe's blocks of the block each
// texel t1..t4 of Fig. 4 lies in: blocks are recorded in order of first appearance.
inline constexpr std::array<std::array<uint8_t, 4>, 5> kCaseTexelBlock = {{
    {0, 0, 0, 0},  // (no case)
    {0, 0, 0, 0},  // case 1
    {0, 0, 1, 1},  // case 2: t1 t2 in the upper block, t3 t4 in the lower
    {0, 1, 0, 1},  // case 3: t1 t3 in the left block, t2 t4 in the right
    {0, 1, 2, 3},  // case 4
}};

inline constexpr bool is_bilinear_case(ProbeKind k) {
  return k >= ProbeKind::SingleBlock && k <= ProbeKind::FourBlocks;
}

// Texel reads of a probe as Algorithm 1 looks them up: 4 for a bilinear footprint, 1 for one
// texel, none for border texels; an irregular probe records only its distinct blocks, one read
// each.
template <typename Probe>
constexpr uint32_t probe_texel_reads(const Probe& p) {
  const auto kind = static_cast<ProbeKind>(p.kind);
  return is_bilinear_case(kind) ? 4 : kind == ProbeKind::SingleTexel ? 1 : kind == ProbeKind::Irregular ? p.block_count : 0;
}

}  // namespace tessera::stream
