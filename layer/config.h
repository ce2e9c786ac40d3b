// Capture configuration: which file, which frames. Parsed from settings the platform provides
// (environment or Android properties), so the parsing itself is portable and unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::layer {

// Frames are counted from 1 at their boundary (FrameBoundary): with presents, frame N is
// everything the application submits after its (N-1)th vkQueuePresentKHR up to and including its
// Nth; with submits, frame N is the application's Nth vkQueueSubmit or vkQueueSubmit2 call that
// carries command buffers.
struct FrameRange {
  uint32_t first = 1;
  uint32_t last = 1;
  bool contains(uint32_t frame) const { return frame >= first && frame <= last; }
  friend bool operator==(const FrameRange&, const FrameRange&) = default;
};

// "A-B" (inclusive) or "A". nullopt, with *error set, for anything else (0, B < A, junk).
std::optional<FrameRange> parse_frame_range(std::string_view text, std::string* error);

// What ends a frame. Presents, for applications with a swapchain; submits, for those that never
// present (offscreen renderers, headless benchmarks, compute), where each queue submission call
// is a frame and its render targets as it completes stand for the presented image; markers, for
// those that say where their frames end: a debug-utils label named kFrameEndLabel inserted into
// the queue (vkQueueInsertDebugUtilsLabelEXT) ends the frame as a submit boundary would.
enum class FrameBoundary { kPresent, kSubmit, kMarker };
inline constexpr const char* kFrameEndLabel = "tessera.frame_end";
// What the layer reads back from the device besides the presented image and the render targets
// at each frame's end. kPasses: every render pass instance's attachments as the instance left
// them (RenderPassContentsRecord), copied by commands the layer records after each
// vkCmdEndRenderPass* / vkCmdEndRendering in the application's command buffers.
enum class ReadbackKind { kPresent, kPasses };

// Frames in a row that must reach CaptureConfig::arm_draws by default: a loading screen's one
// busy frame does not fire the trigger.
inline constexpr uint32_t kArmFrames = 3;

struct CaptureConfig {
  std::string file;  // empty: the layer passes everything through untouched
  FrameRange frames;
  // Trigger mode: nothing is captured until this file appears; the layer then deletes it and
  // captures the next `trigger_frames` frames (the frame after the present that saw the file
  // first). `frames` is unused then. Empty: capture `frames`.
  std::string trigger_file;
  uint32_t trigger_frames = 1;
  // Trigger by content: with trigger mode, the layer also fires by itself once arm_frames frames
  // in a row each drew at least arm_draws draws (the game is past its menus and title cards,
  // whatever the machine's speed). arm_draws 0: only the file.
  uint32_t arm_draws = 0;
  uint32_t arm_frames = kArmFrames;
  // Trigger mode (a file, draws or both): `frames` is unused until the trigger fires.
  bool trigger_mode() const { return !trigger_file.empty() || arm_draws > 0; }
  FrameBoundary boundary = FrameBoundary::kPresent;
  ReadbackKind readback = ReadbackKind::kPresent;
};

// Reads TESSERA_CAPTURE_FILE / TESSERA_CAPTURE_FRAMES, TESSERA_CAPTURE_TRIGGER,
// TESSERA_CAPTURE_TRIGGER_FRAMES, TESSERA_CAPTURE_ARM_DRAWS, TESSERA_CAPTURE_ARM_FRAMES,
// TESSERA_CAPTURE_BOUNDARY and TESSERA_CAPTURE_READBACK (debug.tessera.capture_file,
// debug.tessera.capture_frames, debug.tessera.capture_trigger,
// debug.tessera.capture_trigger_frames, debug.tessera.capture_arm_draws,
// debug.tessera.capture_arm_frames, debug.tessera.capture_boundary,
// debug.tessera.capture_readback on Android); TESSERA_CAPTURE_ARM_DRAWS alone is trigger mode
// without a file; relative
// file names resolved by the platform (Android: the app's files directory). A bad frame range,
// count, boundary or readback is reported through *warning and replaced by the default (frame 1;
// 1 frame; present; present).
CaptureConfig read_capture_config(std::string* warning);

}  // namespace tessera::layer
