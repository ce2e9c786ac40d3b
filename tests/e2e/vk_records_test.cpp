// Round trip of every record kind in vk_records.h: each struct is filled with distinct non-zero
// values (two elements in every vector, so nested counts are exercised), encoded, decoded and
// compared field by field; every strict prefix of the encoding must be refused.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"

namespace tessera::capture {
namespace {

// Gives each scalar the next value of a counter, so two fields never hold the same value and a
// swapped pair of fields in an encoder or decoder cannot go unnoticed.
struct Filler {
  uint32_t next = 1;
  template <typename T>
  void fill(T& v) {
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(next++) + static_cast<T>(0.25);
    } else if constexpr (std::is_arithmetic_v<T>) {
      v = static_cast<T>(next++);
    } else if constexpr (std::is_same_v<T, Hash128>) {
      v.lo = next++;
      v.hi = 0x1000000000ull + next++;
    } else if constexpr (std::is_same_v<T, std::string>) {
      // Built by append: GCC 12's -Wrestrict misfires on "s" + std::to_string(...).
      v.assign(1, 's');
      v.append(std::to_string(next++));
    } else if constexpr (field_codec::is_vector<T>::value) {
      v.resize(2);
      for (auto& e : v) fill(e);
    } else {
      std::apply([&](auto&... f) { (fill(f), ...); }, v.fields());
    }
  }
};

template <typename R>
class VkRecordRoundTrip : public ::testing::Test {};

using AllKinds = ::testing::Types<
    SwapchainRecord, SamplerRecord, ImageViewRecord, BufferViewRecord, DescriptorSetLayoutRecord,
    PipelineLayoutRecord, RenderPassRecord, FramebufferRecord, GraphicsPipelineRecord,
    ComputePipelineRecord, DescriptorSetAllocRecord, DescriptorUpdateRecord, MemoryAllocRecord,
    MemoryBindRecord, MemoryContentsRecord, FrameBoundaryRecord, RenderTargetContentsRecord, FormatPropertiesRecord,
    RenderPassContentsRecord,
    SubmitRecord,
    CommandBufferRecord, CmdBeginRenderPassRecord, CmdNextSubpassRecord, CmdEndRenderPassRecord,
    CmdBeginRenderingRecord, CmdEndRenderingRecord, CmdBindPipelineRecord,
    CmdBindDescriptorSetsRecord, CmdPushDescriptorSetRecord, CmdPushConstantsRecord,
    CmdBindVertexBuffersRecord, CmdBindIndexBufferRecord, CmdDrawRecord, CmdDrawIndexedRecord,
    CmdDrawIndirectRecord, CmdDispatchRecord, CmdSetViewportRecord, CmdSetScissorRecord,
    CmdSetDynamicStateRecord, CmdClearAttachmentsRecord, CmdClearImageRecord, CmdCopyRecord,
    CmdUpdateBufferRecord, CmdFillBufferRecord, CmdPipelineBarrierRecord,
    CmdExecuteCommandsRecord, CmdDispatchBaseRecord, CmdSetVertexInputRecord>;
TYPED_TEST_SUITE(VkRecordRoundTrip, AllKinds);

TYPED_TEST(VkRecordRoundTrip, DecodesWhatWasEncoded) {
  TypeParam rec;
  Filler{}.fill(rec);
  ASSERT_FALSE(rec == TypeParam{});
  const auto bytes = encode_record(rec);
  const auto back = decode_record<TypeParam>(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == rec);
  EXPECT_EQ(encode_record(*back), bytes);
}

// Encoded size of `rec` with only its first `fields` fields (the form an older minor version
// wrote).
template <typename R>
size_t prefix_size(const R& rec, size_t fields) {
  ByteWriter w;
  size_t index = 0;
  std::apply([&](const auto&... f) { ((index++ < fields ? field_codec::put_field(w, f) : void()), ...); },
             rec.fields());
  return w.bytes().size();
}

TYPED_TEST(VkRecordRoundTrip, RefusesEveryTruncation) {
  TypeParam rec;
  Filler{}.fill(rec);
  const auto bytes = encode_record(rec);
  // Records that later minor versions extended accept a body ending at a version boundary (or
  // after any appended field); every other cut is refused.
  std::set<size_t> boundaries;
  if constexpr (field_codec::HasAppendedFields<TypeParam>) {
    constexpr size_t total = std::tuple_size_v<decltype(rec.fields())>;
    for (size_t f = TypeParam::kFieldsSince1_0; f < total; ++f) boundaries.insert(prefix_size(rec, f));
  }
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(decode_record<TypeParam>(std::span(bytes).first(n)).has_value(), boundaries.count(n) != 0) << n;
  }
}

TEST(VkRecords, PipelineOfFormat1_0DecodesWithTheAppendedFieldsAtTheirDefaults) {
  GraphicsPipelineRecord rec;
  Filler{}.fill(rec);
  const auto bytes = encode_record(rec);
  const auto old = decode_record<GraphicsPipelineRecord>(
      std::span(bytes).first(prefix_size(rec, GraphicsPipelineRecord::kFieldsSince1_0)));
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->color_write_enables.empty());
  EXPECT_EQ(old->depth_clip_negative_one_to_one, 0u);
  EXPECT_EQ(old->provoking_vertex, rec.provoking_vertex);  // the last 1.0 field
  GraphicsPipelineRecord expect = rec;
  expect.color_write_enables.clear();
  expect.depth_clip_negative_one_to_one = 0;
  EXPECT_TRUE(*old == expect);
}

TYPED_TEST(VkRecordRoundTrip, AcceptsAppendedFields) {
  // A later minor version may append fields; this version must still read the ones it knows.
  TypeParam rec;
  Filler{}.fill(rec);
  auto bytes = encode_record(rec);
  bytes.push_back(std::byte{0x7f});
  const auto back = decode_record<TypeParam>(bytes);
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(*back == rec);
}

TEST(VkRecords, KindNamesAreUniqueAndOutsideTheBaseRange) {
  std::set<std::string> names;
  int known = 0;
  for (uint32_t k = 0x0300; k < 0x0500; ++k) {
    if (const char* n = vk_record_kind_name(k)) {
      ++known;
      EXPECT_TRUE(names.insert(n).second) << n;
      // The capture library names these kinds through vk_record_kind_name; a base kind with the
      // same number would shadow it here.
      ASSERT_NE(record_kind_name(k), nullptr);
      EXPECT_STREQ(record_kind_name(k), n) << "kind 0x" << std::hex << k << " clashes";
    }
  }
  EXPECT_EQ(known, 48);
  EXPECT_EQ(vk_record_kind_name(0x0100), nullptr);
}

TEST(VkRecords, HostileCountIsRefusedWithoutAllocating) {
  // A SubmitRecord whose handle count claims 2^40 elements in a 12-byte body.
  ByteWriter w;
  w.put(uint64_t{7});
  w.put_varint(1ull << 40);
  w.put(uint32_t{0});
  EXPECT_FALSE(decode_record<SubmitRecord>(w.bytes()).has_value());
}

TEST(VkRecords, DrawEncodingIsFixedLittleEndian) {
  // The layout documented in vk_records.h: four u32, no padding, no count prefix.
  CmdDrawRecord d{3, 1, 0, 0};
  const auto b = encode_record(d);
  ASSERT_EQ(b.size(), 16u);
  uint32_t words[4];
  std::memcpy(words, b.data(), 16);
  EXPECT_EQ(words[0], 3u);
  EXPECT_EQ(words[1], 1u);
}

}  // namespace
}  // namespace tessera::capture
