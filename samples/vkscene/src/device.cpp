#include "device.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace vkscene {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool hasExtension(const std::vector<VkExtensionProperties>& list, const char* name) {
    return std::any_of(list.begin(), list.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

std::vector<VkExtensionProperties> instanceExtensions(const char* layer) {
    std::uint32_t count = 0;
    check(vkEnumerateInstanceExtensionProperties(layer, &count, nullptr),
          "vkEnumerateInstanceExtensionProperties");
    std::vector<VkExtensionProperties> list(count);
    check(vkEnumerateInstanceExtensionProperties(layer, &count, list.data()),
          "vkEnumerateInstanceExtensionProperties");
    list.resize(count);
    return list;
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice physical) {
    std::uint32_t count = 0;
    check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr),
          "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> list(count);
    check(vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, list.data()),
          "vkEnumerateDeviceExtensionProperties");
    list.resize(count);
    return list;
}

const char* deviceTypeName(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
        default: return "other";
    }
}

}  // namespace

Device::~Device() { destroy(); }

void Device::destroy() {
    if (device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(device);
        if (setupPool != VK_NULL_HANDLE) vkDestroyCommandPool(device, setupPool, nullptr);
        vkDestroyDevice(device, nullptr);
        device = VK_NULL_HANDLE;
        setupPool = VK_NULL_HANDLE;
    }
    if (messenger_ != VK_NULL_HANDLE) {
        auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroyMessenger != nullptr) destroyMessenger(instance, messenger_, nullptr);
        messenger_ = VK_NULL_HANDLE;
    }
    if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
    instance = VK_NULL_HANDLE;
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::onMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    // Loader notices such as "env var 'VK_INSTANCE_LAYERS' defined and adding layers" arrive as
    // GENERAL warnings; they describe the environment (a capture launcher sets that variable),
    // not a misuse of the API, so they neither count nor print.
    if (types == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT &&
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) == 0) {
        return VK_FALSE;
    }
    auto* self = static_cast<Device*>(user);
    self->messages_.fetch_add(1);
    const char* level =
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
    std::fprintf(stderr, "vkscene: validation %s: %s\n", level,
                 data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)");
    // Returning VK_FALSE is required by the spec for application callbacks.
    return VK_FALSE;
}

void Device::createInstance(bool windowed, bool validate, bool labels) {
    // Vulkan 1.1 is the floor: vkEnumerateInstanceVersion exists only from 1.1, so a
    // 1.0 loader has no such entry point.
    auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
        vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
    std::uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (enumerateVersion != nullptr) enumerateVersion(&loaderVersion);
    if (loaderVersion < VK_API_VERSION_1_1) {
        throw Error("the Vulkan loader supports only Vulkan 1.0; vkscene needs 1.1");
    }

    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    const auto available = instanceExtensions(nullptr);
    if (windowed) {
        for (const char* name : {VK_KHR_SURFACE_EXTENSION_NAME, "VK_KHR_xcb_surface"}) {
            if (!hasExtension(available, name)) {
                throw Error(std::string("instance extension ") + name +
                            " is missing (use --headless to render without a window)");
            }
            extensions.push_back(name);
        }
    }

    bool validationFeatures = false;
    if (validate) {
        std::uint32_t count = 0;
        check(vkEnumerateInstanceLayerProperties(&count, nullptr),
              "vkEnumerateInstanceLayerProperties");
        std::vector<VkLayerProperties> props(count);
        check(vkEnumerateInstanceLayerProperties(&count, props.data()),
              "vkEnumerateInstanceLayerProperties");
        const bool found = std::any_of(props.begin(), props.begin() + count, [](auto& l) {
            return std::strcmp(l.layerName, kValidationLayer) == 0;
        });
        if (!found) {
            throw Error(std::string("--validate: layer ") + kValidationLayer +
                        " is not installed (Debian: vulkan-validationlayers)");
        }
        layers.push_back(kValidationLayer);
        // The layer itself provides debug utils and validation features.
        const auto layerExtensions = instanceExtensions(kValidationLayer);
        if (!hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
            !hasExtension(layerExtensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
            throw Error("--validate: VK_EXT_debug_utils is not available");
        }
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        validationFeatures =
            hasExtension(layerExtensions, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        if (validationFeatures) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }
    labels_ = labels;
    if (labels && !validate) {
        if (!hasExtension(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
            throw Error("--frame-labels: VK_EXT_debug_utils is not available");
        }
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }

    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "Tessera vkscene";
    app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
    app.pEngineName = "Tessera";
    app.engineVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
    app.apiVersion = VK_API_VERSION_1_1;

    VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};
    messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messengerInfo.pfnUserCallback = &Device::onMessage;
    messengerInfo.pUserData = this;

    // Synchronization validation catches the hazards that matter most to a capture: a capture
    // records contents "as they were when the frame started", which is only well defined when
    // the app's own barriers are right.
    const VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{};
    features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;

    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (validate) {
        // Chained messenger info also reports problems inside vkCreateInstance itself.
        info.pNext = &messengerInfo;
        if (validationFeatures) messengerInfo.pNext = &features;
    }

    const VkResult result = vkCreateInstance(&info, nullptr, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
        throw Error("no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); "
                    "install one, e.g. Mesa lavapipe (mesa-vulkan-drivers)");
    }
    check(result, "vkCreateInstance");

    if (validate) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create == nullptr) throw Error("--validate: vkCreateDebugUtilsMessengerEXT missing");
        messengerInfo.pNext = nullptr;
        check(create(instance, &messengerInfo, nullptr, &messenger_),
              "vkCreateDebugUtilsMessengerEXT");
    }
}

