// State the capture layer keeps per instance, per device and per command buffer, and the capture
// session (one per process: one file, one present count).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "config.h"
#include "copy_layout.h"
#include "dispatch.h"
#include "guard.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/capture/writer.h"

namespace tessera::layer {

namespace cap = tessera::capture;

template <typename Handle>
inline uint64_t id(Handle h) {
  if constexpr (std::is_pointer_v<Handle>) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(h));
  } else {
    return static_cast<uint64_t>(h);
  }
}

// The capture session: the writer and the frame counter. Exists only when a capture file is
// configured and could be created; otherwise every hook passes straight through.
class Session {
 public:
  // The process's session, created on first call; nullptr when not capturing.
  static Session* get();

  // True while frames remain to be captured: hooks record object creation and command buffers.
  bool recording() const { return !done_.load(std::memory_order_acquire); }
  // True when the frame now being built (presents so far + 1) is one to capture.
  bool in_captured_frame() const { return in_frame_.load(std::memory_order_acquire); }
  uint32_t current_frame() const { return presents_.load(std::memory_order_acquire) + 1; }
  const FrameRange& frames() const { return config_.frames; }
  FrameBoundary boundary() const { return config_.boundary; }
  // Each render pass instance's attachments are copied out at its end (ReadbackKind::kPasses).
  bool read_passes() const { return config_.readback == ReadbackKind::kPasses; }
  // At submit and marker boundaries a frame ends inside a queue call: one thread at a time
  // records, calls down and ends the frame, so another thread's submission cannot land in a
  // frame this one is closing. Empty (no lock) at present boundaries and once the capture is
  // done: the application's submissions are not serialised for the rest of its run.
  std::unique_lock<std::mutex> boundary_lock() {
    return config_.boundary == FrameBoundary::kPresent || !recording() ? std::unique_lock<std::mutex>()
                                                                       : std::unique_lock<std::mutex>(boundary_mutex_);
  }

  template <typename R>
  void write(const R& rec) {
    if (!recording()) return;
    cap::ByteWriter w;
    encode(w, rec);
    write_raw(record_kind(rec), w.bytes());
  }
  void write_raw(uint32_t kind, std::span<const std::byte> body) {
    if (!recording()) return;
    if (pending_frame_.load(std::memory_order_acquire) != 0) open_pending_frame();
    writer_->write_record(kind, body);
  }
  cap::Hash128 put_blob(std::span<const std::byte> bytes) { return writer_->put_blob(bytes); }

  // True the first time `key` is seen (once-only records and messages).
  bool first_time(const std::string& key);
  // A warning record (and one stderr line) the first time `key` is seen.
  void warn_once(const std::string& key, const std::string& text);

  // Called after the application's present (or, with FrameBoundary::kSubmit, its submission)
  // `n` went to the next layer: closes frame n if it was captured, opens frame n+1 if it is to be
  // captured, closes the file after the last one.
  void end_present();
  // Trigger by content (CaptureConfig::arm_draws): draws the application submitted in the frame
  // being built, while the trigger is armed.
  bool counting_draws() const { return config_.arm_draws > 0 && !trigger_fired_.load(std::memory_order_acquire); }
  void add_draws(uint64_t n) { frame_draws_.fetch_add(n, std::memory_order_relaxed); }
  // Whether the start-of-capture snapshot of memory has been taken (first submit of frame A).
  bool take_initial_snapshot();
  void close();

 private:
  Session(CaptureConfig config, std::unique_ptr<cap::CaptureWriter> writer);
  template <typename R>
  static uint32_t record_kind(const R&) {
    return static_cast<uint32_t>(R::kKind);
  }

  // A captured frame is opened in the file by its first record, not at the previous present:
  // an application that exits after its last present leaves no empty frame behind.
  void open_pending_frame();
  void open_pending_frame_locked();  // mutex_ held

