// Encoder and decoder of the access stream (schema/access-stream.md).
#include "tessera/stream/access_stream.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>

namespace tessera::stream {

namespace {

constexpr uint8_t kMagic[4] = {'T', 'S', 'T', 'R'};
// A sample touches at most Footprint::kMaxLines lines (16 probes x 2 levels x 4 texels x 2);
// anything above this is damage, not data.
constexpr uint64_t kMaxLinesPerSample = 1024;

// Address classes with their own delta predictor: streams of one class are local to each other,
// across classes they are not.
enum AddressClass : uint8_t { kVertex = 0, kParameterBuffer = 1, kAttachment = 2, kClassCount = 3 };

constexpr uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
constexpr int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

template <typename Buffer>
void put_varint(Buffer& out, uint64_t v) {
  uint8_t* p = out.reserve(10);  // a 64-bit LEB128 takes at most 10 bytes
  uint8_t* const start = p;
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  out.size += static_cast<size_t>(p - start);
}

template <typename Buffer>
void put_delta(Buffer& out, uint64_t& last, uint64_t value) {
  put_varint(out, zigzag(static_cast<int64_t>(value - last)));
  last = value;
}

// Blocks a probe of each kind looks up (Algorithm 2 of paper 004: 1, 2, 2, 4; one texel: 1); an
// irregular probe carries its count.
constexpr uint16_t kProbeBlocks[kProbeKindIrregular] = {0, 1, 2, 2, 4, 1};
static_assert(kCaseTexelBlock[4][3] + 1 == kProbeBlocks[4] && kCaseTexelBlock[2][3] + 1 == kProbeBlocks[2] &&
              kCaseTexelBlock[3][3] + 1 == kProbeBlocks[3], "the block counts agree with the texel-to-block table");

// The lines of a sample's blocks in order of first appearance (version 3 leaves the lines out
// when they equal these). False when there are more than `max`.
inline bool block_lines(std::span<const uint64_t> blocks, std::vector<uint64_t>& out, size_t max) {
  out.clear();
  for (uint64_t b : blocks) {
    const uint64_t line = b & ~uint64_t{63};
    if (!out.empty() && out.back() == line) continue;  // the common repeat
    if (std::find(out.begin(), out.end(), line) == out.end()) {
      if (out.size() == max) return false;
      out.push_back(line);
    }
  }
  return true;
}

// Whether block_lines(blocks) would equal `lines`, without building it (the writer's hot path).
inline bool lines_are_block_lines(std::span<const uint64_t> blocks, std::span<const uint64_t> lines) {
  size_t k = 0;  // lines matched so far
  for (uint64_t b : blocks) {
    const uint64_t line = b & ~uint64_t{63};
    if (k > 0 && lines[k - 1] == line) continue;
    if (std::find(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(k), line) != lines.begin() + static_cast<std::ptrdiff_t>(k))
      continue;
    if (k == lines.size() || lines[k] != line) return false;
    ++k;
  }
  return k == lines.size();
}

// LEB128 at `p` (room for 10 bytes reserved by the caller); returns the end.
inline uint8_t* write_varint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

// Version 4: the five OpMix fields after a Quad's or VertexShade's instructions.
template <typename Buffer>
void put_mix(Buffer& out, const OpMix& m) {
  for (uint32_t v : {m.alu, m.sfu, m.varying, m.texture, m.memory}) put_varint(out, v);
}

Event make_event(EventKind kind, std::initializer_list<uint32_t> u, uint64_t address, uint64_t wide,
                 std::span<const uint64_t> lines = {}) {
  Event e;
  e.kind = kind;
  e.address = address;
  e.wide = wide;
  size_t i = 0;
  for (uint32_t v : u) e.u[i++] = v;
  e.lines = lines;
  return e;
}

}  // namespace

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::FrameBegin: return "frame_begin";
    case EventKind::PassBegin: return "pass_begin";
    case EventKind::Draw: return "draw";
    case EventKind::VertexFetch: return "vertex_fetch";
    case EventKind::VertexShade: return "vertex_shade";
    case EventKind::PbWrite: return "pb_write";
    case EventKind::TileBegin: return "tile_begin";
    case EventKind::PbRead: return "pb_read";
    case EventKind::Primitive: return "primitive";
    case EventKind::Quad: return "quad";
    case EventKind::Texture: return "texture";
    case EventKind::AttachmentLoad: return "attachment_load";
    case EventKind::AttachmentStore: return "attachment_store";
    case EventKind::TileEnd: return "tile_end";
    case EventKind::PassEnd: return "pass_end";
    case EventKind::FrameEnd: return "frame_end";
    case EventKind::VertexTexture: return "vertex_texture";
  }
  return "unknown";
}

