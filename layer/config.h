// Capture configuration: which file, which frames. Parsed from settings the platform provides
// (environment or Android properties), so the parsing itself is portable and unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::layer {

// Presents are counted from 1: frame N is everything the application submits after its
// (N-1)th vkQueuePresentKHR up to and including its Nth.
struct FrameRange {
  uint32_t first = 1;
  uint32_t last = 1;
  bool contains(uint32_t frame) const { return frame >= first && frame <= last; }
  friend bool operator==(const FrameRange&, const FrameRange&) = default;
};

// "A-B" (inclusive) or "A". nullopt, with *error set, for anything else (0, B < A, junk).
std::optional<FrameRange> parse_frame_range(std::string_view text, std::string* error);

struct CaptureConfig {
  std::string file;  // empty: the layer passes everything through untouched
  FrameRange frames;
};

// Reads TESSERA_CAPTURE_FILE / TESSERA_CAPTURE_FRAMES (debug.tessera.capture_file /
// debug.tessera.capture_frames on Android). A bad frame range is reported through *warning and
// replaced by the default, frame 1 only.
CaptureConfig read_capture_config(std::string* warning);

}  // namespace tessera::layer
