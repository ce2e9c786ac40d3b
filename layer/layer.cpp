// VK_LAYER_TESSERA_capture: loader interface, instance and device lifetime, the capture session.
// Only the three loader entry points are exported (exports.map); every other function reaches
// the application through vkGet*ProcAddr.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "generated/vulkan_intercept.h"
#include "layer_state.h"
#include "platform.h"
#include "vk_ext_frame_boundary.h"

#define TESSERA_EXPORT extern "C" __attribute__((visibility("default")))

namespace tessera::layer {

namespace {

constexpr const char* kLayerName = "VK_LAYER_TESSERA_capture";

std::shared_mutex g_maps_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;

std::mutex g_session_mutex;
Session* g_session = nullptr;
bool g_session_tried = false;
std::atomic<bool> g_session_ready{false};  // lock-free fast path once decided

}  // namespace

// ---- Session ---------------------------------------------------------------------------------

Session::Session(CaptureConfig config, std::unique_ptr<cap::CaptureWriter> writer)
    : config_(std::move(config)), writer_(std::move(writer)) {}

Session* Session::get() {
  if (g_session_ready.load(std::memory_order_acquire)) return g_session;
  std::lock_guard lock(g_session_mutex);
  if (g_session_tried) return g_session;
  g_session_tried = true;
  struct Ready {
    ~Ready() { g_session_ready.store(true, std::memory_order_release); }
  } ready;
  std::string warning;
  CaptureConfig config = read_capture_config(&warning);
  if (!warning.empty()) platform_log("tessera capture: " + warning);
  if (config.file.empty()) return nullptr;
  cap::WriterOptions options;
  // Reported on the writer thread after a failed write: the app keeps running, frames stop.
  options.on_error = [](const std::string& e) { platform_log("tessera capture: " + e); };
  std::string error;
  auto writer = cap::CaptureWriter::open(config.file, options, &error);
  if (!writer) {
    platform_log("tessera capture: cannot capture, passing through: " + error);
    return nullptr;
  }
  // Deliberately never deleted: some applications never destroy their device, and the file is
  // closed after the last captured frame anyway (a static destructor could run after the
  // driver is gone).
  if (config.trigger_mode()) {
    // Armed until the trigger fires (end_present): no frame number matches before.
    config.frames = {UINT32_MAX, UINT32_MAX};
    if (!config.trigger_file.empty()) {
      platform_log("tessera capture: create " + config.trigger_file + " to capture the next " +
                   std::to_string(config.trigger_frames) + " frame(s)");
    }
    if (config.arm_draws > 0) {
      platform_log("tessera capture: armed: the next " + std::to_string(config.trigger_frames) +
                   " frame(s) are captured after " + std::to_string(config.arm_frames) + " frames in a row of at least " +
                   std::to_string(config.arm_draws) + " draws");
    }
  }
  g_session = new Session(config, std::move(writer));
  cap::CaptureInfoRecord info;
  info.entries = {{"tool", "tessera capture layer"},
                  {"layer", kLayerName},
                  {"command_line", platform_command_line()}};
  if (!config.trigger_mode()) {
    info.entries.emplace_back("frames", std::to_string(config.frames.first) + "-" +
                                            std::to_string(config.frames.last));
  } else {
    info.entries.emplace_back("trigger", (config.trigger_file.empty() ? std::string("no file") : config.trigger_file) +
                                             " (" + std::to_string(config.trigger_frames) + " frames)");
    if (config.arm_draws > 0) {
      info.entries.emplace_back("arm_draws", std::to_string(config.arm_draws) + " draws a frame, " +
                                                 std::to_string(config.arm_frames) + " frames in a row");
    }
  }
  info.entries.emplace_back("frame_boundary", config.boundary == FrameBoundary::kSubmit   ? "submit"
                                              : config.boundary == FrameBoundary::kMarker ? "marker"
                                                                                          : "present");
  g_session->write(info);
  // Applications that return from main without destroying their device still get a complete
  // file (trailer index included).
  std::atexit([] { g_session->close(); });
  if (config.frames.contains(1)) {
    g_session->pending_frame_.store(1, std::memory_order_release);
    g_session->in_frame_.store(true, std::memory_order_release);
  }
  return g_session;
}

bool Session::first_time(const std::string& key) {
  std::lock_guard lock(mutex_);
  return warned_.insert(key).second;
}

void Session::warn_once(const std::string& key, const std::string& text) {
  if (!first_time(key)) return;
  platform_log("tessera capture: " + text);
  write(cap::WarningRecord{text});
}

bool Session::take_initial_snapshot() {
  std::lock_guard lock(mutex_);
  if (snapshot_taken_) return false;
  snapshot_taken_ = true;
  return true;
}

void Session::end_present() {
  std::lock_guard lock(mutex_);
  if (done_.load()) return;
  const uint32_t n = presents_.load() + 1;
  if (config_.frames.contains(n)) {
    open_pending_frame_locked();
    cap::ByteWriter w;
    encode(w, cap::FrameBoundaryRecord{n, 0});
    writer_->write_record(record_kind(cap::FrameBoundaryRecord{}), w.bytes());
    writer_->flush_frame();
  }
  presents_.store(n, std::memory_order_release);
  if (n >= config_.frames.last) {
    in_frame_.store(false, std::memory_order_release);
    done_.store(true, std::memory_order_release);
    const auto stats = writer_->stats();
    if (writer_->close()) {
      platform_log("tessera capture: wrote frames " + std::to_string(config_.frames.first) + "-" +
                   std::to_string(config_.frames.last) + " to " + writer_->path() + " (" +
                   std::to_string(stats.file_bytes) + " bytes before the index)");
    }
    return;
  }
  // Trigger mode: the file is looked for once per present until it appears; deleting it is
  // both the test and the acknowledgement (std::remove is one call on every platform). By
  // content: the frame just ended drew enough, arm_frames times in a row.
  if (config_.trigger_mode() && config_.frames.first == UINT32_MAX) {
    std::string why;
    if (!config_.trigger_file.empty() && std::remove(config_.trigger_file.c_str()) == 0) why = "triggered";
    if (config_.arm_draws > 0) {
      const uint64_t draws = frame_draws_.exchange(0, std::memory_order_acq_rel);
      draw_streak_ = draws >= config_.arm_draws ? draw_streak_ + 1 : 0;
      if (why.empty() && draw_streak_ >= config_.arm_frames) {
        why = "armed by " + std::to_string(config_.arm_frames) + " frames of at least " + std::to_string(config_.arm_draws) +
              " draws (" + std::to_string(draws) + " in the last)";
      }
    }
    if (!why.empty()) {
      const uint32_t count = std::min(config_.trigger_frames, UINT32_MAX - 1 - n);
      config_.frames = {n + 1, n + count};
      trigger_fired_.store(true, std::memory_order_release);
      platform_log("tessera capture: " + why +
                   (config_.boundary == FrameBoundary::kPresent ? " at present " : " at frame ") + std::to_string(n) +
                   ", capturing frames " +
                   std::to_string(n + 1) + "-" + std::to_string(n + count));
    }
  }
  const bool next = config_.frames.contains(n + 1);
  if (next) pending_frame_.store(n + 1, std::memory_order_release);
  in_frame_.store(next, std::memory_order_release);
}

void Session::open_pending_frame() {
  std::lock_guard lock(mutex_);
  open_pending_frame_locked();
}

void Session::open_pending_frame_locked() {
  const uint32_t frame = pending_frame_.load();
  if (frame == 0) return;
  writer_->begin_frame(frame);
  cap::ByteWriter w;
  encode(w, cap::FrameBoundaryRecord{frame, 1});
  writer_->write_record(record_kind(cap::FrameBoundaryRecord{}), w.bytes());
  pending_frame_.store(0, std::memory_order_release);
}

void Session::close() {
  std::lock_guard lock(mutex_);
  if (done_.exchange(true)) return;
  in_frame_.store(false);
  writer_->close();
}

void report_hook_exception(const char* hook, const char* what) noexcept {
  try {
    const std::string text = std::string("exception in ") + hook + " (" + what +
                             "): passed through to the driver, its recording is incomplete";
    if (Session* s = Session::get()) {
      s->warn_once(std::string("exception:") + hook + ":" + what, text);
    } else {
      platform_log("tessera capture: " + text);
    }
  } catch (...) {
    // Not even the warning could be built (out of memory): stay silent rather than fail the
    // application.
  }
}

// ---- Lookups ---------------------------------------------------------------------------------

InstanceData* instance_data(void* key) {
  std::shared_lock lock(g_maps_mutex);
  auto it = g_instances.find(key);
  return it == g_instances.end() ? nullptr : it->second.get();
}

DeviceData* device_data(void* key) {
  std::shared_lock lock(g_maps_mutex);
  auto it = g_devices.find(key);
  return it == g_devices.end() ? nullptr : it->second.get();
}

namespace {

// The loader's link info in a create-info chain (VK_LAYER_LINK_INFO for the next layer,
// VK_LOADER_DATA_CALLBACK for the dispatch setter), per the loader-layer interface.
template <typename CreateInfo, typename LayerInfo>
LayerInfo* layer_info(const CreateInfo* ci, VkStructureType type, VkLayerFunction fn) {
  auto* s = const_cast<VkBaseOutStructure*>(reinterpret_cast<const VkBaseOutStructure*>(ci->pNext));
  for (; s != nullptr; s = s->pNext) {
    if (s->sType == type && reinterpret_cast<LayerInfo*>(s)->function == fn) {
      return reinterpret_cast<LayerInfo*>(s);
    }
  }
  return nullptr;
}

}  // namespace

// ---- Instance --------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* ci,
                                              const VkAllocationCallbacks* alloc,
                                              VkInstance* out) {
  auto* link = layer_info<VkInstanceCreateInfo, VkLayerInstanceCreateInfo>(
      ci, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, VK_LAYER_LINK_INFO);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer sees its own link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult r = create(ci, alloc, out);
  if (r != VK_SUCCESS) return r;
  // Without its dispatch table the layer cannot pass anything on for this instance: if even
  // that cannot be allocated, undo the creation and report the one result that says so.
  std::unique_ptr<InstanceData> data;
  try {
    data = std::make_unique<InstanceData>();
    std::unique_lock lock(g_maps_mutex);
    g_instances[dispatch_key(*out)] = nullptr;
  } catch (...) {
    report_hook_exception("vkCreateInstance", exception_text(std::current_exception()));
    auto destroy =
        reinterpret_cast<PFN_vkDestroyInstance>(gipa(*out, "vkDestroyInstance"));
    if (destroy != nullptr) destroy(*out, alloc);
    *out = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  data->instance = *out;
  load_instance_dispatch(data->vk, *out, gipa);
  if (ci->pApplicationInfo != nullptr && ci->pApplicationInfo->apiVersion != 0) {
    data->api_version = ci->pApplicationInfo->apiVersion;
  }
  guarded("vkCreateInstance", [&] {
    if (Session* s = Session::get(); s != nullptr && ci->pApplicationInfo != nullptr) {
      cap::CaptureInfoRecord info;
      const auto* app = ci->pApplicationInfo;
      info.entries = {{"application", app->pApplicationName ? app->pApplicationName : ""},
                      {"engine", app->pEngineName ? app->pEngineName : ""},
                      {"api_version", std::to_string(app->apiVersion)}};
      s->write(info);
    }
  });
  std::unique_lock lock(g_maps_mutex);
  g_instances[dispatch_key(*out)] = std::move(data);  // the slot exists: no allocation here
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance,
                                           const VkAllocationCallbacks* alloc) {
  if (instance == VK_NULL_HANDLE) return;
  void* key = dispatch_key(instance);
  InstanceData* d = instance_data(key);
  if (d == nullptr) return;
  d->vk.DestroyInstance(instance, alloc);
  std::unique_lock lock(g_maps_mutex);
  g_instances.erase(key);
}

namespace {

InstanceData* instance_of_physical(VkPhysicalDevice pd) { return instance_data(dispatch_key(pd)); }

// At marker boundaries the layer offers VK_EXT_frame_boundary whether or not the driver has it:
// the extension only attaches metadata to submissions (a VkFrameBoundaryEXT in their pNext
// chains), which the layer reads and, where the driver lacks the extension, keeps from the
// layers and driver below it (DeviceData::frame_boundary_emulated, ChainWithout).
bool offers_frame_boundary() {
  bool offered = false;
  guarded("vkEnumerateDeviceExtensionProperties", [&] {
    const Session* s = Session::get();
    offered = s != nullptr && s->boundary() == FrameBoundary::kMarker;
  });
  return offered;
}

VkExtensionProperties frame_boundary_properties() {
  VkExtensionProperties p{};
  std::strncpy(p.extensionName, VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME, VK_MAX_EXTENSION_NAME_SIZE - 1);
  p.specVersion = VK_EXT_FRAME_BOUNDARY_SPEC_VERSION;
  return p;
}

// The device extensions of the layers and driver below; on failure, the result of the call.
VkResult driver_extensions(InstanceData* inst, VkPhysicalDevice pd, std::vector<VkExtensionProperties>* all) {
  uint32_t n = 0;
  VkResult r = inst->vk.EnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  if (r != VK_SUCCESS) return r;
  all->resize(n);
  r = inst->vk.EnumerateDeviceExtensionProperties(pd, nullptr, &n, all->data());
  if (r < VK_SUCCESS) return r;
  all->resize(n);
  return VK_SUCCESS;
}

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [name](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

bool driver_has_extension(InstanceData* inst, VkPhysicalDevice pd, const char* name) {
  std::vector<VkExtensionProperties> all;
  return driver_extensions(inst, pd, &all) == VK_SUCCESS && has_extension(all, name);
}

VkResult filtered_extensions(InstanceData* inst, VkPhysicalDevice pd, uint32_t* count,
                             VkExtensionProperties* props);

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice pd,
                                                                  const char* layer,
                                                                  uint32_t* count,
                                                                  VkExtensionProperties* props) {
  if (layer != nullptr && std::strcmp(layer, kLayerName) == 0) {
    // The layer's own extension: VK_EXT_frame_boundary, at marker frame boundaries only.
    const bool offered = offers_frame_boundary();
    if (props == nullptr || !offered) {
      *count = offered ? 1 : 0;
      return VK_SUCCESS;
    }
    if (*count < 1) return VK_INCOMPLETE;
    props[0] = frame_boundary_properties();
    *count = 1;
    return VK_SUCCESS;
  }
  InstanceData* inst = instance_of_physical(pd);
  if (layer != nullptr || Session::get() == nullptr) {
    return inst->vk.EnumerateDeviceExtensionProperties(pd, layer, count, props);
  }
  VkResult result = VK_SUCCESS;
  if (guarded("vkEnumerateDeviceExtensionProperties",
              [&] { result = filtered_extensions(inst, pd, count, props); })) {
    return result;
  }
  // Could not filter: better every extension than none (the capture warns about hidden ones
  // the application then enables, at vkCreateDevice).
  return inst->vk.EnumerateDeviceExtensionProperties(pd, nullptr, count, props);
}

namespace {

VkResult filtered_extensions(InstanceData* inst, VkPhysicalDevice pd, uint32_t* count,
                             VkExtensionProperties* props) {
  std::vector<VkExtensionProperties> all;
  if (const VkResult r = driver_extensions(inst, pd, &all); r != VK_SUCCESS) return r;
  std::vector<VkExtensionProperties> shown;
  Session* s = Session::get();
  for (const auto& e : all) {
    if (extension_allowed(e.extensionName)) {
      shown.push_back(e);
    } else if (s->recording() && s->first_time(std::string("hidden:") + e.extensionName)) {
      // Written once per name: `tessera info` lists what the application could not use.
      s->write(cap::HiddenExtensionRecord{e.extensionName, e.specVersion});
    }
  }
  if (s->boundary() == FrameBoundary::kMarker && !has_extension(all, VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME)) {
    shown.push_back(frame_boundary_properties());
  }
  if (props == nullptr) {
    *count = static_cast<uint32_t>(shown.size());
    return VK_SUCCESS;
  }
  const uint32_t copied = std::min<uint32_t>(*count, static_cast<uint32_t>(shown.size()));
  std::memcpy(props, shown.data(), copied * sizeof(VkExtensionProperties));
  *count = copied;
  return copied < shown.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

void filter_features(InstanceData* inst, VkPhysicalDevice pd, VkPhysicalDeviceFeatures2* f) {
  const Session* s = Session::get();
  if (s == nullptr) return;
  hide_features(f->pNext);
  if (s->boundary() != FrameBoundary::kMarker) return;
  for (auto* c = static_cast<VkBaseOutStructure*>(f->pNext); c != nullptr; c = c->pNext) {
    // The layer's own feature where the layer offers the extension; a driver's answer stands.
    if (c->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAME_BOUNDARY_FEATURES_EXT &&
        !driver_has_extension(inst, pd, VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME)) {
      reinterpret_cast<VkPhysicalDeviceFrameBoundaryFeaturesEXT*>(c)->frameBoundary = VK_TRUE;
    }
  }
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice pd,
                                                      VkPhysicalDeviceFeatures2* f) {
  InstanceData* inst = instance_of_physical(pd);
  inst->vk.GetPhysicalDeviceFeatures2(pd, f);
  guarded("vkGetPhysicalDeviceFeatures2", [&] { filter_features(inst, pd, f); });
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2KHR(VkPhysicalDevice pd,
                                                         VkPhysicalDeviceFeatures2* f) {
  InstanceData* inst = instance_of_physical(pd);
  inst->vk.GetPhysicalDeviceFeatures2KHR(pd, f);
  guarded("vkGetPhysicalDeviceFeatures2KHR", [&] { filter_features(inst, pd, f); });
}

// ---- Device ----------------------------------------------------------------------------------

namespace {

void write_device_info(InstanceData* inst, VkPhysicalDevice pd, Session* s) {
  cap::DeviceInfoRecord rec;
  VkPhysicalDeviceProperties props{};
  inst->vk.GetPhysicalDeviceProperties(pd, &props);
  rec.api_version = props.apiVersion;
  rec.driver_version = props.driverVersion;
  rec.vendor_id = props.vendorID;
  rec.device_id = props.deviceID;
  rec.device_type = static_cast<uint32_t>(props.deviceType);
  rec.device_name = props.deviceName;
  // What rasterization depends on: point and line size ranges, strictLines, sample locations.
  const VkPhysicalDeviceLimits& lim = props.limits;
  rec.has_limits = 1;
  rec.limits.point_size_range[0] = lim.pointSizeRange[0];
  rec.limits.point_size_range[1] = lim.pointSizeRange[1];
  rec.limits.point_size_granularity = lim.pointSizeGranularity;
  rec.limits.line_width_range[0] = lim.lineWidthRange[0];
  rec.limits.line_width_range[1] = lim.lineWidthRange[1];
  rec.limits.line_width_granularity = lim.lineWidthGranularity;
  rec.limits.strict_lines = lim.strictLines;
  rec.limits.standard_sample_locations = lim.standardSampleLocations;
  rec.limits.framebuffer_color_sample_counts = lim.framebufferColorSampleCounts;
  rec.limits.point_clipping_behavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;  // Vulkan 1.0
  // Point clipping (1.1) and driver properties (1.2); the instance must allow 1.1 queries.
  if (props.apiVersion >= VK_API_VERSION_1_1 && inst->api_version >= VK_API_VERSION_1_1 &&
      inst->vk.GetPhysicalDeviceProperties2 != nullptr) {
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDevicePointClippingProperties clipping{};
    clipping.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES;
    const bool v12 = props.apiVersion >= VK_API_VERSION_1_2;
    clipping.pNext = v12 ? &driver : nullptr;
    VkPhysicalDeviceProperties2 p2{};
    p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    p2.pNext = &clipping;
    inst->vk.GetPhysicalDeviceProperties2(pd, &p2);
    rec.limits.point_clipping_behavior = static_cast<uint32_t>(clipping.pointClippingBehavior);
    if (v12) {
      rec.driver_id = static_cast<uint32_t>(driver.driverID);
      rec.driver_name = driver.driverName;
      rec.driver_info = driver.driverInfo;
    }
  }
  VkPhysicalDeviceMemoryProperties mem{};
  inst->vk.GetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t i = 0; i < mem.memoryHeapCount; ++i) {
    rec.memory_heaps.push_back({mem.memoryHeaps[i].size, mem.memoryHeaps[i].flags});
  }
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    rec.memory_types.push_back({mem.memoryTypes[i].heapIndex, mem.memoryTypes[i].propertyFlags});
  }
  s->write(rec);

  // Core formats (VK_FORMAT_R4G4_UNORM_PACK8 = 1 .. VK_FORMAT_ASTC_12x12_SRGB_BLOCK = 184).
  cap::FormatPropertiesRecord formats;
  for (uint32_t f = 1; f <= static_cast<uint32_t>(VK_FORMAT_ASTC_12x12_SRGB_BLOCK); ++f) {
    VkFormatProperties fp{};
    inst->vk.GetPhysicalDeviceFormatProperties(pd, static_cast<VkFormat>(f), &fp);
    if ((fp.linearTilingFeatures | fp.optimalTilingFeatures | fp.bufferFeatures) != 0) {
      formats.formats.push_back(
          {f, fp.linearTilingFeatures, fp.optimalTilingFeatures, fp.bufferFeatures});
    }
  }
  s->write(formats);
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo* ci,
                                            const VkAllocationCallbacks* alloc, VkDevice* out) {
  auto* link = layer_info<VkDeviceCreateInfo, VkLayerDeviceCreateInfo>(
      ci, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LAYER_LINK_INFO);
  auto* loader_data = layer_info<VkDeviceCreateInfo, VkLayerDeviceCreateInfo>(
      ci, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LOADER_DATA_CALLBACK);
  if (link == nullptr || link->u.pLayerInfo == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  InstanceData* inst = instance_of_physical(pd);
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(inst->instance, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  // VK_EXT_frame_boundary offered by the layer (offers_frame_boundary) is the layer's own: neither
  // its name nor its feature structure goes down.
  VkDeviceCreateInfo down_ci = *ci;
  std::vector<const char*> down_extensions;
  std::optional<ChainWithout> without_feature;
  bool emulated = false;
  guarded("vkCreateDevice", [&] {
    bool enabled = false;
    for (uint32_t i = 0; i < ci->enabledExtensionCount; ++i) {
      if (std::strcmp(ci->ppEnabledExtensionNames[i], VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME) == 0) {
        enabled = true;
      } else {
        down_extensions.push_back(ci->ppEnabledExtensionNames[i]);
      }
    }
    if (enabled && offers_frame_boundary() && !driver_has_extension(inst, pd, VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME)) {
      down_ci.enabledExtensionCount = static_cast<uint32_t>(down_extensions.size());
      down_ci.ppEnabledExtensionNames = down_extensions.data();
      without_feature.emplace(&down_ci.pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAME_BOUNDARY_FEATURES_EXT);
      emulated = true;
    }
  });
  const VkResult r = create(pd, &down_ci, alloc, out);
  if (r != VK_SUCCESS) return r;
  // As for the instance: no dispatch table, no device.
  std::unique_ptr<DeviceData> data;
  try {
    data = std::make_unique<DeviceData>();
    std::unique_lock lock(g_maps_mutex);
    g_devices[dispatch_key(*out)] = nullptr;
  } catch (...) {
    report_hook_exception("vkCreateDevice", exception_text(std::current_exception()));
    auto destroy = reinterpret_cast<PFN_vkDestroyDevice>(gdpa(*out, "vkDestroyDevice"));
    if (destroy != nullptr) destroy(*out, alloc);
    *out = VK_NULL_HANDLE;
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  data->device = *out;
  data->frame_boundary_emulated = emulated;
  data->physical_device = pd;
  data->instance = inst;
  load_device_dispatch(data->vk, *out, gdpa);
  data->set_loader_data = loader_data ? loader_data->u.pfnSetDeviceLoaderData : nullptr;
  inst->vk.GetPhysicalDeviceMemoryProperties(pd, &data->memory_properties);
  {
    VkPhysicalDeviceProperties props{};
    inst->vk.GetPhysicalDeviceProperties(pd, &props);
    data->max_readback_allocations = std::max(1u, props.limits.maxMemoryAllocationCount / 8);
  }
  uint32_t nf = 0;
  inst->vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nf, nullptr);
  // Queue families only serve the layer's readbacks: without them those are skipped.
  guarded("vkCreateDevice", [&] {
    data->queue_families.resize(nf);
    inst->vk.GetPhysicalDeviceQueueFamilyProperties(pd, &nf, data->queue_families.data());
  });

  Session* s = Session::get();
  data->hooked = s != nullptr && s->recording();
  if (data->hooked) guarded("vkCreateDevice", [&] {
    write_device_info(inst, pd, s);
    for (uint32_t i = 0; i < ci->enabledExtensionCount; ++i) {
      if (!extension_allowed(ci->ppEnabledExtensionNames[i])) {
        s->warn_once(std::string("enabled:") + ci->ppEnabledExtensionNames[i],
                     std::string("application enabled hidden device extension ") +
                         ci->ppEnabledExtensionNames[i] + "; its commands are not recorded");
      }
    }
  });
  std::unique_lock lock(g_maps_mutex);
  g_devices[dispatch_key(*out)] = std::move(data);  // the slot exists: no allocation here
  return VK_SUCCESS;
}

namespace {

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* alloc) {
  if (device == VK_NULL_HANDLE) return;
  void* key = dispatch_key(device);
  DeviceData* d = device_data(key);
  if (d == nullptr) return;
  for (VkSemaphore sem : d->retired_semaphores) d->vk.DestroySemaphore(device, sem, nullptr);
  guarded("vkDestroyDevice", [&] { release_pass_readbacks(d); });
  d->vk.DestroyDevice(device, alloc);
  // The application is shutting down before the last requested frame: finish the file now.
  // (A device destroyed before any present is a driver probe; keep capturing.)
  if (Session* s = Session::get(); s != nullptr && d->hooked && s->current_frame() > 1) {
    guarded("vkDestroyDevice", [&] { s->close(); });
  }
  std::unique_lock lock(g_maps_mutex);
  g_devices.erase(key);
}

}  // namespace

// ---- GetProcAddr -----------------------------------------------------------------------------

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance,
                                                             const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  }
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  }
  // Instance-level hooks (vkCreateInstance included) are the layer's whatever the instance.
  const Hook* hook = find_hook(name);
  if (hook != nullptr && hook->level == HookLevel::kInstance) return hook->function;
  if (instance == VK_NULL_HANDLE) return nullptr;
  InstanceData* inst = instance_data(dispatch_key(instance));
  if (inst == nullptr) return nullptr;
  // Device functions asked through the instance: hook them too when capturing, but only if the
  // next layer has them.
  PFN_vkVoidFunction next = inst->vk.GetInstanceProcAddr(instance, name);
  bool capturing = false;
  // Session::get() opens the capture file on first use; if that throws, pass through.
  guarded("vkGetInstanceProcAddr", [&] { capturing = Session::get() != nullptr; });
  if (next != nullptr && capturing && hook != nullptr) return hook->function;
  return next;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  }
  if (std::strcmp(name, "vkDestroyDevice") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(
        &Guarded<&DestroyDevice, HookName{"vkDestroyDevice"}>::call);
  }
  DeviceData* d = device_data(dispatch_key(device));
  if (d == nullptr) return nullptr;
  PFN_vkVoidFunction next = d->vk.GetDeviceProcAddr(device, name);
  // Not capturing: the application talks to the next layer directly, at no cost.
  if (next == nullptr || !d->hooked) return next;
  const Hook* hook = find_hook(name);
  return hook != nullptr && hook->level == HookLevel::kDevice ? hook->function : next;
}

}  // namespace tessera::layer

