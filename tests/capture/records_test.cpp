#include <gtest/gtest.h>

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
