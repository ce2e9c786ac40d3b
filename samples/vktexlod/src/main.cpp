// vktexlod: a finely textured ground plane seen at grazing angles, one sampler configuration per
// --scene, so a replay's level-of-detail selection, anisotropic filtering and mip choice can be
// compared with the driver's (samples/vktexlod/README.md). The texture is a 256x256 checker of
// 2x2-texel squares with per-texel noise and a full mip chain (box-filtered on the CPU); in the
// tinted scenes every level is also multiplied by its own colour, so the level read shows. The
// querylod scene writes textureQueryLod as colour. Contents are the same every frame.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "device.h"
#include "ground_frag.spv.h"
#include "ground_vert.spv.h"
#include "querylod_frag.spv.h"
#include "swapchain.h"
#include "window.h"

namespace vktexlod {

using vkscene::check;
using vkscene::Device;
using vkscene::Error;
using vkscene::info;
using vkscene::parseUint;
using vkscene::shaderModule;


constexpr std::uint32_t kSize = 256;
constexpr std::uint32_t kLevels = 9;  // 256 .. 1

// One scene: the ground's sampler and how the texture and the shader are set up.
struct Scene {
    const char* name;
    VkSamplerMipmapMode mipmap;
    float maxAnisotropy;  // 1: anisotropy disabled
    float lodBias, minLod, maxLod;
    bool tinted;     // each mip level multiplied by its own colour
    bool queryLod;   // the fragment shader writes textureQueryLod
};

const Scene kScenes[] = {
    {"trilinear", VK_SAMPLER_MIPMAP_MODE_LINEAR, 1.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, false, false},
    {"mips", VK_SAMPLER_MIPMAP_MODE_LINEAR, 1.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, true, false},
    {"nearest", VK_SAMPLER_MIPMAP_MODE_NEAREST, 1.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, true, false},
    {"aniso16", VK_SAMPLER_MIPMAP_MODE_LINEAR, 16.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, false, false},
    {"aniso4", VK_SAMPLER_MIPMAP_MODE_LINEAR, 4.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, true, false},
    {"lodclamp", VK_SAMPLER_MIPMAP_MODE_LINEAR, 1.0f, 0.75f, 1.5f, 4.25f, true, false},
    {"querylod", VK_SAMPLER_MIPMAP_MODE_LINEAR, 1.0f, 0.0f, 0.0f, VK_LOD_CLAMP_NONE, false, true},
};

struct Options {
    std::uint32_t frames = 3;
    std::uint32_t width = 640, height = 360;
    const Scene* scene = &kScenes[0];
};

const char* kUsage =
    "usage: vktexlod [--scene trilinear|mips|nearest|aniso16|aniso4|lodclamp|querylod]\n"
    "                [--frames N] [--width W] [--height H]\n"
    "Draws a textured ground plane at grazing angles for N frames; see samples/vktexlod/README.md.\n";


bool parseOptions(int argc, char** argv, Options* o, std::string* error) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) {
            *error = "option '" + a + "' needs a value (or is unknown)";
            return false;
        }
        const char* v = argv[++i];
        bool ok = true;
        if (a == "--frames") ok = parseUint(v, 1, 100000, &o->frames);
        else if (a == "--width") ok = parseUint(v, 16, 4096, &o->width);
        else if (a == "--height") ok = parseUint(v, 16, 4096, &o->height);
        else if (a == "--scene") {
            ok = false;
            for (const Scene& s : kScenes) {
                if (std::strcmp(s.name, v) == 0) {
                    o->scene = &s;
                    ok = true;
                }
            }
        } else {
            *error = "unknown option '" + a + "'";
            return false;
        }
        if (!ok) {
            *error = "bad value '" + std::string(v) + "' for " + a;
            return false;
        }
    }
    return true;
}

// A deterministic hash of a texel position: the noise of the checker.
std::uint32_t hash(std::uint32_t x, std::uint32_t y) {
    std::uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    return h ^ (h >> 15);
}

