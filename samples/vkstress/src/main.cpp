// vkstress: a Vulkan app that does, every frame, what makes a capture layer's bookkeeping hard
// (samples/vkstress/README.md):
//  - command buffers recorded on several threads at once (one pool per thread);
//  - images, their memory and views, framebuffers, a render pass, a vertex buffer and a
//    descriptor pool created anew and the previous frame's destroyed, so the driver hands the
//    same handle values out again; the render pass's final layout changes from frame to frame;
//  - the previous frame's objects destroyed on a second thread while the frame is presented;
//  - host-visible memory mapped, written and unmapped in a loop on a third thread during submits.
// Deterministic contents (frame number only), so a replay can be compared with the presented
// image. With --validate the validation layer's messages are counted; any makes the exit code 3.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compose_frag.spv.h"
#include "compose_vert.spv.h"
#include "device.h"
#include "swapchain.h"
#include "target_frag.spv.h"
#include "target_vert.spv.h"
#include "window.h"

namespace vkstress {

using vkscene::check;
using vkscene::Device;
using vkscene::Error;
using vkscene::info;
using vkscene::parseUint;
using vkscene::shaderModule;

struct Options {
    std::uint32_t frames = 30;
    std::uint32_t width = 320, height = 240;
    std::uint32_t threads = 4;   // recording threads
    std::uint32_t targets = 8;   // offscreen render targets per frame
    std::uint32_t mapped = 32;   // memory objects (1 MiB each) the mapping threads map and unmap
    std::uint32_t mappers = 8;   // mapping threads
    bool validate = false;
};


constexpr VkFormat kTargetFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr std::uint32_t kTargetSize = 64;
constexpr VkDeviceSize kMappedSize = 1024 * 1024;


const char* kUsage =
    "usage: vkstress [--frames N] [--width W] [--height H] [--threads T] [--targets K]\n"
    "                [--mapped M] [--mappers P] [--validate]\n"
    "Renders N frames (presents) in a window; see samples/vkstress/README.md.\n";

bool parseOptions(int argc, char** argv, Options* o, std::string* error) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::uint32_t lo, std::uint32_t hi, std::uint32_t* out) {
            if (i + 1 >= argc || !parseUint(argv[i + 1], lo, hi, out)) {
                *error = a + " needs a whole number from " + std::to_string(lo) + " to " +
                         std::to_string(hi);
                return false;
            }
            ++i;
            return true;
        };
        bool ok = true;
        if (a == "--frames") ok = value(1, 100000, &o->frames);
        else if (a == "--width") ok = value(16, 4096, &o->width);
        else if (a == "--height") ok = value(16, 4096, &o->height);
        else if (a == "--threads") ok = value(1, 64, &o->threads);
        else if (a == "--targets") ok = value(2, 64, &o->targets);
        else if (a == "--mapped") ok = value(0, 256, &o->mapped);
        else if (a == "--mappers") ok = value(1, 16, &o->mappers);
        else if (a == "--validate") o->validate = true;
        else {
            *error = "unknown option '" + a + "'";
            return false;
        }
        if (!ok) return false;
    }
    return true;
}


// One colour attachment, cleared and stored, in one subpass.
VkRenderPass colourPass(VkDevice device, VkFormat format, VkImageLayout finalLayout,
                        const std::vector<VkSubpassDependency>& deps) {
    VkAttachmentDescription a{};
    a.format = format;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    a.finalLayout = finalLayout;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub{};
    sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sub.colorAttachmentCount = 1;
    sub.pColorAttachments = &ref;
    auto ci = info<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
    ci.attachmentCount = 1;
    ci.pAttachments = &a;
    ci.subpassCount = 1;
    ci.pSubpasses = &sub;
    ci.dependencyCount = static_cast<std::uint32_t>(deps.size());
    ci.pDependencies = deps.data();
    VkRenderPass pass = VK_NULL_HANDLE;
    check(vkCreateRenderPass(device, &ci, nullptr, &pass), "vkCreateRenderPass");
    return pass;
}

// The offscreen targets' render pass. Pipelines are built against the first one; every frame's
// is compatible with it (only the final layout differs, which compatibility ignores).
VkRenderPass targetPass(VkDevice device, VkImageLayout finalLayout) {
    // In: earlier readers of the (recycled) memory finish before the clear. Out: the colour
    // writes are visible to the compose pass's fragment shader and to transfers.
    std::vector<VkSubpassDependency> deps(2);
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    return colourPass(device, kTargetFormat, finalLayout, deps);
}

