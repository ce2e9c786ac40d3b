// The capture's device objects rebuilt in host memory, keyed by the application's handles.
// Object records replace what a handle named before (the layer forgets a destroyed handle, so
// a reused value is a new object); objects are updated in place so pointers handed out stay
// valid for the life of the replay.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/frontend/frame.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::frontend {

// Simulated GPU address map (see replay.h): images from kImageBase, memory objects (and so
// buffers, at their bind offset) from kMemoryBase; 4 KiB aligned.
inline constexpr uint64_t kImageBase = 0x1'0000'0000ull;
inline constexpr uint64_t kMemoryBase = 0x100'0000'0000ull;
inline constexpr uint64_t kAddressAlign = 4096;
// Largest image extent the replay accepts in any dimension. Vulkan spec "Image Creation Limits"
// bounds an extent by VkImageFormatProperties::maxExtent, which may exceed the device's
// maxImageDimension*; the largest any implementation reports is 65536 (Mesa's panvk, Mali: 1D,
// and 2D from v11). Beyond it no device created the image and the capture is damaged or hostile;
// within it the memory budget decides. The planes' arithmetic stays in 64 bits: a plane is at
// most 65536^3 texels x 16 bytes x 64 samples = 2^58 bytes, and their sum saturates.
inline constexpr uint32_t kMaxImageDimension = 65536;
// Array layers likewise (maxImageArrayLayers, or VkImageFormatProperties::maxArrayLayers: panvk
// reports 65536); with the extent it bounds the planes an image keeps (aspects x layers x mips).
inline constexpr uint32_t kMaxImageLayers = 65536;
// Elements of one descriptor binding (bindless arrays beyond this are cut, and counted).
inline constexpr uint32_t kMaxBindingElements = 16384;

// One descriptor array element as written (handles; resolved to pointers at draw time).
struct DescriptorSlot {
  uint64_t sampler = 0, view = 0;      // image types
  uint64_t buffer = 0, offset = 0, range = 0;  // buffer types
  uint64_t texel_view = 0;             // texel buffer types
  bool written = false;
};

struct DescriptorSetState {
  uint64_t layout = 0;
  // binding number -> (type, elements).
  struct Binding {
    uint32_t type = 0;
    std::vector<DescriptorSlot> slots;
  };
  std::map<uint32_t, Binding> bindings;
};

class Resources {
 public:
  // Memory objects and image contents are held within `budget`, which must outlive this.
  Resources(const capture::CaptureReader& reader, MemoryBudget& budget) : reader_(reader), budget_(budget) {}
  ~Resources() { budget_.release(held_bytes_); }
  Resources(const Resources&) = delete;
  Resources& operator=(const Resources&) = delete;

  // Applies one object or contents record (kinds below 0x0400 and the resource kinds of
  // records.h). False with *error = "<problem>" when the body does not decode, or when the
  // record declares an image no Vulkan device can create or more memory than the budget holds
  // ("image 0x.. ..." / "memory 0x.. ..."); handles or blobs that cannot be resolved are
  // counted in `skipped`.
  bool apply(uint32_t kind, std::span<const std::byte> body, SkipCounts& skipped,
             std::string* error);
  // Whether the last apply() that failed refused the record (an image shape no device creates,
  // the memory budget) rather than failing to decode it.
  bool refused() const { return refused_; }
  // Writes the captured descriptor writes into sets (also used for push descriptors, whose
  // `set` is an in-walker state, hence the explicit target).
  void write_descriptors(DescriptorSetState& set, const capture::DescriptorWrite& w,
                         SkipCounts& skipped) const;
  // Shapes a set after its layout; false when a binding had to be cut (kMaxBindingElements).
  static bool init_set(DescriptorSetState& set, const capture::DescriptorSetLayoutRecord& layout);

  // The SPIR-V words of a blob, cached by hash; null with *problem when missing or not words.
  std::shared_ptr<const std::vector<uint32_t>> spirv(const capture::Hash128& hash,
                                                     std::string* problem);

  // Marks a memory object's contents as known (captured or written by a transfer).
  void mark_known(const MemoryObject* m) {
    if (m != nullptr) known_memory_.insert(m->handle);
  }
  bool known(const MemoryObject* m) const {
    return m != nullptr && known_memory_.count(m->handle) != 0;
  }

