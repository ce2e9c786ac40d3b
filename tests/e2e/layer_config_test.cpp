// The capture layer's frame-range setting (TESSERA_CAPTURE_FRAMES): accepted forms and the
// one-line errors for everything else.
#include <gtest/gtest.h>

#include "config.h"

namespace tessera::layer {
namespace {

FrameRange parse_ok(std::string_view s) {
  std::string error;
  auto r = parse_frame_range(s, &error);
  EXPECT_TRUE(r.has_value()) << s << ": " << error;
  return r.value_or(FrameRange{});
}

std::string parse_error(std::string_view s) {
  std::string error;
  EXPECT_FALSE(parse_frame_range(s, &error).has_value()) << s;
  return error;
}

TEST(FrameRange, RangeAndSingleFrame) {
  EXPECT_EQ(parse_ok("10-12"), (FrameRange{10, 12}));
  EXPECT_EQ(parse_ok("7"), (FrameRange{7, 7}));
  EXPECT_EQ(parse_ok("1-1"), (FrameRange{1, 1}));
  const FrameRange r = parse_ok("2-4");
  EXPECT_FALSE(r.contains(1));
  EXPECT_TRUE(r.contains(2));
  EXPECT_TRUE(r.contains(4));
  EXPECT_FALSE(r.contains(5));
}

TEST(FrameRange, RefusesZeroReversedAndJunk) {
  EXPECT_NE(parse_error("0-3").find("counted from 1"), std::string::npos);
  EXPECT_NE(parse_error("5-4").find("last frame before first"), std::string::npos);
  for (const char* bad : {"", "-", "a-b", "3-", "-3", "1-2-3", "4x", " 4", "99999999999"}) {
    EXPECT_NE(parse_error(bad).find("not A-B or A"), std::string::npos) << bad;
  }
}

}  // namespace
}  // namespace tessera::layer