  CaptureConfig config_;
  std::unique_ptr<cap::CaptureWriter> writer_;
  std::atomic<uint32_t> pending_frame_{0};
  std::mutex mutex_;
  std::mutex boundary_mutex_;  // boundary_lock()
  std::atomic<uint32_t> presents_{0};
  std::atomic<bool> in_frame_{false};
  std::atomic<bool> done_{false};
  bool snapshot_taken_ = false;
  std::atomic<uint64_t> frame_draws_{0};
  uint32_t draw_streak_ = 0;  // mutex_ held
  std::atomic<bool> trigger_fired_{false};
  std::set<std::string> warned_;
};

struct InstanceData {
  VkInstance instance = VK_NULL_HANDLE;
  InstanceDispatch vk;
  uint32_t api_version = VK_API_VERSION_1_0;
};

struct DeviceData;

// Render pass readback (ReadbackKind::kPasses, pass_readback.cpp). One attachment aspect group of a
// render pass instance to copy out at its end, as found when the instance began: the image
// subresource its view rendered, the layout it ends the instance in, and the record(s) it
// answers (a resolve attachment answers for itself and for the multisampled attachment it
// resolves).
struct PassAttachmentRead {
  VkImage image = VK_NULL_HANDLE;
  VkFormat image_format = VK_FORMAT_UNDEFINED;  // what the copy reads
  VkFormat format = VK_FORMAT_UNDEFINED;        // the attachment's (its view's) format, recorded
  uint32_t mip = 0, layer = 0, width = 0, height = 0;
  bool volume = false;  // a 3D image: `layer` is the depth slice a 2D view rendered
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageAspectFlags barrier_aspects = 0;  // what the layout transitions name
  VkImageAspectFlags aspects = 0;          // what is copied, one record each
  struct Target {
    uint32_t attachment = 0, resolved = 0;
  };
  std::vector<Target> targets;
};

// Where one render pass instance's attachments were copied: a layer-owned host-visible buffer
// and, per copied aspect, its place in it. Shared by the command buffer that recorded the copies
// (until it is reset, re-begun or freed) and the captured frame that executed them (until the
// frame's records are written); the last owner frees the buffer.
struct PassReadback {
  struct Copy {
    PassAttachmentRead read;
    VkImageAspectFlags aspect = 0;
    VkDeviceSize offset = 0, size = 0;
  };
  explicit PassReadback(DeviceData* device) : d(device) {}
  ~PassReadback();
  PassReadback(const PassReadback&) = delete;
  PassReadback& operator=(const PassReadback&) = delete;
  DeviceData* d;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  bool coherent = true;
  VkDeviceSize reserved = 0;  // counted in DeviceData::readback_allocations / readback_bytes
  std::vector<Copy> copies;
};

// A recorded command buffer: its commands as record headers + bodies, appended at record time
// and written to the file when it is submitted in a captured frame.
struct CommandBufferState {
  VkCommandPool pool = VK_NULL_HANDLE;
  uint32_t level = 0;
  std::vector<std::byte> stream;
  uint64_t count = 0;
  uint32_t draws = 0;  // draw commands recorded (trigger by content, CaptureConfig::arm_draws)
  // Render pass readback: the attachments of the instance begun and not yet ended, and one entry
  // per instance ended in this recording, in order (the nth vkCmdEnd* record of `stream`).
  std::vector<PassAttachmentRead> open_pass;
  std::vector<std::shared_ptr<PassReadback>> passes;
  VkRenderingFlags rendering_flags = 0;  // of the last vkCmdBeginRendering (a suspending end?)
  // Begun with VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT: no render pass readback copies.
  bool simultaneous = false;
  // Forgets the recording (vkBeginCommandBuffer, vkResetCommandBuffer, vkResetCommandPool).
  void reset() {
    stream.clear();
    count = 0;
    draws = 0;
    open_pass.clear();
    passes.clear();
    rendering_flags = 0;
    simultaneous = false;
  }
};

