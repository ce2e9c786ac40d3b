// The presentation engine's images. vkscene renders straight into them, the way games do, so a
// capture layer sees the ordinary swapchain usage (the presented image is read back).
#pragma once

#include "device.h"
#include "options.h"

#include <vector>

namespace vkscene {

class Swapchain {
public:
    Swapchain() = default;
    ~Swapchain() { destroy(); }
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    // wantReadback adds TRANSFER_SRC usage (needed by --dump-last-frame) when the surface allows
    // it. Recreating (after VK_ERROR_OUT_OF_DATE_KHR) passes the old swapchain to the driver.
    void create(const Device& device, VkSurfaceKHR surface, VkExtent2D wanted, PresentMode mode,
                bool wantReadback);
    void destroy();

    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    VkPresentModeKHR presentMode = VK_PRESENT_MODE_FIFO_KHR;
    bool readback = false;   // images have TRANSFER_SRC usage
    std::vector<VkImage> images;
    std::vector<VkImageView> views;

private:
    VkDevice device_ = VK_NULL_HANDLE;
};

const char* presentModeName(VkPresentModeKHR mode);

}  // namespace vkscene
