#include "config.h"

#include <charconv>

#include "platform.h"
#include "tessera/capture/frame_range.h"

namespace tessera::layer {

namespace {

bool parse_u32(std::string_view s, uint32_t* out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

// The syntax and its errors are the CLI's (tessera/capture/frame_range.h): the variable and
// --frames name the same thing (docs/contracts.md).
std::optional<FrameRange> parse_frame_range(std::string_view text, std::string* error) {
  FrameRange r;
  if (!capture::parse_frame_range(text, &r.first, &r.last, error)) return std::nullopt;
  return r;
}

CaptureConfig read_capture_config(std::string* warning) {
  CaptureConfig c;
  if (auto f = platform_setting("TESSERA_CAPTURE_FILE", "debug.tessera.capture_file")) {
    c.file = platform_resolve_path(*f);
  }
  if (auto b = platform_setting("TESSERA_CAPTURE_BOUNDARY", "debug.tessera.capture_boundary")) {
    if (*b == "submit") {
      c.boundary = FrameBoundary::kSubmit;
    } else if (*b == "marker") {
      c.boundary = FrameBoundary::kMarker;
    } else if (*b != "present") {
      *warning = "TESSERA_CAPTURE_BOUNDARY: '" + *b + "' is not present, submit or marker; frames end at presents";
    }
  }
  if (auto rb = platform_setting("TESSERA_CAPTURE_READBACK", "debug.tessera.capture_readback")) {
    if (*rb == "passes") {
      c.readback = ReadbackKind::kPasses;
    } else if (*rb != "present") {
      *warning = "TESSERA_CAPTURE_READBACK: '" + *rb + "' is not present or passes; render passes are not read back";
    }
  }
  if (auto a = platform_setting("TESSERA_CAPTURE_ARM_DRAWS", "debug.tessera.capture_arm_draws")) {
    if (!parse_u32(*a, &c.arm_draws) || c.arm_draws == 0) {
      *warning = "TESSERA_CAPTURE_ARM_DRAWS: '" + *a + "' is not a draw count >= 1; not armed by draws";
      c.arm_draws = 0;
    }
  }
  if (auto k = platform_setting("TESSERA_CAPTURE_ARM_FRAMES", "debug.tessera.capture_arm_frames")) {
    if (!parse_u32(*k, &c.arm_frames) || c.arm_frames == 0) {
      *warning = "TESSERA_CAPTURE_ARM_FRAMES: '" + *k + "' is not a frame count >= 1; " +
                 std::to_string(kArmFrames) + " frames in a row";
      c.arm_frames = kArmFrames;
    }
  }
  const auto trigger = platform_setting("TESSERA_CAPTURE_TRIGGER", "debug.tessera.capture_trigger");
  if (trigger || c.arm_draws > 0) {
    if (trigger) c.trigger_file = platform_resolve_path(*trigger);
    if (auto n = platform_setting("TESSERA_CAPTURE_TRIGGER_FRAMES",
                                  "debug.tessera.capture_trigger_frames")) {
      if (!parse_u32(*n, &c.trigger_frames) || c.trigger_frames == 0) {
        *warning = "TESSERA_CAPTURE_TRIGGER_FRAMES: '" + *n + "' is not a frame count >= 1; " +
                   "capturing 1 frame per trigger";
        c.trigger_frames = 1;
      }
    }
    return c;
  }
  if (auto fr = platform_setting("TESSERA_CAPTURE_FRAMES", "debug.tessera.capture_frames")) {
    std::string error;
    if (auto r = parse_frame_range(*fr, &error)) {
      c.frames = *r;
    } else {
      *warning = "TESSERA_CAPTURE_FRAMES: " + error + "; capturing frame 1";
    }
  }
  return c;
}

}  // namespace tessera::layer