struct MemoryState {
  VkDeviceSize size = 0;
  uint32_t type_index = 0;
  VkMemoryPropertyFlags flags = 0;
  void* mapped = nullptr;  // the application's mapping, if any
  VkDeviceSize map_offset = 0, map_size = 0;
  // Hash of each snapshot page last written to the file (zero: never written). A page whose
  // bytes did not change since is not written again.
  std::vector<cap::Hash128> page_hashes;
};

// Memory contents are snapshotted in pages of this size: a uniform update rewrites one page,
// not the whole (often multi-megabyte) allocation the driver sub-allocates from.
inline constexpr VkDeviceSize kSnapshotPage = 64 * 1024;

struct SwapchainState {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  bool readable = false;  // TRANSFER_SRC usage could be added
  bool transfer_src = false;  // the images have TRANSFER_SRC usage (whatever their format)
  std::vector<VkImage> images;
};

// What the initial-contents readback needs to know about an image.
struct ImageState {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  uint32_t mips = 1, layers = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageUsageFlags usage = 0;
  // The stencil aspect may be copied: `usage` has TRANSFER_SRC and no VkImageStencilUsageCreateInfo
  // gave the stencil aspect a usage without it (Vulkan spec, "Images": stencilUsage).
  bool stencil_transfer_src = false;
  bool bound = false;
  // Layout after the last submitted command that changed it (barriers, render pass final
  // layouts), tracked for the whole image.
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

// What render pass readback needs of a view: the subresource it renders, and its format.
struct ViewState {
  VkImage image = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t base_mip = 0, base_layer = 0;
};

// What render pass readback needs of a render pass object's attachment (kept only with
// ReadbackKind::kPasses): the layouts it ends the instance in, and the attachment that resolves it.
struct RenderPassAttachmentState {
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageLayout final_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageLayout stencil_final_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // VkAttachmentDescriptionStencilLayout, else final_layout
  uint32_t resolve = VK_ATTACHMENT_UNUSED;  // colour resolve or depth/stencil resolve attachment
  VkImageAspectFlags resolved_aspects = 0;  // the aspects that resolve writes
};

// One render pass instance of a captured frame, numbered as replay numbers them.
struct FramePass {
  uint32_t pass = 0;
  uint64_t command_buffer = 0;
  std::shared_ptr<PassReadback> readback;  // nullptr: nothing read (nothing readable)
  size_t fence = SIZE_MAX;  // index in DeviceData::frame_fences; SIZE_MAX: never submitted
};

struct TemplateState {
  VkDescriptorUpdateTemplateType type{};
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
};

struct DeviceData {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  InstanceData* instance = nullptr;
  DeviceDispatch vk;
  PFN_vkSetDeviceLoaderData set_loader_data = nullptr;
  VkPhysicalDeviceMemoryProperties memory_properties{};
  std::vector<VkQueueFamilyProperties> queue_families;
  bool hooked = false;  // the capture hooks are installed for this device
  // VK_EXT_frame_boundary is the layer's own on this device (the driver lacks it): its structures
  // are taken out of the chains the layer passes down (vk_ext_frame_boundary.h, ChainWithout).
  bool frame_boundary_emulated = false;

  std::shared_mutex cb_mutex;  // guards the map only: a command buffer's state is externally
                               // synchronised by the application (Vulkan spec, "Threading")
  std::unordered_map<VkCommandBuffer, std::unique_ptr<CommandBufferState>> command_buffers;

  // Serialises the application's vkMapMemory/vkUnmapMemory with the layer's own temporary
  // mappings (the initial snapshot maps host-visible memory the application has not mapped):
  // a memory object may be mapped only once at a time (VUID-vkMapMemory-memory-00678), and the
  // application may map it on one thread while another submits. Taken before `mutex`.
  std::mutex map_mutex;

