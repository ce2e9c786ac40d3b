// BC7 block decode (Khronos Data Format spec, "BC7"; the same text as ARB_texture_compression_bptc
// and D3D11's BC7): a 128-bit block is read from its least significant bit up, mode first.
#include "tessera/texture/format.h"

#include <bit>
#include <utility>

namespace tessera::texture {

namespace {

// Table.M of the spec: one row per mode.
struct Bc7Mode {
  uint8_t subsets;           // NS
  uint8_t partition_bits;    // PB
  uint8_t rotation_bits;     // RB
  uint8_t selection_bits;    // ISB
  uint8_t color_bits;        // CB
  uint8_t alpha_bits;        // AB (0: alpha is 255)
  uint8_t endpoint_pbits;    // EPB: one p-bit per endpoint
  uint8_t shared_pbits;      // SPB: one p-bit per subset, shared by its two endpoints
  uint8_t index_bits;        // IB
  uint8_t index2_bits;       // IB2 (0: no secondary indices)
};

constexpr Bc7Mode kModes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0}, {3, 6, 0, 0, 5, 0, 0, 0, 2, 0},
    {2, 6, 0, 0, 7, 0, 1, 0, 2, 0}, {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

// Subset of each texel (x + 4 y) for the two- and three-subset partitions (Table.P2, Table.P3),
// written as in the spec, one row per partition.
constexpr char kPartition2[64][17] = {
    "0011001100110011", "0001000100010001", "0111011101110111", "0001001100110111",
    "0000000100010011", "0011011101111111", "0001001101111111", "0000000100110111",
    "0000000000010011", "0011011111111111", "0000000101111111", "0000000000010111",
    "0001011111111111", "0000000011111111", "0000111111111111", "0000000000001111",
    "0000100011101111", "0111000100000000", "0000000010001110", "0111001100010000",
    "0011000100000000", "0000100011001110", "0000000010001100", "0111001100110001",
    "0011000100010000", "0000100010001100", "0110011001100110", "0011011001101100",
    "0001011111101000", "0000111111110000", "0111000110001110", "0011100110011100",
    "0101010101010101", "0000111100001111", "0101101001011010", "0011001111001100",
    "0011110000111100", "0101010110101010", "0110100101101001", "0101101010100101",
    "0111001111001110", "0001001111001000", "0011001001001100", "0011101111011100",
    "0110100110010110", "0011110011000011", "0110011010011001", "0000011001100000",
    "0100111001000000", "0010011100100000", "0000001001110010", "0000010011100100",
    "0110110010010011", "0011011011001001", "0110001110011100", "0011100111000110",
    "0110110011001001", "0110001100111001", "0111111010000001", "0001100011100111",
    "0000111100110011", "0011001111110000", "0010001011101110", "0100010001110111",
};
constexpr char kPartition3[64][17] = {
    "0011001102212222", "0001001122112221", "0000200122112211", "0222002200110111",
    "0000000011221122", "0011001100220022", "0022002211111111", "0011001122112211",
    "0000000011112222", "0000111111112222", "0000111122222222", "0012001200120012",
    "0112011201120112", "0122012201220122", "0011011211221222", "0011200122002220",
    "0001001101121122", "0111001120012200", "0000112211221122", "0022002200221111",
    "0111011102220222", "0001000122212221", "0000001101220122", "0000110022102210",
    "0122012200110000", "0012001211222222", "0110122112210110", "0000011012211221",
    "0022110211020022", "0110011020022222", "0011012201220011", "0000200022112221",
    "0000000211221222", "0222002200120011", "0011001200220222", "0120012001200120",
    "0000111122220000", "0120120120120120", "0120201212010120", "0011220011220011",
    "0011112222000011", "0101010122222222", "0000000021212121", "0022112200221122",
    "0022001100220011", "0220122102201221", "0101222222220101", "0000212121212121",
    "0101010101012222", "0222011102220111", "0002111200021112", "0000211221122112",
    "0222011101110222", "0002111211120002", "0110011001102222", "0000000021122112",
    "0110011022222222", "0022001100110022", "0022112211220022", "0000000000002112",
    "0002000100020001", "0222122202221222", "0101222222222222", "0111201122012220",
};
constexpr uint8_t kAnchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
    15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6,
    6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
};
constexpr uint8_t kAnchor3Second[64] = {
    3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3,
    3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15,
    8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15,
    3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
};
constexpr uint8_t kAnchor3Third[64] = {
    15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8,
    15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8,
    15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8,
    15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
};

// Interpolation weights out of 64 for 2, 3 and 4-bit indices.
constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

uint32_t interpolate(uint32_t e0, uint32_t e1, uint32_t index, uint32_t bits) {
  const uint32_t w = bits == 2 ? kWeights2[index] : bits == 3 ? kWeights3[index] : kWeights4[index];
  return ((64 - w) * e0 + w * e1 + 32) >> 6;
}

// Reads fields from the block, least significant bit of byte 0 first.
class BitReader {
 public:
  explicit BitReader(const uint8_t* block) : block_(block) {}
  uint32_t read(uint32_t bits) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < bits; ++i, ++pos_) v |= ((block_[pos_ >> 3] >> (pos_ & 7)) & 1u) << i;
    return v;
  }

 private:
  const uint8_t* block_;
  uint32_t pos_ = 0;
};