OpMix OpMix::legacy(uint64_t instructions) {
  OpMix m;
  const uint64_t issue = instructions / 4 + (instructions % 4 != 0 ? 1 : 0);
  m.alu = static_cast<uint32_t>(std::min<uint64_t>(issue, UINT32_MAX));
  return m;
}

void OpMixTotals::add(const OpMix& m) {
  alu += m.alu;
  sfu += m.sfu;
  varying += m.varying;
  texture += m.texture;
  memory += m.memory;
}

void OpMixTotals::add(const OpMixTotals& o) {
  alu += o.alu;
  sfu += o.sfu;
  varying += o.varying;
  texture += o.texture;
  memory += o.memory;
}

void OpMixTotals::add_between(const OpMixTotals& begin, const OpMixTotals& end) {
  alu += end.alu - begin.alu;
  sfu += end.sfu - begin.sfu;
  varying += end.varying - begin.varying;
  texture += end.texture - begin.texture;
  memory += end.memory - begin.memory;
}

void StreamCounts::add_quad(uint64_t instructions, const OpMix& mix, uint32_t coverage) {
  ++events[static_cast<uint8_t>(EventKind::Quad)];
  fragment_instructions += instructions;
  fragment_mix.add(mix);
  covered_pixels += quad_pixels(coverage & 0xfu);
}

void StreamCounts::add_sample(EventKind kind, size_t lines, std::span<const TextureProbe> probes) {
  ++events[static_cast<uint8_t>(kind)];
  if (kind == EventKind::Texture) {
    texture_lines += lines;
    for (const TextureProbe& p : probes) texture_probe_blocks += p.block_count;
  } else if (kind == EventKind::VertexTexture) {
    vertex_texture_lines += lines;
  }
}

void StreamCounts::add(const Event& e) {
  switch (e.kind) {
    case EventKind::Quad: return add_quad(e.wide, e.mix, e.u[2]);
    case EventKind::Texture:
    case EventKind::VertexTexture: return add_sample(e.kind, e.lines.size(), e.probes);
    default: break;
  }
  ++events[static_cast<uint8_t>(e.kind)];
  switch (e.kind) {
    case EventKind::VertexFetch: vertex_fetch_bytes += e.u[0]; break;
    case EventKind::VertexShade:
      vertex_instructions += e.wide;
      vertex_mix.add(e.mix);
      break;
    case EventKind::PbWrite: pb_write_bytes += e.u[0]; break;
    case EventKind::PbRead: pb_read_bytes += e.u[0]; break;
    default: break;
  }
}

void StreamCounts::add_between(const StreamCounts& begin, const StreamCounts& end) {
  for (uint32_t k = 0; k < kEventKindCount; ++k) events[k] += end.events[k] - begin.events[k];
  texture_lines += end.texture_lines - begin.texture_lines;
  vertex_texture_lines += end.vertex_texture_lines - begin.vertex_texture_lines;
  texture_probe_blocks += end.texture_probe_blocks - begin.texture_probe_blocks;
  vertex_fetch_bytes += end.vertex_fetch_bytes - begin.vertex_fetch_bytes;
  pb_write_bytes += end.pb_write_bytes - begin.pb_write_bytes;
  pb_read_bytes += end.pb_read_bytes - begin.pb_read_bytes;
  fragment_instructions += end.fragment_instructions - begin.fragment_instructions;
  vertex_instructions += end.vertex_instructions - begin.vertex_instructions;
  fragment_mix.add_between(begin.fragment_mix, end.fragment_mix);
  vertex_mix.add_between(begin.vertex_mix, end.vertex_mix);
  covered_pixels += end.covered_pixels - begin.covered_pixels;
}

