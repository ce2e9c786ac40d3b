#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <type_traits>

#include "tessera/capture/records.h"

namespace tessera::capture {
namespace {

// One populated sample of every record kind; every field non-default so a dropped field shows.
auto samples() {
  CaptureInfoRecord info;
  info.entries = {{"application", "vkcube"}, {"command", "vkcube --c 20"}, {"", ""}};
  DeviceInfoRecord dev;
  dev.api_version = 0x403000;
  dev.driver_version = 0x5c00000;
  dev.vendor_id = 0x10005;
  dev.device_id = 7;
  dev.device_type = 4;
  dev.driver_id = 10;
  dev.device_name = "llvmpipe (LLVM 15.0.6, 256 bits)";
  dev.driver_name = "llvmpipe";
  dev.driver_info = "Mesa 22.3.6";
  dev.memory_heaps = {{2ull << 30, 1}, {1ull << 20, 0}};
  dev.memory_types = {{0, 0xf}, {1, 0x6}};
  dev.has_limits = 1;
  dev.limits = {{0.5f, 255.0f}, 0.125f, {1.0f, 255.0f}, 0.0078125f, 1, 1, 0x5, 1};
  ImageRecord img;
  img.image = 0xdeadbeef00ull;
  img.image_type = 1;
  img.format = 43;
  img.width = 256;
  img.height = 128;
  img.depth = 1;
  img.mip_levels = 9;
  img.array_layers = 6;
  img.samples = 1;
  img.usage = 0x6;
  img.layout = 5;
  img.subresources = {{0, 0, 0, 131072, 1}, {1, 0, 131072, 32768, 2}, {8, 5, 999999, 4, 4}};
  img.contents = {0x1234, 0x5678};
  return std::make_tuple(info, WarningRecord{"pipeline cache data ignored"}, dev,
                         HiddenExtensionRecord{"VK_EXT_mesh_shader", 1}, img,
                         BufferRecord{0xb0ff, 65536, 0x80 | 0x40, {9, 10}},
                         ShaderModuleRecord{0x5a5a, {11, 12}, 1234},
                         PresentedImageRecord{0xcafe, 2, 50, 1280, 720, {13, 14}});
}

TEST(Records, EveryKindRoundTripsFieldForField) {
  std::apply(
      [](const auto&... rec) {
        (
            [&] {
              using R = std::decay_t<decltype(rec)>;
              const auto body = encode_record(rec);
              const auto back = decode_record<R>(body);
              ASSERT_TRUE(back.has_value()) << record_kind_name(static_cast<uint32_t>(R::kKind));
              EXPECT_EQ(*back, rec) << record_kind_name(static_cast<uint32_t>(R::kKind));
            }(),
            ...);
      },
      samples());
}

// The bytes of each sample as schema/capture-format.md lays them out (written down from the
// encoder of format 1.1): a change to a field list that moves a byte fails here, not in a
// capture made by a released layer.
std::string hex(const std::vector<std::byte>& body) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::byte b : body) {
    s.push_back(kDigits[static_cast<unsigned>(b) >> 4]);
    s.push_back(kDigits[static_cast<unsigned>(b) & 0xfu]);
  }
  return s;
}

