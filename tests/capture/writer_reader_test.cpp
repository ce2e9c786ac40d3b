#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <map>
#include <random>
#include <thread>

#include "scene.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/vk_records.h"
#include "tessera/capture/warnings.h"
#include "tessera/capture/writer.h"
#include "test_util.h"

namespace tessera::capture {
namespace {

using testing::TempPath;

// A record body that names where it was written: (frame, index, filler of varying length).
std::vector<std::byte> tagged_body(uint32_t frame, uint32_t index) {
  ByteWriter w;
  w.put(frame);
  w.put(index);
  for (uint32_t i = 0; i < (index * 37) % 300; ++i) w.put(static_cast<uint8_t>(i ^ frame));
  return w.take();
}

std::vector<std::pair<uint32_t, uint32_t>> tags_of_frame(const CaptureReader& r, size_t i) {
  std::vector<std::pair<uint32_t, uint32_t>> tags;
  std::string error;
  EXPECT_TRUE(r.read_frame(i, [&](uint32_t kind, std::span<const std::byte> body) {
    EXPECT_EQ(kind, 0xFFFF0002u);
    ByteReader br(body);
    const auto f = br.get<uint32_t>();
    const auto idx = br.get<uint32_t>();
    EXPECT_TRUE(br.ok());
    EXPECT_EQ(std::vector<std::byte>(body.begin(), body.end()), tagged_body(f, idx));
    tags.emplace_back(f, idx);
    return true;
  }, &error)) << error;
  return tags;
}

TEST(WriterReader, RecordsOfEveryKindComeBackInOrder) {
  TempPath path("a.tcap");
  WriterOptions o;
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  ASSERT_TRUE(w);
  w->write(CaptureInfoRecord{{{"application", "test"}}});
  w->write(DeviceInfoRecord{});
  w->begin_frame(7);
  w->write(ShaderModuleRecord{1, w->put_blob(as_bytes_view("\x03\x02\x23\x07 spirv")), 12});
  w->write(WarningRecord{"in frame"});
  w->write(CmdExecuteCommandsRecord{{0x10, 0x20}});  // a Vulkan record through the same call
  w->write(PresentedImageRecord{1, 0, 50, 2, 2, w->put_blob(as_bytes_view("0123456789abcdef"))});
  w->flush_frame();
  ASSERT_TRUE(w->close());

  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->summary().has_trailer);
  EXPECT_EQ(r->verify(), "");
  std::vector<uint32_t> global;
  ASSERT_TRUE(r->read_global([&](uint32_t k, auto) { global.push_back(k); return true; }, &error));
  EXPECT_EQ(global, (std::vector<uint32_t>{0x0001, 0x0003}));
  ASSERT_EQ(r->frames().size(), 1u);
  EXPECT_EQ(r->frames()[0].present, 7u);
  EXPECT_EQ(r->frames()[0].record_count, 4u);
  std::vector<uint32_t> kinds;
  std::optional<PresentedImageRecord> presented;
  ASSERT_TRUE(r->read_frame(0, [&](uint32_t k, std::span<const std::byte> body) {
    kinds.push_back(k);
    if (k == static_cast<uint32_t>(RecordKind::kPresentedImage)) presented = decode_record<PresentedImageRecord>(body);
    return true;
  }, &error));
  EXPECT_EQ(kinds, (std::vector<uint32_t>{0x0102, 0x0002, 0x041a, 0x0200}));
  ASSERT_TRUE(presented);
  auto pixels = r->blob(presented->pixels, &error);
  ASSERT_TRUE(pixels) << error;
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(pixels->data.data()), pixels->data.size()), "0123456789abcdef");
  EXPECT_EQ(r->summary().records_by_kind.at(0x0002), 1u);
  EXPECT_EQ(r->summary().record_count, 6u);
}

class RandomAccess : public ::testing::TestWithParam<int> {};  // compression level