// ---- Writer ----------------------------------------------------------------------------------

void StreamWriter::Buffer::grow(size_t n) {
  const size_t grown = std::max<size_t>({capacity * 2, size + n, 1 << 16});
  std::unique_ptr<uint8_t[]> bigger(new uint8_t[grown]);
  if (size != 0) std::memcpy(bigger.get(), data.get(), size);
  data = std::move(bigger);
  capacity = grown;
}

StreamWriter::StreamWriter() {
  std::memcpy(bytes_.reserve(sizeof kMagic), kMagic, sizeof kMagic);
  bytes_.size += sizeof kMagic;
  put_varint(bytes_, kFormatVersion);
  header_bytes_ = bytes_.size;
}

StreamWriter::Mark StreamWriter::mark() const {
  Mark m;
  m.size = bytes_.size;
  m.counts = counts_;
  std::copy_n(last_address_, 4, m.last_address);
  m.last_line = last_line_;
  m.last_quad_x = last_quad_x_;
  m.last_quad_y = last_quad_y_;
  return m;
}

void StreamWriter::append(const StreamWriter& from, const Mark& begin, const Mark& end) {
  if (begin.size < from.header_bytes_ || end.size < begin.size || end.size > from.bytes_.size)
    throw std::invalid_argument("StreamWriter::append: marks outside the writer's events");
  if (end.size == begin.size) return;
  const uint8_t* src = from.bytes_.data.get() + begin.size;
  if (src[0] != static_cast<uint8_t>(EventKind::TileBegin))
    throw std::invalid_argument("StreamWriter::append: the events do not start with a TileBegin");
  const size_t n = end.size - begin.size;
  std::memcpy(bytes_.reserve(n), src, n);
  bytes_.size += n;
  counts_.add_between(begin.counts, end.counts);
  std::copy_n(end.last_address, 4, last_address_);
  last_line_ = end.last_line;
  last_quad_x_ = end.last_quad_x;
  last_quad_y_ = end.last_quad_y;
}

void StreamWriter::clear() {
  bytes_.size = header_bytes_;
  counts_ = StreamCounts{};
  reset_predictors();
}

void StreamWriter::reset_predictors() {
  for (uint64_t& a : last_address_) a = 0;
  last_line_ = 0;
  last_quad_x_ = last_quad_y_ = 0;
}

void StreamWriter::emit(const Event& e) {
  counts_.add(e);
  *bytes_.reserve(1) = static_cast<uint8_t>(e.kind);
  ++bytes_.size;
}

void StreamWriter::frame_begin(uint32_t present, uint32_t width, uint32_t height) {
  Event e = make_event(EventKind::FrameBegin, {present, width, height}, 0, 0);
  emit(e);
  for (int i = 0; i < 3; ++i) put_varint(bytes_, e.u[i]);
  reset_predictors();
}

void StreamWriter::pass_begin(uint32_t pass, uint32_t width, uint32_t height, uint32_t tile_width,
                              uint32_t tile_height, uint32_t tiles_x, uint32_t tiles_y) {
  Event e = make_event(EventKind::PassBegin, {pass, width, height, tile_width, tile_height, tiles_x, tiles_y}, 0, 0);
  emit(e);
  for (uint32_t v : e.u) put_varint(bytes_, v);
  reset_predictors();
}

void StreamWriter::draw(uint32_t draw) {
  emit(make_event(EventKind::Draw, {draw}, 0, 0));
  put_varint(bytes_, draw);
}

void StreamWriter::vertex_fetch(uint64_t address, uint32_t bytes) {
  emit(make_event(EventKind::VertexFetch, {bytes}, address, 0));
  put_delta(bytes_, last_address_[kVertex], address);
  put_varint(bytes_, bytes);
}