// The RGBA8 texels of every level, level 0 first. Level 0: a checker of 2x2-texel squares, dark
// and light, each texel scaled by noise per channel; level l + 1: the 2x2 box filter of level l
// (computed in float from the untinted level, rounded); tinted: level l times tint[l].
std::vector<std::uint8_t> makeTexture(bool tinted) {
    static const float tint[kLevels][3] = {{1.0f, 1.0f, 1.0f}, {1.0f, 0.35f, 0.35f}, {0.35f, 1.0f, 0.35f},
                                           {0.35f, 0.35f, 1.0f}, {1.0f, 1.0f, 0.3f},  {1.0f, 0.3f, 1.0f},
                                           {0.3f, 1.0f, 1.0f},   {0.6f, 0.6f, 0.6f},  {1.0f, 0.6f, 0.2f}};
    std::vector<float> level(kSize * kSize * 4);
    for (std::uint32_t y = 0; y < kSize; ++y) {
        for (std::uint32_t x = 0; x < kSize; ++x) {
            const bool light = (((x >> 1) ^ (y >> 1)) & 1u) != 0;
            const std::uint32_t h = hash(x, y);
            for (std::uint32_t c = 0; c < 3; ++c) {
                const float noise = 0.7f + 0.3f * static_cast<float>((h >> (8 * c)) & 0xffu) / 255.0f;
                level[(y * kSize + x) * 4 + c] = (light ? 0.92f : 0.12f) * noise;
            }
            level[(y * kSize + x) * 4 + 3] = 1.0f;
        }
    }
    std::vector<std::uint8_t> out;
    std::uint32_t size = kSize;
    for (std::uint32_t l = 0; l < kLevels; ++l) {
        for (std::uint32_t i = 0; i < size * size; ++i) {
            for (std::uint32_t c = 0; c < 4; ++c) {
                const float t = tinted && c < 3 ? tint[l][c] : 1.0f;
                out.push_back(static_cast<std::uint8_t>(std::lround(level[i * 4 + c] * t * 255.0f)));
            }
        }
        if (size == 1) break;
        const std::uint32_t half = size / 2;
        std::vector<float> next(half * half * 4);
        for (std::uint32_t y = 0; y < half; ++y)
            for (std::uint32_t x = 0; x < half; ++x)
                for (std::uint32_t c = 0; c < 4; ++c) {
                    const auto at = [&](std::uint32_t xx, std::uint32_t yy) { return level[(yy * size + xx) * 4 + c]; };
                    next[(y * half + x) * 4 + c] =
                        0.25f * (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1));
                }
        level = std::move(next);
        size = half;
    }
    return out;
}


struct Push {
    float pitch, aspect, uvScale;
};

class App {
public:
    App(const Options& o, Device& device) : o_(o), d_(device) {}
    ~App() { destroy(); }