TEST_P(RandomAccess, AnyFrameInAnyOrder) {
  TempPath path("r.tcap");
  WriterOptions o;
  o.compression_level = GetParam();
  o.chunk_target_bytes = 4096;  // frames span several chunks
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  ASSERT_TRUE(w);
  constexpr uint32_t kFrames = 40;
  for (uint32_t f = 1; f <= kFrames; ++f) {
    w->begin_frame(f * 3);  // captured presents need not be consecutive
    for (uint32_t i = 0; i < f * 5; ++i) w->write_record(0xFFFF0002u, tagged_body(f, i));
    w->flush_frame();
  }
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->frames().size(), kFrames);
  EXPECT_GT(r->frames().back().chunk_offsets.size(), 1u);
  std::vector<size_t> order(kFrames);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  for (size_t i : order) {
    const auto tags = tags_of_frame(*r, i);
    const uint32_t f = static_cast<uint32_t>(i) + 1;
    ASSERT_EQ(tags.size(), f * 5);
    for (uint32_t k = 0; k < tags.size(); ++k) EXPECT_EQ(tags[k], std::make_pair(f, k));
  }
  ASSERT_NE(r->find_frame(60), nullptr);
  EXPECT_EQ(r->find_frame(60)->record_count, 100u);
  EXPECT_EQ(r->find_frame(61), nullptr);
  EXPECT_EQ(r->verify(), "");
  std::string bad;
  EXPECT_FALSE(r->read_frame(kFrames, [](auto, auto) { return true; }, &bad));
  EXPECT_NE(bad.find("out of range"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Levels, RandomAccess, ::testing::Values(0, 1, 5));

TEST(WriterReader, WarningsOutsideFramesFirstThenThoseOfTheFramesAsked) {
  TempPath path("warnings.tcap");
  auto w = CaptureWriter::open(path.str(), {}, nullptr);
  ASSERT_TRUE(w);
  w->write(WarningRecord{"global one"});
  for (uint32_t present = 3; present <= 5; ++present) {
    w->begin_frame(present);
    w->write(WarningRecord{"in " + std::to_string(present)});
    w->write(CmdExecuteCommandsRecord{{0x10}});
    if (present == 4) w->write(WarningRecord{"second in 4"});
    w->flush_frame();
  }
  w->write(WarningRecord{"global two"});  // after the frames, still outside every frame
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  std::vector<CaptureWarning> got;
  ASSERT_TRUE(read_warnings(*r, 4, 4, &got, &error)) << error;
  std::vector<std::pair<uint32_t, std::string>> seen;
  for (const auto& x : got) seen.emplace_back(x.present, x.text);
  EXPECT_EQ(seen, (std::vector<std::pair<uint32_t, std::string>>{
                      {0, "global one"}, {0, "global two"}, {4, "in 4"}, {4, "second in 4"}}));
  got.clear();
  ASSERT_TRUE(read_warnings(*r, 0, UINT32_MAX, &got, &error)) << error;
  EXPECT_EQ(got.size(), 6u);
  EXPECT_EQ(got.back().present, 5u);
  EXPECT_EQ(got.back().text, "in 5");
}

TEST(WriterReader, AWarningThatDoesNotDecodeIsAnErrorNamingTheFrame) {
  TempPath path("bad-warning.tcap");
  auto w = CaptureWriter::open(path.str(), {}, nullptr);
  ASSERT_TRUE(w);
  w->write(WarningRecord{"global"});
  w->begin_frame(2);
  const std::byte truncated[] = {std::byte{9}, std::byte{'a'}};  // a 9-byte string of 1 byte
  w->write_record(static_cast<uint32_t>(RecordKind::kWarning), truncated);
  w->flush_frame();
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  std::vector<CaptureWarning> got;
  EXPECT_FALSE(read_warnings(*r, 0, UINT32_MAX, &got, &error));
  EXPECT_EQ(error, path.str() + ": frame 2: warning record does not decode");
  ASSERT_EQ(got.size(), 1u);  // what was read before the damage (tessera info prints it)
  EXPECT_EQ(got[0].text, "global");
}

TEST(WriterReader, SameBlobStoredOnceAcrossFrames) {
  TempPath path("d.tcap");
  synthetic::SceneOptions scene;
  scene.frames = 10;
  scene.textures = 4;
  scene.texture_size = 64;
  ASSERT_EQ(synthetic::write_scene_file(path.str(), scene), "");
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  // Per frame: 2 shaders and 4 textures and 1 vertex buffer repeat; 1 uniform buffer and 1
  // presented image are new. Unique: 2 + 4 + 1 + 10 * 2 = 27.
  EXPECT_EQ(r->summary().blob_count, 27u);
  EXPECT_EQ(r->summary().records_by_kind.at(static_cast<uint32_t>(RecordKind::kImage)), 40u);
  // The bytes of one texture (64x64 with 7 mips) are counted once.
  uint64_t texture_bytes = 0;
  for (uint32_t s = 64; s >= 1; s /= 2) texture_bytes += uint64_t{s} * s * 4;
  EXPECT_LT(r->summary().blob_bytes, 4 * texture_bytes + 10 * (320 * 180 * 4 + 16) + 100000);

  TempPath path2("d2.tcap");
  auto w = CaptureWriter::open(path2.str(), {}, nullptr);
  const std::vector<std::byte> data(1000, std::byte{7});
  const Hash128 h1 = w->put_blob(data);
  const Hash128 h2 = w->put_blob(data);
  EXPECT_EQ(h1, h2);
  EXPECT_TRUE(w->has_blob(h1));
  EXPECT_EQ(w->stats().blobs_written, 1u);
  EXPECT_EQ(w->stats().blobs_deduped, 1u);
  ASSERT_TRUE(w->close());
  auto r2 = CaptureReader::open(path2.str(), &error);
  ASSERT_TRUE(r2);
  EXPECT_EQ(r2->blob_count(), 1u);
  EXPECT_EQ(r2->summary().blob_bytes, 1000u);
}

TEST(WriterReader, FingerprintFollowsContentNotPath) {
  TempPath a("a.tcap"), b("b.tcap"), c("c.tcap");
  synthetic::SceneOptions scene;
  scene.texture_size = 16;
  ASSERT_EQ(synthetic::write_scene_file(a.str(), scene), "");
  ASSERT_EQ(synthetic::write_scene_file(b.str(), scene), "");  // same content, other path
  scene.seed = 2;
  ASSERT_EQ(synthetic::write_scene_file(c.str(), scene), "");
  std::string error;
  auto ra = CaptureReader::open(a.str(), &error), rb = CaptureReader::open(b.str(), &error),
       rc = CaptureReader::open(c.str(), &error);
  ASSERT_TRUE(ra && rb && rc);
  EXPECT_EQ(ra->fingerprint(), rb->fingerprint());
  EXPECT_NE(ra->fingerprint(), rc->fingerprint());
  EXPECT_FALSE(ra->fingerprint().is_zero());
}

TEST(WriterReader, LargeBlobGetsItsOwnChunkAndReadsBack) {
  TempPath path("big.tcap");
  WriterOptions o;
  o.chunk_target_bytes = 256 * 1024;
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  const auto img = synthetic::natural_image_rgba8(512, 512, 3);  // 1 MiB
  const Hash128 h = w->put_blob(img);
  const Hash128 small = w->put_blob(as_bytes_view("small"));
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r);
  auto b = r->blob(h, &error);
  ASSERT_TRUE(b) << error;
  EXPECT_TRUE(std::equal(b->data.begin(), b->data.end(), img.begin(), img.end()));
  auto s = r->blob(small, &error);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->data.size(), 5u);
  EXPECT_EQ(r->summary().chunk_count, 3u);  // big blob, small blobs, index
  EXPECT_FALSE(r->blob(Hash128{1, 2}, &error));
  EXPECT_NE(error.find("not in the capture"), std::string::npos);
}