void Device::pickPhysicalDevice(VkSurfaceKHR surface) {
    std::uint32_t count = 0;
    check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    if (count == 0) {
        throw Error("no Vulkan device found (install a driver, e.g. Mesa lavapipe from "
                    "mesa-vulkan-drivers)");
    }
    std::vector<VkPhysicalDevice> devices(count);
    check(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
          "vkEnumeratePhysicalDevices");

    // Prefer real GPUs over CPU implementations, keeping enumeration order otherwise, so the
    // choice is stable from run to run.
    auto rank = [](VkPhysicalDeviceType type) {
        switch (type) {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
            case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
            default: return 4;
        }
    };
    int bestRank = 1000;
    std::string rejected;
    for (VkPhysicalDevice candidate : devices) {
        VkPhysicalDeviceProperties props{};
        vkGetPhysicalDeviceProperties(candidate, &props);
        if (props.apiVersion < VK_API_VERSION_1_1) {
            rejected = std::string(props.deviceName) + " supports only Vulkan 1.0";
            continue;
        }
        std::uint32_t familyCount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, nullptr);
        std::vector<VkQueueFamilyProperties> families(familyCount);
        vkGetPhysicalDeviceQueueFamilyProperties(candidate, &familyCount, families.data());
        for (std::uint32_t family = 0; family < familyCount; ++family) {
            if ((families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT) == 0) continue;
            if (surface != VK_NULL_HANDLE) {
                VkBool32 present = VK_FALSE;
                check(vkGetPhysicalDeviceSurfaceSupportKHR(candidate, family, surface, &present),
                      "vkGetPhysicalDeviceSurfaceSupportKHR");
                if (present != VK_TRUE) continue;
            }
            if (rank(props.deviceType) < bestRank) {
                bestRank = rank(props.deviceType);
                physical = candidate;
                queueFamily = family;
                properties = props;
            }
            break;
        }
        if (physical != candidate && rejected.empty()) {
            rejected = std::string(props.deviceName) +
                       (surface != VK_NULL_HANDLE ? " has no queue that draws and presents"
                                                  : " has no graphics queue");
        }
    }
    if (physical == VK_NULL_HANDLE) throw Error("no usable Vulkan device: " + rejected);
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
}

void Device::insertLabel(const char* name) const {
    if (insertLabel_ == nullptr) return;
    VkDebugUtilsLabelEXT label{};
    label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
    label.pLabelName = name;
    insertLabel_(queue, &label);
}