    void run() {
        window_.open(o_.width, o_.height, "Tessera vktexlod");
        d_.createInstance(true, false);
        surface_ = window_.createSurface(d_.instance);
        d_.pickPhysicalDevice(surface_);
        d_.createDevice(true, o_.scene->maxAnisotropy);
        if (o_.scene->maxAnisotropy > 1.0f && !d_.anisotropy) throw Error("the device lacks samplerAnisotropy");
        swapchain_.create(d_, surface_, {o_.width, o_.height}, vkscene::PresentMode::Fifo, false);
        createTexture();
        createSampler();
        createPipeline();
        createFrameObjects();
        for (std::uint32_t frame = 1; frame <= o_.frames; ++frame) {
            window_.poll();
            VkDevice dev = d_.device;
            check(vkWaitForFences(dev, 1, &inFlight_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
            check(vkResetFences(dev, 1, &inFlight_), "vkResetFences");
            std::uint32_t index = 0;
            check(vkAcquireNextImageKHR(dev, swapchain_.swapchain, UINT64_MAX, acquired_, VK_NULL_HANDLE, &index),
                  "vkAcquireNextImageKHR");
            record(index);
            const VkPipelineStageFlags wait = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
            auto si = info<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
            si.waitSemaphoreCount = 1;
            si.pWaitSemaphores = &acquired_;
            si.pWaitDstStageMask = &wait;
            si.commandBufferCount = 1;
            si.pCommandBuffers = &commandBuffer_;
            si.signalSemaphoreCount = 1;
            si.pSignalSemaphores = &rendered_;
            check(vkQueueSubmit(d_.queue, 1, &si, inFlight_), "vkQueueSubmit");
            auto pi = info<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
            pi.waitSemaphoreCount = 1;
            pi.pWaitSemaphores = &rendered_;
            pi.swapchainCount = 1;
            pi.pSwapchains = &swapchain_.swapchain;
            pi.pImageIndices = &index;
            const VkResult r = vkQueuePresentKHR(d_.queue, &pi);
            if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) check(r, "vkQueuePresentKHR");
        }
        check(vkDeviceWaitIdle(d_.device), "vkDeviceWaitIdle");
    }

private:
    void createTexture() {
        VkDevice dev = d_.device;
        const std::vector<std::uint8_t> texels = makeTexture(o_.scene->tinted);
        auto ii = info<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
        ii.imageType = VK_IMAGE_TYPE_2D;
        ii.format = VK_FORMAT_R8G8B8A8_UNORM;
        ii.extent = {kSize, kSize, 1};
        ii.mipLevels = kLevels;
        ii.arrayLayers = 1;
        ii.samples = VK_SAMPLE_COUNT_1_BIT;
        ii.tiling = VK_IMAGE_TILING_OPTIMAL;
        ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        check(vkCreateImage(dev, &ii, nullptr, &image_), "vkCreateImage");
        VkMemoryRequirements req{};
        vkGetImageMemoryRequirements(dev, image_, &req);
        auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = d_.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        check(vkAllocateMemory(dev, &ai, nullptr, &imageMemory_), "vkAllocateMemory");
        check(vkBindImageMemory(dev, image_, imageMemory_, 0), "vkBindImageMemory");

        // Staging buffer with every level, copied level by level.
        VkBuffer staging = VK_NULL_HANDLE;
        VkDeviceMemory stagingMemory = VK_NULL_HANDLE;
        auto bi = info<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
        bi.size = texels.size();
        bi.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        check(vkCreateBuffer(dev, &bi, nullptr, &staging), "vkCreateBuffer");
        vkGetBufferMemoryRequirements(dev, staging, &req);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = d_.findMemoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(dev, &ai, nullptr, &stagingMemory), "vkAllocateMemory");
        check(vkBindBufferMemory(dev, staging, stagingMemory, 0), "vkBindBufferMemory");
        void* mapped = nullptr;
        check(vkMapMemory(dev, stagingMemory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
        std::memcpy(mapped, texels.data(), texels.size());
        vkUnmapMemory(dev, stagingMemory);

        VkCommandBuffer cb = d_.beginOneTime();
        auto b = info<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
        b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = image_;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                             nullptr, 1, &b);
        std::vector<VkBufferImageCopy> copies;
        VkDeviceSize offset = 0;
        for (std::uint32_t l = 0; l < kLevels; ++l) {
            const std::uint32_t s = kSize >> l;
            VkBufferImageCopy c{};
            c.bufferOffset = offset;
            c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
            c.imageExtent = {s, s, 1};
            copies.push_back(c);
            offset += VkDeviceSize{s} * s * 4;
        }
        vkCmdCopyBufferToImage(cb, staging, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               static_cast<std::uint32_t>(copies.size()), copies.data());
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr,
                             0, nullptr, 1, &b);
        d_.endOneTime(cb);
        vkDestroyBuffer(dev, staging, nullptr);
        vkFreeMemory(dev, stagingMemory, nullptr);

        auto vi = info<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
        vi.image = image_;
        vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vi.format = VK_FORMAT_R8G8B8A8_UNORM;
        vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
        check(vkCreateImageView(dev, &vi, nullptr, &view_), "vkCreateImageView");
    }

    void createSampler() {
        const Scene& s = *o_.scene;
        auto ci = info<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
        ci.magFilter = VK_FILTER_LINEAR;
        ci.minFilter = VK_FILTER_LINEAR;
        ci.mipmapMode = s.mipmap;
        ci.addressModeU = ci.addressModeV = ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
        ci.mipLodBias = s.lodBias;
        ci.anisotropyEnable = s.maxAnisotropy > 1.0f ? VK_TRUE : VK_FALSE;
        ci.maxAnisotropy = s.maxAnisotropy;
        ci.minLod = s.minLod;
        ci.maxLod = s.maxLod;
        ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
        check(vkCreateSampler(d_.device, &ci, nullptr, &sampler_), "vkCreateSampler");
    }