// The layer hands put_blob mapped memory the application may be writing at that moment. Each
// returned hash must name a stored blob whose bytes hash to it, however the source changed
// while it was read. Another thread rewrites the source throughout (as an app writing its
// mapped buffer does); before the writer stored a private copy, the stored bytes and the hash
// disagreed within a few hundred calls and verify() failed.
TEST(WriterReader, BlobOfMemoryChangingUnderneathIsStoredAsHashed) {
  TempPath path("racing.tcap");
  auto w = CaptureWriter::open(path.str(), {}, nullptr);
  ASSERT_TRUE(w);
  std::vector<std::atomic<uint8_t>> source(64 * 1024);
  std::atomic<bool> stop{false};
  std::thread writer_thread([&] {
    // Small scattered changes, nanoseconds apart: any read of the source spans several.
    for (size_t i = 0; !stop.load(std::memory_order_relaxed); i += 4099) {
      source[i % source.size()].fetch_add(1, std::memory_order_relaxed);
    }
  });
  static_assert(sizeof(std::atomic<uint8_t>) == 1);
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(source.data()), source.size());
  std::vector<Hash128> hashes;
  for (int i = 0; i < 300; ++i) hashes.push_back(w->put_blob(bytes));
  stop = true;
  writer_thread.join();
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->verify(), "");
  for (const Hash128& h : hashes) {
    auto b = r->blob(h, &error);
    ASSERT_TRUE(b) << error;
    EXPECT_EQ(hash128(b->data), h);
  }
}

