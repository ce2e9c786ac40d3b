// Instance, physical device and logical device setup. One graphics queue that can also present:
// vkscene is a single-queue app like most mobile games, which keeps the submit order (and so the
// order a capture records) a total order.
#pragma once

#include "vkutil.h"
#include "vk_ext_frame_boundary.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace vkscene {

class Device {
public:
    Device() = default;
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    // windowed: enable the surface extensions. validate: enable VK_LAYER_KHRONOS_validation,
    // synchronization validation and a debug messenger that counts what it reports.
    // labels: enable VK_EXT_debug_utils for queue labels (insertLabel).
    void createInstance(bool windowed, bool validate, bool labels = false);
    // surface may be VK_NULL_HANDLE (headless); otherwise the queue must be able to present to it.
    void pickPhysicalDevice(VkSurfaceKHR surface);
    // maxAnisotropy: what the anisotropic sampler should use (clamped to the device limit).
    // frameBoundary: enable VK_EXT_frame_boundary (throws Error when the device lacks it).
    void createDevice(bool windowed, float wantedAnisotropy, bool frameBoundary = false);
    // Destroys device and instance (also done by the destructor). Messages the validation layer
    // reports while destroying (leaked objects) still reach the counter.
    void destroy();

    std::uint32_t findMemoryType(std::uint32_t typeBits, VkMemoryPropertyFlags flags) const;
    // For setup uploads only: record, submit, wait for idle.
    VkCommandBuffer beginOneTime() const;
    void endOneTime(VkCommandBuffer cmd) const;

    // Inserts a debug label into the queue (createInstance with labels; a no-op otherwise).
    void insertLabel(const char* name) const;

    std::uint32_t validationMessages() const { return messages_.load(); }
    std::string describe() const;

    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    std::uint32_t queueFamily = 0;
    VkCommandPool setupPool = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory{};
    bool anisotropy = false;       // samplerAnisotropy enabled on the device
    float maxAnisotropy = 1.0f;    // what the anisotropic sampler uses (<= 16)
    bool depthBiasClamp = false;   // the depthBiasClamp feature, enabled when supported

private:
    static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(
        VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
        const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);

    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    bool labels_ = false;
    PFN_vkQueueInsertDebugUtilsLabelEXT insertLabel_ = nullptr;
    std::atomic<std::uint32_t> messages_{0};
};

}  // namespace vkscene
