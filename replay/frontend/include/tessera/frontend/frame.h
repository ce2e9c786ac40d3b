// What the replay front end hands the functional renderer: the device objects of a capture
// rebuilt in host memory, and each render pass instance of a frame with every draw's state fully
// resolved (pipeline state with the dynamic state applied, bound buffers, descriptors, push
// constants). The front end executes transfer commands itself (copies, blits, clears, buffer
// updates) on the same objects; the renderer writes its results into the attachments' images, so
// a later pass that samples a render target sees what an earlier pass drew.
//
// Contract between the two halves (docs/architecture.md, "Data flow", "shade once"):
//  - Images hold their contents linear and tightly packed per (aspect, layer, mip), exactly as
//    "Copying Data Between Buffers and Images" lays out a buffer copy of that subresource (the
//    capture's ImageRecord layout): D24 depth as 32-bit words with the depth in the low 24 bits,
//    S8 stencil as one byte per texel, BC formats as rows of 4x4 blocks. A multisampled image
//    holds its samples one after the other: sample s of a subresource is the single-sample
//    layout at s * (subresource bytes / samples), so a reader that knows only one sample sees
//    sample 0.
//  - Whoever writes an image (renderer or transfer) calls Image::touch() so cached derived forms
//    (the texture unit's blocked copy) are rebuilt.
//  - Buffers are views of their memory object's bytes: what the host wrote (captured memory
//    contents) and what transfers wrote are both visible through Buffer::bytes().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tessera/capture/hash.h"
#include "tessera/capture/vk_records.h"

namespace tessera::frontend {

// A VkDeviceMemory object: its bytes as the frame sees them.
struct MemoryObject {
  uint64_t handle = 0;
  std::vector<std::byte> bytes;
  uint32_t property_flags = 0;  // VkMemoryPropertyFlags of its type
};

struct Buffer {
  uint64_t handle = 0;
  uint64_t size = 0;
  uint32_t usage = 0;  // VkBufferUsageFlags
  MemoryObject* memory = nullptr;  // null when never bound (reads then see zeros)
  uint64_t memory_offset = 0;
  // Where the buffer lives in the simulated GPU address space (vertex fetch addresses).
  uint64_t address = 0;
  // The buffer's bytes, clamped to its memory object; empty when unbound.
  std::span<std::byte> bytes() const;
};

// Aspect index of Image::subresource(): colour or depth 0, stencil 1 (a D24S8 image has both).
enum class Aspect : uint8_t { ColorOrDepth = 0, Stencil = 1 };

struct Image {
  uint64_t handle = 0;
  uint32_t image_type = 0;  // VkImageType
  uint32_t format = 0;      // VkFormat
  uint32_t width = 0, height = 0, depth = 1;
  uint32_t mip_levels = 1, array_layers = 1, samples = 1;
  uint32_t usage = 0;
  bool swapchain = false;  // a presentable image (its contents come from the frames' rendering)
  bool defined = false;    // contents known (captured, or written during replay)
  uint64_t address = 0;    // base in the simulated GPU address space
  // Linear packed bytes, index (aspect * array_layers + layer) * mip_levels + mip.
  std::vector<std::vector<uint8_t>> planes;
  // Bumped on every write; consumers cache derived forms keyed on (handle, generation).
  uint64_t generation = 0;