void StreamWriter::vertex_shade(uint32_t vertices, uint64_t instructions, const OpMix& mix) {
  Event e = make_event(EventKind::VertexShade, {vertices}, 0, instructions);
  e.mix = mix;
  emit(e);
  put_varint(bytes_, vertices);
  put_varint(bytes_, instructions);
  put_mix(bytes_, mix);
}

void StreamWriter::vertex_shade(uint32_t vertices, uint64_t instructions) {
  vertex_shade(vertices, instructions, OpMix::legacy(instructions));
}

void StreamWriter::pb_write(uint64_t address, uint32_t bytes, uint32_t primitive, uint32_t tile,
                            uint32_t section) {
  emit(make_event(EventKind::PbWrite, {bytes, primitive, tile, section}, address, 0));
  put_delta(bytes_, last_address_[kParameterBuffer], address);
  put_varint(bytes_, bytes);
  put_varint(bytes_, primitive);
  put_varint(bytes_, tile);
  put_varint(bytes_, section);
}

void StreamWriter::tile_begin(uint32_t tile, uint32_t x0, uint32_t y0, uint32_t order_position) {
  emit(make_event(EventKind::TileBegin, {tile, x0, y0, order_position}, 0, 0));
  put_varint(bytes_, tile);
  put_varint(bytes_, x0);
  put_varint(bytes_, y0);
  put_varint(bytes_, order_position);
  reset_predictors();
}

void StreamWriter::pb_read(uint64_t address, uint32_t bytes, uint32_t section, uint32_t primitive) {
  emit(make_event(EventKind::PbRead, {bytes, section, primitive}, address, 0));
  put_delta(bytes_, last_address_[kParameterBuffer], address);
  put_varint(bytes_, bytes);
  put_varint(bytes_, section);
  // PbRead's primitive is 0xffffffff for a PB-Lists line: stored +1 so that case takes one byte.
  put_varint(bytes_, static_cast<uint32_t>(primitive + 1));
}

void StreamWriter::primitive(uint32_t primitive, uint32_t draw) {
  emit(make_event(EventKind::Primitive, {primitive, draw}, 0, 0));
  put_varint(bytes_, primitive);
  put_varint(bytes_, draw);
}

void StreamWriter::quad(uint32_t x, uint32_t y, uint32_t coverage, uint32_t depth_pass,
                        uint32_t written, uint32_t flags, uint64_t instructions) {
  quad(x, y, coverage, depth_pass, written, flags, instructions, OpMix::legacy(instructions));
}

void StreamWriter::quad(uint32_t x, uint32_t y, uint32_t coverage, uint32_t depth_pass,
                        uint32_t written, uint32_t flags, uint64_t instructions, const OpMix& mix) {
  // Counted without building the event: this runs for every quad.
  counts_.add_quad(instructions, mix, coverage);
  *bytes_.reserve(1) = static_cast<uint8_t>(EventKind::Quad);
  ++bytes_.size;
  put_varint(bytes_, zigzag(static_cast<int64_t>(x) - last_quad_x_));
  put_varint(bytes_, zigzag(static_cast<int64_t>(y) - last_quad_y_));
  last_quad_x_ = x;
  last_quad_y_ = y;
  // Masks and flags packed in one varint: two bytes for the common case.
  put_varint(bytes_, (coverage & 0xfu) | (depth_pass & 0xfu) << 4 | (written & 0xfu) << 8 |
                         static_cast<uint64_t>(flags) << 12);
  put_varint(bytes_, instructions);
  put_mix(bytes_, mix);
}