// An endpoint component of `bits` bits (p-bit included) to 8 bits: the stored bits are the high
// bits of the byte and the top bits are replicated into the low ones.
uint32_t expand(uint32_t v, uint32_t bits) {
  v <<= 8 - bits;
  return v | (v >> bits);
}

}  // namespace

void decode_bc7_block(const uint8_t* block, Rgba8 out[16]) {
  // The mode is the number of zeros below the lowest set bit of byte 0; a zero byte is reserved
  // and decodes to transparent black (spec: "an all 0 block will be returned").
  if (block[0] == 0) {
    for (uint32_t t = 0; t < 16; ++t) out[t] = {0, 0, 0, 0};
    return;
  }
  const auto mode = static_cast<uint32_t>(std::countr_zero(block[0]));
  const Bc7Mode& m = kModes[mode];
  BitReader bits(block);
  bits.read(mode + 1);
  const uint32_t partition = bits.read(m.partition_bits);
  const uint32_t rotation = bits.read(m.rotation_bits);
  const uint32_t selection = bits.read(m.selection_bits);

  // Endpoints: by component (R, G, B, then A), then by subset, then endpoint 0 before 1.
  uint32_t endpoint[3][2][4] = {};
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t width = c < 3 ? m.color_bits : m.alpha_bits;
    for (uint32_t s = 0; s < m.subsets; ++s)
      for (uint32_t e = 0; e < 2; ++e) endpoint[s][e][c] = bits.read(width);
  }
  // P-bits go below every stored component (colour and alpha) of their endpoint.
  uint32_t pbit[3][2] = {};
  const bool has_pbits = m.endpoint_pbits != 0 || m.shared_pbits != 0;
  for (uint32_t s = 0; s < m.subsets; ++s) {
    if (m.endpoint_pbits != 0) {
      pbit[s][0] = bits.read(1);
      pbit[s][1] = bits.read(1);
    } else if (m.shared_pbits != 0) {
      pbit[s][0] = pbit[s][1] = bits.read(1);
    }
  }
  for (uint32_t s = 0; s < m.subsets; ++s) {
    for (uint32_t e = 0; e < 2; ++e) {
      for (uint32_t c = 0; c < 4; ++c) {
        uint32_t width = c < 3 ? m.color_bits : m.alpha_bits;
        if (width == 0) {
          endpoint[s][e][c] = 255;
          continue;
        }
        uint32_t v = endpoint[s][e][c];
        if (has_pbits) v = (v << 1) | pbit[s][e], ++width;
        endpoint[s][e][c] = expand(v, width);
      }
    }
  }

  // Subset of each texel and the anchor texel of each subset, whose index is stored with one
  // bit less (its most significant bit is 0).
  uint32_t subset[16] = {};
  uint32_t anchor[3] = {0, 0, 0};
  if (m.subsets == 2) {
    for (uint32_t t = 0; t < 16; ++t) subset[t] = static_cast<uint32_t>(kPartition2[partition][t] - '0');
    anchor[1] = kAnchor2[partition];
  } else if (m.subsets == 3) {
    for (uint32_t t = 0; t < 16; ++t) subset[t] = static_cast<uint32_t>(kPartition3[partition][t] - '0');
    anchor[1] = kAnchor3Second[partition];
    anchor[2] = kAnchor3Third[partition];
  }
  uint32_t index[16] = {};
  uint32_t index2[16] = {};
  for (uint32_t t = 0; t < 16; ++t) {
    const bool is_anchor = t == anchor[subset[t]];
    index[t] = bits.read(m.index_bits - (is_anchor ? 1u : 0u));
  }
  if (m.index2_bits != 0) {
    for (uint32_t t = 0; t < 16; ++t) index2[t] = bits.read(m.index2_bits - (t == 0 ? 1u : 0u));
  }

  for (uint32_t t = 0; t < 16; ++t) {
    const uint32_t (&e)[2][4] = endpoint[subset[t]];
    // Colour takes the secondary index when the index selection bit is 1; alpha takes the
    // secondary index when there is one and the selection bit is 0.
    uint32_t color_index = index[t], color_bits = m.index_bits;
    uint32_t alpha_index = index[t], alpha_bits = m.index_bits;
    if (m.index2_bits != 0) {
      if (selection == 0) {
        alpha_index = index2[t], alpha_bits = m.index2_bits;
      } else {
        color_index = index2[t], color_bits = m.index2_bits;
      }
    }
    Rgba8 c;
    for (uint32_t k = 0; k < 3; ++k)
      c[k] = static_cast<uint8_t>(interpolate(e[0][k], e[1][k], color_index, color_bits));
    c[3] = static_cast<uint8_t>(interpolate(e[0][3], e[1][3], alpha_index, alpha_bits));
    // Rotation 1, 2, 3 swaps alpha with R, G, B.
    if (rotation != 0) std::swap(c[3], c[rotation - 1]);
    out[t] = c;
  }
}

}  // namespace tessera::texture