    void createPipeline() {
        VkDevice dev = d_.device;
        VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                             VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
        auto sl = info<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
        sl.bindingCount = 1;
        sl.pBindings = &binding;
        check(vkCreateDescriptorSetLayout(dev, &sl, nullptr, &setLayout_), "vkCreateDescriptorSetLayout");
        VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(Push)};
        auto pl = info<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
        pl.setLayoutCount = 1;
        pl.pSetLayouts = &setLayout_;
        pl.pushConstantRangeCount = 1;
        pl.pPushConstantRanges = &range;
        check(vkCreatePipelineLayout(dev, &pl, nullptr, &layout_), "vkCreatePipelineLayout");

        VkAttachmentDescription a{};
        a.format = swapchain_.format;
        a.samples = VK_SAMPLE_COUNT_1_BIT;
        a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        a.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        a.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription sub{};
        sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        sub.colorAttachmentCount = 1;
        sub.pColorAttachments = &ref;
        // The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT: the layout transition
        // comes after it (Vulkan spec, "WSI Swapchain").
        VkSubpassDependency dep{};
        dep.srcSubpass = VK_SUBPASS_EXTERNAL;
        dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        auto rp = info<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
        rp.attachmentCount = 1;
        rp.pAttachments = &a;
        rp.subpassCount = 1;
        rp.pSubpasses = &sub;
        rp.dependencyCount = 1;
        rp.pDependencies = &dep;
        check(vkCreateRenderPass(dev, &rp, nullptr, &pass_), "vkCreateRenderPass");

