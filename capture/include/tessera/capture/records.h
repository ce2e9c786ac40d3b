// Record kinds carried by capture files and their bodies (schema/capture-format.md, section
// "Record kinds"), encoded from their field lists as fields.h says. The container (writer.h /
// reader.h) treats bodies as opaque bytes; this header gives them meaning. New kinds may be added in any minor version: a consumer that
// meets a kind it does not know skips it and says so once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/capture/fields.h"
#include "tessera/capture/hash.h"

namespace tessera::capture {

enum class RecordKind : uint32_t {
  // Session metadata.
  kCaptureInfo = 0x0001,      // key/value text: tool version, application, command line
  kWarning = 0x0002,          // something unexpected at capture time; never fatal
  kDeviceInfo = 0x0003,       // physical device, driver and memory properties
  kHiddenExtension = 0x0004,  // a device extension hidden from the application
  // Resource contents as they were when the frame started.
  kImage = 0x0100,
  kBuffer = 0x0101,
  kShaderModule = 0x0102,
  // Frame outputs.
  kPresentedImage = 0x0200,
  // 0x0300-0xFFFEFFFF: Vulkan state and commands (vk_records.h).
  // 0xFFFF0000-0xFFFFFFFF: reserved for tests and experiments; never written by the layer.
};

// Human-readable name of a kind ("image"; the Vulkan kinds of vk_records.h too), or nullptr for
// a kind this build does not know.
const char* record_kind_name(uint32_t kind);

struct CaptureInfoRecord {
  static constexpr RecordKind kKind = RecordKind::kCaptureInfo;
  std::vector<std::pair<std::string, std::string>> entries;
  const std::string* find(std::string_view key) const;
  TESSERA_RECORD_FIELDS(CaptureInfoRecord, entries);
};

struct WarningRecord {
  static constexpr RecordKind kKind = RecordKind::kWarning;
  std::string text;
  TESSERA_RECORD_FIELDS(WarningRecord, text);
};

struct DeviceInfoRecord {
  static constexpr RecordKind kKind = RecordKind::kDeviceInfo;
  uint32_t api_version = 0;     // VkPhysicalDeviceProperties::apiVersion
  uint32_t driver_version = 0;  // VkPhysicalDeviceProperties::driverVersion
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t device_type = 0;  // VkPhysicalDeviceType
  uint32_t driver_id = 0;    // VkDriverId, 0 when VK_KHR_driver_properties is absent
  std::string device_name;
  std::string driver_name;
  std::string driver_info;
  struct MemoryHeap {
    uint64_t size = 0;
    uint32_t flags = 0;  // VkMemoryHeapFlags
    TESSERA_RECORD_FIELDS(MemoryHeap, size, flags);
  };
  struct MemoryType {
    uint32_t heap_index = 0;
    uint32_t property_flags = 0;  // VkMemoryPropertyFlags
    TESSERA_RECORD_FIELDS(MemoryType, heap_index, property_flags);
  };
  std::vector<MemoryHeap> memory_heaps;
  std::vector<MemoryType> memory_types;
  // Appended in format 1.1: the VkPhysicalDeviceLimits rasterization depends on (point sizes and
  // line widths are clamped to these ranges, DEFAULT line mode follows strictLines), and
  // VkPhysicalDevicePointClippingProperties::pointClippingBehavior. has_limits is 0 in 1.0 files.
  struct Limits {
    float point_size_range[2] = {1.0f, 1.0f};
    float point_size_granularity = 0.0f;
    float line_width_range[2] = {1.0f, 1.0f};
    float line_width_granularity = 0.0f;
    uint32_t strict_lines = 0;
    uint32_t standard_sample_locations = 0;
    uint32_t framebuffer_color_sample_counts = 0;  // VkSampleCountFlags
    uint32_t point_clipping_behavior = 0;          // VkPointClippingBehavior
    TESSERA_RECORD_FIELDS(Limits, point_size_range[0], point_size_range[1], point_size_granularity,
                          line_width_range[0], line_width_range[1], line_width_granularity, strict_lines,
                          standard_sample_locations, framebuffer_color_sample_counts, point_clipping_behavior);
  };
  uint32_t has_limits = 0;
  Limits limits;
  // A 1.0 body ends after the memory types; has_limits and the limits come together or not at
  // all, and are written only when has_limits is set.
  static constexpr size_t kFieldsSince1_0 = 11;
  bool writes_appended_fields() const { return has_limits != 0; }
  TESSERA_RECORD_FIELDS(DeviceInfoRecord, api_version, driver_version, vendor_id, device_id, device_type, driver_id,
                        device_name, driver_name, driver_info, memory_heaps, memory_types, has_limits, limits);
};

struct HiddenExtensionRecord {
  static constexpr RecordKind kKind = RecordKind::kHiddenExtension;
  std::string name;
  uint32_t spec_version = 0;
  TESSERA_RECORD_FIELDS(HiddenExtensionRecord, name, spec_version);
};

// An image and its contents. Subresources (one entry per mip, layer and aspect) are packed
// tightly in the contents blob (rows of width * texel size, or of whole 4x4 blocks for
// block-compressed formats), in the order listed.
struct ImageRecord {
  static constexpr RecordKind kKind = RecordKind::kImage;
  uint64_t image = 0;  // the application's handle, an opaque id within the capture
  uint32_t image_type = 0;  // VkImageType
  uint32_t format = 0;      // VkFormat
  uint32_t width = 0, height = 0, depth = 0;
  uint32_t mip_levels = 0, array_layers = 0, samples = 0;
  uint32_t usage = 0;   // VkImageUsageFlags
  uint32_t layout = 0;  // VkImageLayout at frame start
  struct Subresource {
    uint32_t mip = 0, layer = 0;
    uint64_t offset = 0, size = 0;  // bytes into the contents blob
    // VkImageAspectFlagBits of these bytes: depth and stencil of one (mip, layer) are separate
    // entries, laid out as "Copying Data Between Buffers and Images" specifies per aspect.
    uint32_t aspect = 0;
    // A subresource must lie inside a blob the size of the address space: no wrap-around.
    bool well_formed() const { return offset + size >= offset; }
    TESSERA_RECORD_FIELDS(Subresource, mip, layer, offset, size, aspect);
  };
  std::vector<Subresource> subresources;
  Hash128 contents;  // zero when the contents were not captured
  TESSERA_RECORD_FIELDS(ImageRecord, image, image_type, format, width, height, depth, mip_levels, array_layers,
                        samples, usage, layout, subresources, contents);
};

struct BufferRecord {
  static constexpr RecordKind kKind = RecordKind::kBuffer;
  uint64_t buffer = 0;
  uint64_t size = 0;
  uint32_t usage = 0;  // VkBufferUsageFlags
  Hash128 contents;    // zero when the contents were not captured
  TESSERA_RECORD_FIELDS(BufferRecord, buffer, size, usage, contents);
};

struct ShaderModuleRecord {
  static constexpr RecordKind kKind = RecordKind::kShaderModule;
  uint64_t module = 0;
  Hash128 code;  // SPIR-V words, as passed to vkCreateShaderModule
  uint64_t code_size = 0;
  TESSERA_RECORD_FIELDS(ShaderModuleRecord, module, code, code_size);
};

// The image the application presented, read back from the swapchain, tightly packed rows.
struct PresentedImageRecord {
  static constexpr RecordKind kKind = RecordKind::kPresentedImage;
  uint64_t swapchain = 0;
  uint32_t image_index = 0;
  uint32_t format = 0;  // VkFormat of the swapchain
  uint32_t width = 0, height = 0;
  Hash128 pixels;
  TESSERA_RECORD_FIELDS(PresentedImageRecord, swapchain, image_index, format, width, height, pixels);
};

template <typename R>
std::vector<std::byte> encode_record(const R& rec) {
  ByteWriter w;
  encode(w, rec);
  return w.take();
}

template <typename R>
std::optional<R> decode_record(std::span<const std::byte> body) {
  ByteReader r(body);
  R out;
  if (!decode(r, out) || !r.ok()) return std::nullopt;
  return out;
}

}  // namespace tessera::capture
