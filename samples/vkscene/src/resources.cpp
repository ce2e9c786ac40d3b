#include "resources.h"

#include <algorithm>
#include <cstring>

namespace vkscene {

Buffer createBuffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage,
                    VkMemoryPropertyFlags properties) {
    Buffer buffer;
    buffer.size = size;
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(device.device, &info, nullptr, &buffer.buffer), "vkCreateBuffer");

    VkMemoryRequirements req{};
    vkGetBufferMemoryRequirements(device.device, buffer.buffer, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = device.findMemoryType(req.memoryTypeBits, properties);
    const VkResult result = vkAllocateMemory(device.device, &alloc, nullptr, &buffer.memory);
    if (result != VK_SUCCESS) {
        vkDestroyBuffer(device.device, buffer.buffer, nullptr);
        check(result, "vkAllocateMemory (buffer)");
    }
    check(vkBindBufferMemory(device.device, buffer.buffer, buffer.memory, 0), "vkBindBufferMemory");
    if ((properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0) {
        check(vkMapMemory(device.device, buffer.memory, 0, VK_WHOLE_SIZE, 0, &buffer.mapped),
              "vkMapMemory");
    }
    return buffer;
}

void destroyBuffer(VkDevice device, Buffer& buffer) {
    if (buffer.mapped != nullptr) vkUnmapMemory(device, buffer.memory);
    if (buffer.buffer != VK_NULL_HANDLE) vkDestroyBuffer(device, buffer.buffer, nullptr);
    if (buffer.memory != VK_NULL_HANDLE) vkFreeMemory(device, buffer.memory, nullptr);
    buffer = Buffer{};
}

Buffer createDeviceBuffer(const Device& device, std::span<const std::uint8_t> bytes,
                          VkBufferUsageFlags usage) {
    Buffer staging = createBuffer(device, bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    std::memcpy(staging.mapped, bytes.data(), bytes.size());
    Buffer buffer = createBuffer(device, bytes.size(), usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkCommandBuffer cmd = device.beginOneTime();
    const VkBufferCopy region{0, 0, bytes.size()};
    vkCmdCopyBuffer(cmd, staging.buffer, buffer.buffer, 1, &region);
    // endOneTime waits for the queue to be idle, which makes the copy visible to every later
    // submission (queue idle is a full host-side synchronization point).
    device.endOneTime(cmd);
    destroyBuffer(device.device, staging);
    return buffer;
}

Image createImage(const Device& device, VkExtent2D extent, VkFormat format,
                  std::uint32_t mipLevels, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    Image image;
    image.format = format;
    image.extent = extent;
    image.mipLevels = mipLevels;
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = mipLevels;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(device.device, &info, nullptr, &image.image), "vkCreateImage");

    VkMemoryRequirements req{};
    vkGetImageMemoryRequirements(device.device, image.image, &req);
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex =
        device.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    const VkResult result = vkAllocateMemory(device.device, &alloc, nullptr, &image.memory);
    if (result != VK_SUCCESS) {
        vkDestroyImage(device.device, image.image, nullptr);
        check(result, "vkAllocateMemory (image)");
    }
    check(vkBindImageMemory(device.device, image.image, image.memory, 0), "vkBindImageMemory");

    VkImageViewCreateInfo view{};
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view.image = image.image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {aspect, 0, mipLevels, 0, 1};
    check(vkCreateImageView(device.device, &view, nullptr, &image.view), "vkCreateImageView");
    return image;
}

void destroyImage(VkDevice device, Image& image) {
    if (image.view != VK_NULL_HANDLE) vkDestroyImageView(device, image.view, nullptr);
    if (image.image != VK_NULL_HANDLE) vkDestroyImage(device, image.image, nullptr);
    if (image.memory != VK_NULL_HANDLE) vkFreeMemory(device, image.memory, nullptr);
    image = Image{};
}

std::uint32_t mipCount(std::uint32_t width, std::uint32_t height) {
    std::uint32_t levels = 1;
    for (std::uint32_t size = std::max(width, height); size > 1; size >>= 1) ++levels;
    return levels;
}

namespace {

void barrier(VkCommandBuffer cmd, VkImage image, std::uint32_t baseMip, std::uint32_t mipLevels,
             VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
             VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
             VkPipelineStageFlags dstStage) {
    VkImageMemoryBarrier b{};
    b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    b.srcAccessMask = srcAccess;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, baseMip, mipLevels, 0, 1};
    vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

}  // namespace

Image createTexture(const Device& device, const Pixels& pixels) {
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    const std::uint32_t levels = mipCount(pixels.width, pixels.height);
    Image image = createImage(device, {pixels.width, pixels.height}, format, levels,
                              VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                              VK_IMAGE_ASPECT_COLOR_BIT);
    Buffer staging = createBuffer(device, pixels.rgba.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    std::memcpy(staging.mapped, pixels.rgba.data(), pixels.rgba.size());

    VkCommandBuffer cmd = device.beginOneTime();
    barrier(cmd, image.image, 0, levels, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {pixels.width, pixels.height, 1};
    vkCmdCopyBufferToImage(cmd, staging.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           1, &copy);

    // Level i is made from level i-1: each source level goes TRANSFER_DST -> TRANSFER_SRC after
    // it was written, then to SHADER_READ_ONLY once it has been read.
    std::int32_t w = static_cast<std::int32_t>(pixels.width);
    std::int32_t h = static_cast<std::int32_t>(pixels.height);
    for (std::uint32_t level = 1; level < levels; ++level) {
        barrier(cmd, image.image, level - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_PIPELINE_STAGE_TRANSFER_BIT);
        const std::int32_t nw = std::max(w / 2, 1);
        const std::int32_t nh = std::max(h / 2, 1);
        VkImageBlit blit{};
        blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, 1};
        blit.srcOffsets[1] = {w, h, 1};
        blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
        blit.dstOffsets[1] = {nw, nh, 1};
        vkCmdBlitImage(cmd, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
        barrier(cmd, image.image, level - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_READ_BIT,
                VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        w = nw;
        h = nh;
    }
    barrier(cmd, image.image, levels - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
    device.endOneTime(cmd);
    destroyBuffer(device.device, staging);
    return image;
}

}  // namespace vkscene
