// The Texture Filter Memory of one texturing unit (paper 004 section IV, Fig. 7): the Texture
// Buffer Array, its two comparator groups, and the controller that drives them.
//
// Controller rules (section IV):
//  - Set selection: "for bilinear filtering we use only one of the sets, and turn off the other";
//    "for trilinear filtering, the controller compares the mipmap level of the current access
//    with that of the previous one and when it changes, toggles comparator enable and bank
//    select", so the two levels of a trilinear sample always use different sets. A bilinear (or
//    nearest) sample uses set 0 whatever its level, so a shader sampling two textures at
//    different levels does not move between sets; only a trilinear sample (begin_sample) toggles.
//  - Accesses of a bilinear probe follow Algorithm 2 (footprint.h): a lookup compares the block
//    address with the set's four registers; a direct access reads the buffer the previous lookup
//    registered, with no comparison. [choice] Texel 1 of every probe is looked up, as Algorithm 2
//    writes it, even when the previous probe ended in the same block: the texel fetch unit
//    classifies accesses within one footprint.
//  - A lookup miss reads the block from the L1 texture cache into the victim buffer (the paper
//    fills it in two cycles "and still stay within an L1 cache access time": no cycles beyond the
//    L1 read by default; tfm.fill_latency adds some for a slower fill).
//  - Nearest (point) sampling is one lookup of the texel's block.
//
// Counted per texel read (an "access"): direct accesses and lookups; hits = direct accesses +
// lookup hits; fills = lookup misses = blocks read from L1.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "tfm/footprint.h"
#include "tfm/texture_buffer_array.h"

namespace tessera::model::tfm {

struct TfmCounters {
  uint64_t probes = 0;        // bilinear and nearest probes
  uint64_t accesses = 0;      // texel reads: direct + lookups
  uint64_t hits = 0;          // direct + lookup hits
  uint64_t direct = 0;
  uint64_t lookups = 0;
  uint64_t lookup_hits = 0;
  uint64_t fills = 0;         // lookup misses: blocks read from L1
  uint64_t set_switches = 0;  // changes of the active set
  std::array<uint64_t, 5> cases{};  // bilinear probes per FootprintCase (index 1..4)
  uint64_t misses() const { return fills; }
  void add(const TfmCounters& o);
};

// What one probe asked of the level below: the blocks to read from L1, in access order, and the
// TBA buffers they fill.
struct ProbeResult {
  uint32_t lookups = 0;
  uint32_t fills = 0;
  // The first `fills` entries; up to 12 for an irregular probe (a cube corner: 4 texels x 3 faces).
  std::array<uint64_t, 12> l1_blocks{};
  std::array<TbaSlot, 12> fill_slots{};
  // The latest ready cycle (TextureBufferArray::ready) of the buffers its hits read: a hit on a
  // block whose L1 read is still in flight is served when it arrives.
  uint64_t hit_ready = 0;
};

class TextureFilterMemory {
 public:
  explicit TextureFilterMemory(TbaReplacement replacement = TbaReplacement::Lru) : tba_(replacement) {}

  // One bilinear probe on mip `level`: its footprint and the block address (64 B line address,
  // or any unique block id) of each texel in filter order t1..t4. Throws std::invalid_argument
  // when a direct access of the footprint would read another block than the previous access.
  ProbeResult bilinear(uint32_t level, const BilinearFootprint& footprint, const std::array<uint64_t, 4>& blocks);
  // One nearest probe.
  ProbeResult nearest(uint32_t level, uint64_t block);
  // A bilinear probe whose texels are not Algorithm 2's footprint (border texels, a cube corner):
  // one lookup per distinct block (at most 12).
  ProbeResult irregular(uint32_t level, std::span<const uint64_t> blocks);

  // The probes that follow belong to one sample, trilinear (its probes span two mip levels) or
  // not (bilinear or nearest, the default).
  void begin_sample(bool trilinear) { trilinear_ = trilinear; }
  uint32_t current_set() const { return set_; }
  const TextureBufferArray& tba() const { return tba_; }
  // The block filled into `slot` is present from `cycle` (its L1 read completed).
  void set_ready(TbaSlot slot, uint64_t cycle) { tba_.set_ready(slot.set, slot.buffer, cycle); }
  const TfmCounters& counters() const { return counters_; }
  // Empty buffers, set 0, counters kept (start of a frame).
  void clear();

 private:
  void select_set(uint32_t level);
  // Returns the buffer read (hit or filled).
  uint32_t lookup(uint64_t block, ProbeResult& result);

  TextureBufferArray tba_;
  TfmCounters counters_;
  uint32_t set_ = 0;
  uint32_t level_ = 0;
  bool has_level_ = false;
  bool trilinear_ = false;
};

}  // namespace tessera::model::tfm
