// Access stream: every event kind round-trips exactly, counts kept by the writer equal the
// reader's recount, seeking to a tile decodes it as a sequential read does, damage is reported.
#include <gtest/gtest.h>

#include <random>
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
  w.vertex_shade(3, 123456789012ull);
  w.pb_write(0x4000'0000, 4, 0, 5, 0);
  w.pb_write(0x5000'0000, 48, 0, 5, 1);
  w.tile_begin(5, 160, 0, 0);
  w.attachment_load(0x1'0000'0000, 128, 0);
  w.pb_read(0x4000'0000, 64, 0, 0xffffffffu);
  w.pb_read(0x5000'0000, 48, 1, 0);
  w.primitive(0, 0);
  w.quad(160, 0, 0xf, 0x7, 0x3, kQuadShaded | kQuadLateDepth, 4 * 37);
  const uint64_t lines1[] = {0x3'0000'0000, 0x3'0000'0040, 0x2'ffff'ffc0};
  w.texture(0, 2, 3, 1, lines1);
  w.texture(3, 0, 1, 4, {});
  w.quad(162, 2, 0x1, 0x1, 0x1, kQuadShaded | kQuadFrontFacing, 9);
  w.attachment_store(0x1'0000'0000, 128, 0);
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
  EXPECT_EQ(future.error(), "byte 5: access stream version 9, this build reads 1 to 3");

  std::vector<uint8_t> ancient = bytes;
  ancient[4] = 0;
  StreamReader zero(ancient);
  EXPECT_FALSE(zero.next(e));
  EXPECT_EQ(zero.error(), "byte 5: access stream version 0, this build reads 1 to 3");
}

// Version 1 streams (before VertexTexture) decode as they always did; the new tag is damage there.
TEST(AccessStream, VersionOneStreamsDecodeAndRefuseTheNewTag) {
  StreamWriter w;
  w.frame_begin(1, 64, 64);
  w.pass_begin(0, 64, 64, 32, 32, 2, 2);
  w.draw(0);
  w.vertex_shade(4, 40);
  w.pass_end(0);
  w.frame_end();
  std::vector<uint8_t> v1 = w.finish();
  ASSERT_EQ(v1[4], kFormatVersion);
  v1[4] = 1;
  StreamCounts counts;
  const Recorded r = read_all(v1, &counts);
  ASSERT_EQ(r.events.size(), 6u);
  EXPECT_EQ(r.events[3].kind, EventKind::VertexShade);
  EXPECT_EQ(counts.vertex_instructions, 40u);

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
