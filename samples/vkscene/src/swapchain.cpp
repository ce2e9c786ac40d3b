#include "swapchain.h"

#include <algorithm>
#include <cstdio>

namespace vkscene {

const char* presentModeName(VkPresentModeKHR mode) {
    switch (mode) {
        case VK_PRESENT_MODE_FIFO_KHR: return "fifo";
        case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
        case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
        case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
        default: return "other";
    }
}

void Swapchain::destroy() {
    if (device_ == VK_NULL_HANDLE) return;
    for (VkImageView view : views) vkDestroyImageView(device_, view, nullptr);
    views.clear();
    images.clear();
    if (swapchain != VK_NULL_HANDLE) vkDestroySwapchainKHR(device_, swapchain, nullptr);
    swapchain = VK_NULL_HANDLE;
}

void Swapchain::create(const Device& device, VkSurfaceKHR surface, VkExtent2D wanted,
                       PresentMode mode, bool wantReadback) {
    device_ = device.device;
    VkSurfaceCapabilitiesKHR caps{};
    check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device.physical, surface, &caps),
          "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");

    std::uint32_t count = 0;
    check(vkGetPhysicalDeviceSurfaceFormatsKHR(device.physical, surface, &count, nullptr),
          "vkGetPhysicalDeviceSurfaceFormatsKHR");
    std::vector<VkSurfaceFormatKHR> formats(count);
    check(vkGetPhysicalDeviceSurfaceFormatsKHR(device.physical, surface, &count, formats.data()),
          "vkGetPhysicalDeviceSurfaceFormatsKHR");
    if (count == 0) throw Error("the surface reports no formats");
    // UNORM first: shading then writes exactly what the shaders compute, which keeps frames
    // comparable bit for bit with headless runs (which use R8G8B8A8_UNORM).
    VkSurfaceFormatKHR chosen = formats[0];
    for (VkFormat preferred : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM}) {
        auto it = std::find_if(formats.begin(), formats.end(),
                               [&](const VkSurfaceFormatKHR& f) { return f.format == preferred; });
        if (it != formats.end()) {
            chosen = *it;
            break;
        }
    }
    format = chosen.format;

    // currentExtent 0xFFFFFFFF means "the swapchain decides" (Vulkan spec,
    // VkSurfaceCapabilitiesKHR); otherwise it must match the window.
    if (caps.currentExtent.width == 0xFFFFFFFFu) {
        extent.width =
            std::clamp(wanted.width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height =
            std::clamp(wanted.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    } else {
        extent = caps.currentExtent;
    }
    if (extent.width == 0 || extent.height == 0) throw Error("the window has a zero-sized surface");

    // FIFO is the only mode every implementation must support (VUID of vkCreateSwapchainKHR).
    VkPresentModeKHR wantedMode = VK_PRESENT_MODE_FIFO_KHR;
    if (mode == PresentMode::Mailbox) wantedMode = VK_PRESENT_MODE_MAILBOX_KHR;
    if (mode == PresentMode::Immediate) wantedMode = VK_PRESENT_MODE_IMMEDIATE_KHR;
    check(vkGetPhysicalDeviceSurfacePresentModesKHR(device.physical, surface, &count, nullptr),
          "vkGetPhysicalDeviceSurfacePresentModesKHR");
    std::vector<VkPresentModeKHR> modes(count);
    check(vkGetPhysicalDeviceSurfacePresentModesKHR(device.physical, surface, &count, modes.data()),
          "vkGetPhysicalDeviceSurfacePresentModesKHR");
    presentMode = VK_PRESENT_MODE_FIFO_KHR;
    if (std::find(modes.begin(), modes.end(), wantedMode) != modes.end()) {
        presentMode = wantedMode;
    } else if (swapchain == VK_NULL_HANDLE) {
        std::fprintf(stderr, "vkscene: present mode %s not supported, using fifo\n",
                     presentModeName(wantedMode));
    }

    // One image more than the minimum so acquiring never waits for the presentation engine to
    // release the image it is scanning out.
    std::uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount != 0) imageCount = std::min(imageCount, caps.maxImageCount);

    VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    readback = wantReadback && (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    if (wantReadback && !readback) {
        throw Error("--dump-last-frame: the surface does not allow reading swapchain images "
                    "(no TRANSFER_SRC usage); use --headless");
    }
    if (readback) usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;

    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if ((caps.supportedCompositeAlpha & alpha) == 0) {
        for (VkCompositeAlphaFlagBitsKHR bit :
             {VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR,
              VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR}) {
            if ((caps.supportedCompositeAlpha & bit) != 0) {
                alpha = bit;
                break;
            }
        }
    }

    VkSwapchainKHR old = swapchain;
    VkSwapchainCreateInfoKHR info{};
    info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
    info.surface = surface;
    info.minImageCount = imageCount;
    info.imageFormat = chosen.format;
    info.imageColorSpace = chosen.colorSpace;
    info.imageExtent = extent;
    info.imageArrayLayers = 1;
    info.imageUsage = usage;
    info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR) != 0
                            ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                            : caps.currentTransform;
    info.compositeAlpha = alpha;
    info.presentMode = presentMode;
    info.clipped = VK_TRUE;
    info.oldSwapchain = old;
    VkSwapchainKHR created = VK_NULL_HANDLE;
    check(vkCreateSwapchainKHR(device.device, &info, nullptr, &created), "vkCreateSwapchainKHR");
    // The old swapchain is retired by the create call; the caller waited for the device to be
    // idle, so none of its images is still in use.
    destroy();
    device_ = device.device;
    swapchain = created;

    check(vkGetSwapchainImagesKHR(device.device, swapchain, &count, nullptr),
          "vkGetSwapchainImagesKHR");
    images.resize(count);
    check(vkGetSwapchainImagesKHR(device.device, swapchain, &count, images.data()),
          "vkGetSwapchainImagesKHR");
    for (VkImage image : images) {
        VkImageViewCreateInfo view{};
        view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
        view.image = image;
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = format;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView handle = VK_NULL_HANDLE;
        check(vkCreateImageView(device.device, &view, nullptr, &handle), "vkCreateImageView");
        views.push_back(handle);
    }
}

}  // namespace vkscene
