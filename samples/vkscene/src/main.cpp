// vkscene: Tessera's Vulkan sample application. Renders a fixed number of
// frames of a deterministic scene (scene.h) in a window through a swapchain, or headless into
// offscreen images, then prints one summary line with the frame rate.
//
// Exit codes: 0 success, 1 runtime error (one line on stderr), 2 bad command line,
// 3 --validate and the validation layer reported something.
#include "device.h"
#include "options.h"
#include "resources.h"
#include "scene.h"
#include "swapchain.h"
#include "window.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace vkscene {

namespace {

// Two frames in flight: the CPU records frame N+1 while the GPU renders frame N, the usual
// double-buffered structure of games.
constexpr std::uint32_t kFramesInFlight = 2;
constexpr VkFormat kHeadlessFormat = VK_FORMAT_R8G8B8A8_UNORM;

// Command buffers, fences and semaphores of the frame loop.
struct FrameSync {
    VkDevice device = VK_NULL_HANDLE;
    // One pool per frame slot, reset whole each frame: cheaper than resetting command buffers
    // one by one, and what the Best Practices layer recommends.
    std::vector<VkCommandPool> pools;
    std::vector<VkCommandBuffer> commands;
    std::vector<VkFence> inFlight;        // per slot: the GPU finished the slot's last frame
    std::vector<VkSemaphore> acquired;    // per slot: swapchain image ready to be written
    std::vector<VkSemaphore> rendered;    // per swapchain image: rendering done, may present

    ~FrameSync() {
        if (device == VK_NULL_HANDLE) return;
        vkDeviceWaitIdle(device);
        for (VkFence f : inFlight) vkDestroyFence(device, f, nullptr);
        for (VkSemaphore s : acquired) vkDestroySemaphore(device, s, nullptr);
        for (VkSemaphore s : rendered) vkDestroySemaphore(device, s, nullptr);
        for (VkCommandPool pool : pools) vkDestroyCommandPool(device, pool, nullptr);
    }

    VkSemaphore makeSemaphore() const {
        VkSemaphoreCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
        VkSemaphore s = VK_NULL_HANDLE;
        check(vkCreateSemaphore(device, &info, nullptr, &s), "vkCreateSemaphore");
        return s;
    }

    void create(const Device& dev) {
        device = dev.device;
        for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
            VkCommandPoolCreateInfo poolInfo{};
            poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
            poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
            poolInfo.queueFamilyIndex = dev.queueFamily;
            VkCommandPool pool = VK_NULL_HANDLE;
            check(vkCreateCommandPool(device, &poolInfo, nullptr, &pool), "vkCreateCommandPool");
            pools.push_back(pool);
            VkCommandBufferAllocateInfo alloc{};
            alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
            alloc.commandPool = pool;
            alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            alloc.commandBufferCount = 1;
            VkCommandBuffer cmd = VK_NULL_HANDLE;
            check(vkAllocateCommandBuffers(device, &alloc, &cmd), "vkAllocateCommandBuffers");
            commands.push_back(cmd);

            VkFenceCreateInfo fenceInfo{};
            fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
            fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // the first wait must not block
            VkFence fence = VK_NULL_HANDLE;
            check(vkCreateFence(device, &fenceInfo, nullptr, &fence), "vkCreateFence");
            inFlight.push_back(fence);
            acquired.push_back(makeSemaphore());
        }
    }

    // A render-finished semaphore per swapchain image, not per frame slot: a semaphore waited on
    // by a present can only be reused once that image has been acquired again. After a
    // swapchain recreation the old semaphores are kept, never destroyed: Vulkan 1.1 offers no
    // way to know when the presentation engine has finished waiting on them.
    void growRendered(std::size_t count) {
        while (rendered.size() < count) rendered.push_back(makeSemaphore());
    }
};

// Offscreen colour targets that stand in for swapchain images in --headless mode.
struct HeadlessTargets {
    VkDevice device = VK_NULL_HANDLE;
    std::vector<Image> images;
    ~HeadlessTargets() {
        for (Image& image : images) destroyImage(device, image);
    }
};