  std::mutex mutex;  // guards everything below
  std::unordered_map<VkQueue, uint32_t> queue_families_of;
  std::unordered_map<VkDeviceMemory, MemoryState> memories;
  std::unordered_map<VkShaderModule, std::pair<cap::Hash128, uint64_t>> shader_modules;
  std::unordered_map<VkDescriptorUpdateTemplate, TemplateState> templates;
  std::unordered_map<VkSwapchainKHR, SwapchainState> swapchains;
  std::unordered_map<VkImage, ImageState> images;
  std::unordered_map<VkImageView, VkImage> view_images;
  std::unordered_map<VkFramebuffer, std::vector<VkImageView>> framebuffer_views;
  std::unordered_map<VkRenderPass, std::vector<VkImageLayout>> final_layouts;
  std::unordered_map<VkImageView, ViewState> views;  // ReadbackKind::kPasses only
  std::unordered_map<VkRenderPass, std::vector<RenderPassAttachmentState>> pass_attachments;  // likewise
  std::vector<VkSemaphore> retired_semaphores;  // waited on by presents; destroyed with device

  // Render pass readback: the instances the captured frame executed so far, in execution order,
  // and the fences of the empty submissions that follow each of the frame's submissions.
  // One captured submission at a time writes its Submit record and command streams and numbers
  // its instances, so that the file's order of submissions is the order of the numbers (replay
  // numbers instances in file order). Taken before cb_mutex and pass_mutex.
  std::mutex submit_mutex;
  std::mutex pass_mutex;  // guards the four below; taken after cb_mutex, never with `mutex`
  std::vector<FramePass> frame_passes;
  uint32_t frame_pass_count = 0;
  std::vector<VkFence> frame_fences;
  uint64_t frame_generation = 0;  // counts frame ends: a submission's range belongs to one frame
  // What the device may still use when the layer stopped waiting for it: fences not signalled
  // (a pending fence may not be destroyed, VUID-vkDestroyFence-fence-01120) and the readback
  // buffers their submissions write. Destroyed at vkDestroyDevice, which the application calls
  // only once the device's work is done (VUID-vkDestroyDevice-device-00378), so that no layer
  // object outlives the device (VUID-vkDestroyDevice-device-05137). Guarded by pass_mutex.
  std::vector<VkFence> pending_fences;
  std::vector<std::shared_ptr<PassReadback>> pending_readbacks;
  // The render pass readback buffers' device memory allocations, capped so that the
  // application's own allocations cannot fail because of them: at most an eighth of
  // maxMemoryAllocationCount (Vulkan spec, "Memory Allocation") and kPassReadbackBytes in all.
  std::atomic<uint32_t> readback_allocations{0};
  std::atomic<VkDeviceSize> readback_bytes{0};
  uint32_t max_readback_allocations = 4096 / 8;  // maxMemoryAllocationCount's minimum, until known
};
inline constexpr VkDeviceSize kPassReadbackBytes = VkDeviceSize{1} << 30;

InstanceData* instance_data(void* key);
DeviceData* device_data(void* key);
template <typename Dispatchable>
DeviceData* device_of(Dispatchable h) {
  return device_data(dispatch_key(h));
}

// Command buffer state for recording, or nullptr when not recording it.
CommandBufferState* recording_state(DeviceData* d, VkCommandBuffer cb);

// Appends a command record to a command buffer's stream.
template <typename R>
void append_command(CommandBufferState* s, const R& rec) {
  cap::ByteWriter w;
  const uint32_t kind = static_cast<uint32_t>(R::kKind);
  w.put(kind);
  w.put(uint32_t{0});
  encode(w, rec);
  auto bytes = w.take();
  const uint32_t size = static_cast<uint32_t>(bytes.size() - 8);
  std::memcpy(bytes.data() + 4, &size, 4);
  s->stream.insert(s->stream.end(), bytes.begin(), bytes.end());
  ++s->count;
}

// Writes the commands of the submitted command buffers (secondaries inline) to the frame.
void write_submission(DeviceData* d, Session* s, VkQueue queue,
                      const std::vector<VkCommandBuffer>& cbs);
// Writes MemoryContentsRecords: every host-visible memory object (initial = true) or only those
// the application has mapped (at each submit of a captured frame).
void snapshot_memory(DeviceData* d, Session* s, bool initial);

// Writes MemoryContentsRecords for the pages of [offset, offset + size) of `memory`, read at
// `data` (which points at `offset`), that changed since they were last written. Caller holds
// d->mutex.
void snapshot_range(Session* s, VkDeviceMemory memory, MemoryState& m, const void* data,
                    VkDeviceSize offset, VkDeviceSize size);

// Follows image layouts through submitted command buffers (image_readback.cpp).
void track_layouts(DeviceData* d, const std::vector<VkCommandBuffer>& cbs);
// Reads back, through staging copies, every sampled image's contents as the first captured
// frame starts, and writes ImageRecords with contents (image_readback.cpp).
// With final_targets, instead reads back colour render targets as the frame ends
// (RenderTargetContentsRecord for frame `present`).
void read_back_images(DeviceData* d, Session* s, VkQueue queue, bool final_targets = false,
                      uint32_t present = 0);

// Render pass readback (pass_readback.cpp), all no-ops unless Session::read_passes().
// Notes the render pass object's attachments (vkCreateRenderPass, vkCreateRenderPass2).
void note_render_pass_attachments(DeviceData* d, const VkRenderPassCreateInfo* ci, VkRenderPass rp);
void note_render_pass_attachments(DeviceData* d, const VkRenderPassCreateInfo2* ci, VkRenderPass rp);
// What to read at the end of the instance cb begins (after the call went down).
void begin_pass_readback(DeviceData* d, VkCommandBuffer cb, const VkRenderPassBeginInfo* begin);
void begin_pass_readback(DeviceData* d, VkCommandBuffer cb, const VkRenderingInfo* info);
// Records the copies after the instance's end went down (vkCmdEndRenderPass*, vkCmdEndRendering;
// `suspending`: a vkCmdEndRendering that suspends the instance, where nothing may be recorded).
void end_pass_readback(DeviceData* d, VkCommandBuffer cb, bool suspending = false);
// The instances submission `cbs` executes (secondaries inline, as write_submission writes them),
// numbered on from the frame's last; returns their entries in DeviceData::frame_passes.
struct SubmittedPasses {
  uint64_t generation = 0;  // DeviceData::frame_generation when noted
  size_t first = 0, count = 0;  // entries [first, first + count) of frame_passes
};
SubmittedPasses note_submitted_passes(DeviceData* d, const std::vector<VkCommandBuffer>& cbs);
// After that submission went down (ok) or failed: a fence that signals once it is done, for
// exactly its entries.
void fence_submitted_passes(DeviceData* d, VkQueue queue, const SubmittedPasses& passes, bool ok);
// At the end of a captured frame: waits for the frame's submissions and writes one
// RenderPassContentsRecord per attachment aspect of every instance, then forgets the frame's.
// Called at every captured frame's end, however it ended: `waited` false (the frame's work was
// not waited for) forgets the frame's instances without records, with a warning, so that the
// next frame numbers its own from 0.
void write_pass_contents(DeviceData* d, Session* s, uint32_t present, bool waited = true);
// Frees every readback buffer and fence (vkDestroyDevice, before it goes down).
void release_pass_readbacks(DeviceData* d);

// Reads back the presented image(s) of a captured frame around the next layer's present.
VkResult present_with_readback(DeviceData* d, Session* s, VkQueue queue,
                               const VkPresentInfoKHR* info);

// Extension allowlist (extension_allowlist.cpp).
bool extension_allowed(const char* name);
void hide_features(void* pnext_chain);

}  // namespace tessera::layer