namespace {

// Everything the encoding below relies on, checked before a byte of the event is written, so a
// refused sample leaves the stream and its counts as they were: the reader rebuilds each probe's
// block range from the order of the records, so the ranges must tile `blocks` in order.

void check_probes(uint32_t probes, const SampleProbes& detail) {
  const auto refuse = [&](const std::string& why) {
    throw std::invalid_argument("access stream: texture sample of " + std::to_string(probes) + " probes: " + why);
  };
  if (detail.probes.size() != probes || probes > kMaxProbesPerSample)
    refuse(std::to_string(detail.probes.size()) + " probe records");
  if (detail.block_bytes == 0 || detail.block_bytes > kMaxBlockBytes)
    refuse("block of " + std::to_string(detail.block_bytes) + " bytes");
  size_t next = 0;
  for (const TextureProbe& pr : detail.probes) {
    if (pr.kind > kProbeKindIrregular || pr.block_count > kMaxBlocksPerProbe ||
        (pr.kind != kProbeKindIrregular && pr.block_count != kProbeBlocks[pr.kind]))
      refuse("probe of kind " + std::to_string(pr.kind) + " with " + std::to_string(pr.block_count) + " blocks");
    if (pr.first_block != next) refuse("probe blocks not in the order of the records");
    next += pr.block_count;
  }
  if (next != detail.blocks.size())
    refuse("probes cover " + std::to_string(next) + " of " + std::to_string(detail.blocks.size()) + " blocks");
  uint64_t low_bits = 0;  // one branch for every block: this runs for every texture sample
  for (uint64_t b : detail.blocks) low_bits |= b;
  if (low_bits & 7) refuse("a block address not a multiple of 8");
}

}  // namespace

template <uint32_t kLaneBits>
void StreamWriter::sample(EventKind kind, uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
                          std::span<const uint64_t> lines, const SampleProbes& detail) {
  constexpr uint32_t kLaneMask = (1u << kLaneBits) - 1;
  const bool with_probes = !detail.probes.empty();
  if (with_probes) check_probes(probes, detail);
  // Counted without building the event: this runs for every texture sample.
  counts_.add_sample(kind, lines.size(), detail.probes);
  *bytes_.reserve(1) = static_cast<uint8_t>(kind);
  ++bytes_.size;
  // Lines are left out when the blocks' lines in order are exactly the sample's lines (every
  // block of 64 B or less lies in one line: the common case).
  const bool derived = with_probes && lines_are_block_lines(detail.blocks, lines);
  // One reservation for the whole event (at most 10 bytes a varint): this is the renderer's
  // hottest encoder.
  uint8_t* const start = bytes_.reserve(10 * (6 + lines.size() + 2 * detail.probes.size() + detail.blocks.size()));
  uint8_t* p = start;
  // Lane and case packed in one varint: one byte for the common cases.
  p = write_varint(p, (lane & kLaneMask) | static_cast<uint64_t>(footprint_case) << kLaneBits);
  p = write_varint(p, level);
  p = write_varint(p, probes);
  // Version 3: block bytes (0: no probe records) << 1 | lines written explicitly.
  p = write_varint(p, static_cast<uint64_t>(with_probes ? detail.block_bytes : 0) << 1 | (derived ? 0 : 1));
  if (!derived) {
    p = write_varint(p, lines.size());
    for (uint64_t line : lines) {
      p = write_varint(p, zigzag(static_cast<int64_t>(line - last_line_)));
      last_line_ = line;
    }
  }
  if (with_probes) {
    // Blocks are deltas in units of 8 bytes against the previous block, the first against the
    // texture-line predictor.
    uint64_t last = last_line_ >> 3;
    for (const TextureProbe& pr : detail.probes) {
      p = write_varint(p, pr.kind | static_cast<uint64_t>(pr.level) << 3);
      if (pr.kind == kProbeKindIrregular) p = write_varint(p, pr.block_count);
      for (uint32_t b = pr.first_block; b < pr.first_block + pr.block_count; ++b) {
        const uint64_t unit = detail.blocks[b] >> 3;
        p = write_varint(p, zigzag(static_cast<int64_t>(unit - last)));
        last = unit;
      }
    }
    // Derived lines move the predictor as written ones do.
    if (derived && !lines.empty()) last_line_ = lines.back();
  }
  bytes_.size += static_cast<size_t>(p - start);
}

void StreamWriter::texture(uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
                           std::span<const uint64_t> lines, const SampleProbes& detail) {
  sample<2>(EventKind::Texture, lane, level, footprint_case, probes, lines, detail);
}

void StreamWriter::vertex_texture(uint32_t lane, uint32_t level, uint32_t footprint_case, uint32_t probes,
                                  std::span<const uint64_t> lines, const SampleProbes& detail) {
  sample<6>(EventKind::VertexTexture, lane, level, footprint_case, probes, lines, detail);
}