TEST(WriterReader, FlushedFramesSurviveAWriterThatNeverCloses) {
  TempPath path("k.tcap");
  WriterOptions o;
  o.chunk_target_bytes = 2048;
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  ASSERT_TRUE(w);
  std::vector<std::vector<std::byte>> snapshots;  // the file as a killed process leaves it
  for (uint32_t f = 1; f <= 6; ++f) {
    w->begin_frame(f);
    for (uint32_t i = 0; i < 50; ++i) w->write_record(0xFFFF0002u, tagged_body(f, i));
    w->put_blob(synthetic::natural_image_rgba8(32, 32, f));
    w->flush_frame();
    snapshots.push_back(testing::read_file(path.str()));
  }
  ASSERT_TRUE(w->close());
  for (size_t k = 0; k < snapshots.size(); ++k) {
    std::string error;
    auto r = CaptureReader::open_memory(snapshots[k], "snapshot", &error);
    ASSERT_TRUE(r) << error;
    EXPECT_FALSE(r->summary().has_trailer);
    EXPECT_NE(r->recovery_reason().find("no trailer"), std::string::npos);
    ASSERT_EQ(r->frames().size(), k + 1) << "after frame " << k + 1;
    EXPECT_EQ(tags_of_frame(*r, k).size(), 50u);
    EXPECT_EQ(r->blob_count(), k + 1);
    const std::string problem = r->verify();
    EXPECT_NE(problem.find("no trailer"), std::string::npos) << problem;
    EXPECT_NE(problem.find(std::to_string(k + 1) + " complete frame(s) recoverable"), std::string::npos) << problem;
  }
  // Cut inside the last frame's chunks: that frame is left out, the earlier ones are kept.
  auto cut = snapshots[3];
  cut.resize(snapshots[2].size() + (snapshots[3].size() - snapshots[2].size()) / 2);
  std::string error;
  auto r = CaptureReader::open_memory(cut, "cut", &error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->frames().size(), 3u);
  EXPECT_NE(r->verify().find("truncated"), std::string::npos);
}

TEST(WriterReader, ConcurrentProducersKeepEachThreadsOrder) {
  TempPath path("mt.tcap");
  WriterOptions o;
  o.chunk_target_bytes = 8192;
  o.max_pending_bytes = 32768;  // producers must wait for the writer thread: backpressure
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  ASSERT_TRUE(w);
  constexpr uint32_t kThreads = 4, kPerThread = 5000;
  w->begin_frame(1);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint32_t i = 0; i < kPerThread; ++i) {
        w->write_record(0xFFFF0002u, tagged_body(t, i));
        if (i % 100 == 0) w->put_blob(synthetic::natural_image_rgba8(8, 8, t * 1000 + i / 100));
      }
    });
  }
  for (auto& th : threads) th.join();
  w->flush_frame();
  ASSERT_TRUE(w->close());
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  ASSERT_EQ(r->frames().size(), 1u);
  const auto tags = tags_of_frame(*r, 0);
  ASSERT_EQ(tags.size(), kThreads * kPerThread);
  std::map<uint32_t, uint32_t> next;
  for (const auto& [t, i] : tags) EXPECT_EQ(next[t]++, i) << "thread " << t;
  EXPECT_EQ(r->blob_count(), kThreads * kPerThread / 100);
  EXPECT_EQ(r->verify(), "");
}

TEST(WriterReader, UnwritablePathFailsOpenWithTheReason) {
  std::string error;
  auto w = CaptureWriter::open("/nonexistent-dir/x.tcap", {}, &error);
  EXPECT_FALSE(w);
  EXPECT_EQ(error.rfind("/nonexistent-dir/x.tcap: cannot create capture file", 0), 0u) << error;
}

TEST(WriterReader, DiskFullMidStreamIsReportedOnceAndTheWriterGoesQuiet) {
  // A child process with a file-size limit stands in for a full disk: writes past the limit fail
  // with EFBIG. The child reports what it saw through its exit code.
  TempPath path("full.tcap");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{64 * 1024, 64 * 1024};
    setrlimit(RLIMIT_FSIZE, &lim);
    int errors = 0;
    WriterOptions o;
    o.compression_level = 0;
    o.on_error = [&](const std::string& msg) { errors += msg.find("write failed") != std::string::npos ? 1 : 100; };
    auto w = CaptureWriter::open(path.str(), o, nullptr);
    if (!w) _exit(10);
    for (uint32_t f = 1; f <= 20; ++f) {
      w->begin_frame(f);
      w->put_blob(synthetic::natural_image_rgba8(64, 64, f));  // 16 KiB each, incompressible at level 0
      w->flush_frame();
    }
    const bool closed_ok = w->close();
    _exit(errors == 1 && w->failed() && !closed_ok ? 0 : 20 + std::min(errors, 9));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  // What did reach the disk is still readable up to the last complete frame.
  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  EXPECT_FALSE(r->summary().has_trailer);
  EXPECT_GE(r->frames().size(), 2u);
  EXPECT_LE(r->frames().size(), 4u);
}