  std::vector<uint8_t>& subresource(Aspect aspect, uint32_t layer, uint32_t mip);
  const std::vector<uint8_t>& subresource(Aspect aspect, uint32_t layer, uint32_t mip) const;
  // Samples per texel the planes hold: `samples` when it is a VkSampleCountFlagBits value,
  // else 1 (a damaged record).
  uint32_t held_samples() const {
    return samples >= 1 && samples <= 64 && (samples & (samples - 1)) == 0 ? samples : 1;
  }
  // Mips beyond 31 (hostile records) are 1 texel, not an undefined shift.
  uint32_t mip_width(uint32_t mip) const { return mip < 32 && width >> mip ? width >> mip : 1; }
  uint32_t mip_height(uint32_t mip) const { return mip < 32 && height >> mip ? height >> mip : 1; }
  void touch() { ++generation; defined = true; }
};

struct ImageView {
  uint64_t handle = 0;
  Image* image = nullptr;
  uint32_t view_type = 0;  // VkImageViewType
  uint32_t format = 0;     // VkFormat (may differ from the image's: sRGB / UNORM views)
  uint32_t swizzle[4] = {0, 0, 0, 0};  // VkComponentSwizzle, IDENTITY = 0
  capture::SubresourceRange range;     // counts resolved (no VK_REMAINING_*)
};

// One array element of a descriptor binding. Which members are set depends on the type.
struct DescriptorElement {
  const ImageView* view = nullptr;                 // sampled / storage images, input attachments
  const capture::SamplerRecord* sampler = nullptr; // samplers (immutable ones included)
  const Buffer* buffer = nullptr;                  // uniform / storage buffers
  uint64_t offset = 0, range = 0;                  // dynamic offsets already added; range resolved
  // Texel buffers (uniform / storage texel buffer descriptors): `buffer`, `offset` and `range`
  // come from the buffer view, whose VkFormat is here; 0 for every other type.
  uint32_t format = 0;
};

struct DescriptorBinding {
  uint32_t set = 0, binding = 0;
  uint32_t type = 0;  // VkDescriptorType
  std::vector<DescriptorElement> elements;
};

struct VertexBufferBinding {
  uint32_t binding = 0;
  const Buffer* buffer = nullptr;
  uint64_t offset = 0;
  uint64_t size = 0;  // bytes usable from offset (VK_WHOLE_SIZE resolved)
};

// A shader stage with its SPIR-V (the blob of its module) and specialization constants resolved.
struct ShaderStageCode {
  uint32_t stage = 0;  // VkShaderStageFlagBits
  capture::Hash128 hash;  // the blob's content hash: a key for compiled-module caches
  std::shared_ptr<const std::vector<uint32_t>> spirv;
  std::string entry_point;
  // (SpecId, 32-bit value) pairs from VkSpecializationInfo.
  std::vector<std::pair<uint32_t, uint32_t>> specialization;
};

struct Draw {
  uint32_t index = 0;  // draws of the frame numbered from 0 in execution order
  // The bound pipeline with the current dynamic state written into it (viewports, scissors,
  // cull mode, front face, topology, primitive restart, depth/stencil state, blend constants,
  // vertex binding strides, ...): the renderer reads only this, never the dynamic commands.
  capture::GraphicsPipelineRecord state;
  std::vector<ShaderStageCode> stages;  // vertex first, then fragment (if any)
  std::vector<VertexBufferBinding> vertex_buffers;
  const Buffer* index_buffer = nullptr;
  uint64_t index_offset = 0;
  uint32_t index_type = 0;  // VkIndexType
  std::vector<DescriptorBinding> descriptors;
  std::vector<uint8_t> push_constants;  // 0..(largest push range end) bytes
  // Draw parameters (indirect draws are resolved to direct ones by the front end).
  bool indexed = false;
  uint32_t vertex_count = 0;  // index_count when indexed
  uint32_t instance_count = 1;
  uint32_t first_vertex = 0;  // first_index when indexed
  int32_t vertex_offset = 0;  // indexed only
  uint32_t first_instance = 0;
};

// A compute dispatch: vkCmdDispatch, vkCmdDispatchIndirect (its command read from the buffer)
// or vkCmdDispatchBase, with the compute pipeline's stage and the descriptors and push constants
// bound for the compute bind point. Handed over in submit order, outside render passes.
struct Dispatch {
  uint32_t index = 0;  // dispatches of the frame numbered from 0 in execution order
  ShaderStageCode stage;
  std::vector<DescriptorBinding> descriptors;
  std::vector<uint8_t> push_constants;  // 0..(largest push range end) bytes
  uint32_t base[3] = {0, 0, 0};         // vkCmdDispatchBase's baseGroupX/Y/Z
  uint32_t group_count[3] = {0, 0, 0};
};

// vkCmdClearAttachments inside a pass.
struct ClearAttachments {
  capture::CmdClearAttachmentsRecord record;
};

struct NextSubpass {};

using PassCommand = std::variant<Draw, ClearAttachments, NextSubpass>;

struct Attachment {
  ImageView* view = nullptr;
  uint32_t format = 0;  // VkFormat the pass uses
  uint32_t load_op = 0, store_op = 0;  // VkAttachmentLoadOp / StoreOp (colour or depth)
  uint32_t stencil_load_op = 0, stencil_store_op = 0;
  capture::ClearValue clear;
  // Resolve target of a multisampled attachment at the end of the (sub)pass, null when none,
  // and how its samples combine (VkResolveModeFlagBits; render pass colour resolves are
  // AVERAGE, or SAMPLE_ZERO for integer formats): colour or depth, and stencil.
  ImageView* resolve = nullptr;
  uint32_t resolve_mode = 0, stencil_resolve_mode = 0;
};

// Rasterization limits of the captured device (device_info, capture format 1.1), or the least
// every Vulkan device supports (spec table "Required Limits": pointSizeRange (1.0, 64.0 - ULP),
// lineWidthRange (1.0, 8.0 - ULP) with ULP at most 1.0) when the capture has none.
struct RasterLimits {
  float point_size_range[2] = {1.0f, 63.0f};
  float line_width_range[2] = {1.0f, 7.0f};
  bool strict_lines = false;
  // VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES: a point whose vertex is outside the view
  // volume is discarded (USER_CLIP_PLANES_ONLY keeps it).
  bool points_clip_to_view_volume = true;
};

struct Subpass {
  static constexpr uint32_t kUnused = ~0u;
  std::vector<uint32_t> colors;   // attachment indices (kUnused for a hole), per location
  uint32_t depth_stencil = kUnused;
  std::vector<uint32_t> inputs;
};

// One render pass instance (vkCmdBeginRenderPass .. End, or BeginRendering .. EndRendering).
// Dynamic rendering is presented as a one-subpass pass: colours 0..n-1, then depth/stencil.
struct RenderPassInstance {
  uint32_t index = 0;  // passes of the frame numbered from 0, as handed to the renderer
  // The instance among every one the frame ended (vkCmdEndRenderPass / vkCmdEndRendering),
  // numbered from 0 as the capture layer numbers RenderPassContentsRecord::pass: instances the
  // replay could not rebuild take their numbers too, so `instance` and `index` part after one.
  uint32_t instance = 0;
  RasterLimits limits;
  capture::Rect2D render_area;
  uint32_t layers = 1;
  std::vector<Attachment> attachments;
  std::vector<Subpass> subpasses;
  std::vector<PassCommand> commands;  // in execution order
};

// Counts of what the front end could not replay, by reason ("draw: indirect buffer not
// captured", "command: vkCmdDispatch"), so no work is dropped silently; and, apart, of what it
// replayed with a rule of its own where the application asked for one the replay does not model
// (a draw rendered, but not as the driver rendered it), so no difference is silent either.
struct SkipCounts {
  std::vector<std::pair<std::string, uint64_t>> reasons;
  std::vector<std::pair<std::string, uint64_t>> approximations;
  void add(const std::string& reason, uint64_t n = 1);
  void approximate(const std::string& reason, uint64_t n = 1);
  void merge(const SkipCounts& other);
  uint64_t total() const;  // skipped: the reasons' counts
  uint64_t approximated() const;
};

// The presented image as the application saw it (PresentedImageRecord), for comparison.
struct PresentedImage {
  uint32_t present = 0;  // 1-based present number
  uint64_t swapchain_image = 0;  // handle of the Image that was presented
  uint32_t format = 0, width = 0, height = 0;
  std::vector<uint8_t> pixels;  // tightly packed rows in `format`
  // The subresource of swapchain_image the pixels are (a final colour target seen through a view
  // of another mip or layer; 0, 0 for a presented image).
  uint32_t mip = 0, layer = 0;
};

// Implemented by the functional renderer.
class PassRenderer {
 public:
  virtual ~PassRenderer() = default;
  // Renders one pass instance into its attachments (load ops, draws, clears, store ops) and
  // touches every image it writes. Draws it cannot render are counted in `skipped`; work beyond
  // what it can replay (memory_budget.h: the budget, a shader stopped by its watchdog, too many
  // invocations) throws ReplayLimitError, and the replay stops (also from dispatch()).
  virtual void render_pass(const RenderPassInstance& pass, SkipCounts& skipped) = 0;
  // Executes a compute dispatch, writing its storage buffers and images. Compute work is not
  // tile-based render pass work: a renderer runs it for its results (what later draws read), not
  // for the access stream. A renderer without compute counts it as not replayed.
  virtual void dispatch(const Dispatch& dispatch, SkipCounts& skipped) {
    (void)dispatch;
    skipped.add("command: vkCmdDispatch (compute not replayed by this renderer)");
  }
};

}  // namespace tessera::frontend