void StreamWriter::attachment(EventKind kind, uint64_t address, uint32_t bytes, uint32_t attachment,
                              uint32_t aspect) {
  if (aspect >= kAspectCount)
    throw std::invalid_argument("access stream: attachment aspect " + std::to_string(aspect));
  emit(make_event(kind, {bytes, attachment, aspect}, address, 0));
  put_delta(bytes_, last_address_[kAttachment], address);
  put_varint(bytes_, bytes);
  put_varint(bytes_, attachment);
  put_varint(bytes_, aspect);
}

void StreamWriter::attachment_load(uint64_t address, uint32_t bytes, uint32_t attachment, uint32_t aspect) {
  this->attachment(EventKind::AttachmentLoad, address, bytes, attachment, aspect);
}

void StreamWriter::attachment_store(uint64_t address, uint32_t bytes, uint32_t attachment, uint32_t aspect) {
  this->attachment(EventKind::AttachmentStore, address, bytes, attachment, aspect);
}

void StreamWriter::attachment_load(uint64_t address, uint32_t bytes, uint32_t attachment) {
  this->attachment(EventKind::AttachmentLoad, address, bytes, attachment, kAspectColour);
}

void StreamWriter::attachment_store(uint64_t address, uint32_t bytes, uint32_t attachment) {
  this->attachment(EventKind::AttachmentStore, address, bytes, attachment, kAspectColour);
}

void StreamWriter::tile_end(uint32_t tile) {
  emit(make_event(EventKind::TileEnd, {tile}, 0, 0));
  put_varint(bytes_, tile);
}

void StreamWriter::pass_end(uint32_t pass) {
  emit(make_event(EventKind::PassEnd, {pass}, 0, 0));
  put_varint(bytes_, pass);
}

void StreamWriter::frame_end() { emit(make_event(EventKind::FrameEnd, {}, 0, 0)); }

std::vector<uint8_t> StreamWriter::finish() {
  std::vector<uint8_t> out(bytes_.data.get(), bytes_.data.get() + bytes_.size);
  // Start the next frame in the same memory: no reallocation or page faults frame after frame.
  Buffer keep = std::move(bytes_);
  *this = StreamWriter();
  if (keep.capacity > bytes_.capacity) {
    std::memcpy(keep.data.get(), bytes_.data.get(), bytes_.size);
    keep.size = bytes_.size;
    bytes_ = std::move(keep);
  }
  return out;
}

// ---- Reader ----------------------------------------------------------------------------------

StreamReader::StreamReader(std::span<const uint8_t> bytes) : bytes_(bytes) { rewind(); }

void StreamReader::rewind() {
  error_.clear();
  counts_ = StreamCounts{};
  pos_ = 0;
  for (uint64_t& a : last_address_) a = 0;
  last_line_ = 0;
  last_quad_x_ = last_quad_y_ = 0;
  if (bytes_.size() < sizeof kMagic || std::memcmp(bytes_.data(), kMagic, sizeof kMagic) != 0) {
    fail("not an access stream (bad magic)");
    return;
  }
  pos_ = sizeof kMagic;
  uint64_t version = 0;
  int shift = 0;
  for (;;) {
    if (pos_ >= bytes_.size() || shift > 63) {
      fail("truncated header");
      return;
    }
    const uint8_t b = bytes_[pos_++];
    version |= static_cast<uint64_t>(b & 0x7f) << shift;
    shift += 7;
    if (!(b & 0x80)) break;
  }
  if (version < kOldestReadableVersion || version > kFormatVersion) {
    fail("access stream version " + std::to_string(version) + ", this build reads " +
         std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion));
  }
  version_ = version;
}

bool StreamReader::fail(const std::string& problem) {
  if (error_.empty()) error_ = "byte " + std::to_string(pos_) + ": " + problem;
  pos_ = bytes_.size();
  return false;
}

