// The damaged files `tessera verify` must refuse (schema/capture-format.md section 7,
// "Reading"), checked on the reader itself: each gives one line naming the file, the byte offset
// and the problem.
#include <gtest/gtest.h>

#include "scene.h"
#include "tessera/capture/reader.h"
#include "test_util.h"

namespace tessera::capture {
namespace {

class Damage : public ::testing::Test {
 protected:
  void SetUp() override {
    synthetic::SceneOptions scene;
    scene.texture_size = 32;
    ASSERT_EQ(synthetic::write_scene_file(path_.str(), scene), "");
    good_ = testing::read_file(path_.str());
  }
  // The problem the reader reports for `bytes`: from open() if it refuses, else from verify().
  static std::string problem(const std::vector<std::byte>& bytes) {
    std::string error;
    auto r = CaptureReader::open_memory(bytes, "x.tcap", &error);
    if (!r) return error;
    return r->verify();
  }
  static uint64_t first_chunk() { return sizeof(format::FileHeader); }
  testing::TempPath path_{"good.tcap"};
  std::vector<std::byte> good_;
};

void expect_one_line(const std::string& p, const std::string& needle) {
  EXPECT_EQ(p.rfind("x.tcap: byte ", 0), 0u) << p;
  EXPECT_EQ(p.find('\n'), std::string::npos) << p;
  EXPECT_NE(p.find(needle), std::string::npos) << p;
}

TEST_F(Damage, IntactFileVerifies) { EXPECT_EQ(problem(good_), ""); }

TEST_F(Damage, EmptyFile) { expect_one_line(problem({}), "byte 0: empty file"); }

TEST_F(Damage, WrongMagic) {
  auto b = good_;
  b[0] = std::byte{'X'};
  expect_one_line(problem(b), "wrong magic");
}

TEST_F(Damage, NewerMajorVersion) {
  auto b = good_;
  format::FileHeader h{};
  std::memcpy(&h, b.data(), sizeof(h));
  h.major = 2;
  h.minor = 0;
  h.header_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&h), 28}));
  std::memcpy(b.data(), &h, sizeof(h));
  expect_one_line(problem(b), "version 2.0 is newer than this build");
}

TEST_F(Damage, TruncatedInTheMiddleOfAChunk) {
  auto b = good_;
  b.resize(first_chunk() + sizeof(format::ChunkHeader) + 10);
  expect_one_line(problem(b), "truncated");
  // The message points at the chunk that is cut.
  EXPECT_NE(problem(b).find("byte " + std::to_string(first_chunk()) + ":"), std::string::npos);
}

TEST_F(Damage, FlippedPayloadByte) {
  auto b = good_;
  const size_t at = first_chunk() + sizeof(format::ChunkHeader) + 5;
  b[at] ^= std::byte{0x10};
  expect_one_line(problem(b), "payload checksum mismatch");
}

TEST_F(Damage, LyingSizeField) {
  // A size field that claims more than the chunk holds, with the header's own checksum
  // "fixed up" as a careless tool would: the payload checksum then no longer matches.
  auto b = good_;
  format::ChunkHeader h{};
  std::memcpy(&h, b.data() + first_chunk(), sizeof(h));
  h.stored_size -= 3;
  h.header_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&h), 36}));
  std::memcpy(b.data() + first_chunk(), &h, sizeof(h));
  expect_one_line(problem(b), "checksum mismatch");
  // Without the fix-up, the header checksum itself catches it.
  auto c = good_;
  c[first_chunk() + 8] ^= std::byte{0x01};
  expect_one_line(problem(c), "chunk header checksum mismatch");
  // A raw size beyond the format limit is refused before anything is allocated.
  auto d = good_;
  std::memcpy(&h, d.data() + first_chunk(), sizeof(h));
  h.raw_size = 1ull << 40;
  h.header_hash = static_cast<uint32_t>(hash64({reinterpret_cast<const std::byte*>(&h), 36}));
  std::memcpy(d.data() + first_chunk(), &h, sizeof(h));
  expect_one_line(problem(d), "over the format limit");
}

TEST_F(Damage, DamagedFooterFallsBackToScanningButDoesNotVerify) {
  auto b = good_;
  b[b.size() - 20] ^= std::byte{0x01};
  std::string error;
  auto r = CaptureReader::open_memory(b, "x.tcap", &error);
  ASSERT_TRUE(r) << error;
  EXPECT_FALSE(r->summary().has_trailer);
  EXPECT_EQ(r->frames().size(), 3u);  // every frame is still readable
  expect_one_line(r->verify(), "footer");
}

}  // namespace
}  // namespace tessera::capture
