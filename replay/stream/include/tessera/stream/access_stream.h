// The access stream: what the functional renderer ("shade once") records of a frame for every GPU
// model configuration ("simulate many") to replay (docs/architecture.md, "Data flow"). Format:
// schema/access-stream.md.
//
// Events come in the order the tile-based GPU processes them. Per render pass instance:
//   PassBegin
//   geometry phase, per draw:  Draw, VertexFetch*, then per 64-lane vertex batch the
//                              VertexTexture* of its lanes' texture samples and its
//                              VertexShade, then PbWrite* (binning)
//   raster phase, per tile in tile order:
//     TileBegin, AttachmentLoad*, PbRead* (list line, then its primitives' attributes),
//     per primitive: Primitive, then per quad: Quad followed by its Texture events,
//     AttachmentStore*, TileEnd
//   PassEnd
// framed by FrameBegin ... FrameEnd. Nothing here depends on a cache scheme: schemes re-order or
// re-assign quads when they replay the stream, they never re-shade.
//
// Encoding: one tag byte per event followed by LEB128 varints; addresses are zigzag deltas
// against the previous address of the same class (vertex, Parameter Buffer, texture line,
// attachment), quad positions deltas against the previous quad, so a frame with millions of
// texture samples stays a few bytes per sample and decodes at memory speed. Every predictor is
// reset after each TileBegin and PassBegin event, so a reader can start at any tile: a model that
// visits tiles in another order (DTexL, paper 001) records tile_offset() of each TileBegin on a
// first pass and seek()s to them.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/stream/texture_probe.h"