// ---- Exported loader entry points ----------------------------------------------------------

TESSERA_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                              const char* name) {
  return tessera::layer::GetInstanceProcAddr(instance, name);
}

TESSERA_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                            const char* name) {
  return tessera::layer::GetDeviceProcAddr(device, name);
}

#if defined(__ANDROID__)
// Android's loader reads no manifest: it asks the layer library itself for its name and
// extensions (Android "Vulkan validation layers", layer discovery). The layer adds no extension.
namespace {
void android_layer_properties(VkLayerProperties* p) {
  std::memset(p, 0, sizeof *p);
  std::strncpy(p->layerName, tessera::layer::kLayerName, sizeof p->layerName - 1);
  p->specVersion = VK_HEADER_VERSION_COMPLETE;
  p->implementationVersion = 1;
  std::strncpy(p->description, "Tessera: capture frames for offline replay", sizeof p->description - 1);
}
}  // namespace

TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkEnumerateInstanceLayerProperties(uint32_t* count, VkLayerProperties* props) {
  if (props == nullptr) {
    *count = 1;
    return VK_SUCCESS;
  }
  if (*count < 1) return VK_INCOMPLETE;
  android_layer_properties(props);
  *count = 1;
  return VK_SUCCESS;
}

TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkEnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* count, VkLayerProperties* props) {
  return vkEnumerateInstanceLayerProperties(count, props);
}

TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateInstanceExtensionProperties(
    const char* layer, uint32_t* count, VkExtensionProperties*) {
  if (layer == nullptr || std::strcmp(layer, tessera::layer::kLayerName) != 0) {
    return VK_ERROR_LAYER_NOT_PRESENT;
  }
  *count = 0;
  return VK_SUCCESS;
}

TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkEnumerateDeviceExtensionProperties(
    VkPhysicalDevice pd, const char* layer, uint32_t* count, VkExtensionProperties* props) {
  // Asked about this layer (physical device may be null): none. Otherwise the hook, which
  // passes down (and hides what the capture cannot record).
  if (pd == VK_NULL_HANDLE || (layer != nullptr && std::strcmp(layer, tessera::layer::kLayerName) == 0)) {
    *count = 0;
    return VK_SUCCESS;
  }
  auto fn = reinterpret_cast<PFN_vkEnumerateDeviceExtensionProperties>(
      tessera::layer::GetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateDeviceExtensionProperties"));
  return fn(pd, layer, count, props);
}
#endif

// Loader-layer interface version 2 (the loader's LoaderLayerInterface.md): gives the loader our
// GetProcAddrs without it looking them up by name.
TESSERA_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  if (v == nullptr || v->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  if (v->loaderLayerInterfaceVersion >= 2) {
    v->pfnGetInstanceProcAddr = &tessera::layer::GetInstanceProcAddr;
    v->pfnGetDeviceProcAddr = &tessera::layer::GetDeviceProcAddr;
    v->pfnGetPhysicalDeviceProcAddr = nullptr;
    v->loaderLayerInterfaceVersion = 2;
  }
  return VK_SUCCESS;
}