struct Readback {
    VkDevice device = VK_NULL_HANDLE;
    Buffer buffer;
    ~Readback() { destroyBuffer(device, buffer); }
};

void recordCopy(VkCommandBuffer cmd, VkImage image, VkExtent2D extent, VkBuffer buffer,
                bool thenPresent) {
    // The readback render pass left the image in TRANSFER_SRC_OPTIMAL with its colour writes
    // made available to transfer reads (its 0 -> EXTERNAL dependency).
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &region);

    // Host reads after the fence need the transfer writes made visible to the host domain.
    VkBufferMemoryBarrier toHost{};
    toHost.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    toHost.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.buffer = buffer;
    toHost.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         nullptr, 1, &toHost, 0, nullptr);

    if (thenPresent) {
        // Back to the layout presentation requires; a read-then-transition is a write-after-read
        // hazard, so an execution dependency (no source access) is enough.
        VkImageMemoryBarrier toPresent{};
        toPresent.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        toPresent.srcAccessMask = 0;
        toPresent.dstAccessMask = 0;
        toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
        toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        toPresent.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toPresent.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toPresent.image = image;
        toPresent.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, nullptr, 0, nullptr, 1,
                             &toPresent);
    }
}

// Opened before any rendering, so a bad path fails in milliseconds, not after the whole run.
std::ofstream openDump(const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw Error("cannot write " + path + ": " + std::strerror(errno));
    return out;
}

void writePpm(std::ofstream& out, const std::string& path, const Buffer& buffer,
              VkExtent2D extent, VkFormat format) {
    // Swapchains are often BGRA; PPM is RGB.
    const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
    out << "P6\n" << extent.width << " " << extent.height << "\n255\n";
    const auto* src = static_cast<const std::uint8_t*>(buffer.mapped);
    std::vector<char> row(static_cast<std::size_t>(extent.width) * 3);
    for (std::uint32_t y = 0; y < extent.height; ++y) {
        for (std::uint32_t x = 0; x < extent.width; ++x) {
            const std::uint8_t* p = src + (static_cast<std::size_t>(y) * extent.width + x) * 4;
            row[x * 3 + 0] = static_cast<char>(bgra ? p[2] : p[0]);
            row[x * 3 + 1] = static_cast<char>(p[1]);
            row[x * 3 + 2] = static_cast<char>(bgra ? p[0] : p[2]);
        }
        out.write(row.data(), static_cast<std::streamsize>(row.size()));
    }
    out.close();
    if (!out) throw Error("cannot write " + path + ": write failed");
}

struct RunResult {
    double seconds = 0.0;
    std::string summary;
};