VkRenderPass composePass(VkDevice device, VkFormat format) {
    // The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT: the layout transition must
    // come after it (Vulkan spec, "WSI Swapchain", the usual external dependency).
    std::vector<VkSubpassDependency> deps(1);
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    return colourPass(device, format, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, deps);
}

VkPipeline pipeline(VkDevice device, VkPipelineLayout layout, VkRenderPass pass, VkShaderModule vs,
                    VkShaderModule fs, VkExtent2D extent, bool vertexInput) {
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                 VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                 VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr};
    VkVertexInputBindingDescription binding{0, 4 * sizeof(float), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
                                                  {1, 0, VK_FORMAT_R32G32_SFLOAT, 2 * sizeof(float)}};
    auto vi = info<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
    if (vertexInput) {
        vi.vertexBindingDescriptionCount = 1;
        vi.pVertexBindingDescriptions = &binding;
        vi.vertexAttributeDescriptionCount = 2;
        vi.pVertexAttributeDescriptions = attrs;
    }
    auto ia = info<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, static_cast<float>(extent.width), static_cast<float>(extent.height), 0, 1};
    VkRect2D scissor{{0, 0}, extent};
    auto vp = info<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
    vp.viewportCount = 1;
    vp.pViewports = &viewport;
    vp.scissorCount = 1;
    vp.pScissors = &scissor;
    auto rs = info<VkPipelineRasterizationStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    auto ms = info<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xf;
    auto cb = info<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    auto ci = info<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
    ci.stageCount = 2;
    ci.pStages = stages;
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pColorBlendState = &cb;
    ci.layout = layout;
    ci.renderPass = pass;
    VkPipeline p = VK_NULL_HANDLE;
    check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &p),
          "vkCreateGraphicsPipelines");
    return p;
}

// Everything one frame creates; destroyed (on the reaper thread) once the frame's fence says
// the GPU is done with it.
struct FrameObjects {
    VkRenderPass pass = VK_NULL_HANDLE;
    std::vector<VkImage> images;
    std::vector<VkDeviceMemory> memories;
    std::vector<VkImageView> views;
    std::vector<VkFramebuffer> framebuffers;
    VkBuffer vertices = VK_NULL_HANDLE;
    VkDeviceMemory vertexMemory = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets;
    VkFramebuffer composeFramebuffer = VK_NULL_HANDLE;
};

// Destroys frame objects on its own thread, one image at a time with a short pause, the way an
// engine's deferred deletion spreads work out; so the destruction overlaps the next present.
class Reaper {
public:
    explicit Reaper(VkDevice device) : device_(device), thread_([this] { run(); }) {}
    ~Reaper() { stop(); }
    void push(FrameObjects objects) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(objects));
        }
        wake_.notify_one();
    }
    void stop() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) thread_.join();
    }

private:
    void run() {
        for (;;) {
            FrameObjects o;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
                if (queue_.empty()) return;
                o = std::move(queue_.front());
                queue_.pop_front();
            }
            destroy(device_, o, std::chrono::microseconds(300));
        }
    }

public:
    static void destroy(VkDevice device, FrameObjects& o, std::chrono::microseconds pause) {
        vkDestroyFramebuffer(device, o.composeFramebuffer, nullptr);
        vkDestroyDescriptorPool(device, o.descriptorPool, nullptr);  // frees the sets
        vkDestroyBuffer(device, o.vertices, nullptr);
        vkFreeMemory(device, o.vertexMemory, nullptr);
        for (std::size_t i = 0; i < o.images.size(); ++i) {
            vkDestroyFramebuffer(device, o.framebuffers[i], nullptr);
            vkDestroyImageView(device, o.views[i], nullptr);
            vkDestroyImage(device, o.images[i], nullptr);
            vkFreeMemory(device, o.memories[i], nullptr);
            if (pause.count() > 0) std::this_thread::sleep_for(pause);
        }
        vkDestroyRenderPass(device, o.pass, nullptr);
        o = FrameObjects{};
    }

private:
    VkDevice device_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<FrameObjects> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