namespace tessera::stream {

// Version 2 added VertexTexture (17). A version 1 stream is a strict subset of version 2 (same
// tags, same fields), so the reader accepts both; tag 17 in a version 1 stream is damage.
// Version 3 appended the filter probes of a sample (TextureProbe records and their 4x4-texel
// blocks, paper 004) to Texture and VertexTexture; a version 1 or 2 sample has none.
// Version 4 appended the operation mix (OpMix) to Quad and VertexShade and the aspect to
// AttachmentLoad and AttachmentStore; an older stream reads as OpMix::legacy and colour.
inline constexpr uint32_t kFormatVersion = 4;
inline constexpr uint32_t kOldestReadableVersion = 1;

enum class EventKind : uint8_t {
  FrameBegin = 1,    // u[0] present (1-based), u[1] width, u[2] height
  PassBegin = 2,     // u[0] pass index, u[1] width, u[2] height (render area),
                     // u[3] tile width, u[4] tile height, u[5] tiles_x, u[6] tiles_y
  Draw = 3,          // u[0] draw index in the frame
  VertexFetch = 4,   // address, u[0] bytes: one vertex attribute (or index) read
  VertexShade = 5,   // u[0] vertices shaded, wide = dynamic SPIR-V instructions of those lanes,
                     // mix = operations issued by the batch's quads (warps of four vertices)
  PbWrite = 6,       // address, u[0] bytes, u[1] primitive (in the pass), u[2] tile,
                     // u[3] section (0 PB-Lists, 1 PB-Attributes)
  TileBegin = 7,     // u[0] tile index (ty * tiles_x + tx), u[1] x0, u[2] y0 (pixels),
                     // u[3] position of the tile in the processing order
  PbRead = 8,        // address, u[0] bytes, u[1] section, u[2] primitive (attributes) or
                     // 0xffffffff (a PB-Lists line)
  Primitive = 9,     // u[0] primitive index in the pass, u[1] draw index
  Quad = 10,         // u[0] x, u[1] y (even), u[2] coverage (bit i = pixel (x+i%2, y+i/2)),
                     // u[3] depth/stencil pass mask, u[4] colour-written mask (after discard),
                     // u[5] flags (QuadFlags), wide = dynamic fragment instructions of the 4 lanes,
                     // mix = operations the quad's warp issued (every invocation of its lanes)
  Texture = 11,      // one lane's sample: u[0] lane (0..3) of the preceding quad, u[1] mip
                     // level (finest of the footprint), u[2] footprint case (texture::FootprintCase),
                     // u[3] filter probes; lines = distinct 64 B lines read, in order;
                     // u[4] bytes of a 4x4 block, probes + blocks = each filter probe (none
                     // or u[3] of them)
  AttachmentLoad = 12,   // address, u[0] bytes, u[1] attachment, u[2] aspect (AttachmentAspect):
                         // a tile buffer filled from memory
  AttachmentStore = 13,  // address, u[0] bytes, u[1] attachment, u[2] aspect: a tile buffer flushed
  TileEnd = 14,      // u[0] tile index
  PassEnd = 15,      // u[0] pass index
  FrameEnd = 16,
  VertexTexture = 17,  // one vertex invocation's sample, emitted immediately before the VertexShade
                       // of its 64-lane batch: u[0] lane within the batch (0..63), u[1] mip level,
                       // u[2] footprint case, u[3] filter probes; lines as for Texture (the same
                       // texture-line predictor)
};
inline constexpr uint32_t kEventKindCount = 18;  // valid kinds are 1..17

const char* event_kind_name(EventKind kind);

enum QuadFlags : uint32_t {
  kQuadLateDepth = 1,   // depth/stencil tested after shading (shader writes depth or discards)
  kQuadShaded = 2,      // the fragment shader ran (false when early tests killed all pixels)
  kQuadFrontFacing = 4,
};
// Flags bits 3..31: dependent texture reads (paper 002 section 3: a sample whose coordinates
// depend on an earlier sample's result cannot be prefetched from the tile queue). Bit
// kQuadDependentShift + k marks the quad's k-th texture instruction (the k-th sample of each of
// its lanes); the last bit stands for every instruction from kQuadDependentInstructions - 1 on.
inline constexpr uint32_t kQuadDependentShift = 3;
inline constexpr uint32_t kQuadDependentInstructions = 29;
// Whether the k-th texture instruction of a quad with these flags is a dependent read.
inline bool quad_sample_dependent(uint32_t flags, uint32_t k) {
  const uint32_t bit = k < kQuadDependentInstructions ? k : kQuadDependentInstructions - 1;
  return (flags >> (kQuadDependentShift + bit)) & 1u;
}
// Pixels of a quad's pixel mask (bit i: pixel i of the 2x2 quad): a table for the 4-bit masks,
// as std::popcount is a libgcc call without the POPCNT instruction in the target's baseline and
// this runs for every quad shaded, written, read and modelled.
inline uint32_t quad_pixels(uint32_t mask) {
  static constexpr uint8_t kPixels[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return mask < 16 ? kPixels[mask] : static_cast<uint32_t>(std::popcount(mask));
}
// The flags bit marking texture instruction k dependent.
inline uint32_t quad_dependent_flag(uint32_t k) {
  return 1u << (kQuadDependentShift + (k < kQuadDependentInstructions ? k : kQuadDependentInstructions - 1));
}

// One filter probe of a texture sample as paper 004's Texture Filter Memory sees it: its kind
// (texture::ProbeKind: 0 no memory read, 1..4 Algorithm 2's cases, 5 one texel, 6 irregular), its
// mip level and its distinct 4x4-texel blocks in Algorithm 2's lookup order (blocks of t1..t4 of
// Fig. 4 in order of first appearance), as a range of the sample's block addresses.
struct TextureProbe {
  uint8_t kind = 0;
  uint8_t level = 0;
  uint16_t first_block = 0;
  uint16_t block_count = 0;
  bool operator==(const TextureProbe&) const = default;
};
inline constexpr uint8_t kProbeKindIrregular = static_cast<uint8_t>(ProbeKind::Irregular);
inline constexpr uint32_t kMaxProbesPerSample = 64;
inline constexpr uint32_t kMaxBlocksPerProbe = 12;
// A 4x4 block of the widest texel the texture unit decodes (16 bytes: RGBA32F).
inline constexpr uint32_t kMaxBlockBytes = 256;

// A sample's probes as the writer takes them: block_bytes is the size of one 4x4-texel block of
// the sampled format (8 for BC1 up to 256 for RGBA32F); every block address is a multiple of 8.
struct SampleProbes {
  std::span<const TextureProbe> probes;
  std::span<const uint64_t> blocks;
  uint32_t block_bytes = 0;
};

// What AttachmentLoad / AttachmentStore move (version 4): a model that flushes colour only, as
// the papers' tiler does, tells the colour tiles from depth/stencil ones.
enum AttachmentAspect : uint32_t {
  kAspectColour = 0,        // a colour attachment, or a colour resolve target
  kAspectDepthStencil = 1,  // depth and/or stencil (a depth/stencil resolve target too)
};
inline constexpr uint32_t kAspectCount = 2;

// Operations a shader issued, by class (shader::OpClass, replay/shader/include/tessera/shader/
// op_class.h): for a Quad what the warp of its four lanes issued, each block's operations counted
// once when any lane (helpers included) ran it, summed over the quad's invocations when it is
// shaded per sample; for a VertexShade the sum over the batch's quads of four vertices. Weights
// are scalar operations per lane: a vec4 add is 4 alu, a vec3 normalize 6 alu + 1 sfu.
struct OpMix {
  uint32_t alu = 0;      // arithmetic, compares, conversions, derivatives, dot, matrix ops
  uint32_t sfu = 0;      // transcendentals and reciprocals
  uint32_t varying = 0;  // Input components read (interpolation / attribute load)
  uint32_t texture = 0;  // image sample, fetch, gather and query instructions
  uint32_t memory = 0;   // 32-bit scalars through buffers, Workgroup storage, storage images
  bool operator==(const OpMix&) const = default;
  // What a stream older than version 4 reads as: its only shader cost, the instruction count of
  // the lanes, as the issue slots of a four-lane warp (alu = ceil(instructions / 4)).
  static OpMix legacy(uint64_t instructions);
};

// Sums of OpMix fields over events (StreamCounts).
struct OpMixTotals {
  uint64_t alu = 0, sfu = 0, varying = 0, texture = 0, memory = 0;
  void add(const OpMix& m);
  void add(const OpMixTotals& o);
  // Adds `end` minus `begin`.
  void add_between(const OpMixTotals& begin, const OpMixTotals& end);
  bool operator==(const OpMixTotals&) const = default;
};

struct Event {
  EventKind kind = EventKind::FrameEnd;
  uint64_t address = 0;
  uint64_t wide = 0;
  uint32_t u[7] = {};
  OpMix mix;  // Quad and VertexShade
  std::span<const uint64_t> lines;  // Texture and VertexTexture; valid until the next next()
  std::span<const TextureProbe> probes;  // Texture and VertexTexture (version 3); likewise
  std::span<const uint64_t> blocks;      // the probes' block addresses; likewise
};

// Totals by kind, kept by both the writer and the reader so tests can reconcile a renderer's own
// counts with what a consumer recounts from the bytes.
struct StreamCounts {
  uint64_t events[kEventKindCount] = {};
  uint64_t texture_lines = 0;          // lines of Texture events (fragment samples)
  uint64_t vertex_texture_lines = 0;   // lines of VertexTexture events (vertex samples)
  uint64_t texture_probe_blocks = 0;   // probe blocks of Texture events (version 3)
  uint64_t vertex_fetch_bytes = 0;
  uint64_t pb_write_bytes = 0, pb_read_bytes = 0;
  uint64_t fragment_instructions = 0, vertex_instructions = 0;
  OpMixTotals fragment_mix, vertex_mix;  // sums of Quad and VertexShade mixes
  uint64_t covered_pixels = 0;  // popcount of Quad coverage
  uint64_t operator[](EventKind k) const { return events[static_cast<uint8_t>(k)]; }
  void add(const Event& e);
  // What add() counts of a Quad event and of a Texture / VertexTexture event, for a writer that
  // does not build the event.
  void add_quad(uint64_t instructions, const OpMix& mix, uint32_t coverage);
  void add_sample(EventKind kind, size_t lines, std::span<const TextureProbe> probes);
  // Adds `end` minus `begin`: the counts of the events recorded between two marks of a writer.
  void add_between(const StreamCounts& begin, const StreamCounts& end);
  bool operator==(const StreamCounts&) const = default;
};

class StreamWriter {
 public:
  StreamWriter();

  void frame_begin(uint32_t present, uint32_t width, uint32_t height);
  void pass_begin(uint32_t pass, uint32_t width, uint32_t height, uint32_t tile_width,
                  uint32_t tile_height, uint32_t tiles_x, uint32_t tiles_y);
  void draw(uint32_t draw);
  void vertex_fetch(uint64_t address, uint32_t bytes);
  void vertex_shade(uint32_t vertices, uint64_t instructions, const OpMix& mix);
  // Without a mix: OpMix::legacy(instructions), what a version 3 stream reads as.
  void vertex_shade(uint32_t vertices, uint64_t instructions);
  void pb_write(uint64_t address, uint32_t bytes, uint32_t primitive, uint32_t tile,
                uint32_t section);
  void tile_begin(uint32_t tile, uint32_t x0, uint32_t y0, uint32_t order_position);
  void pb_read(uint64_t address, uint32_t bytes, uint32_t section, uint32_t primitive);
  void primitive(uint32_t primitive, uint32_t draw);
  void quad(uint32_t x, uint32_t y, uint32_t coverage, uint32_t depth_pass, uint32_t written,
            uint32_t flags, uint64_t instructions, const OpMix& mix);
  // Without a mix: OpMix::legacy(instructions), what a version 3 stream reads as.
  void quad(uint32_t x, uint32_t y, uint32_t coverage, uint32_t depth_pass, uint32_t written,
            uint32_t flags, uint64_t instructions);
  // `detail` holds either no probe or exactly `probes` of them (std::invalid_argument otherwise).
  void texture(uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
               std::span<const uint64_t> lines, const SampleProbes& detail = {});
  void vertex_texture(uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
                      std::span<const uint64_t> lines, const SampleProbes& detail = {});
  // `aspect` is an AttachmentAspect (std::invalid_argument otherwise); without it, colour.
  void attachment_load(uint64_t address, uint32_t bytes, uint32_t attachment, uint32_t aspect);
  void attachment_store(uint64_t address, uint32_t bytes, uint32_t attachment, uint32_t aspect);
  void attachment_load(uint64_t address, uint32_t bytes, uint32_t attachment);
  void attachment_store(uint64_t address, uint32_t bytes, uint32_t attachment);
  void tile_end(uint32_t tile);
  void pass_end(uint32_t pass);
  void frame_end();

  const StreamCounts& counts() const { return counts_; }
  size_t size_bytes() const { return bytes_.size; }

  // Tiles recorded on other writers (the renderer shades the tiles of a pass on several threads,
  // each recording into its own writer) and appended in tile order. A Mark is where a writer
  // stands: its size, counts and predictors.
  struct Mark {
    size_t size = 0;
    StreamCounts counts;
    uint64_t last_address[4] = {};
    uint64_t last_line = 0;
    uint32_t last_quad_x = 0, last_quad_y = 0;
  };
  Mark mark() const;
  // Appends the events `from` recorded between `begin` and `end`, which must start with a
  // TileBegin (std::invalid_argument otherwise): the predictors reset there, so the bytes decode
  // the same after this writer's events. Adds their counts and continues from `from`'s
  // predictors at `end`: the stream is byte for byte what recording them here would have given.
  void append(const StreamWriter& from, const Mark& begin, const Mark& end);
  // Drops every event recorded so far (the header stays): a writer reused for the next tiles.
  void clear();
  // The encoded frame (header + events). The writer is reset for the next frame.
  std::vector<uint8_t> finish();

 private:
  void emit(const Event& e);
  // Texture and VertexTexture: the lane takes kLaneBits bits of the first varint.
  template <uint32_t kLaneBits>
  void sample(EventKind kind, uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
              std::span<const uint64_t> lines, const SampleProbes& detail);
  void reset_predictors();
  void attachment(EventKind kind, uint64_t address, uint32_t bytes, uint32_t attachment, uint32_t aspect);
  // Grows geometrically, uninitialised, and keeps its memory across frames: encoding is on the
  // renderer's hot path (a byte-wise vector push_back was a quarter of a textured frame's time).
  struct Buffer {
    std::unique_ptr<uint8_t[]> data;
    size_t size = 0, capacity = 0;
    // Room for n more bytes at data + size.
    uint8_t* reserve(size_t n) {
      if (size + n > capacity) grow(n);
      return data.get() + size;
    }
    void grow(size_t n);
  };
  Buffer bytes_;
  size_t header_bytes_ = 0;
  StreamCounts counts_;
  uint64_t last_address_[4] = {};
  uint64_t last_line_ = 0;
  uint32_t last_quad_x_ = 0, last_quad_y_ = 0;
};

// Decodes a frame's stream. Damaged input (bad header, unknown tag, truncated varint) stops the
// reader with error() set to "byte N: problem"; it never reads out of bounds.
class StreamReader {
 public:
  explicit StreamReader(std::span<const uint8_t> bytes);
  // False at the end of the stream or on damage (then error() is non-empty).
  bool next(Event& event);
  const std::string& error() const { return error_; }
  const StreamCounts& counts() const { return counts_; }
  // Byte offset of the event next() returns next; seek() to an offset a TileBegin or PassBegin
  // was read at resumes decoding there (counts() keep accumulating).
  size_t position() const { return pos_; }
  bool seek(size_t position);
  void rewind();

 private:
  bool fail(const std::string& problem);
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
  std::string error_;
  StreamCounts counts_;
  std::vector<uint64_t> lines_;
  std::vector<TextureProbe> probes_;
  std::vector<uint64_t> blocks_;
  uint64_t version_ = 0;
  uint64_t last_address_[4] = {};
  uint64_t last_line_ = 0;
  uint32_t last_quad_x_ = 0, last_quad_y_ = 0;
};

}  // namespace tessera::stream
