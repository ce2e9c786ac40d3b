// The capture layer's frame-range setting (TESSERA_CAPTURE_FRAMES): accepted forms and the
// one-line errors for everything else.
#include <gtest/gtest.h>

#include <cstdlib>

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

// Trigger mode: the file (as given on Linux) and the frame count; a bad count is reported and
// replaced by 1; TESSERA_CAPTURE_FRAMES does not apply then.
TEST(CaptureConfig, TriggerFileAndFrameCount) {
  setenv("TESSERA_CAPTURE_FILE", "/tmp/x.tcap", 1);
  setenv("TESSERA_CAPTURE_FRAMES", "junk", 1);
  setenv("TESSERA_CAPTURE_TRIGGER", "/tmp/x.trigger", 1);
  setenv("TESSERA_CAPTURE_TRIGGER_FRAMES", "4", 1);
  std::string warning;
  CaptureConfig c = read_capture_config(&warning);
  EXPECT_EQ(c.file, "/tmp/x.tcap");
  EXPECT_EQ(c.trigger_file, "/tmp/x.trigger");
  EXPECT_EQ(c.trigger_frames, 4u);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_TRIGGER_FRAMES", "0", 1);
  c = read_capture_config(&warning);
  EXPECT_EQ(c.trigger_frames, 1u);
  EXPECT_NE(warning.find("TESSERA_CAPTURE_TRIGGER_FRAMES: '0'"), std::string::npos) << warning;
  unsetenv("TESSERA_CAPTURE_TRIGGER");
  unsetenv("TESSERA_CAPTURE_TRIGGER_FRAMES");
  warning.clear();
  c = read_capture_config(&warning);
  EXPECT_EQ(c.trigger_file, "");
  EXPECT_NE(warning.find("capturing frame 1"), std::string::npos) << warning;
  EXPECT_EQ(c.frames, (FrameRange{1, 1}));
  unsetenv("TESSERA_CAPTURE_FILE");
  unsetenv("TESSERA_CAPTURE_FRAMES");
}

// Trigger by content: TESSERA_CAPTURE_ARM_DRAWS alone is trigger mode without a file; a bad
// count is reported and not armed.
TEST(CaptureConfig, ArmDraws) {
  setenv("TESSERA_CAPTURE_FILE", "/tmp/x.tcap", 1);
  setenv("TESSERA_CAPTURE_ARM_DRAWS", "40", 1);
  setenv("TESSERA_CAPTURE_TRIGGER_FRAMES", "3", 1);
  std::string warning;
  CaptureConfig c = read_capture_config(&warning);
  EXPECT_EQ(c.arm_draws, 40u);
  EXPECT_TRUE(c.trigger_mode());
  EXPECT_EQ(c.trigger_file, "");
  EXPECT_EQ(c.trigger_frames, 3u);
  EXPECT_EQ(c.arm_frames, kArmFrames);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_ARM_FRAMES", "12", 1);
  EXPECT_EQ(read_capture_config(&warning).arm_frames, 12u);
  setenv("TESSERA_CAPTURE_ARM_FRAMES", "0", 1);
  EXPECT_EQ(read_capture_config(&warning).arm_frames, kArmFrames);
  EXPECT_NE(warning.find("TESSERA_CAPTURE_ARM_FRAMES: '0'"), std::string::npos) << warning;
  unsetenv("TESSERA_CAPTURE_ARM_FRAMES");
  setenv("TESSERA_CAPTURE_ARM_DRAWS", "lots", 1);
  c = read_capture_config(&warning);
  EXPECT_EQ(c.arm_draws, 0u);
  EXPECT_FALSE(c.trigger_mode());
  EXPECT_NE(warning.find("TESSERA_CAPTURE_ARM_DRAWS: 'lots'"), std::string::npos) << warning;
  unsetenv("TESSERA_CAPTURE_ARM_DRAWS");
  unsetenv("TESSERA_CAPTURE_TRIGGER_FRAMES");
  unsetenv("TESSERA_CAPTURE_FILE");
}

// Frame boundaries: presents by default, submits when asked; anything else is reported and
// falls back to presents.
TEST(CaptureConfig, FrameBoundary) {
  setenv("TESSERA_CAPTURE_FILE", "/tmp/x.tcap", 1);
  std::string warning;
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kPresent);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_BOUNDARY", "submit", 1);
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kSubmit);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_BOUNDARY", "present", 1);
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kPresent);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_BOUNDARY", "marker", 1);
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kMarker);
  EXPECT_EQ(warning, "");
  setenv("TESSERA_CAPTURE_BOUNDARY", "label", 1);
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kPresent);
  EXPECT_NE(warning.find("TESSERA_CAPTURE_BOUNDARY: 'label' is not present, submit or marker"), std::string::npos) << warning;
  // Trigger mode counts frames at the same boundary.
  setenv("TESSERA_CAPTURE_BOUNDARY", "submit", 1);
  setenv("TESSERA_CAPTURE_TRIGGER", "/tmp/x.trigger", 1);
  warning.clear();
  EXPECT_EQ(read_capture_config(&warning).boundary, FrameBoundary::kSubmit);
  unsetenv("TESSERA_CAPTURE_TRIGGER");
  unsetenv("TESSERA_CAPTURE_BOUNDARY");
  unsetenv("TESSERA_CAPTURE_FILE");
}

}  // namespace
}  // namespace tessera::layer