// Maps, writes and unmaps its memory objects in a loop until stopped, as streaming threads
// would, while the main thread submits; thread i owns memory objects i, i + threads, ... None of
// it is read by the GPU.
class Mapper {
public:
    Mapper(const Device& device, std::uint32_t count, std::uint32_t threads) : device_(device.device) {
        for (std::uint32_t i = 0; i < count; ++i) {
            auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
            ai.allocationSize = kMappedSize;
            ai.memoryTypeIndex = device.findMemoryType(
                ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
            VkDeviceMemory m = VK_NULL_HANDLE;
            check(vkAllocateMemory(device_, &ai, nullptr, &m), "vkAllocateMemory");
            memories_.push_back(m);
        }
        for (std::uint32_t t = 0; t < threads && t < count; ++t) {
            threads_.emplace_back([this, t, threads] { run(t, threads); });
        }
    }
    ~Mapper() {
        stop();
        for (VkDeviceMemory m : memories_) vkFreeMemory(device_, m, nullptr);
    }
    void stop() {
        stopping_ = true;
        for (auto& t : threads_) {
            if (t.joinable()) t.join();
        }
    }
    std::uint32_t failures() const { return failures_.load(); }
    std::uint64_t maps() const { return maps_.load(); }

private:
    void run(std::size_t first, std::size_t step) {
        std::uint32_t value = 0;
        while (!stopping_.load()) {
            for (std::size_t i = first; i < memories_.size(); i += step) {
                VkDeviceMemory m = memories_[i];
                void* p = nullptr;
                if (vkMapMemory(device_, m, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS || p == nullptr) {
                    failures_.fetch_add(1);
                    continue;
                }
                std::memset(p, static_cast<int>(value++ & 0xff), 256);
                vkUnmapMemory(device_, m);
                maps_.fetch_add(1);
            }
            std::this_thread::sleep_for(std::chrono::microseconds(20));  // leave the cores to rendering
        }
    }

    VkDevice device_;
    std::vector<VkDeviceMemory> memories_;
    std::atomic<bool> stopping_{false};
    std::atomic<std::uint32_t> failures_{0};
    std::atomic<std::uint64_t> maps_{0};
    std::vector<std::thread> threads_;
};

struct Push {
    float color[4];
    float angle;
};

class App {
public:
    App(const Options& o, Device& device) : o_(o), d_(device) {}

    void run() {
        window_.open(o_.width, o_.height, "Tessera vkstress");
        d_.createInstance(true, o_.validate);
        surface_ = window_.createSurface(d_.instance);
        d_.pickPhysicalDevice(surface_);
        d_.createDevice(true, 1.0f);
        VkDevice dev = d_.device;
        swapchain_.create(d_, surface_, {o_.width, o_.height}, vkscene::PresentMode::Fifo, false);

        createPersistent();
        Reaper reaper(dev);
        Mapper mapper(d_, o_.mapped, o_.mappers);
        FrameObjects previous;
        for (std::uint32_t frame = 1; frame <= o_.frames; ++frame) {
            window_.poll();
            check(vkWaitForFences(dev, 1, &inFlight_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
            check(vkResetFences(dev, 1, &inFlight_), "vkResetFences");
            std::uint32_t index = 0;
            check(vkAcquireNextImageKHR(dev, swapchain_.swapchain, UINT64_MAX, acquired_,
                                        VK_NULL_HANDLE, &index),
                  "vkAcquireNextImageKHR");
            // The previous frame's render pass goes here, on this thread, just before this
            // frame's is created: the allocator hands its memory, and so its handle, straight
            // back (the reaper thread frees the rest; what a thread frees it reuses first).
            vkDestroyRenderPass(dev, previous.pass, nullptr);
            previous.pass = VK_NULL_HANDLE;
            FrameObjects current = createFrame(frame, index);
            recordAndSubmit(frame, current);
            // The previous frame's work finished at the fence wait above: its objects go to the
            // reaper, which destroys them while this frame is being presented.
            if (!previous.images.empty()) reaper.push(std::move(previous));
            previous = std::move(current);
            auto pi = info<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
            pi.waitSemaphoreCount = 1;
            pi.pWaitSemaphores = &rendered_;
            pi.swapchainCount = 1;
            pi.pSwapchains = &swapchain_.swapchain;
            pi.pImageIndices = &index;
            const VkResult r = vkQueuePresentKHR(d_.queue, &pi);
            if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) check(r, "vkQueuePresentKHR");
        }
        check(vkDeviceWaitIdle(dev), "vkDeviceWaitIdle");
        mapper.stop();
        reaper.stop();
        Reaper::destroy(dev, previous, std::chrono::microseconds(0));
        if (mapper.failures() > 0) {
            throw Error("vkMapMemory failed " + std::to_string(mapper.failures()) +
                        " time(s) on the mapping threads");
        }
        std::printf("vkstress: %u frames, %u recording threads, %u targets per frame, %llu maps\n",
                    o_.frames, o_.threads, o_.targets,
                    static_cast<unsigned long long>(mapper.maps()));
        destroyPersistent();
    }

private:
    void createPersistent() {
        VkDevice dev = d_.device;
        VkShaderModule targetVs = shaderModule(dev, target_vert_spv, sizeof target_vert_spv);
        VkShaderModule targetFs = shaderModule(dev, target_frag_spv, sizeof target_frag_spv);
        VkShaderModule composeVs = shaderModule(dev, compose_vert_spv, sizeof compose_vert_spv);
        VkShaderModule composeFs = shaderModule(dev, compose_frag_spv, sizeof compose_frag_spv);

        VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(Push)};
        auto tl = info<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
        tl.pushConstantRangeCount = 1;
        tl.pPushConstantRanges = &push;
        check(vkCreatePipelineLayout(dev, &tl, nullptr, &targetLayout_), "vkCreatePipelineLayout");

        VkDescriptorSetLayoutBinding b{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                       VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
        auto dl = info<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
        dl.bindingCount = 1;
        dl.pBindings = &b;
        check(vkCreateDescriptorSetLayout(dev, &dl, nullptr, &setLayout_), "vkCreateDescriptorSetLayout");
        auto cl = info<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
        cl.setLayoutCount = 1;
        cl.pSetLayouts = &setLayout_;
        check(vkCreatePipelineLayout(dev, &cl, nullptr, &composeLayout_), "vkCreatePipelineLayout");

        VkRenderPass compatible = targetPass(dev, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        targetPipeline_ = pipeline(dev, targetLayout_, compatible, targetVs, targetFs,
                                   {kTargetSize, kTargetSize}, false);
        vkDestroyRenderPass(dev, compatible, nullptr);
        composePass_ = composePass(dev, swapchain_.format);
        composePipeline_ = pipeline(dev, composeLayout_, composePass_, composeVs, composeFs,
                                    swapchain_.extent, true);
        for (VkShaderModule m : {targetVs, targetFs, composeVs, composeFs}) {
            vkDestroyShaderModule(dev, m, nullptr);
        }

        auto si = info<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
        si.magFilter = VK_FILTER_NEAREST;
        si.minFilter = VK_FILTER_NEAREST;
        si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        si.maxLod = 0.0f;
        check(vkCreateSampler(dev, &si, nullptr, &sampler_), "vkCreateSampler");

        // One pool and primary command buffer per recording thread, plus the main thread's.
        for (std::uint32_t t = 0; t <= o_.threads; ++t) {
            auto pi = info<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
            pi.queueFamilyIndex = d_.queueFamily;
            VkCommandPool pool = VK_NULL_HANDLE;
            check(vkCreateCommandPool(dev, &pi, nullptr, &pool), "vkCreateCommandPool");
            auto ai = info<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
            ai.commandPool = pool;
            ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            ai.commandBufferCount = 1;
            VkCommandBuffer cb = VK_NULL_HANDLE;
            check(vkAllocateCommandBuffers(dev, &ai, &cb), "vkAllocateCommandBuffers");
            pools_.push_back(pool);
            commandBuffers_.push_back(cb);
        }
        auto sci = info<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
        check(vkCreateSemaphore(dev, &sci, nullptr, &acquired_), "vkCreateSemaphore");
        check(vkCreateSemaphore(dev, &sci, nullptr, &rendered_), "vkCreateSemaphore");
        auto fci = info<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        check(vkCreateFence(dev, &fci, nullptr, &inFlight_), "vkCreateFence");
    }

    void destroyPersistent() {
        VkDevice dev = d_.device;
        vkDestroyFence(dev, inFlight_, nullptr);
        vkDestroySemaphore(dev, rendered_, nullptr);
        vkDestroySemaphore(dev, acquired_, nullptr);
        for (VkCommandPool p : pools_) vkDestroyCommandPool(dev, p, nullptr);
        vkDestroySampler(dev, sampler_, nullptr);
        vkDestroyPipeline(dev, composePipeline_, nullptr);
        vkDestroyPipeline(dev, targetPipeline_, nullptr);
        vkDestroyRenderPass(dev, composePass_, nullptr);
        vkDestroyPipelineLayout(dev, composeLayout_, nullptr);
        vkDestroyPipelineLayout(dev, targetLayout_, nullptr);
        vkDestroyDescriptorSetLayout(dev, setLayout_, nullptr);
        swapchain_.destroy();
    }

    // The targets' render pass ends them in a layout that changes with the frame, in a cycle of
    // three: the driver reuses the handle of the pass destroyed two frames earlier, so the reused
    // handle's earlier pass always had another final layout.
    static VkImageLayout targetFinalLayout(std::uint32_t frame) {
        constexpr VkImageLayout cycle[3] = {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                            VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        return cycle[frame % 3];
    }

    // The sampled targets are the even ones; odd targets are rendered and left in the render
    // pass's final layout (their last layout change is the render pass's, not a barrier).
    std::uint32_t sampledCount() const { return o_.targets / 2; }

    FrameObjects createFrame(std::uint32_t frame, std::uint32_t swapIndex) {
        VkDevice dev = d_.device;
        FrameObjects f;
        f.pass = targetPass(dev, targetFinalLayout(frame));
        for (std::uint32_t k = 0; k < o_.targets; ++k) {
            auto ii = info<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
            ii.imageType = VK_IMAGE_TYPE_2D;
            ii.format = kTargetFormat;
            ii.extent = {kTargetSize, kTargetSize, 1};
            ii.mipLevels = 1;
            ii.arrayLayers = 1;
            ii.samples = VK_SAMPLE_COUNT_1_BIT;
            ii.tiling = VK_IMAGE_TILING_OPTIMAL;
            ii.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                       VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
            ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
            VkImage image = VK_NULL_HANDLE;
            check(vkCreateImage(dev, &ii, nullptr, &image), "vkCreateImage");
            VkMemoryRequirements req{};
            vkGetImageMemoryRequirements(dev, image, &req);
            auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
            ai.allocationSize = req.size;
            ai.memoryTypeIndex = d_.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
            VkDeviceMemory memory = VK_NULL_HANDLE;
            check(vkAllocateMemory(dev, &ai, nullptr, &memory), "vkAllocateMemory");
            check(vkBindImageMemory(dev, image, memory, 0), "vkBindImageMemory");
            auto vi = info<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
            vi.image = image;
            vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
            vi.format = kTargetFormat;
            vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            VkImageView view = VK_NULL_HANDLE;
            check(vkCreateImageView(dev, &vi, nullptr, &view), "vkCreateImageView");
            auto fi = info<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
            fi.renderPass = f.pass;
            fi.attachmentCount = 1;
            fi.pAttachments = &view;
            fi.width = kTargetSize;
            fi.height = kTargetSize;
            fi.layers = 1;
            VkFramebuffer fb = VK_NULL_HANDLE;
            check(vkCreateFramebuffer(dev, &fi, nullptr, &fb), "vkCreateFramebuffer");
            f.images.push_back(image);
            f.memories.push_back(memory);
            f.views.push_back(view);
            f.framebuffers.push_back(fb);
        }

        // The compose pass's quads: a grid of the sampled targets, written through a mapping.
        const std::uint32_t quads = sampledCount();
        const VkDeviceSize bytes = VkDeviceSize{quads} * 6 * 4 * sizeof(float);
        auto bi = info<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
        bi.size = bytes;
        bi.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
        check(vkCreateBuffer(dev, &bi, nullptr, &f.vertices), "vkCreateBuffer");
        VkMemoryRequirements req{};
        vkGetBufferMemoryRequirements(dev, f.vertices, &req);
        auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = d_.findMemoryType(
            req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(dev, &ai, nullptr, &f.vertexMemory), "vkAllocateMemory");
        check(vkBindBufferMemory(dev, f.vertices, f.vertexMemory, 0), "vkBindBufferMemory");
        void* mapped = nullptr;
        check(vkMapMemory(dev, f.vertexMemory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
        auto* v = static_cast<float*>(mapped);
        const std::uint32_t columns = (quads + 1) / 2;
        for (std::uint32_t q = 0; q < quads; ++q) {
            // Column-major grid in NDC with a margin; the layout drifts a little per frame.
            const float w = 1.8f / static_cast<float>(columns), h = 0.9f;
            const float x0 = -0.9f + w * static_cast<float>(q / 2) + 0.01f * static_cast<float>(frame % 5);
            const float y0 = -0.9f + h * static_cast<float>(q % 2);
            const float x1 = x0 + w * 0.95f, y1 = y0 + h * 0.95f;
            const float corners[6][4] = {{x0, y0, 0, 0}, {x1, y0, 1, 0}, {x1, y1, 1, 1},
                                         {x0, y0, 0, 0}, {x1, y1, 1, 1}, {x0, y1, 0, 1}};
            std::memcpy(v + q * 24, corners, sizeof corners);
        }
        vkUnmapMemory(dev, f.vertexMemory);

        VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, quads};
        auto pi = info<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
        pi.maxSets = quads;
        pi.poolSizeCount = 1;
        pi.pPoolSizes = &ps;
        check(vkCreateDescriptorPool(dev, &pi, nullptr, &f.descriptorPool), "vkCreateDescriptorPool");
        std::vector<VkDescriptorSetLayout> layouts(quads, setLayout_);
        auto dai = info<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
        dai.descriptorPool = f.descriptorPool;
        dai.descriptorSetCount = quads;
        dai.pSetLayouts = layouts.data();
        f.sets.resize(quads);
        check(vkAllocateDescriptorSets(dev, &dai, f.sets.data()), "vkAllocateDescriptorSets");
        std::vector<VkDescriptorImageInfo> infos(quads);
        std::vector<VkWriteDescriptorSet> writes(quads);
        for (std::uint32_t q = 0; q < quads; ++q) {
            infos[q] = {sampler_, f.views[2 * q], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
            writes[q] = info<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
            writes[q].dstSet = f.sets[q];
            writes[q].descriptorCount = 1;
            writes[q].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            writes[q].pImageInfo = &infos[q];
        }
        vkUpdateDescriptorSets(dev, quads, writes.data(), 0, nullptr);

        auto fi = info<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
        fi.renderPass = composePass_;
        fi.attachmentCount = 1;
        fi.pAttachments = &swapchain_.views[swapIndex];
        fi.width = swapchain_.extent.width;
        fi.height = swapchain_.extent.height;
        fi.layers = 1;
        check(vkCreateFramebuffer(dev, &fi, nullptr, &f.composeFramebuffer), "vkCreateFramebuffer");
        return f;
    }

    // Thread t records the targets k with k % threads == t into its own command buffer.
    void recordTargets(std::uint32_t t, std::uint32_t frame, const FrameObjects& f) {
        VkCommandBuffer cb = commandBuffers_[t];
        auto bi = info<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
        for (std::uint32_t k = t; k < o_.targets; k += o_.threads) {
            const float shade = static_cast<float>((k * 37 + frame * 11) % 100) / 100.0f;
            VkClearValue clear{};
            clear.color = {{0.1f + 0.8f * shade, 0.2f, 0.9f - 0.8f * shade, 1.0f}};
            auto rp = info<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
            rp.renderPass = f.pass;
            rp.framebuffer = f.framebuffers[k];
            rp.renderArea = {{0, 0}, {kTargetSize, kTargetSize}};
            rp.clearValueCount = 1;
            rp.pClearValues = &clear;
            vkCmdBeginRenderPass(cb, &rp, VK_SUBPASS_CONTENTS_INLINE);
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, targetPipeline_);
            const Push push{{1.0f - shade, shade, 0.5f, 1.0f},
                            0.15f * static_cast<float>(frame) + 0.7f * static_cast<float>(k)};
            vkCmdPushConstants(cb, targetLayout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, &push);
            vkCmdDraw(cb, 3, 1, 0, 0);
            vkCmdEndRenderPass(cb);
            // Sampled targets left by the pass in another layout need a barrier.
            const VkImageLayout final = targetFinalLayout(frame);
            if (k % 2 == 0 && final != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) {
                auto b = info<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
                b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
                b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
                b.oldLayout = final;
                b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
                b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
                b.image = f.images[k];
                b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                     VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0,
                                     nullptr, 1, &b);
            }
        }
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    }

    void recordCompose(std::uint32_t frame, const FrameObjects& f) {
        VkCommandBuffer cb = commandBuffers_[o_.threads];
        auto bi = info<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
        VkClearValue clear{};
        clear.color = {{0.05f, 0.05f + 0.01f * static_cast<float>(frame % 10), 0.1f, 1.0f}};
        auto rp = info<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
        rp.renderPass = composePass_;
        rp.framebuffer = f.composeFramebuffer;
        rp.renderArea = {{0, 0}, swapchain_.extent};
        rp.clearValueCount = 1;
        rp.pClearValues = &clear;
        vkCmdBeginRenderPass(cb, &rp, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, composePipeline_);
        const VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cb, 0, 1, &f.vertices, &offset);
        for (std::uint32_t q = 0; q < sampledCount(); ++q) {
            vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, composeLayout_, 0, 1,
                                    &f.sets[q], 0, nullptr);
            vkCmdDraw(cb, 6, 1, 6 * q, 0);
        }
        vkCmdEndRenderPass(cb);
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    }

    void recordAndSubmit(std::uint32_t frame, const FrameObjects& f) {
        VkDevice dev = d_.device;
        for (VkCommandPool p : pools_) check(vkResetCommandPool(dev, p, 0), "vkResetCommandPool");
        // Recording threads start together and record concurrently; the main thread records
        // the compose pass meanwhile.
        std::vector<std::thread> workers;
        std::vector<std::string> errors(o_.threads);
        for (std::uint32_t t = 0; t < o_.threads; ++t) {
            workers.emplace_back([this, t, frame, &f, &errors] {
                try {
                    recordTargets(t, frame, f);
                } catch (const std::exception& e) {
                    errors[t] = e.what();
                }
            });
        }
        recordCompose(frame, f);
        for (auto& w : workers) w.join();
        for (const auto& e : errors) {
            if (!e.empty()) throw Error(e);
        }
        const VkPipelineStageFlags wait = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        auto si = info<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
        si.waitSemaphoreCount = 1;
        si.pWaitSemaphores = &acquired_;
        si.pWaitDstStageMask = &wait;
        si.commandBufferCount = static_cast<std::uint32_t>(commandBuffers_.size());
        si.pCommandBuffers = commandBuffers_.data();
        si.signalSemaphoreCount = 1;
        si.pSignalSemaphores = &rendered_;
        check(vkQueueSubmit(d_.queue, 1, &si, inFlight_), "vkQueueSubmit");
    }

    const Options& o_;
    Device& d_;
    vkscene::Window window_;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    vkscene::Swapchain swapchain_;
    VkPipelineLayout targetLayout_ = VK_NULL_HANDLE, composeLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipeline targetPipeline_ = VK_NULL_HANDLE, composePipeline_ = VK_NULL_HANDLE;
    VkRenderPass composePass_ = VK_NULL_HANDLE;
    VkSampler sampler_ = VK_NULL_HANDLE;
    std::vector<VkCommandPool> pools_;
    std::vector<VkCommandBuffer> commandBuffers_;  // threads' first, the compose pass's last
    VkSemaphore acquired_ = VK_NULL_HANDLE, rendered_ = VK_NULL_HANDLE;
    VkFence inFlight_ = VK_NULL_HANDLE;
};

}  // namespace vkstress

int main(int argc, char** argv) {
    using namespace vkstress;
    Options options;
    std::string error;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        }
    }
    if (!parseOptions(argc, argv, &options, &error)) {
        std::fprintf(stderr, "vkstress: %s\n%s", error.c_str(), kUsage);
        return 2;
    }
    std::uint32_t messages = 0;
    try {
        Device device;
        {
            App app(options, device);
            app.run();
        }
        device.destroy();  // leaks reported at vkDestroyDevice/Instance are counted too
        messages = device.validationMessages();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkstress: error: %s\n", e.what());
        return 1;
    }
    if (options.validate && messages > 0) {
        std::fprintf(stderr, "vkstress: error: the validation layer reported %u message(s)\n", messages);
        return 3;
    }
    return 0;
}