TEST(Records, EveryKindEncodesToTheBytesOfTheFormat) {
  const char* const expected[] = {
      // capture_info
      "030b6170706c69636174696f6e06766b6375626507636f6d6d616e640d766b63756265202d2d632032300000",
      // warning
      "1b706970656c696e6520636163686520646174612069676e6f726564",
      // device_info
      "003040000000c0050500010007000000040000000a000000206c6c766d7069706520284c4c564d2031352e302e362c20"
      "323536206269747329086c6c766d706970650b4d6573612032322e332e36020000008000000000010000000000100000"
      "0000000000000002000000000f0000000100000006000000010000000000003f00007f430000003e0000803f00007f43"
      "0000003c01000000010000000500000001000000",
      // hidden_extension
      "12564b5f4558545f6d6573685f73686164657201000000",
      // image
      "00efbeadde000000010000002b0000000001000080000000010000000900000006000000010000000600000005000000"
      "030000000000000000000000000000000000000200000000000100000001000000000000000000020000000000008000"
      "00000000000200000008000000050000003f420f00000000000400000000000000040000003412000000000000785600"
      "0000000000",
      // buffer
      "ffb00000000000000000010000000000c000000009000000000000000a00000000000000",
      // shader_module
      "5a5a0000000000000b000000000000000c00000000000000d204000000000000",
      // presented_image
      "feca000000000000020000003200000000050000d00200000d000000000000000e00000000000000",
  };
  size_t i = 0;
  std::apply(
      [&](const auto&... rec) {
        (
            [&] {
              EXPECT_EQ(hex(encode_record(rec)), expected[i]) << record_kind_name(static_cast<uint32_t>(rec.kKind));
              ++i;
            }(),
            ...);
      },
      samples());
  // A device_info without limits is written as format 1.0 wrote it: it ends after the memory
  // types.
  DeviceInfoRecord v1_0 = std::get<2>(samples());
  v1_0.has_limits = 0;
  v1_0.limits = {};
  EXPECT_EQ(hex(encode_record(v1_0)),
            "003040000000c0050500010007000000040000000a000000206c6c766d7069706520284c4c564d2031352e302e362c20"
            "323536206269747329086c6c766d706970650b4d6573612032322e332e36020000008000000000010000000000100000"
            "0000000000000002000000000f0000000100000006000000");
}

TEST(Records, EveryTruncationOfEveryKindIsRejected) {
  std::apply(
      [](const auto&... rec) {
        (
            [&] {
              using R = std::decay_t<decltype(rec)>;
              const auto body = encode_record(rec);
              // A device_info body that ends before the limits is a 1.0 record: accepted.
              size_t v1_0 = body.size();
              if constexpr (std::is_same_v<R, DeviceInfoRecord>) {
                R old = rec;
                old.has_limits = 0;
                old.limits = {};
                v1_0 = encode_record(old).size();
                const auto back = decode_record<R>(std::span(body).first(v1_0));
                ASSERT_TRUE(back.has_value());
                EXPECT_EQ(*back, old);
              }
              for (size_t n = 0; n < body.size(); ++n) {
                if (n == v1_0) continue;
                EXPECT_FALSE(decode_record<R>(std::span(body).first(n)).has_value())
                    << record_kind_name(static_cast<uint32_t>(R::kKind)) << " cut at " << n;
              }
            }(),
            ...);
      },
      samples());
}

TEST(Records, TrailingBytesFromALaterMinorVersionAreAccepted) {
  auto body = encode_record(BufferRecord{1, 2, 3, {4, 5}});
  body.push_back(std::byte{0x42});  // a field appended by a newer writer
  const auto back = decode_record<BufferRecord>(body);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->size, 2u);
}

TEST(Records, EveryNamedKindHasASample) {
  // Adding a kind to records.h without adding it to samples() above fails here (kinds from
  // 0x0300 on are the Vulkan records, tested with them).
  size_t named = 0;
  for (uint32_t k = 0; k < 0x0300; ++k) named += record_kind_name(k) != nullptr;
  EXPECT_EQ(named, std::tuple_size_v<decltype(samples())>);
  EXPECT_STREQ(record_kind_name(0x0100), "image");
  EXPECT_EQ(record_kind_name(0xFFFF0001u), nullptr);
}

TEST(Records, CaptureInfoFind) {
  const auto info = std::get<0>(samples());
  ASSERT_NE(info.find("command"), nullptr);
  EXPECT_EQ(*info.find("command"), "vkcube --c 20");
  EXPECT_EQ(info.find("missing"), nullptr);
}

}  // namespace
}  // namespace tessera::capture
