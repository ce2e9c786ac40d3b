#include <gtest/gtest.h>

#include "tessera/capture/bytes.h"

namespace tessera::capture {
namespace {

TEST(Bytes, VarintRoundTripAtEveryLengthBoundary) {
  const uint64_t values[] = {0, 1, 127, 128, 16383, 16384, (1ull << 35) - 1, 1ull << 35, ~0ull};
  ByteWriter w;
  for (uint64_t v : values) w.put_varint(v);
  // 1+1+1+2+2+3+5+6+10 bytes: LEB128 spends one byte per 7 bits.
  EXPECT_EQ(w.size(), 31u);
  ByteReader r(w.bytes());
  for (uint64_t v : values) EXPECT_EQ(r.get_varint(), v);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(Bytes, OverlongVarintIsRejected) {
  std::vector<std::byte> eleven(11, std::byte{0x80});
  ByteReader r(eleven);
  r.get_varint();
  EXPECT_FALSE(r.ok());
  // Ten bytes whose last carries more than the 64th bit.
  std::vector<std::byte> too_big(9, std::byte{0xff});
  too_big.push_back(std::byte{0x02});
  ByteReader r2(too_big);
  r2.get_varint();
  EXPECT_FALSE(r2.ok());
}

TEST(Bytes, ReadsPastTheEndFailAndLatch) {
  ByteWriter w;
  w.put<uint16_t>(7);
  ByteReader r(w.bytes());
  EXPECT_EQ(r.get<uint32_t>(), 0u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.get<uint8_t>(), 0u);  // stays failed even though one byte would fit
}

TEST(Bytes, StringLengthLargerThanInputIsRejectedWithoutAllocating) {
  ByteWriter w;
  w.put_varint(1ull << 40);  // claims a terabyte
  w.put<uint8_t>(65);
  ByteReader r(w.bytes());
  EXPECT_EQ(r.get_string(), "");
  EXPECT_FALSE(r.ok());
}

TEST(Bytes, CountIsCheckedAgainstRemainingBytes) {
  ByteWriter w;
  w.put_varint(3);
  for (int i = 0; i < 3; ++i) w.put<uint32_t>(1);
  ByteReader ok(w.bytes());
  EXPECT_EQ(ok.get_count(4), 3u);
  EXPECT_TRUE(ok.ok());
  ByteReader too_many(w.bytes());
  EXPECT_EQ(too_many.get_count(5), 0u);  // 3 x 5 bytes do not fit in 12
  EXPECT_FALSE(too_many.ok());
}

TEST(Hash, KnownValueAndHex) {
  // XXH3-128 of the empty input, from the xxHash reference test vectors.
  const Hash128 h = hash128({});
  EXPECT_EQ(h.hex(), "99aa06d3014798d86001c324468d497f");
  EXPECT_EQ(hash64({}), 0x2D06800538D394C2ull);
}

}  // namespace
}  // namespace tessera::capture