void Device::createDevice(bool windowed, float wantedAnisotropy, bool frameBoundary) {
    VkPhysicalDeviceFeatures supported{};
    vkGetPhysicalDeviceFeatures(physical, &supported);
    // Anisotropic filtering is optional in Vulkan (samplerAnisotropy); lavapipe has it. Without
    // it the "anisotropic" sampler degrades to trilinear and the summary line says so.
    VkPhysicalDeviceFeatures enabled{};
    anisotropy = supported.samplerAnisotropy == VK_TRUE;
    enabled.samplerAnisotropy = anisotropy ? VK_TRUE : VK_FALSE;
    maxAnisotropy =
        anisotropy ? std::min(wantedAnisotropy, properties.limits.maxSamplerAnisotropy) : 1.0f;
    // depthBiasClamp is optional too; samples that clamp depth bias (vkbreadth) check it.
    depthBiasClamp = supported.depthBiasClamp == VK_TRUE;
    enabled.depthBiasClamp = supported.depthBiasClamp;

    std::vector<const char*> extensions;
    if (windowed) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    // VK_EXT_frame_boundary: its extension and its feature, as any application enables them.
    VkPhysicalDeviceFrameBoundaryFeaturesEXT frameBoundaryFeature{};
    frameBoundaryFeature.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAME_BOUNDARY_FEATURES_EXT;
    if (frameBoundary) {
        if (!hasExtension(deviceExtensions(physical), VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME)) {
            throw Error("--frame-boundary-ext: " + std::string(properties.deviceName) +
                        " does not offer VK_EXT_frame_boundary");
        }
        VkPhysicalDeviceFeatures2 query{};
        query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
        query.pNext = &frameBoundaryFeature;
        vkGetPhysicalDeviceFeatures2(physical, &query);
        if (frameBoundaryFeature.frameBoundary != VK_TRUE) {
            throw Error("--frame-boundary-ext: the frameBoundary feature is not supported");
        }
        extensions.push_back(VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME);
    }

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{};
    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queueInfo.queueFamilyIndex = queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.pEnabledFeatures = &enabled;
    if (frameBoundary) info.pNext = &frameBoundaryFeature;
    check(vkCreateDevice(physical, &info, nullptr, &device), "vkCreateDevice");
    vkGetDeviceQueue(device, queueFamily, 0, &queue);
    if (labels_) {
        insertLabel_ = reinterpret_cast<PFN_vkQueueInsertDebugUtilsLabelEXT>(
            vkGetDeviceProcAddr(device, "vkQueueInsertDebugUtilsLabelEXT"));
        if (insertLabel_ == nullptr) throw Error("--frame-labels: vkQueueInsertDebugUtilsLabelEXT is not available");
    }

    VkCommandPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    poolInfo.queueFamilyIndex = queueFamily;
    check(vkCreateCommandPool(device, &poolInfo, nullptr, &setupPool), "vkCreateCommandPool");
}

std::uint32_t Device::findMemoryType(std::uint32_t typeBits, VkMemoryPropertyFlags flags) const {
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        if ((typeBits & (1u << i)) != 0 && (memory.memoryTypes[i].propertyFlags & flags) == flags) {
            return i;
        }
    }
    throw Error("no Vulkan memory type with the required properties");
}

VkCommandBuffer Device::beginOneTime() const {
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = setupPool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device, &alloc, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    return cmd;
}

void Device::endOneTime(VkCommandBuffer cmd) const {
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    vkFreeCommandBuffers(device, setupPool, 1, &cmd);
}

std::string Device::describe() const {
    return std::string(properties.deviceName) + " (" + deviceTypeName(properties.deviceType) +
           ", Vulkan " + std::to_string(VK_API_VERSION_MAJOR(properties.apiVersion)) + "." +
           std::to_string(VK_API_VERSION_MINOR(properties.apiVersion)) + ")";
}

}  // namespace vkscene