bool StreamReader::seek(size_t position) {
  if (!error_.empty() || position > bytes_.size()) return false;
  pos_ = position;
  // The writer resets its predictors after TileBegin and PassBegin; the reader does the same
  // when it decodes those events, so seeking to one of them is always consistent.
  return true;
}

bool StreamReader::next(Event& e) {
  if (!error_.empty() || pos_ >= bytes_.size()) return false;
  const size_t start = pos_;
  bool ok = true;
  auto varint = [&]() -> uint64_t {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= bytes_.size()) {
        ok = false;
        return 0;
      }
      const uint8_t b = bytes_[pos_++];
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok = false;
    return 0;
  };
  auto u32 = [&]() -> uint32_t {
    const uint64_t v = varint();
    if (v > UINT32_MAX) ok = false;
    return static_cast<uint32_t>(v);
  };
  // Version 4's OpMix; an older event's is derived from its instruction count.
  auto mix = [&]() {
    if (version_ < 4) {
      e.mix = OpMix::legacy(e.wide);
      return;
    }
    for (uint32_t* f : {&e.mix.alu, &e.mix.sfu, &e.mix.varying, &e.mix.texture, &e.mix.memory}) *f = u32();
  };
  auto delta = [&](uint64_t& last) {
    last += static_cast<uint64_t>(unzigzag(varint()));
    return last;
  };
  auto reset = [&]() {
    for (uint64_t& a : last_address_) a = 0;
    last_line_ = 0;
    last_quad_x_ = last_quad_y_ = 0;
  };

  const uint8_t tag = bytes_[pos_++];
  // Version 1 ends at FrameEnd (16); VertexTexture (17) came with version 2.
  const uint32_t kinds = version_ < 2 ? static_cast<uint32_t>(EventKind::FrameEnd) + 1 : kEventKindCount;
  if (tag == 0 || tag >= kinds) {
    pos_ = start;
    return fail("unknown event tag " + std::to_string(tag));
  }
  e = Event{};
  e.kind = static_cast<EventKind>(tag);
  switch (e.kind) {
    case EventKind::FrameBegin:
      for (int i = 0; i < 3; ++i) e.u[i] = u32();
      reset();
      break;
    case EventKind::PassBegin:
      for (uint32_t& v : e.u) v = u32();
      reset();
      break;
    case EventKind::Draw:
    case EventKind::TileEnd:
    case EventKind::PassEnd:
      e.u[0] = u32();
      break;
    case EventKind::VertexFetch:
      e.address = delta(last_address_[kVertex]);
      e.u[0] = u32();
      break;
    case EventKind::VertexShade:
      e.u[0] = u32();
      e.wide = varint();
      mix();
      break;
    case EventKind::PbWrite:
      e.address = delta(last_address_[kParameterBuffer]);
      for (int i = 0; i < 4; ++i) e.u[i] = u32();
      break;
    case EventKind::TileBegin:
      for (int i = 0; i < 4; ++i) e.u[i] = u32();
      reset();
      break;
    case EventKind::PbRead:
      e.address = delta(last_address_[kParameterBuffer]);
      e.u[0] = u32();
      e.u[1] = u32();
      e.u[2] = u32() - 1;  // 0 -> 0xffffffff, a PB-Lists line
      break;
    case EventKind::Primitive:
      e.u[0] = u32();
      e.u[1] = u32();
      break;
    case EventKind::Quad: {
      const int64_t x = static_cast<int64_t>(last_quad_x_) + unzigzag(varint());
      const int64_t y = static_cast<int64_t>(last_quad_y_) + unzigzag(varint());
      if (x < 0 || y < 0 || x > INT32_MAX || y > INT32_MAX) ok = false;
      e.u[0] = last_quad_x_ = static_cast<uint32_t>(x);
      e.u[1] = last_quad_y_ = static_cast<uint32_t>(y);
      const uint64_t packed = varint();
      if (packed >> 12 > UINT32_MAX) ok = false;
      e.u[2] = packed & 0xfu;
      e.u[3] = (packed >> 4) & 0xfu;
      e.u[4] = (packed >> 8) & 0xfu;
      e.u[5] = static_cast<uint32_t>(packed >> 12);
      e.wide = varint();
      mix();
      break;
    }
    case EventKind::Texture:
    case EventKind::VertexTexture: {
      // Lane and footprint case share a varint: 2 lane bits for a quad's lane, 6 for a batch's.
      const int lane_bits = e.kind == EventKind::Texture ? 2 : 6;
      const uint64_t packed = varint();
      if (packed >> lane_bits > UINT32_MAX) ok = false;
      e.u[0] = static_cast<uint32_t>(packed & ((1u << lane_bits) - 1));
      e.u[2] = static_cast<uint32_t>(packed >> lane_bits);
      e.u[1] = u32();
      e.u[3] = u32();
      // Version 3: block bytes << 1 | explicit lines (schema/access-stream.md).
      const uint64_t detail = version_ >= 3 ? varint() : 1;
      if (ok && detail >> 1 > kMaxBlockBytes) {
        pos_ = start;
        return fail("texture sample with blocks of " + std::to_string(detail >> 1) + " bytes");
      }
      e.u[4] = static_cast<uint32_t>(detail >> 1);
      const bool explicit_lines = (detail & 1) != 0;
      if (!explicit_lines && e.u[4] == 0) ok = false;
      lines_.clear();
      if (ok && explicit_lines) {
        const uint64_t count = varint();
        if (!ok || count > kMaxLinesPerSample) {
          pos_ = start;
          return fail("texture sample with " + std::to_string(count) + " lines");
        }
        lines_.resize(count);
        for (uint64_t& line : lines_) line = delta(last_line_);
      }
      probes_.clear();
      blocks_.clear();
      if (ok && e.u[4] != 0) {
        if (e.u[3] > kMaxProbesPerSample) {
          pos_ = start;
          return fail("texture sample with " + std::to_string(e.u[3]) + " probe records");
        }
        uint64_t last = last_line_ >> 3;
        for (uint32_t r = 0; r < e.u[3] && ok; ++r) {
          const uint64_t head = varint();
          TextureProbe p;
          p.kind = static_cast<uint8_t>(head & 7);
          if (p.kind > kProbeKindIrregular || (head >> 3) > 255) {
            pos_ = start;
            return fail("texture probe of kind " + std::to_string(head & 7) + " at level " + std::to_string(head >> 3));
          }
          p.level = static_cast<uint8_t>(head >> 3);
          const uint64_t n = p.kind == kProbeKindIrregular ? varint() : kProbeBlocks[p.kind];
          if (n > kMaxBlocksPerProbe) {
            pos_ = start;
            return fail("texture probe with " + std::to_string(n) + " blocks");
          }
          p.first_block = static_cast<uint16_t>(blocks_.size());
          p.block_count = static_cast<uint16_t>(n);
          for (uint64_t b = 0; b < n; ++b) blocks_.push_back(delta(last) << 3);
          probes_.push_back(p);
        }
        if (!explicit_lines) {
          block_lines(blocks_, lines_, kMaxLinesPerSample);
          if (!lines_.empty()) last_line_ = lines_.back();
        }
        e.probes = std::span<const TextureProbe>(probes_.data(), probes_.size());
        e.blocks = std::span<const uint64_t>(blocks_.data(), blocks_.size());
      }
      e.lines = std::span<const uint64_t>(lines_.data(), lines_.size());
      break;
    }
    case EventKind::AttachmentLoad:
    case EventKind::AttachmentStore:
      e.address = delta(last_address_[kAttachment]);
      e.u[0] = u32();
      e.u[1] = u32();
      e.u[2] = version_ >= 4 ? u32() : kAspectColour;
      if (ok && e.u[2] >= kAspectCount) {
        pos_ = start;
        return fail(std::string(event_kind_name(e.kind)) + " of aspect " + std::to_string(e.u[2]));
      }
      break;
    case EventKind::FrameEnd:
      break;
  }
  if (!ok) {
    pos_ = start;
    return fail(std::string("truncated or damaged ") + event_kind_name(e.kind) + " event");
  }
  counts_.add(e);
  return true;
}

}  // namespace tessera::stream
