// Access stream: every event kind round-trips exactly, counts kept by the writer equal the
// reader's recount, seeking to a tile decodes it as a sequential read does, damage is reported.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "tessera/stream/access_stream.h"

namespace tessera::stream {
namespace {

struct Recorded {
  std::vector<Event> events;
  std::vector<std::vector<uint64_t>> lines;  // per event (Texture and VertexTexture)
};

Recorded read_all(std::span<const uint8_t> bytes, StreamCounts* counts = nullptr) {
  Recorded r;
  StreamReader reader(bytes);
  Event e;
  while (reader.next(e)) {
    r.events.push_back(e);
    r.lines.emplace_back(e.lines.begin(), e.lines.end());
    r.events.back().lines = {};
  }
  EXPECT_EQ(reader.error(), "");
  if (counts) *counts = reader.counts();
  return r;
}

// A two-tile frame touching every event kind, with extreme values where they matter.
std::vector<uint8_t> sample_frame(StreamCounts* writer_counts) {
  StreamWriter w;
  w.frame_begin(7, 1280, 720);
  w.pass_begin(0, 1280, 720, 32, 32, 40, 23);
  w.draw(0);
  w.vertex_fetch(0x2'0000'0040, 12);
  w.vertex_fetch(0x2'0000'0000, 12);  // backwards: negative delta
  const uint64_t vertex_lines[] = {0x6'0000'0080, 0x6'0000'0000};
  w.vertex_texture(63, 5, 4, 2, vertex_lines);
  w.vertex_texture(0, 0, 1, 1, {});
  w.vertex_shade(3, 123456789012ull, OpMix{0xffffffffu, 2, 5, 1, 0});
  w.pb_write(0x4000'0000, 4, 0, 5, 0);
  w.pb_write(0x5000'0000, 48, 0, 5, 1);
  w.tile_begin(5, 160, 0, 0);
  w.attachment_load(0x1'0000'0000, 128, 0, kAspectColour);
  w.pb_read(0x4000'0000, 64, 0, 0xffffffffu);
  w.pb_read(0x5000'0000, 48, 1, 0);
  w.primitive(0, 0);
  w.quad(160, 0, 0xf, 0x7, 0x3, kQuadShaded | kQuadLateDepth, 4 * 37, OpMix{18, 1, 9, 1, 13});
  const uint64_t lines1[] = {0x3'0000'0000, 0x3'0000'0040, 0x2'ffff'ffc0};
  w.texture(0, 2, 3, 1, lines1);
  w.texture(3, 0, 1, 4, {});
  w.quad(162, 2, 0x1, 0x1, 0x1, kQuadShaded | kQuadFrontFacing, 9);  // no mix: OpMix::legacy(9)
  w.attachment_store(0x2'0000'0000, 64, 1, kAspectDepthStencil);
  w.tile_end(5);
  w.tile_begin(6, 192, 0, 1);
  w.quad(65534, 0, 0x8, 0, 0, 0, 0);
  w.tile_end(6);
  w.pass_end(0);
  w.frame_end();
  *writer_counts = w.counts();
  return w.finish();
}

TEST(AccessStream, EveryEventRoundTrips) {
  StreamCounts written;
  const std::vector<uint8_t> bytes = sample_frame(&written);
  StreamCounts read;
  const Recorded r = read_all(bytes, &read);
  ASSERT_EQ(r.events.size(), 26u);
  EXPECT_EQ(r.events[0].kind, EventKind::FrameBegin);
  EXPECT_EQ(r.events[0].u[0], 7u);
  EXPECT_EQ(r.events[0].u[2], 720u);
  EXPECT_EQ(r.events[1].u[5], 40u);
  EXPECT_EQ(r.events[1].u[6], 23u);
  EXPECT_EQ(r.events[4].address, 0x2'0000'0000u);
  const Event& vt = r.events[5];
  EXPECT_EQ(vt.kind, EventKind::VertexTexture);
  EXPECT_EQ(vt.u[0], 63u);
  EXPECT_EQ(vt.u[1], 5u);
  EXPECT_EQ(vt.u[2], 4u);
  EXPECT_EQ(vt.u[3], 2u);
  EXPECT_EQ(r.lines[5], (std::vector<uint64_t>{0x6'0000'0080, 0x6'0000'0000}));
  EXPECT_EQ(r.events[6].kind, EventKind::VertexTexture);
  EXPECT_EQ(r.events[6].u[0], 0u);
  EXPECT_EQ(r.events[6].u[2], 1u);
  EXPECT_TRUE(r.lines[6].empty());
  EXPECT_EQ(r.events[7].wide, 123456789012ull);
  EXPECT_EQ(r.events[7].mix, (OpMix{0xffffffffu, 2, 5, 1, 0}));
  EXPECT_EQ(r.events[11].kind, EventKind::AttachmentLoad);
  EXPECT_EQ(r.events[11].u[2], kAspectColour);
  EXPECT_EQ(r.events[9].address, 0x5000'0000u);
  EXPECT_EQ(r.events[9].u[3], 1u);
  EXPECT_EQ(r.events[12].u[2], 0xffffffffu);
  EXPECT_EQ(r.events[13].u[2], 0u);
  const Event& q = r.events[15];
  EXPECT_EQ(q.kind, EventKind::Quad);
  EXPECT_EQ(q.u[0], 160u);
  EXPECT_EQ(q.u[2], 0xfu);
  EXPECT_EQ(q.u[3], 0x7u);
  EXPECT_EQ(q.u[4], 0x3u);
  EXPECT_EQ(q.u[5], static_cast<uint32_t>(kQuadShaded | kQuadLateDepth));
  EXPECT_EQ(q.wide, 148u);
  EXPECT_EQ(q.mix, (OpMix{18, 1, 9, 1, 13}));
  EXPECT_EQ(r.events[18].mix, (OpMix{3, 0, 0, 0, 0}));  // ceil(9 / 4)
  const Event& store = r.events[19];
  EXPECT_EQ(store.kind, EventKind::AttachmentStore);
  EXPECT_EQ(store.address, 0x2'0000'0000u);
  EXPECT_EQ(store.u[0], 64u);
  EXPECT_EQ(store.u[1], 1u);
  EXPECT_EQ(store.u[2], kAspectDepthStencil);
  EXPECT_EQ(r.events[16].kind, EventKind::Texture);
  EXPECT_EQ(r.events[16].u[1], 2u);
  EXPECT_EQ(r.events[16].u[2], 3u);
  EXPECT_EQ(r.lines[16], (std::vector<uint64_t>{0x3'0000'0000, 0x3'0000'0040, 0x2'ffff'ffc0}));
  EXPECT_EQ(r.events[17].u[0], 3u);
  EXPECT_EQ(r.events[17].u[3], 4u);
  EXPECT_TRUE(r.lines[17].empty());
  EXPECT_EQ(r.events[18].u[1], 2u);
  EXPECT_EQ(r.events[22].u[0], 65534u);
  EXPECT_EQ(r.events.back().kind, EventKind::FrameEnd);

  EXPECT_EQ(read, written);
  EXPECT_EQ(read[EventKind::Quad], 3u);
  EXPECT_EQ(read[EventKind::Texture], 2u);
  EXPECT_EQ(read.texture_lines, 3u);
  EXPECT_EQ(read[EventKind::VertexTexture], 2u);
  EXPECT_EQ(read.vertex_texture_lines, 2u);
  EXPECT_EQ(read.covered_pixels, 4u + 1u + 1u);  // 0xf, 0x1, 0x8
  EXPECT_EQ(read.fragment_instructions, 148u + 9u);
  EXPECT_EQ(read.fragment_mix, (OpMixTotals{18 + 3, 1, 9, 1, 13}));
  EXPECT_EQ(read.vertex_mix, (OpMixTotals{0xffffffffu, 2, 5, 1, 0}));
  EXPECT_EQ(read.vertex_fetch_bytes, 24u);
  EXPECT_EQ(read.pb_write_bytes, 52u);
  EXPECT_EQ(read.pb_read_bytes, 112u);
}

TEST(AccessStream, SeekToATileDecodesItAsASequentialReadDoes) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  w.pass_begin(0, 64, 64, 32, 32, 2, 2);
  std::mt19937_64 rng(42);
  for (uint32_t t = 0; t < 4; ++t) {
    w.tile_begin(t, (t % 2) * 32, (t / 2) * 32, t);
    for (int q = 0; q < 50; ++q) {
      w.quad(static_cast<uint32_t>(rng() % 64) & ~1u, static_cast<uint32_t>(rng() % 64) & ~1u, 0xf,
             0xf, 0xf, kQuadShaded, rng() % 1000);
      const uint64_t lines[] = {(rng() % (1u << 30)) * 64, (rng() % (1u << 30)) * 64};
      w.texture(static_cast<uint32_t>(rng() % 4), 0, 1, 1, lines);
    }
    w.tile_end(t);
  }
  w.pass_end(0);
  w.frame_end();
  const std::vector<uint8_t> bytes = w.finish();

  // First pass: offsets of each TileBegin, and what each tile decodes to.
  StreamReader reader(bytes);
  std::vector<size_t> offsets;
  std::vector<std::vector<uint64_t>> tile_values(4);
  Event e;
  uint32_t tile = 0;
  size_t before = reader.position();
  while (reader.next(e)) {
    if (e.kind == EventKind::TileBegin) {
      offsets.push_back(before);
      tile = e.u[0];
    }
    if (e.kind == EventKind::Quad) tile_values[tile].insert(tile_values[tile].end(), {e.u[0], e.u[1], e.wide});
    if (e.kind == EventKind::Texture) tile_values[tile].insert(tile_values[tile].end(), e.lines.begin(), e.lines.end());
    before = reader.position();
  }
  ASSERT_EQ(reader.error(), "");
  ASSERT_EQ(offsets.size(), 4u);

  // Visit the tiles in reverse order by seeking.
  for (int t = 3; t >= 0; --t) {
    ASSERT_TRUE(reader.seek(offsets[static_cast<size_t>(t)]));
    std::vector<uint64_t> values;
    ASSERT_TRUE(reader.next(e));
    ASSERT_EQ(e.kind, EventKind::TileBegin);
    ASSERT_EQ(e.u[0], static_cast<uint32_t>(t));
    while (reader.next(e) && e.kind != EventKind::TileEnd) {
      if (e.kind == EventKind::Quad) values.insert(values.end(), {e.u[0], e.u[1], e.wide});
      if (e.kind == EventKind::Texture) values.insert(values.end(), e.lines.begin(), e.lines.end());
    }
    EXPECT_EQ(values, tile_values[static_cast<size_t>(t)]) << "tile " << t;
  }
}

TEST(AccessStream, DamageIsReportedNotMisread) {
  StreamCounts written;
  const std::vector<uint8_t> bytes = sample_frame(&written);
  // Every truncation either decodes a prefix of whole events or stops with an error; none reads
  // past the end (ASan) and none decodes more events than the whole stream holds.
  for (size_t n = 0; n < bytes.size(); ++n) {
    StreamReader reader(std::span<const uint8_t>(bytes.data(), n));
    Event e;
    size_t count = 0;
    while (reader.next(e)) ++count;
    EXPECT_LT(count, 26u) << n;
    if (n < 5) {
      EXPECT_NE(reader.error(), "") << n;
    }
  }
  std::vector<uint8_t> bad = bytes;
  bad[5] = 0x7f;  // the first event's tag
  StreamReader reader(bad);
  Event e;
  EXPECT_FALSE(reader.next(e));
  EXPECT_EQ(reader.error(), "byte 5: unknown event tag 127");

  std::vector<uint8_t> version = bytes;
  version[4] = 9;
  StreamReader future(version);
  EXPECT_FALSE(future.next(e));
  EXPECT_EQ(future.error(), "byte 5: access stream version 9, this build reads 1 to 4");

  std::vector<uint8_t> ancient = bytes;
  ancient[4] = 0;
  StreamReader zero(ancient);
  EXPECT_FALSE(zero.next(e));
  EXPECT_EQ(zero.error(), "byte 5: access stream version 0, this build reads 1 to 4");
}

// Version 4 fields out of range: an aspect other than colour or depth/stencil, an operation
// count beyond 32 bits. The writer refuses the aspect before writing a byte.
TEST(AccessStream, DamagedVersionFourFieldsAreRefused) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  EXPECT_THROW(w.attachment_store(0x1000, 64, 0, 2), std::invalid_argument);
  EXPECT_EQ(w.counts()[EventKind::AttachmentStore], 0u);
  w.attachment_store(0x1000, 64, 0, kAspectDepthStencil);
  std::vector<uint8_t> bytes = w.finish();
  // FrameBegin is bytes 5..8; the store's tag at 9, Δaddress 0x2000 (two bytes), 64, 0, aspect.
  ASSERT_EQ(bytes.size(), 15u);
  ASSERT_EQ(bytes[14], 1u);
  bytes[14] = 2;
  StreamReader reader(bytes);
  Event e;
  EXPECT_TRUE(reader.next(e));
  EXPECT_FALSE(reader.next(e));
  EXPECT_EQ(reader.error(), "byte 9: attachment_store of aspect 2");

  // A quad's memory count of 2^32.
  const std::vector<uint8_t> wide = {'T', 'S', 'T', 'R', 4, static_cast<uint8_t>(EventKind::Quad),
                                     0, 0, 0x0f, 4, 1, 0, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x10};
  StreamReader quad(wide);
  EXPECT_FALSE(quad.next(e));
  EXPECT_EQ(quad.error(), "byte 5: truncated or damaged quad event");
}

// A version 3 stream (no operation mix, no aspect) reads its Quad and VertexShade as
// OpMix::legacy of their instructions and its attachment traffic as colour.
TEST(AccessStream, VersionThreeEventsReadWithTheLegacyMix) {
  const std::vector<uint8_t> v3 = {'T', 'S', 'T', 'R', 3,
                                   static_cast<uint8_t>(EventKind::VertexShade), 3, 30,
                                   static_cast<uint8_t>(EventKind::TileBegin), 0, 0, 0, 0,
                                   static_cast<uint8_t>(EventKind::AttachmentLoad), 0x80, 0x01, 64, 1,
                                   // x 2, y 1 (zigzag), coverage 0xf, flags shaded | front facing
                                   static_cast<uint8_t>(EventKind::Quad), 4, 2, 0x8f, 0xc0, 0x01, 41,
                                   static_cast<uint8_t>(EventKind::AttachmentStore), 0, 64, 1,
                                   static_cast<uint8_t>(EventKind::FrameEnd)};
  StreamCounts counts;
  const Recorded r = read_all(v3, &counts);
  ASSERT_EQ(r.events.size(), 6u);
  EXPECT_EQ(r.events[0].mix, (OpMix{8, 0, 0, 0, 0}));  // ceil(30 / 4)
  EXPECT_EQ(r.events[2].address, 0x40u);
  EXPECT_EQ(r.events[2].u[1], 1u);
  EXPECT_EQ(r.events[2].u[2], kAspectColour);
  EXPECT_EQ(r.events[3].u[0], 2u);
  EXPECT_EQ(r.events[3].u[1], 1u);
  EXPECT_EQ(r.events[3].u[5], static_cast<uint32_t>(kQuadShaded | kQuadFrontFacing));
  EXPECT_EQ(r.events[3].wide, 41u);
  EXPECT_EQ(r.events[3].mix, (OpMix{11, 0, 0, 0, 0}));  // ceil(41 / 4)
  EXPECT_EQ(r.events[4].u[2], kAspectColour);
  EXPECT_EQ(counts.fragment_mix, (OpMixTotals{11, 0, 0, 0, 0}));
  EXPECT_EQ(counts.vertex_mix, (OpMixTotals{8, 0, 0, 0, 0}));
}

// Version 1 streams (before VertexTexture) decode as they always did; the new tag is damage there.
TEST(AccessStream, VersionOneStreamsDecodeAndRefuseTheNewTag) {
  // FrameBegin, PassBegin, Draw, VertexShade (4 vertices, 40 instructions), PassEnd, FrameEnd.
  const std::vector<uint8_t> v1 = {'T', 'S', 'T', 'R', 1,
                                   static_cast<uint8_t>(EventKind::FrameBegin), 1, 64, 64,
                                   static_cast<uint8_t>(EventKind::PassBegin), 0, 64, 64, 32, 32, 2, 2,
                                   static_cast<uint8_t>(EventKind::Draw), 0,
                                   static_cast<uint8_t>(EventKind::VertexShade), 4, 40,
                                   static_cast<uint8_t>(EventKind::PassEnd), 0,
                                   static_cast<uint8_t>(EventKind::FrameEnd)};
  StreamCounts counts;
  const Recorded r = read_all(v1, &counts);
  ASSERT_EQ(r.events.size(), 6u);
  EXPECT_EQ(r.events[3].kind, EventKind::VertexShade);
  EXPECT_EQ(counts.vertex_instructions, 40u);
  EXPECT_EQ(r.events[3].mix, (OpMix{10, 0, 0, 0, 0}));

  StreamWriter w;
  w.frame_begin(1, 64, 64);
  w.vertex_texture(5, 0, 1, 1, {});
  std::vector<uint8_t> bad = w.finish();
  bad[4] = 1;
  StreamReader reader(bad);
  Event e;
  EXPECT_TRUE(reader.next(e));
  EXPECT_FALSE(reader.next(e));
  EXPECT_EQ(reader.error(), "byte 9: unknown event tag 17");
}

// Tiles recorded on two writers (as threads of the renderer do) and appended in tile order give
// the bytes and counts of one writer that recorded everything, including the PbWrite after the
// last tile that encodes against that tile's Parameter Buffer predictor.
TEST(AccessStream, TilesAppendedInOrderGiveTheSequentialBytes) {
  const auto tile = [](StreamWriter& w, uint32_t t) {
    std::mt19937_64 rng(t);
    w.tile_begin(t, (t % 2) * 32, (t / 2) * 32, t);
    w.pb_read(0x4000 + t * 256, 64, 0, 0xffffffffu);
    for (int q = 0; q < 20; ++q) {
      const auto r = [&rng] { return static_cast<uint32_t>(rng() % 300); };
      w.quad(static_cast<uint32_t>(rng() % 64) & ~1u, static_cast<uint32_t>(rng() % 64) & ~1u, 0xf, 0xf, 0xf,
             kQuadShaded, rng() % 1000, OpMix{r(), r(), r(), r(), r()});
      const uint64_t lines[] = {(rng() % (1u << 30)) * 64, (rng() % (1u << 30)) * 64};
      w.texture(static_cast<uint32_t>(rng() % 4), 0, 1, 1, lines);
    }
    w.attachment_store(0x10000 + t * 128, 128, 0, kAspectColour);
    w.attachment_store(0x90000 + t * 128, 128, 1, kAspectDepthStencil);
    w.tile_end(t);
  };
  const auto head = [](StreamWriter& w) {
    w.frame_begin(1, 64, 64);
    w.pass_begin(0, 64, 64, 32, 32, 2, 2);
    w.pb_write(0x4000, 64, 0, 0, 0);
  };
  const auto tail = [](StreamWriter& w) {
    w.pb_write(0x4100, 64, 1, 0, 1);  // a later subpass's geometry phase
    w.pass_end(0);
    w.frame_end();
  };
  StreamWriter serial;
  head(serial);
  for (uint32_t t = 0; t < 4; ++t) tile(serial, t);
  tail(serial);

  StreamWriter workers[2], joined;
  workers[1].frame_begin(9, 1, 1);  // recorded before clear(): dropped
  workers[1].clear();
  StreamWriter::Mark begin[4], end[4];
  for (uint32_t t : {3u, 0u, 2u, 1u}) {
    StreamWriter& w = workers[t % 2];
    begin[t] = w.mark();
    tile(w, t);
    end[t] = w.mark();
  }
  head(joined);
  for (uint32_t t = 0; t < 4; ++t) joined.append(workers[t % 2], begin[t], end[t]);
  tail(joined);
  EXPECT_EQ(joined.counts(), serial.counts());
  EXPECT_EQ(joined.finish(), serial.finish());

  // Events that do not start at a TileBegin would decode against the wrong predictors.
  StreamWriter other;
  const StreamWriter::Mark before = other.mark();
  other.quad(2, 2, 0xf, 0xf, 0xf, kQuadShaded, 4);
  EXPECT_THROW(joined.append(other, before, other.mark()), std::invalid_argument);
}

TEST(AccessStream, FinishResetsTheWriter) {
  StreamWriter w;
  w.frame_begin(1, 8, 8);
  w.frame_end();
  const std::vector<uint8_t> first = w.finish();
  EXPECT_EQ(w.counts()[EventKind::FrameBegin], 0u);
  w.frame_begin(1, 8, 8);
  w.frame_end();
  EXPECT_EQ(w.finish(), first);
}

}  // namespace
}  // namespace tessera::stream

namespace tessera::stream {
namespace {

struct Decoded {
  std::vector<uint64_t> lines, blocks;
  std::vector<TextureProbe> probes;
  uint32_t block_bytes = 0;
};

std::vector<Decoded> decode_samples(std::span<const uint8_t> bytes, std::string* error = nullptr) {
  std::vector<Decoded> out;
  StreamReader reader(bytes);
  Event e;
  while (reader.next(e)) {
    if (e.kind != EventKind::Texture && e.kind != EventKind::VertexTexture) continue;
    out.push_back({{e.lines.begin(), e.lines.end()}, {e.blocks.begin(), e.blocks.end()}, {e.probes.begin(), e.probes.end()}, e.u[4]});
  }
  if (error) *error = reader.error();
  return out;
}

// Version 3: each probe's kind, level and blocks round-trip; lines left out when they are the
// blocks' lines (RGBA8, R8) decode as written, and a 128 B block (RGBA16F) keeps explicit lines.
TEST(AccessStream, ProbeRecordsRoundTrip) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  // Trilinear RGBA8: a case-3 probe on level 2 (blocks of t1, t2), a case-1 probe on level 3.
  const TextureProbe tri[2] = {{3, 2, 0, 2}, {1, 3, 2, 1}};
  const uint64_t tri_blocks[3] = {0x10000, 0x10040, 0x20000};
  const uint64_t tri_lines[3] = {0x10000, 0x10040, 0x20000};
  w.texture(1, 2, 3, 2, tri_lines, SampleProbes{tri, tri_blocks, 64});
  // R8: 16 B blocks, two in one line (case 3), lines derived.
  const TextureProbe r8[1] = {{3, 0, 0, 2}};
  const uint64_t r8_blocks[2] = {0x30010, 0x30020};
  const uint64_t r8_lines[1] = {0x30000};
  w.texture(2, 0, 3, 1, r8_lines, SampleProbes{r8, r8_blocks, 16});
  // RGBA16F: a case-1 probe whose texels lie in the block's second line, and a border probe.
  const TextureProbe half[2] = {{1, 0, 0, 1}, {0, 0, 1, 0}};
  const uint64_t half_blocks[1] = {0x40080};
  const uint64_t half_lines[1] = {0x400c0};
  w.vertex_texture(9, 0, 1, 2, half_lines, SampleProbes{half, half_blocks, 128});
  // Cube corner: an irregular probe of five blocks.
  const TextureProbe corner[1] = {{kProbeKindIrregular, 1, 0, 5}};
  const uint64_t corner_blocks[5] = {0x50000, 0x51000, 0x52000, 0x50040, 0x51040};
  const uint64_t corner_lines[5] = {0x50000, 0x51000, 0x52000, 0x50040, 0x51040};
  w.texture(0, 1, 4, 1, corner_lines, SampleProbes{corner, corner_blocks, 64});
  // No records (a writer without them): lines only.
  const uint64_t plain[2] = {0x60000, 0x60040};
  w.texture(3, 0, 1, 1, plain);
  w.frame_end();
  const std::vector<uint8_t> bytes = w.finish();
  const std::vector<Decoded> d = decode_samples(bytes);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d[0].lines, (std::vector<uint64_t>{0x10000, 0x10040, 0x20000}));
  EXPECT_EQ(d[0].probes, (std::vector<TextureProbe>{{3, 2, 0, 2}, {1, 3, 2, 1}}));
  EXPECT_EQ(d[0].blocks, (std::vector<uint64_t>{0x10000, 0x10040, 0x20000}));
  EXPECT_EQ(d[0].block_bytes, 64u);
  EXPECT_EQ(d[1].lines, (std::vector<uint64_t>{0x30000}));
  EXPECT_EQ(d[1].blocks, (std::vector<uint64_t>{0x30010, 0x30020}));
  EXPECT_EQ(d[1].block_bytes, 16u);
  EXPECT_EQ(d[2].lines, (std::vector<uint64_t>{0x400c0}));
  EXPECT_EQ(d[2].blocks, (std::vector<uint64_t>{0x40080}));
  EXPECT_EQ(d[2].probes, (std::vector<TextureProbe>{{1, 0, 0, 1}, {0, 0, 1, 0}}));
  EXPECT_EQ(d[3].probes, (std::vector<TextureProbe>{{kProbeKindIrregular, 1, 0, 5}}));
  EXPECT_EQ(d[3].blocks, (std::vector<uint64_t>{0x50000, 0x51000, 0x52000, 0x50040, 0x51040}));
  EXPECT_EQ(d[4].lines, (std::vector<uint64_t>{0x60000, 0x60040}));
  EXPECT_TRUE(d[4].probes.empty());
  // Records must match the probe count and Algorithm 2's block counts.
  StreamWriter bad;
  EXPECT_THROW(bad.texture(0, 0, 1, 2, tri_lines, SampleProbes{std::span<const TextureProbe>(tri, 1), tri_blocks, 64}),
               std::invalid_argument);
  const TextureProbe wrong[1] = {{4, 0, 0, 3}};
  EXPECT_THROW(bad.texture(0, 0, 1, 1, tri_lines, SampleProbes{wrong, tri_blocks, 64}), std::invalid_argument);
}

// A version 2 Texture event (no detail field) decodes as it always did: lines, no probes.
TEST(AccessStream, VersionTwoTextureEventsDecode) {
  const std::vector<uint8_t> v2 = {'T', 'S', 'T', 'R', 2,
                                   static_cast<uint8_t>(EventKind::FrameBegin), 1, 64, 64,
                                   static_cast<uint8_t>(EventKind::Texture), 1 | 1 << 2, 0, 1, 2, 0x80, 0x80, 0x08, 0x80, 0x01,
                                   static_cast<uint8_t>(EventKind::FrameEnd)};
  std::string error;
  const std::vector<Decoded> d = decode_samples(v2, &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].lines, (std::vector<uint64_t>{0x10000, 0x10040}));
  EXPECT_TRUE(d[0].probes.empty());
  EXPECT_EQ(d[0].block_bytes, 0u);
}

// A refused sample writes nothing: the writer checks probe records before the event's first
// byte, and the reader rebuilds each probe's range from the records' order, so ranges out of
// order, blocks the probes do not cover and blocks wider than RGBA32F's are refused.
TEST(AccessStream, RefusedProbeRecordsLeaveTheStreamAsItWas) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  const TextureProbe one[1] = {{1, 0, 0, 1}};
  const uint64_t b1[1] = {0x10000};
  w.texture(0, 0, 1, 1, b1, SampleProbes{one, b1, 64});
  const size_t bytes_before = w.size_bytes();
  const StreamCounts counts_before = w.counts();
  const uint64_t two_blocks[2] = {0x20000, 0x20040};
  const TextureProbe swapped[2] = {{1, 0, 1, 1}, {1, 0, 0, 1}};
  const TextureProbe short_cover[1] = {{1, 0, 0, 1}};
  const TextureProbe case3[1] = {{3, 0, 0, 2}};
  const uint64_t unaligned[2] = {0x20000, 0x20044};
  const auto refused = [&](uint32_t probes, const SampleProbes& detail) {
    try {
      w.texture(0, 0, 1, probes, two_blocks, detail);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused(2, SampleProbes{swapped, two_blocks, 64}),
            "access stream: texture sample of 2 probes: probe blocks not in the order of the records");
  EXPECT_EQ(refused(1, SampleProbes{short_cover, two_blocks, 64}),
            "access stream: texture sample of 1 probes: probes cover 1 of 2 blocks");
  EXPECT_EQ(refused(1, SampleProbes{case3, two_blocks, 512}),
            "access stream: texture sample of 1 probes: block of 512 bytes");
  EXPECT_EQ(refused(1, SampleProbes{case3, unaligned, 64}),
            "access stream: texture sample of 1 probes: a block address not a multiple of 8");
  EXPECT_EQ(w.size_bytes(), bytes_before);
  EXPECT_EQ(w.counts(), counts_before);
  w.frame_end();
  std::string error;
  const std::vector<Decoded> d = decode_samples(w.finish(), &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].blocks, (std::vector<uint64_t>{0x10000}));
}

// Damage in the probe records, one field at a time in a written stream: the reader stops at the
// event's first byte with one line, and never allocates what a damaged count claims.
TEST(AccessStream, DamagedProbeRecordsAreRefused) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  const TextureProbe p[1] = {{1, 0, 0, 1}};
  const uint64_t b[1] = {0x10000};
  w.texture(0, 0, 1, 1, b, SampleProbes{p, b, 64});
  w.frame_end();
  const std::vector<uint8_t> good = w.finish();
  // The Texture event at byte 9: tag, packed lane/case, level, probes, detail (two bytes), head,
  // block (three bytes), then FrameEnd.
  const size_t probes = 9 + 3, detail = 9 + 4, head = 9 + 6;
  const auto error_of = [](std::vector<uint8_t> bytes) {
    std::string error;
    decode_samples(bytes, &error);
    return error;
  };
  std::vector<uint8_t> bytes = good;
  ASSERT_EQ(bytes[head], 1u);
  bytes[head] = 7;  // probe kind 7
  EXPECT_EQ(error_of(bytes), "byte 9: texture probe of kind 7 at level 0");
  bytes = good;
  bytes[probes] = 65;
  EXPECT_EQ(error_of(bytes), "byte 9: texture sample with 65 probe records");
  bytes = good;
  bytes[detail + 1] = 0x08;  // (1024 >> 1) = 512-byte blocks, lines derived
  EXPECT_EQ(error_of(bytes), "byte 9: texture sample with blocks of 512 bytes");
  bytes = good;
  bytes[head] = kProbeKindIrregular;
  bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(head) + 1, 13);  // 13 blocks
  EXPECT_EQ(error_of(bytes), "byte 9: texture probe with 13 blocks");
  bytes = good;
  bytes.resize(head + 1);  // the block's delta cut off
  EXPECT_NE(error_of(bytes).find("byte 9: "), std::string::npos);
  EXPECT_EQ(error_of(good), "");
}

}  // namespace
}  // namespace tessera::stream