TEST(WriterReader, UnknownChunkTypeAndNewerMinorVersionAreTolerated) {
  TempPath path("u.tcap");
  synthetic::SceneOptions scene;
  scene.texture_size = 16;
  ASSERT_EQ(synthetic::write_scene_file(path.str(), scene), "");
  auto bytes = testing::read_file(path.str());
  // Insert a chunk of a type this build does not know before the index, as a later minor
  // version might, and move the trailer accordingly.
  auto footer = format::Footer{};
  std::memcpy(&footer, bytes.data() + bytes.size() - sizeof(footer), sizeof(footer));
  const std::vector<std::byte> payload(100, std::byte{0x55});
  format::ChunkHeader h{};
  h.magic = format::kChunkMagic;
  h.type = 77;
  h.stored_size = h.raw_size = payload.size();
  h.payload_hash = hash64(payload);
  h.header_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&h), 36}));
  std::vector<std::byte> chunk(sizeof(h));
  std::memcpy(chunk.data(), &h, sizeof(h));
  chunk.insert(chunk.end(), payload.begin(), payload.end());
  bytes.insert(bytes.begin() + static_cast<ptrdiff_t>(footer.index_offset), chunk.begin(), chunk.end());
  footer.index_offset += chunk.size();
  footer.footer_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&footer), 28}));
  std::memcpy(bytes.data() + bytes.size() - sizeof(footer), &footer, sizeof(footer));
  // And claim minor version 9 of the same major.
  format::FileHeader fh{};
  std::memcpy(&fh, bytes.data(), sizeof(fh));
  fh.minor = 9;
  fh.header_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&fh), 28}));
  std::memcpy(bytes.data(), &fh, sizeof(fh));

  std::string error;
  auto r = CaptureReader::open_memory(bytes, "future.tcap", &error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->summary().has_trailer);
  EXPECT_EQ(r->summary().minor, 9u);
  std::vector<std::string> notices;
  EXPECT_EQ(r->verify(&notices), "");
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_NE(notices[0].find("unknown chunk type 77 skipped"), std::string::npos);
  EXPECT_EQ(r->frames().size(), 3u);
}

}  // namespace
}  // namespace tessera::capture

namespace tessera::capture {
namespace {

// Storage breakdown on an uncompressed file (stored = raw): each kind's bytes are exactly its
// records' headers and bodies, each blob's its 24-byte entry header and bytes, and with the
// overhead they add up to the file size.
TEST(WriterReader, StorageBreakdownSharesEveryByteOfTheFile) {
  TempPath path("storage.tcap");
  WriterOptions o;
  o.compression_level = 0;
  auto w = CaptureWriter::open(path.str(), o, nullptr);
  ASSERT_TRUE(w);
  w->write(WarningRecord{"global"});  // body: varint 6 + 6 bytes
  w->begin_frame(2);
  const Hash128 code = w->put_blob(as_bytes_view("\x03\x02\x23\x07 spirv"));  // 10 bytes
  w->write(ShaderModuleRecord{1, code, 10});
  w->write(WarningRecord{"a"});
  w->write(WarningRecord{"bc"});
  w->flush_frame();
  ASSERT_TRUE(w->close());

  std::string error;
  auto r = CaptureReader::open(path.str(), &error);
  ASSERT_TRUE(r) << error;
  StorageBreakdown b;
  ASSERT_TRUE(r->storage_breakdown(&b, &error)) << error;
  const auto& warnings = b.records_by_kind.at(static_cast<uint32_t>(RecordKind::kWarning));
  EXPECT_EQ(warnings.count, 3u);
  EXPECT_EQ(warnings.raw_bytes, (8 + 7) + (8 + 2) + (8 + 3));
  EXPECT_DOUBLE_EQ(warnings.stored_bytes, static_cast<double>(warnings.raw_bytes));
  ASSERT_EQ(b.blobs.size(), 1u);
  EXPECT_EQ(b.blobs.at(code).raw_bytes, 24u + 10u);
  EXPECT_DOUBLE_EQ(b.blobs.at(code).stored_bytes, 34.0);
  double total = b.overhead_bytes;
  for (const auto& [kind, share] : b.records_by_kind) total += share.stored_bytes;
  for (const auto& [hash, share] : b.blobs) total += share.stored_bytes;
  EXPECT_DOUBLE_EQ(total, static_cast<double>(r->summary().file_bytes));
  EXPECT_GT(b.overhead_bytes, 32.0 + 32.0);  // at least the file header and the footer
}

}  // namespace
}  // namespace tessera::capture