RunResult render(const Options& options, Device& device) {
    const bool windowed = !options.headless;
    const bool dump = !options.dumpLastFrame.empty();
    // Declaration order is destruction order in reverse: everything here goes before the
    // device, and the swapchain before the window's surface.
    std::ofstream dumpFile;
    if (dump) dumpFile = openDump(options.dumpLastFrame);
    Window window;
    if (windowed) window.open(options.width, options.height, "Tessera vkscene");
    device.createInstance(windowed, options.validate, options.frameLabels);
    VkSurfaceKHR surface = windowed ? window.createSurface(device.instance) : VK_NULL_HANDLE;
    device.pickPhysicalDevice(surface);
    if (options.width > device.properties.limits.maxFramebufferWidth ||
        options.height > device.properties.limits.maxFramebufferHeight) {
        throw Error("--width/--height exceed the device's maximum framebuffer size " +
                    std::to_string(device.properties.limits.maxFramebufferWidth) + "x" +
                    std::to_string(device.properties.limits.maxFramebufferHeight));
    }
    device.createDevice(windowed, static_cast<float>(options.anisotropy), options.frameBoundaryExt);

    Swapchain swapchain;
    HeadlessTargets headless;
    headless.device = device.device;
    VkFormat format = kHeadlessFormat;
    VkExtent2D extent{options.width, options.height};
    std::vector<VkImageView> views;
    if (windowed) {
        swapchain.create(device, surface, extent, options.presentMode, dump);
        format = swapchain.format;
        extent = swapchain.extent;
        views = swapchain.views;
    } else {
        for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
            headless.images.push_back(createImage(
                device, extent, format, 1,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT));
            views.push_back(headless.images.back().view);
        }
    }

    Readback readback;
    readback.device = device.device;
    if (dump) {
        readback.buffer = createBuffer(
            device, static_cast<VkDeviceSize>(extent.width) * extent.height * 4,
            VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    }

    Scene scene;
    scene.create(device, format,
                 windowed ? VK_IMAGE_LAYOUT_PRESENT_SRC_KHR : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 kFramesInFlight);
    scene.createTargets(extent, views);

    FrameSync sync;
    sync.create(device);
    sync.growRendered(views.size());

    std::uint32_t recreations = 0;
    VkExtent2D windowSize{options.width, options.height};
    auto recreate = [&]() {
        check(vkDeviceWaitIdle(device.device), "vkDeviceWaitIdle");
        scene.destroyTargets();
        const VkFormat before = swapchain.format;
        swapchain.create(device, surface, windowSize, options.presentMode, dump);
        // Pipelines and render passes were built for the format; only the size may change.
        if (swapchain.format != before) throw Error("the swapchain format changed on recreation");
        if (swapchain.extent.width != extent.width || swapchain.extent.height != extent.height) {
            extent = swapchain.extent;
            if (dump) {
                destroyBuffer(device.device, readback.buffer);
                readback.buffer = createBuffer(
                    device, static_cast<VkDeviceSize>(extent.width) * extent.height * 4,
                    VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
            }
        }
        scene.createTargets(extent, swapchain.views);
        sync.growRendered(swapchain.views.size());
        ++recreations;
    };

    const auto start = std::chrono::steady_clock::now();  // timing only, never animation
    for (std::uint32_t frame = 0; frame < options.frames; ++frame) {
        if (windowed) {
            if (options.resizeAt != 0 && frame == options.resizeAt) {
                windowSize = {std::max(options.width / 2, 1u), std::max(options.height / 2, 1u)};
                window.resize(windowSize.width, windowSize.height);
            }
            if (window.poll()) recreate();
        }
        const std::uint32_t slot = frame % kFramesInFlight;
        check(vkWaitForFences(device.device, 1, &sync.inFlight[slot], VK_TRUE, UINT64_MAX),
              "vkWaitForFences");

        std::uint32_t target = slot;
        if (windowed) {
            for (int attempt = 0;; ++attempt) {
                const VkResult r = vkAcquireNextImageKHR(device.device, swapchain.swapchain,
                                                         UINT64_MAX, sync.acquired[slot],
                                                         VK_NULL_HANDLE, &target);
                if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) break;
                if (r == VK_ERROR_OUT_OF_DATE_KHR && attempt < 3) {
                    recreate();
                    continue;
                }
                check(r, "vkAcquireNextImageKHR");
            }
        }
        check(vkResetFences(device.device, 1, &sync.inFlight[slot]), "vkResetFences");

        const bool last = frame + 1 == options.frames;
        const bool copyOut = dump && last;
        scene.updateUniforms(slot, frame);
        VkCommandBuffer cmd = sync.commands[slot];
        check(vkResetCommandPool(device.device, sync.pools[slot], 0), "vkResetCommandPool");
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
        // Headless targets always end in TRANSFER_SRC_OPTIMAL, so they need no special pass.
        scene.record(cmd, slot, frame, target, copyOut && windowed);
        if (copyOut) {
            const VkImage image =
                windowed ? swapchain.images[target] : headless.images[target].image;
            recordCopy(cmd, image, extent, readback.buffer.buffer, windowed);
        }
        check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

        VkSubmitInfo submit{};
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        // Wait for the acquired image only where its first write happens.
        const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        if (windowed) {
            submit.waitSemaphoreCount = 1;
            submit.pWaitSemaphores = &sync.acquired[slot];
            submit.pWaitDstStageMask = &waitStage;
            submit.signalSemaphoreCount = 1;
            submit.pSignalSemaphores = &sync.rendered[target];
        }
        // VK_EXT_frame_boundary: the frame's last submission flags its end, with the frame number
        // as its identifier (headless, the submit; in a window, the present below).
        VkFrameBoundaryEXT boundary{};
        boundary.sType = VK_STRUCTURE_TYPE_FRAME_BOUNDARY_EXT;
        boundary.flags = VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT;
        boundary.frameID = frame;
        if (options.frameBoundaryExt && !windowed) submit.pNext = &boundary;
        check(vkQueueSubmit(device.queue, 1, &submit, sync.inFlight[slot]), "vkQueueSubmit");
        // Where a capture at marker boundaries ends the frame (tessera capture --frame-boundary
        // marker; the capture layer's README).
        if (options.frameLabels) device.insertLabel("tessera.frame_end");

        if (windowed) {
            VkPresentInfoKHR present{};
            present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
            present.waitSemaphoreCount = 1;
            present.pWaitSemaphores = &sync.rendered[target];
            present.swapchainCount = 1;
            present.pSwapchains = &swapchain.swapchain;
            present.pImageIndices = &target;
            if (options.frameBoundaryExt) present.pNext = &boundary;
            const VkResult r = vkQueuePresentKHR(device.queue, &present);
            if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
                if (!last) recreate();
            } else {
                check(r, "vkQueuePresentKHR");
            }
        }
    }
    check(vkDeviceWaitIdle(device.device), "vkDeviceWaitIdle");
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    if (dump) writePpm(dumpFile, options.dumpLastFrame, readback.buffer, extent, format);

    const DrawCounts& c = scene.counts();
    char line[512];
    std::snprintf(line, sizeof(line),
                  "%ux%u %s, %s; per frame %u draws (%u indexed, %u non-indexed, %u blended, "
                  "%u render-to-texture), %u mipmapped textures, anisotropy %s",
                  extent.width, extent.height,
                  windowed ? (std::string("windowed, ") + presentModeName(swapchain.presentMode) +
                              " present")
                                 .c_str()
                           : "headless",
                  device.describe().c_str(), c.indexed + c.nonIndexed, c.indexed, c.nonIndexed,
                  c.blended, c.renderToTexture, scene.textureCount(),
                  !device.anisotropy ? "unsupported (trilinear)"
                  : device.maxAnisotropy > 1.0f
                      ? (std::to_string(static_cast<int>(device.maxAnisotropy)) + "x").c_str()
                      : "off (trilinear)");
    std::string summary = line;
    if (recreations != 0) {
        summary += ", " + std::to_string(recreations) + " swapchain recreation(s)";
    }
    return {seconds, summary};
}

}  // namespace

}  // namespace vkscene

int main(int argc, char** argv) {
    using namespace vkscene;
    std::string error;
    bool help = false;
    const auto options = parseOptions(argc, argv, error, help);
    if (!options) {
        if (help) {
            std::fputs(usage(), stdout);
            return 0;
        }
        std::fprintf(stderr, "vkscene: %s\n", error.c_str());
        return 2;
    }
    std::uint32_t validationMessages = 0;
    try {
        Device device;
        const RunResult result = render(*options, device);
        device.destroy();  // so leaks reported at vkDestroyDevice/Instance are counted too
        validationMessages = device.validationMessages();
        std::printf("vkscene: %u frames in %.3f s = %.1f fps; %s\n", options->frames,
                    result.seconds, static_cast<double>(options->frames) / result.seconds,
                    result.summary.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkscene: error: %s\n", e.what());
        return 1;
    }
    if (options->validate && validationMessages > 0) {
        std::fprintf(stderr, "vkscene: error: the validation layer reported %u message(s)\n",
                     validationMessages);
        return 3;
    }
    return 0;
}
