// The replay front end's public API: rebuilds a capture's Vulkan objects in host memory
// (frame.h) and walks each captured frame's commands in execution order, executing transfer
// commands itself and handing every render pass instance, with each draw fully resolved, to a
// PassRenderer (docs/architecture.md, "Data flow").
//
// Simulated GPU address map (what Image::address and Buffer::address mean; 4 KiB aligned):
//   0x0000'0001'0000'0000 ..  images, one range each in creation order, sized by the bytes of
//                             all their planes (a re-created image keeps its range when it fits)
//   0x0000'0100'0000'0000 ..  device memory objects, one range each in allocation order, sized
//                             by the allocation; a buffer lives at its memory's base plus its
//                             bind offset, so buffers aliasing memory alias addresses too.
//   Unbound buffers have address 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tessera/capture/reader.h"
#include "tessera/frontend/frame.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::frontend {

struct FrameResult {
  uint32_t present = 0;  // 1-based present number of the frame
  uint32_t draws = 0;    // draws handed to the renderer (indirect draws count once per command)
  uint32_t dispatches = 0;  // compute dispatches handed to the renderer (PassRenderer::dispatch)
  uint32_t passes = 0;   // render pass instances handed to the renderer
  // Render pass instances the frame ended (every vkCmdEndRenderPass / vkCmdEndRendering, as the
  // capture layer counts them), handed to the renderer or not; RenderPassInstance::instance
  // numbers them. `not_replayed` lists those the replay could not rebuild, in order.
  uint32_t instances = 0;
  std::vector<uint32_t> not_replayed;
  uint32_t transfers = 0;  // transfer commands executed (copies, blits, resolves, clears, updates)
  // What could not be replayed, by reason (see README.md). The first frame replayed also
  // carries what the global records (objects created before the capture) could not rebuild.
  SkipCounts skipped;
  // The image the application presented at the end of the frame, when the capture has it.
  std::optional<PresentedImage> presented;
  // The render targets as the frame ended on the captured device, for pass-by-pass checks of
  // the replay (subresource layout as in ImageRecord; bytes through CaptureReader::blob).
  std::vector<capture::RenderTargetContentsRecord> render_targets;
  // Each attachment of each render pass instance as the captured device left it at the
  // instance's end (`tessera capture --readback passes`), in file order; `pass` numbers the
  // instances as `instances` counts them, so it matches RenderPassInstance::instance. Compared pass by
  // pass by `tessera diff` (bytes through CaptureReader::blob).
  std::vector<capture::RenderPassContentsRecord> pass_contents;
  // The image the frame's last render pass instance wrote as its first colour attachment (its
  // resolve target when it resolves); 0 when the frame drew nothing. A frame without a presented
  // image (captured at submit boundaries) is compared through it.
  uint64_t last_color_target = 0;
  uint32_t last_color_mip = 0, last_color_layer = 0;  // the subresource its view rendered
};

class Resources;
class CommandWalker;

class CaptureReplay {
 public:
  // Rebuilds the objects of the capture's global records. `reader` must outlive the replay.
  // nullptr with *error = "<file>: global records: <problem>" when the records are damaged or
  // declare what the replay refuses (memory_budget.h). Memory objects and image contents are held
  // within `budget`, which must outlive the replay and may be shared with other replays.
  // `refused`, when given, says whether a nullptr is such a refusal (see refused()).
  static std::unique_ptr<CaptureReplay> open(const capture::CaptureReader& reader, MemoryBudget& budget,
                                             std::string* error, bool* refused = nullptr);
  // The same within a budget of its own, MemoryBudget::default_limit().
  static std::unique_ptr<CaptureReplay> open(const capture::CaptureReader& reader,
                                             std::string* error);
  ~CaptureReplay();
  CaptureReplay(const CaptureReplay&) = delete;
  CaptureReplay& operator=(const CaptureReplay&) = delete;

  size_t frame_count() const;
  // Replays frames in order (index 0, 1, ...); state carries over from one to the next. Frame 0
  // starts from the captured frame-start state. False with *error = "<file>: frame P: <problem>"
  // (P the frame's present number) on damaged records, on what the replay refuses (an image no
  // device can create, more memory than the budget, a draw or shader beyond the renderer's
  // bounds: ReplayLimitError), or with "<file>: frame N ..." for a frame index out of order; the
  // replay is then unusable.
  bool replay_frame(size_t index, PassRenderer& renderer, FrameResult* result,
                    std::string* error);
  // Whether the replay stopped on what it refuses (the memory budget, an image no device can
  // create, a ReplayLimitError) rather than on damaged records: the same capture under the same
  // budget is refused again, so retrying it cannot help.
  bool refused() const { return refused_; }

  // Rebuilt objects by the application's handle; nullptr when unknown.
  Image* find_image(uint64_t handle);
  Buffer* find_buffer(uint64_t handle);
  MemoryObject* find_memory(uint64_t handle);
  ImageView* find_view(uint64_t handle);

 private:
  CaptureReplay(const capture::CaptureReader& reader, MemoryBudget& budget);
  static std::unique_ptr<CaptureReplay> open_records(const capture::CaptureReader& reader, MemoryBudget& budget,
                                                     std::string* error, bool* refused);
  bool replay_records(size_t index, PassRenderer& renderer, FrameResult* result,
                      std::string* error);

  const capture::CaptureReader& reader_;
  std::unique_ptr<MemoryBudget> own_budget_;  // the budget of open() without one
  std::unique_ptr<Resources> resources_;
  std::unique_ptr<CommandWalker> walker_;
  SkipCounts global_skipped_;  // handed on with the first frame replayed
  bool refused_ = false;
  size_t next_frame_ = 0;
  bool failed_ = false;
};

}  // namespace tessera::frontend