  template <typename T>
  static T* find(const std::unordered_map<uint64_t, std::unique_ptr<T>>& map, uint64_t h) {
    auto it = map.find(h);
    return it == map.end() ? nullptr : it->second.get();
  }

  std::unordered_map<uint64_t, std::unique_ptr<MemoryObject>> memories;
  std::unordered_map<uint64_t, std::unique_ptr<Buffer>> buffers;
  std::unordered_map<uint64_t, std::unique_ptr<Image>> images;
  std::unordered_map<uint64_t, std::unique_ptr<ImageView>> views;
  std::unordered_map<uint64_t, std::unique_ptr<capture::SamplerRecord>> samplers;
  std::unordered_map<uint64_t, std::unique_ptr<capture::BufferViewRecord>> buffer_views;
  std::unordered_map<uint64_t, std::unique_ptr<capture::DescriptorSetLayoutRecord>> set_layouts;
  std::unordered_map<uint64_t, std::unique_ptr<capture::PipelineLayoutRecord>> pipeline_layouts;
  std::unordered_map<uint64_t, std::unique_ptr<capture::RenderPassRecord>> render_passes;
  std::unordered_map<uint64_t, std::unique_ptr<capture::FramebufferRecord>> framebuffers;
  std::unordered_map<uint64_t, std::unique_ptr<capture::GraphicsPipelineRecord>> pipelines;
  std::unordered_map<uint64_t, std::unique_ptr<capture::ComputePipelineRecord>> compute_pipelines;
  std::unordered_map<uint64_t, std::unique_ptr<DescriptorSetState>> sets;
  std::unordered_map<uint64_t, std::unique_ptr<capture::SwapchainRecord>> swapchains;
  std::unordered_map<uint64_t, capture::ShaderModuleRecord> shader_modules;
  RasterLimits limits;  // the captured device's (device_info), else Vulkan's required minimums

 private:
  bool apply_image(const capture::ImageRecord& rec, SkipCounts& skipped, std::string* error);
  bool apply_memory_alloc(const capture::MemoryAllocRecord& rec, std::string* error);
  void apply_device_limits(const capture::DeviceInfoRecord& rec);
  bool apply_swapchain(const capture::SwapchainRecord& rec, std::string* error);
  void apply_memory_contents(const capture::MemoryContentsRecord& rec, SkipCounts& skipped);
  void apply_bind(const capture::MemoryBindRecord& rec, SkipCounts& skipped);
  void apply_view(const capture::ImageViewRecord& rec, SkipCounts& skipped);
  void apply_descriptor_update(const capture::DescriptorUpdateRecord& rec, SkipCounts& skipped);
  // (Re)shapes an image: planes sized from the format; the address kept when the size is.
  // False with *error when the shape is not a Vulkan image or its planes exceed the budget.
  bool shape_image(Image& img, SkipCounts& skipped, std::string* error);
  // Takes `bytes` from the budget for one object, adding them to `slot` (its entry in
  // image_held_ or memory_held_); false with *error = "<what> needs ...".
  bool hold(uint64_t& slot, uint64_t bytes, const std::string& what, std::string* error);
  // Gives back up to `bytes` of what `slot` holds: never more than was taken for the object
  // (the renderer may grow an image's planes beyond what was reserved here).
  void drop(uint64_t& slot, uint64_t bytes);
  // A blob's bytes; counted as a missing blob in `skipped` when absent.
  std::optional<capture::Bytes> blob(const capture::Hash128& hash, const char* what,
                                     SkipCounts& skipped) const;

  const capture::CaptureReader& reader_;
  MemoryBudget& budget_;
  std::unordered_set<uint64_t> known_memory_;
  std::unordered_map<capture::Hash128, std::shared_ptr<const std::vector<uint32_t>>> spirv_;
  bool refused_ = false;
  uint64_t held_bytes_ = 0;  // bytes of all memory objects and image planes, taken from budget_
  // What was taken from budget_ for each image and memory object (handle -> bytes): re-shaping,
  // re-allocating or destroying the replay gives back exactly these.
  std::unordered_map<uint64_t, uint64_t> image_held_;
  std::unordered_map<uint64_t, uint64_t> memory_held_;
  uint64_t next_image_address_ = kImageBase;
  uint64_t next_memory_address_ = kMemoryBase;
  std::unordered_map<uint64_t, uint64_t> image_bytes_;  // handle -> bytes its address range holds
  std::unordered_map<uint64_t, uint64_t> memory_address_;
};

}  // namespace tessera::frontend
