#include "config.h"

#include <charconv>

#include "platform.h"

namespace tessera::layer {

namespace {

bool parse_u32(std::string_view s, uint32_t* out) {
  if (s.empty()) return false;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

}  // namespace

std::optional<FrameRange> parse_frame_range(std::string_view text, std::string* error) {
  FrameRange r;
  const size_t dash = text.find('-');
  bool ok;
  if (dash == std::string_view::npos) {
    ok = parse_u32(text, &r.first);
    r.last = r.first;
  } else {
    ok = parse_u32(text.substr(0, dash), &r.first) && parse_u32(text.substr(dash + 1), &r.last);
  }
  if (!ok) {
    *error = "frame range '" + std::string(text) + "' is not A-B or A (present numbers)";
    return std::nullopt;
  }
  if (r.first == 0) {
    *error = "frame range '" + std::string(text) + "': presents are counted from 1";
    return std::nullopt;
  }
  if (r.last < r.first) {
    *error = "frame range '" + std::string(text) + "': last frame before first";
    return std::nullopt;
  }
  return r;
}

CaptureConfig read_capture_config(std::string* warning) {
  CaptureConfig c;
  if (auto f = platform_setting("TESSERA_CAPTURE_FILE", "debug.tessera.capture_file")) {
    c.file = platform_resolve_path(*f);
  }
  if (auto t = platform_setting("TESSERA_CAPTURE_TRIGGER", "debug.tessera.capture_trigger")) {
    c.trigger_file = platform_resolve_path(*t);
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