        VkShaderModule vs = shaderModule(dev, ground_vert_spv, sizeof ground_vert_spv);
        VkShaderModule fs = o_.scene->queryLod ? shaderModule(dev, querylod_frag_spv, sizeof querylod_frag_spv)
                                               : shaderModule(dev, ground_frag_spv, sizeof ground_frag_spv);
        VkPipelineShaderStageCreateInfo stages[2]{};
        stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs,
                     "main", nullptr};
        stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs,
                     "main", nullptr};
        auto vin = info<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
        auto ia = info<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
        ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        const VkExtent2D e = swapchain_.extent;
        VkViewport viewport{0, 0, static_cast<float>(e.width), static_cast<float>(e.height), 0, 1};
        VkRect2D scissor{{0, 0}, e};
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
        ci.pVertexInputState = &vin;
        ci.pInputAssemblyState = &ia;
        ci.pViewportState = &vp;
        ci.pRasterizationState = &rs;
        ci.pMultisampleState = &ms;
        ci.pColorBlendState = &cb;
        ci.layout = layout_;
        ci.renderPass = pass_;
        check(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline_), "vkCreateGraphicsPipelines");
        vkDestroyShaderModule(dev, vs, nullptr);
        vkDestroyShaderModule(dev, fs, nullptr);
    }

    void createFrameObjects() {
        VkDevice dev = d_.device;
        VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
        auto pi = info<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
        pi.maxSets = 1;
        pi.poolSizeCount = 1;
        pi.pPoolSizes = &ps;
        check(vkCreateDescriptorPool(dev, &pi, nullptr, &pool_), "vkCreateDescriptorPool");
        auto dai = info<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
        dai.descriptorPool = pool_;
        dai.descriptorSetCount = 1;
        dai.pSetLayouts = &setLayout_;
        check(vkAllocateDescriptorSets(dev, &dai, &set_), "vkAllocateDescriptorSets");
        VkDescriptorImageInfo ii{sampler_, view_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        auto w = info<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        w.dstSet = set_;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w.pImageInfo = &ii;
        vkUpdateDescriptorSets(dev, 1, &w, 0, nullptr);

        for (VkImageView v : swapchain_.views) {
            auto fi = info<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
            fi.renderPass = pass_;
            fi.attachmentCount = 1;
            fi.pAttachments = &v;
            fi.width = swapchain_.extent.width;
            fi.height = swapchain_.extent.height;
            fi.layers = 1;
            VkFramebuffer fb = VK_NULL_HANDLE;
            check(vkCreateFramebuffer(dev, &fi, nullptr, &fb), "vkCreateFramebuffer");
            framebuffers_.push_back(fb);
        }
        auto cpi = info<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
        cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        cpi.queueFamilyIndex = d_.queueFamily;
        check(vkCreateCommandPool(dev, &cpi, nullptr, &commandPool_), "vkCreateCommandPool");
        auto cai = info<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        cai.commandPool = commandPool_;
        cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        cai.commandBufferCount = 1;
        check(vkAllocateCommandBuffers(dev, &cai, &commandBuffer_), "vkAllocateCommandBuffers");
        auto sci = info<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
        check(vkCreateSemaphore(dev, &sci, nullptr, &acquired_), "vkCreateSemaphore");
        check(vkCreateSemaphore(dev, &sci, nullptr, &rendered_), "vkCreateSemaphore");
        auto fci = info<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        check(vkCreateFence(dev, &fci, nullptr, &inFlight_), "vkCreateFence");
    }

    void record(std::uint32_t index) {
        VkCommandBuffer cb = commandBuffer_;
        check(vkResetCommandBuffer(cb, 0), "vkResetCommandBuffer");
        auto bi = info<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
        VkClearValue clear{};
        clear.color = {{0.45f, 0.6f, 0.85f, 1.0f}};  // sky above the horizon
        auto rp = info<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
        rp.renderPass = pass_;
        rp.framebuffer = framebuffers_[index];
        rp.renderArea = {{0, 0}, swapchain_.extent};
        rp.clearValueCount = 1;
        rp.pClearValues = &clear;
        vkCmdBeginRenderPass(cb, &rp, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &set_, 0, nullptr);
        // A shallow pitch keeps most of the plane at grazing angles; 0.5 repeats of the
        // 256-texel texture per unit makes level 0 far finer than a pixel beyond a few units.
        const Push push{0.12f,
                        static_cast<float>(swapchain_.extent.width) / static_cast<float>(swapchain_.extent.height),
                        0.5f};
        vkCmdPushConstants(cb, layout_, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof push, &push);
        vkCmdDraw(cb, 6, 1, 0, 0);
        vkCmdEndRenderPass(cb);
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    }

    void destroy() {
        VkDevice dev = d_.device;
        if (dev == VK_NULL_HANDLE) return;
        vkDeviceWaitIdle(dev);
        vkDestroyFence(dev, inFlight_, nullptr);
        vkDestroySemaphore(dev, acquired_, nullptr);
        vkDestroySemaphore(dev, rendered_, nullptr);
        vkDestroyCommandPool(dev, commandPool_, nullptr);
        for (VkFramebuffer fb : framebuffers_) vkDestroyFramebuffer(dev, fb, nullptr);
        framebuffers_.clear();
        vkDestroyDescriptorPool(dev, pool_, nullptr);
        vkDestroyPipeline(dev, pipeline_, nullptr);
        vkDestroyRenderPass(dev, pass_, nullptr);
        vkDestroyPipelineLayout(dev, layout_, nullptr);
        vkDestroyDescriptorSetLayout(dev, setLayout_, nullptr);
        vkDestroySampler(dev, sampler_, nullptr);
        vkDestroyImageView(dev, view_, nullptr);
        vkDestroyImage(dev, image_, nullptr);
        vkFreeMemory(dev, imageMemory_, nullptr);
        inFlight_ = VK_NULL_HANDLE;
        acquired_ = rendered_ = VK_NULL_HANDLE;
        commandPool_ = VK_NULL_HANDLE;
        pool_ = VK_NULL_HANDLE;
        pipeline_ = VK_NULL_HANDLE;
        pass_ = VK_NULL_HANDLE;
        layout_ = VK_NULL_HANDLE;
        setLayout_ = VK_NULL_HANDLE;
        sampler_ = VK_NULL_HANDLE;
        view_ = VK_NULL_HANDLE;
        image_ = VK_NULL_HANDLE;
        imageMemory_ = VK_NULL_HANDLE;
        swapchain_.destroy();
    }

    const Options& o_;
    Device& d_;
    vkscene::Window window_;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    vkscene::Swapchain swapchain_;
    VkImage image_ = VK_NULL_HANDLE;
    VkDeviceMemory imageMemory_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkRenderPass pass_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
    VkSemaphore acquired_ = VK_NULL_HANDLE, rendered_ = VK_NULL_HANDLE;
    VkFence inFlight_ = VK_NULL_HANDLE;
};

}  // namespace vktexlod

int main(int argc, char** argv) {
    using namespace vktexlod;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        }
    }
    Options options;
    std::string error;
    if (!parseOptions(argc, argv, &options, &error)) {
        std::fprintf(stderr, "vktexlod: %s\n%s", error.c_str(), kUsage);
        return 2;
    }
    try {
        Device device;
        {
            App app(options, device);
            app.run();
        }
        device.destroy();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vktexlod: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
