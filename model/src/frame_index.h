// One pass over a frame's access stream before the timing model runs it: the passes, their
// subpasses (a pass with several subpasses repeats geometry then tiles inside one PassBegin /
// PassEnd, schema/access-stream.md), every tile's seek point and header (attachment loads,
// Parameter Buffer reads grouped per list line and per primitive), its colour flush lines, and
// the Parameter Buffer writes. The stream's structure is checked here, once, so the timing
// units only read well-formed tiles; damage is a ModelError naming the byte.
//
// The tile fetcher then works from the index, the rasterizer seeks to each tile's body in the
// configured tile order, and the next-use numbers of an OPT tile cache follow that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/model/hooks.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model {

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr uint32_t kListGroup = 0xffffffffu;  // a PB-Lists line (no primitive)

// One access of `bytes` at `address` as the stream records it; the timing units split it into
// lines of their configuration's line size (for_each_line), so one index serves every
// configuration.
struct ByteRange {
  uint64_t address = 0;
  uint32_t bytes = 0;
  bool depth_stencil = false;  // attachment loads: a depth/stencil attachment's (access stream version 4)
};

// A tile row of one attachment flushed to memory (the renderer writes one AttachmentStore per
// row and aspect): its row in the tile and its width in pixels, so a line's pixels are known
// (per subtile, each core's colour-buffer bank flushes the lines of its own pixels).
struct StoreRange {
  uint64_t address = 0;
  uint32_t bytes = 0;
  uint32_t row = 0;         // pixel row in the tile
  uint32_t row_pixels = 1;  // pixels the row covers
  bool depth_stencil = false;  // a depth/stencil attachment's row (access stream version 4)
};

// Parameter Buffer reads of a tile header: one PB-Lists line, or one primitive's attributes.
struct PbGroup {
  uint32_t primitive = kListGroup;
  uint32_t read_begin = 0, read_end = 0;  // into FrameIndex::pb_reads
};

struct TileIndex {
  TileRef ref;                            // tile, coordinates, TileBegin offset
  size_t body = 0;                        // offset of the first event after the header (seek from ref.offset)
  uint32_t load_begin = 0, load_end = 0;    // into FrameIndex::loads
  uint32_t store_begin = 0, store_end = 0;  // into FrameIndex::stores
  uint32_t group_begin = 0, group_end = 0;  // into FrameIndex::groups
  // Per Primitive event of the body, in order: the group (absolute index) whose arrival the
  // rasterizer needs before it can set the primitive up: the primitive's attribute group, or,
  // for a primitive the header holds no attributes of, every group of the tile.
  uint32_t need_begin = 0, need_end = 0;  // into FrameIndex::primitive_need
};

// One subpass: its geometry phase (draws, vertex work, binning), then its tiles.
struct PhaseIndex {
  size_t geometry = 0;                        // offset of the phase's first event
  size_t geometry_reset = 0;                  // the PassBegin / TileBegin before it (StreamCursor::seek)
  uint32_t pb_write_begin = 0, pb_write_end = 0;  // into FrameIndex::pb_writes
  std::vector<TileIndex> tiles;               // in stream order
};

struct PassIndex {
  PassInfo info;
  std::vector<PhaseIndex> phases;
};

struct FrameIndex {
  std::span<const uint8_t> bytes;  // the stream (owned by the caller)
  std::vector<PassIndex> passes;
  std::vector<ByteRange> loads, pb_reads, pb_writes;
  std::vector<StoreRange> stores;
  std::vector<PbGroup> groups;
  std::vector<uint32_t> primitive_need;
  stream::StreamCounts counts;

  // Indexes `bytes`, which must outlive the index. Throws ModelError.
  void build(std::span<const uint8_t> bytes);
};

// Calls f(line_address, full_line) for each line [addr, addr + bytes) touches.
template <class F>
void for_each_line(uint64_t addr, uint32_t bytes, uint32_t line_bytes, F&& f) {
  if (bytes == 0) return;
  const uint64_t mask = ~uint64_t{line_bytes - 1};
  const uint64_t first = addr & mask, last = (addr + bytes - 1) & mask;
  for (uint64_t l = first; l <= last; l += line_bytes) {
    const bool full = addr <= l && addr + bytes >= l + line_bytes;
    f(l, full);
  }
}

// A reader positioned anywhere the index says (a phase's geometry, a tile's body), with one
// event of lookahead. Addresses and positions are delta-coded against predictors that reset at
// FrameBegin, PassBegin and TileBegin (schema/access-stream.md), so a seek starts decoding at
// such a reset point and reads forward to the target.
class StreamCursor {
 public:
  explicit StreamCursor(std::span<const uint8_t> bytes) : reader_(bytes) {}
  void seek(size_t reset_point, size_t target) {
    held_ = false;
    if (!reader_.seek(reset_point)) throw ModelError("access stream: cannot seek to byte " + std::to_string(reset_point));
    stream::Event e;
    while (reader_.position() < target) {
      if (!reader_.next(e)) {
        if (!reader_.error().empty()) throw ModelError("access stream: " + reader_.error());
        throw ModelError("access stream: cannot reach byte " + std::to_string(target));
      }
    }
  }
  bool next(stream::Event& e) {
    if (held_) {
      held_ = false;
      e = event_;
      return true;
    }
    if (!reader_.next(e)) {
      if (!reader_.error().empty()) throw ModelError("access stream: " + reader_.error());
      return false;
    }
    return true;
  }
  void hold(const stream::Event& e) {
    event_ = e;
    held_ = true;
  }

 private:
  stream::StreamReader reader_;
  stream::Event event_;
  bool held_ = false;
};

}  // namespace tessera::model
