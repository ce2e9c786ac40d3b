// vkbreadth: one render pass that draws the rasterization state a replay must get exactly right
// to match the driver, each in its own third of the window (samples/vkbreadth/README.md):
//  - left: stencil. Bands of four stencil values, then columns of draws whose front and back
//    faces have their own compare and stencil operations (every VkStencilOp and VkCompareOp, each
//    where any other would leave a different stencil buffer), reference, compare mask and write
//    mask as dynamic state; then the stencil buffer shown bit by bit (EQUAL against each bit,
//    blended additively);
//  - middle: winding. An asymmetric shape in both windings under back-face culling, in a viewport
//    of positive height (top) and one of negative height (bottom, VK_KHR_maintenance1: the image
//    is flipped, and so is every triangle's orientation), each also mirrored by a negative x
//    scale; small copies under the other front face and front-face culling;
//  - right: depth bias as dynamic state on decals coplanar with a slanted quad: pulled forward by
//    the constant and the slope factor, one set slightly in front and pushed back behind it, and
//    two decals set behind the plane whose
//    forward slope bias is clamped (depthBiasClamp) or not.
// The frame does not change: frame N is the same image for every N.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "breadth_frag.spv.h"
#include "breadth_vert.spv.h"
#include "device.h"
#include "swapchain.h"
#include "window.h"

namespace vkbreadth {

using vkscene::check;
using vkscene::Device;
using vkscene::Error;
using vkscene::info;
using vkscene::parseUint;
using vkscene::shaderModule;

struct Options {
    std::uint32_t frames = 4;
    std::uint32_t width = 640, height = 360;
    bool d24 = false;  // --depth-format d24: D24_UNORM_S8_UINT instead of D32_SFLOAT_S8_UINT
    bool validate = false;
};


const char* kUsage =
    "usage: vkbreadth [--frames N] [--width W] [--height H] [--depth-format d32|d24] [--validate]\n"
    "Renders N identical frames in a window; see samples/vkbreadth/README.md.\n";


bool parseOptions(int argc, char** argv, Options* o, std::string* error) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::uint32_t lo, std::uint32_t hi, std::uint32_t* out) {
            if (i + 1 >= argc || !parseUint(argv[i + 1], lo, hi, out)) {
                *error = a + " needs a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
                return false;
            }
            ++i;
            return true;
        };
        bool ok = true;
        if (a == "--frames") ok = value(1, 100000, &o->frames);
        else if (a == "--width") ok = value(48, 4096, &o->width);
        else if (a == "--height") ok = value(16, 4096, &o->height);
        else if (a == "--depth-format") {
            const std::string v = i + 1 < argc ? argv[++i] : "";
            if (v != "d32" && v != "d24") {
                *error = "--depth-format needs d32 or d24";
                return false;
            }
            o->d24 = v == "d24";
        } else if (a == "--validate") o->validate = true;
        else {
            *error = "unknown option '" + a + "'";
            return false;
        }
        if (!ok) return false;
    }
    return true;
}

struct Push {
    float color[4];
    float placement[4];  // NDC offset xy, scale zw
};

// The vertex buffer: meshes of (x, y, z) triangles.
struct Mesh {
    std::uint32_t first = 0, count = 0;
};

class Geometry {
public:
    Mesh add(const std::vector<std::array<float, 3>>& v) {
        Mesh m{static_cast<std::uint32_t>(vertices.size()), static_cast<std::uint32_t>(v.size())};
        vertices.insert(vertices.end(), v.begin(), v.end());
        return m;
    }
    std::vector<std::array<float, 3>> vertices;
};

// Two triangles over [x0, x1] x [y0, y1] (NDC) at depth z(x); `reversed` gives the other winding.
std::vector<std::array<float, 3>> quad(float x0, float y0, float x1, float y1, bool reversed, float za, float zb) {
    const std::array<float, 3> c0{x0, y0, za}, c1{x1, y0, zb}, c2{x0, y1, za}, c3{x1, y1, zb};
    if (reversed) return {c0, c2, c1, c2, c3, c1};
    return {c0, c1, c2, c2, c1, c3};
}

// An asymmetric flag: a wide triangle below, a small one above it on the left, both one winding.
std::vector<std::array<float, 3>> flag(bool reversed) {
    std::vector<std::array<float, 3>> v = {{-1, -1, 0.5f}, {1, -0.6f, 0.5f}, {-1, 0.1f, 0.5f},
                                           {-1, 0.4f, 0.5f}, {-0.2f, 0.4f, 0.5f}, {-1, 1, 0.5f}};
    if (reversed) {
        for (std::size_t t = 0; t < v.size(); t += 3) std::swap(v[t + 1], v[t + 2]);
    }
    return v;
}

VkStencilOpState stencil(VkStencilOp fail, VkStencilOp pass, VkStencilOp depthFail, VkCompareOp compare) {
    // Masks and reference are dynamic state (set before each draw).
    return VkStencilOpState{fail, pass, depthFail, compare, 0, 0, 0};
}

struct PipelineDesc {
    bool colourWrites = true;
    bool additive = false;
    bool stencilTest = false;
    VkStencilOpState front{}, back{};
    VkCullModeFlags cull = VK_CULL_MODE_NONE;
    VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    bool depthTest = false;
    bool depthBias = false;
};

class App {
public:
    App(const Options& o, Device& device) : o_(o), d_(device) {}

    void run() {
        window_.open(o_.width, o_.height, "Tessera vkbreadth");
        d_.createInstance(true, o_.validate);
        surface_ = window_.createSurface(d_.instance);
        d_.pickPhysicalDevice(surface_);
        d_.createDevice(true, 1.0f);
        if (!d_.depthBiasClamp) throw Error(std::string(d_.properties.deviceName) + " lacks the depthBiasClamp feature");
        swapchain_.create(d_, surface_, {o_.width, o_.height}, vkscene::PresentMode::Fifo, false);
        createObjects();
        VkDevice dev = d_.device;
        for (std::uint32_t frame = 1; frame <= o_.frames; ++frame) {
            window_.poll();
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
            si.pCommandBuffers = &cb_;
            // One semaphore per swapchain image: the present that waits on an image's semaphore
            // is done with it once that image is acquired again (spec "WSI Swapchain").
            si.signalSemaphoreCount = 1;
            si.pSignalSemaphores = &rendered_[index];
            check(vkQueueSubmit(d_.queue, 1, &si, inFlight_), "vkQueueSubmit");
            auto pi = info<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
            pi.waitSemaphoreCount = 1;
            pi.pWaitSemaphores = &rendered_[index];
            pi.swapchainCount = 1;
            pi.pSwapchains = &swapchain_.swapchain;
            pi.pImageIndices = &index;
            const VkResult r = vkQueuePresentKHR(d_.queue, &pi);
            if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR) check(r, "vkQueuePresentKHR");
        }
        check(vkDeviceWaitIdle(dev), "vkDeviceWaitIdle");
        std::printf("vkbreadth: %u frames, %ux%u, %s\n", o_.frames, swapchain_.extent.width, swapchain_.extent.height,
                    o_.d24 ? "D24_UNORM_S8_UINT" : "D32_SFLOAT_S8_UINT");
        destroyObjects();
    }

private:
    std::uint32_t memoryType(VkMemoryRequirements req, VkMemoryPropertyFlags flags) const {
        return d_.findMemoryType(req.memoryTypeBits, flags);
    }

    void createObjects() {
        VkDevice dev = d_.device;
        depthFormat_ = o_.d24 ? VK_FORMAT_D24_UNORM_S8_UINT : VK_FORMAT_D32_SFLOAT_S8_UINT;
        VkFormatProperties fp{};
        vkGetPhysicalDeviceFormatProperties(d_.physical, depthFormat_, &fp);
        if ((fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) == 0)
            throw Error(std::string("the device cannot render to ") + (o_.d24 ? "D24_UNORM_S8_UINT" : "D32_SFLOAT_S8_UINT"));

        // Depth/stencil image.
        const VkExtent2D e = swapchain_.extent;
        auto ii = info<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
        ii.imageType = VK_IMAGE_TYPE_2D;
        ii.format = depthFormat_;
        ii.extent = {e.width, e.height, 1};
        ii.mipLevels = ii.arrayLayers = 1;
        ii.samples = VK_SAMPLE_COUNT_1_BIT;
        ii.tiling = VK_IMAGE_TILING_OPTIMAL;
        ii.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
        check(vkCreateImage(dev, &ii, nullptr, &depth_), "vkCreateImage");
        VkMemoryRequirements req{};
        vkGetImageMemoryRequirements(dev, depth_, &req);
        auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = memoryType(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        check(vkAllocateMemory(dev, &ai, nullptr, &depthMemory_), "vkAllocateMemory");
        check(vkBindImageMemory(dev, depth_, depthMemory_, 0), "vkBindImageMemory");
        auto vi = info<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
        vi.image = depth_;
        vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vi.format = depthFormat_;
        vi.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1};
        check(vkCreateImageView(dev, &vi, nullptr, &depthView_), "vkCreateImageView");

        createPass();
        for (VkImageView v : swapchain_.views) {
            const VkImageView views[2] = {v, depthView_};
            auto fi = info<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
            fi.renderPass = pass_;
            fi.attachmentCount = 2;
            fi.pAttachments = views;
            fi.width = e.width;
            fi.height = e.height;
            fi.layers = 1;
            VkFramebuffer fb = VK_NULL_HANDLE;
            check(vkCreateFramebuffer(dev, &fi, nullptr, &fb), "vkCreateFramebuffer");
            framebuffers_.push_back(fb);
        }

        createGeometry();
        createPipelines();

        auto pi = info<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
        pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pi.queueFamilyIndex = d_.queueFamily;
        check(vkCreateCommandPool(dev, &pi, nullptr, &pool_), "vkCreateCommandPool");
        auto ci = info<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
        ci.commandPool = pool_;
        ci.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ci.commandBufferCount = 1;
        check(vkAllocateCommandBuffers(dev, &ci, &cb_), "vkAllocateCommandBuffers");
        auto sci = info<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
        check(vkCreateSemaphore(dev, &sci, nullptr, &acquired_), "vkCreateSemaphore");
        rendered_.resize(swapchain_.images.size());
        for (VkSemaphore& r : rendered_) check(vkCreateSemaphore(dev, &sci, nullptr, &r), "vkCreateSemaphore");
        auto fci = info<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        check(vkCreateFence(dev, &fci, nullptr, &inFlight_), "vkCreateFence");
    }

    void createPass() {
        VkAttachmentDescription a[2]{};
        a[0].format = swapchain_.format;
        a[0].samples = VK_SAMPLE_COUNT_1_BIT;
        a[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        a[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        a[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        a[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        a[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        a[0].finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        a[1].format = depthFormat_;
        a[1].samples = VK_SAMPLE_COUNT_1_BIT;
        a[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        a[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        a[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        a[1].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        a[1].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        a[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        VkAttachmentReference colour{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkAttachmentReference ds{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        VkSubpassDescription sub{};
        sub.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        sub.colorAttachmentCount = 1;
        sub.pColorAttachments = &colour;
        sub.pDepthStencilAttachment = &ds;
        // The acquire semaphore is waited at COLOR_ATTACHMENT_OUTPUT; the depth buffer's previous
        // frame's tests finish before this frame's clear (it is one image for every frame).
        VkSubpassDependency dep{};
        dep.srcSubpass = VK_SUBPASS_EXTERNAL;
        dep.dstSubpass = 0;
        dep.srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
        dep.dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT;
        dep.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
        dep.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                            VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
        auto ci = info<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
        ci.attachmentCount = 2;
        ci.pAttachments = a;
        ci.subpassCount = 1;
        ci.pSubpasses = &sub;
        ci.dependencyCount = 1;
        ci.pDependencies = &dep;
        check(vkCreateRenderPass(d_.device, &ci, nullptr, &pass_), "vkCreateRenderPass");
    }

    void createGeometry() {
        Geometry g;
        // With a viewport of positive height, quad()'s winding has a negative signed area in
        // framebuffer coordinates (spec "Basic Polygon Rasterization"): back-facing under
        // COUNTER_CLOCKWISE; the reversed one is front-facing.
        backQuad_ = g.add(quad(-1, -1, 1, 1, false, 0.5f, 0.5f));
        frontQuad_ = g.add(quad(-1, -1, 1, 1, true, 0.5f, 0.5f));
        flag_ = g.add(flag(false));
        flagReversed_ = g.add(flag(true));
        // The right third: a plane whose depth rises from 0.2 to 0.8 across it, and decals on it
        // (the same plane: coplanar), or 0.002 behind it. Drawn unplaced (offset 0, scale 1).
        const float x0 = 1.0f / 3 + 0.05f, x1 = 0.95f;
        const auto z = [&](float x, float behind) { return 0.2f + 0.6f * (x - x0) / (x1 - x0) + behind; };
        const auto onPlane = [&](float a, float b, float y0, float y1, float behind) {
            return g.add(quad(a, y0, b, y1, false, z(a, behind), z(b, behind)));
        };
        plane_ = onPlane(x0, x1, -0.9f, 0.9f, 0);
        const float w = (x1 - x0) / 2;
        decalForward_ = onPlane(x0 + 0.1f * w, x0 + 0.9f * w, -0.8f, -0.45f, 0);
        decalBack_ = onPlane(x0 + 1.1f * w, x0 + 1.9f * w, -0.8f, -0.45f, -0.001f);  // in front, unbiased
        decalConstant_ = onPlane(x0 + 0.1f * w, x0 + 0.9f * w, -0.3f, 0.05f, 0);
        decalClamped_ = onPlane(x0 + 1.1f * w, x0 + 1.9f * w, -0.3f, 0.05f, 0.002f);
        decalUnclamped_ = onPlane(x0 + 0.1f * w, x0 + 1.9f * w, 0.2f, 0.6f, 0.002f);

        VkDevice dev = d_.device;
        const VkDeviceSize bytes = g.vertices.size() * sizeof(g.vertices[0]);
        auto bi = info<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
        bi.size = bytes;
        bi.usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
        check(vkCreateBuffer(dev, &bi, nullptr, &vertices_), "vkCreateBuffer");
        VkMemoryRequirements req{};
        vkGetBufferMemoryRequirements(dev, vertices_, &req);
        auto ai = info<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
        ai.allocationSize = req.size;
        ai.memoryTypeIndex =
            memoryType(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkAllocateMemory(dev, &ai, nullptr, &vertexMemory_), "vkAllocateMemory");
        check(vkBindBufferMemory(dev, vertices_, vertexMemory_, 0), "vkBindBufferMemory");
        void* p = nullptr;
        check(vkMapMemory(dev, vertexMemory_, 0, bytes, 0, &p), "vkMapMemory");
        std::memcpy(p, g.vertices.data(), bytes);
        vkUnmapMemory(dev, vertexMemory_);
    }

    VkPipeline pipeline(const PipelineDesc& p) {
        VkPipelineShaderStageCreateInfo stages[2]{};
        for (auto& s : stages) s.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
        stages[0].module = vs_;
        stages[0].pName = "main";
        stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[1].module = fs_;
        stages[1].pName = "main";
        VkVertexInputBindingDescription binding{0, sizeof(float) * 3, VK_VERTEX_INPUT_RATE_VERTEX};
        VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0};
        auto vin = info<VkPipelineVertexInputStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
        vin.vertexBindingDescriptionCount = 1;
        vin.pVertexBindingDescriptions = &binding;
        vin.vertexAttributeDescriptionCount = 1;
        vin.pVertexAttributeDescriptions = &attribute;
        auto ia = info<VkPipelineInputAssemblyStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
        ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        auto vp = info<VkPipelineViewportStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
        vp.viewportCount = vp.scissorCount = 1;
        auto rs = info<VkPipelineRasterizationStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
        rs.polygonMode = VK_POLYGON_MODE_FILL;
        rs.cullMode = p.cull;
        rs.frontFace = p.frontFace;
        rs.depthBiasEnable = p.depthBias ? VK_TRUE : VK_FALSE;
        rs.lineWidth = 1.0f;
        auto ms = info<VkPipelineMultisampleStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
        ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        auto dss = info<VkPipelineDepthStencilStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
        dss.depthTestEnable = p.depthTest ? VK_TRUE : VK_FALSE;
        dss.depthWriteEnable = p.depthTest ? VK_TRUE : VK_FALSE;
        dss.depthCompareOp = VK_COMPARE_OP_LESS;
        dss.stencilTestEnable = p.stencilTest ? VK_TRUE : VK_FALSE;
        dss.front = p.front;
        dss.back = p.back;
        VkPipelineColorBlendAttachmentState blend{};
        blend.colorWriteMask = p.colourWrites ? VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                                    VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT
                                              : 0;
        if (p.additive) {
            blend.blendEnable = VK_TRUE;
            blend.srcColorBlendFactor = blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
            blend.srcAlphaBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
            blend.colorBlendOp = blend.alphaBlendOp = VK_BLEND_OP_ADD;
        }
        auto cb = info<VkPipelineColorBlendStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
        cb.attachmentCount = 1;
        cb.pAttachments = &blend;
        const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT,
                                          VK_DYNAMIC_STATE_SCISSOR,
                                          VK_DYNAMIC_STATE_DEPTH_BIAS,
                                          VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK,
                                          VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
                                          VK_DYNAMIC_STATE_STENCIL_REFERENCE};
        auto dyn = info<VkPipelineDynamicStateCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO);
        dyn.dynamicStateCount = sizeof dynamic / sizeof dynamic[0];
        dyn.pDynamicStates = dynamic;
        auto ci = info<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
        ci.stageCount = 2;
        ci.pStages = stages;
        ci.pVertexInputState = &vin;
        ci.pInputAssemblyState = &ia;
        ci.pViewportState = &vp;
        ci.pRasterizationState = &rs;
        ci.pMultisampleState = &ms;
        ci.pDepthStencilState = &dss;
        ci.pColorBlendState = &cb;
        ci.pDynamicState = &dyn;
        ci.layout = layout_;
        ci.renderPass = pass_;
        VkPipeline out = VK_NULL_HANDLE;
        check(vkCreateGraphicsPipelines(d_.device, VK_NULL_HANDLE, 1, &ci, nullptr, &out), "vkCreateGraphicsPipelines");
        pipelines_.push_back(out);
        return out;
    }

    void createPipelines() {
        vs_ = shaderModule(d_.device, breadth_vert_spv, sizeof breadth_vert_spv);
        fs_ = shaderModule(d_.device, breadth_frag_spv, sizeof breadth_frag_spv);
        VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Push)};
        auto li = info<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
        li.pushConstantRangeCount = 1;
        li.pPushConstantRanges = &push;
        check(vkCreatePipelineLayout(d_.device, &li, nullptr, &layout_), "vkCreatePipelineLayout");

        // Stencil writers: no colour, both faces drawn, front and back with their own state. Each
        // slot's operation is chosen so that, on the values the set-up bands hold (0, 0xFF, 0x5A,
        // 0xA5), every other VkStencilOp would leave a different stencil buffer, and each compare
        // op so that every other VkCompareOp would (the ALWAYS front's fail and the NEVER back's
        // pass excepted: they never run).
        PipelineDesc w;
        w.colourWrites = false;
        w.stencilTest = true;
        w.front = w.back = stencil(VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
        setup_ = pipeline(w);
        w.front = stencil(VK_STENCIL_OP_DECREMENT_AND_WRAP, VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP,
                          VK_COMPARE_OP_EQUAL);
        w.back = stencil(VK_STENCIL_OP_DECREMENT_AND_CLAMP, VK_STENCIL_OP_INCREMENT_AND_WRAP, VK_STENCIL_OP_KEEP,
                         VK_COMPARE_OP_NOT_EQUAL);
        clampWrap_ = pipeline(w);
        w.front = stencil(VK_STENCIL_OP_ZERO, VK_STENCIL_OP_INVERT, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL);
        w.back = stencil(VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_NOT_EQUAL);
        invertZero_ = pipeline(w);
        w.front = stencil(VK_STENCIL_OP_INVERT, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_LESS);
        w.back = stencil(VK_STENCIL_OP_INVERT, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_GREATER_OR_EQUAL);
        lessGreaterEqual_ = pipeline(w);
        w.front = stencil(VK_STENCIL_OP_INVERT, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_LESS_OR_EQUAL);
        w.back = stencil(VK_STENCIL_OP_INVERT, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_GREATER);
        lessEqualGreater_ = pipeline(w);
        w.front = stencil(VK_STENCIL_OP_KEEP, VK_STENCIL_OP_DECREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
        w.back = stencil(VK_STENCIL_OP_INVERT, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_NEVER);
        alwaysNever_ = pipeline(w);
        // Stencil shown: EQUAL against one bit (compare mask = reference = the bit), added up.
        PipelineDesc s;
        s.additive = true;
        s.stencilTest = true;
        s.front = s.back = stencil(VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL);
        showBit_ = pipeline(s);
        // Winding.
        PipelineDesc c;
        c.cull = VK_CULL_MODE_BACK_BIT;
        cullBack_ = pipeline(c);
        c.cull = VK_CULL_MODE_FRONT_BIT;
        c.frontFace = VK_FRONT_FACE_CLOCKWISE;
        cullFrontClockwise_ = pipeline(c);
        // Depth.
        PipelineDesc z;
        z.depthTest = true;
        depth_plane_ = pipeline(z);
        z.depthBias = true;
        decal_ = pipeline(z);
    }

    void setViewport(float x, float y, float w, float h) {
        const VkViewport v{x, y, w, h, 0.0f, 1.0f};
        vkCmdSetViewport(cb_, 0, 1, &v);
    }

    void draw(VkPipeline p, Mesh m, std::array<float, 4> colour, std::array<float, 4> placement) {
        if (p != bound_) {
            vkCmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
            bound_ = p;
        }
        Push push{};
        std::memcpy(push.color, colour.data(), sizeof push.color);
        std::memcpy(push.placement, placement.data(), sizeof push.placement);
        vkCmdPushConstants(cb_, layout_, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push,
                           &push);
        vkCmdDraw(cb_, m.count, 1, m.first, 0);
    }

    // Reference, compare mask and write mask for both faces.
    void stencilState(std::uint32_t reference, std::uint32_t compareMask, std::uint32_t writeMask) {
        vkCmdSetStencilReference(cb_, VK_STENCIL_FACE_FRONT_AND_BACK, reference);
        vkCmdSetStencilCompareMask(cb_, VK_STENCIL_FACE_FRONT_AND_BACK, compareMask);
        vkCmdSetStencilWriteMask(cb_, VK_STENCIL_FACE_FRONT_AND_BACK, writeMask);
    }

    void record(std::uint32_t index) {
        check(vkResetCommandBuffer(cb_, 0), "vkResetCommandBuffer");
        auto bi = info<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check(vkBeginCommandBuffer(cb_, &bi), "vkBeginCommandBuffer");
        const VkExtent2D e = swapchain_.extent;
        VkClearValue clear[2]{};
        clear[0].color = {{0.08f, 0.08f, 0.1f, 1.0f}};
        clear[1].depthStencil = {1.0f, 0};
        auto rp = info<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
        rp.renderPass = pass_;
        rp.framebuffer = framebuffers_[index];
        rp.renderArea = {{0, 0}, e};
        rp.clearValueCount = 2;
        rp.pClearValues = clear;
        vkCmdBeginRenderPass(cb_, &rp, VK_SUBPASS_CONTENTS_INLINE);
        bound_ = VK_NULL_HANDLE;
        const VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cb_, 0, 1, &vertices_, &offset);
        const VkRect2D all{{0, 0}, e};
        vkCmdSetScissor(cb_, 0, 1, &all);
        const float W = static_cast<float>(e.width), H = static_cast<float>(e.height);
        setViewport(0, 0, W, H);
        vkCmdSetDepthBias(cb_, 0.0f, 0.0f, 0.0f);
        const std::array<float, 4> none{0, 0, 0, 0};

        // Left third (NDC x in [-1, -1/3]): stencil. Rectangles as (centre x, centre y, half w, half h).
        const auto inLeft = [](float cx, float cy, float hw, float hh) {
            return std::array<float, 4>{-2.0f / 3 + cx / 3, cy, hw / 3, hh};
        };
        // Bands of the left third, top to bottom: 0 (cleared), 0xFF, 0x5A, 0xA5.
        stencilState(0xff, 0xff, 0xff);
        draw(setup_, frontQuad_, none, inLeft(0, -0.25f, 1, 0.25f));
        stencilState(0x5a, 0xff, 0xff);
        draw(setup_, backQuad_, none, inLeft(0, 0.25f, 1, 0.25f));
        stencilState(0xa5, 0xff, 0xff);
        draw(setup_, frontQuad_, none, inLeft(0, 0.75f, 1, 0.25f));
        // Fourteen columns across the bands, each one face of one pipeline under its reference,
        // compare mask and write mask. A compare mask of 0 compares 0 with 0: EQUAL passes
        // everywhere, NOT_EQUAL fails everywhere, so every band sees the slot's operation.
        struct Column {
            VkPipeline pipeline;
            bool front;
            std::uint32_t reference, compareMask, writeMask;
        };
        const Column columns[] = {
            {clampWrap_, true, 0x33, 0x00, 0xff},   // EQUAL passes: INCREMENT_AND_CLAMP (0xFF stays)
            {clampWrap_, true, 0x33, 0xff, 0xff},   // EQUAL fails: DECREMENT_AND_WRAP (0 -> 0xFF)
            {clampWrap_, false, 0x33, 0xff, 0xff},  // NOT_EQUAL passes: INCREMENT_AND_WRAP (0xFF -> 0)
            {clampWrap_, false, 0x33, 0x00, 0xff},  // NOT_EQUAL fails: DECREMENT_AND_CLAMP (0 stays)
            {invertZero_, true, 0x33, 0x00, 0xff},  // INVERT
            {invertZero_, true, 0x33, 0xff, 0xff},  // ZERO
            {invertZero_, false, 0x33, 0xff, 0x0f}, // REPLACE under a write mask
            {invertZero_, false, 0x33, 0x00, 0xff}, // KEEP
            {lessGreaterEqual_, true, 0x5a, 0xff, 0xff},
            {lessGreaterEqual_, false, 0x5a, 0xff, 0xff},
            {lessEqualGreater_, true, 0x0a, 0x0f, 0xff},
            {lessEqualGreater_, false, 0x5a, 0xff, 0xf0},
            {alwaysNever_, true, 0xa5, 0xff, 0x3f},
            {alwaysNever_, false, 0x5a, 0xff, 0xff},
        };
        constexpr float kColumn = 2.0f / 14;
        for (std::uint32_t k = 0; k < 14; ++k) {
            const Column& c = columns[k];
            stencilState(c.reference, c.compareMask, c.writeMask);
            draw(c.pipeline, c.front ? frontQuad_ : backQuad_, none,
                 inLeft(-1 + kColumn * (static_cast<float>(k) + 0.5f), 0, kColumn * 0.4f, 1));
        }
        const std::array<std::array<float, 4>, 8> bitColour = {{{0.5f, 0, 0, 0},
                                                                {0, 0.5f, 0, 0},
                                                                {0, 0, 0.5f, 0},
                                                                {0.25f, 0.25f, 0, 0},
                                                                {0, 0.25f, 0.25f, 0},
                                                                {0.25f, 0, 0.25f, 0},
                                                                {0.125f, 0.125f, 0.125f, 0},
                                                                {0.0625f, 0.0625f, 0.0625f, 0}}};
        for (std::uint32_t bit = 0; bit < 8; ++bit) {
            stencilState(1u << bit, 1u << bit, 0);
            draw(showBit_, frontQuad_, bitColour[bit], inLeft(0, 0, 1, 1));
        }

        // Middle third: the flag in both windings under back-face culling, in a viewport of
        // positive height over the top half and one of negative height over the bottom half.
        const std::array<float, 4> red{0.9f, 0.2f, 0.2f, 1}, green{0.2f, 0.9f, 0.3f, 1};
        for (const bool flipped : {false, true}) {
            if (flipped) setViewport(W / 3, H, W / 3, -H / 2);
            else setViewport(W / 3, 0, W / 3, H / 2);
            // Columns: the flag as drawn, then mirrored by a negative x scale; rows: windings.
            draw(cullBack_, flag_, red, {-0.5f, -0.5f, 0.4f, 0.4f});
            draw(cullBack_, flagReversed_, green, {-0.5f, 0.5f, 0.4f, 0.4f});
            draw(cullBack_, flag_, red, {0.5f, -0.5f, -0.4f, 0.4f});
            draw(cullBack_, flagReversed_, green, {0.5f, 0.5f, -0.4f, 0.4f});
            // The other front face, culling front faces: small copies in the middle.
            draw(cullFrontClockwise_, flag_, {0.9f, 0.8f, 0.2f, 1}, {0, -0.5f, 0.08f, 0.3f});
            draw(cullFrontClockwise_, flagReversed_, {0.3f, 0.5f, 0.95f, 1}, {0, 0.5f, 0.08f, 0.3f});
        }
        setViewport(0, 0, W, H);

        // Right third: depth bias (spec "Depth Bias"), unplaced meshes.
        const std::array<float, 4> unplaced{0, 0, 1, 1};
        draw(depth_plane_, plane_, {0.55f, 0.55f, 0.6f, 1}, unplaced);
        vkCmdSetDepthBias(cb_, -16.0f, 0.0f, -2.0f);  // forward: constant and slope
        draw(decal_, decalForward_, {0.2f, 0.85f, 0.3f, 1}, unplaced);
        vkCmdSetDepthBias(cb_, 16.0f, 0.0f, 2.0f);  // 0.001 in front, pushed about 0.006 back: hidden
        draw(decal_, decalBack_, {0.95f, 0.2f, 0.2f, 1}, unplaced);
        vkCmdSetDepthBias(cb_, -16.0f, 0.0f, 0.0f);  // the constant alone
        draw(decal_, decalConstant_, {0.25f, 0.45f, 0.95f, 1}, unplaced);
        // 0.002 behind the plane: the slope's forward bias (about -0.006 here) brings it in front
        // unless clamped to -0.001 (a negative clamp bounds the bias from below).
        vkCmdSetDepthBias(cb_, 0.0f, -0.001f, -2.0f);
        draw(decal_, decalClamped_, {0.95f, 0.6f, 0.1f, 1}, unplaced);
        vkCmdSetDepthBias(cb_, 0.0f, 0.0f, -2.0f);
        draw(decal_, decalUnclamped_, {0.9f, 0.9f, 0.3f, 1}, unplaced);

        vkCmdEndRenderPass(cb_);
        check(vkEndCommandBuffer(cb_), "vkEndCommandBuffer");
    }

    void destroyObjects() {
        VkDevice dev = d_.device;
        vkDestroyFence(dev, inFlight_, nullptr);
        for (VkSemaphore r : rendered_) vkDestroySemaphore(dev, r, nullptr);
        vkDestroySemaphore(dev, acquired_, nullptr);
        vkDestroyCommandPool(dev, pool_, nullptr);
        for (VkPipeline p : pipelines_) vkDestroyPipeline(dev, p, nullptr);
        vkDestroyPipelineLayout(dev, layout_, nullptr);
        vkDestroyShaderModule(dev, vs_, nullptr);
        vkDestroyShaderModule(dev, fs_, nullptr);
        vkDestroyBuffer(dev, vertices_, nullptr);
        vkFreeMemory(dev, vertexMemory_, nullptr);
        for (VkFramebuffer fb : framebuffers_) vkDestroyFramebuffer(dev, fb, nullptr);
        vkDestroyRenderPass(dev, pass_, nullptr);
        vkDestroyImageView(dev, depthView_, nullptr);
        vkDestroyImage(dev, depth_, nullptr);
        vkFreeMemory(dev, depthMemory_, nullptr);
        swapchain_.destroy();
    }

    const Options& o_;
    Device& d_;
    vkscene::Window window_;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    vkscene::Swapchain swapchain_;
    VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
    VkImage depth_ = VK_NULL_HANDLE;
    VkDeviceMemory depthMemory_ = VK_NULL_HANDLE;
    VkImageView depthView_ = VK_NULL_HANDLE;
    VkRenderPass pass_ = VK_NULL_HANDLE;
    std::vector<VkFramebuffer> framebuffers_;
    VkBuffer vertices_ = VK_NULL_HANDLE;
    VkDeviceMemory vertexMemory_ = VK_NULL_HANDLE;
    Mesh backQuad_, frontQuad_, flag_, flagReversed_, plane_;
    Mesh decalForward_, decalBack_, decalConstant_, decalClamped_, decalUnclamped_;
    VkShaderModule vs_ = VK_NULL_HANDLE, fs_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    std::vector<VkPipeline> pipelines_;
    VkPipeline setup_ = VK_NULL_HANDLE, clampWrap_ = VK_NULL_HANDLE, invertZero_ = VK_NULL_HANDLE;
    VkPipeline lessGreaterEqual_ = VK_NULL_HANDLE, lessEqualGreater_ = VK_NULL_HANDLE, alwaysNever_ = VK_NULL_HANDLE;
    VkPipeline showBit_ = VK_NULL_HANDLE, cullBack_ = VK_NULL_HANDLE, cullFrontClockwise_ = VK_NULL_HANDLE;
    VkPipeline depth_plane_ = VK_NULL_HANDLE, decal_ = VK_NULL_HANDLE, bound_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cb_ = VK_NULL_HANDLE;
    VkSemaphore acquired_ = VK_NULL_HANDLE;
    std::vector<VkSemaphore> rendered_;  // per swapchain image
    VkFence inFlight_ = VK_NULL_HANDLE;
};

}  // namespace vkbreadth

int main(int argc, char** argv) {
    vkbreadth::Options o;
    std::string error;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(vkbreadth::kUsage, stdout);
            return 0;
        }
    }
    if (!vkbreadth::parseOptions(argc, argv, &o, &error)) {
        std::fprintf(stderr, "vkbreadth: %s\n%s", error.c_str(), vkbreadth::kUsage);
        return 2;
    }
    std::uint32_t messages = 0;
    try {
        vkscene::Device device;
        {
            // The window (and its surface) goes before the instance.
            vkbreadth::App app(o, device);
            app.run();
        }
        device.destroy();  // leaks reported at vkDestroyDevice/Instance are counted too
        messages = device.validationMessages();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vkbreadth: %s\n", e.what());
        return 1;
    }
    if (o.validate && messages > 0) {
        std::fprintf(stderr, "vkbreadth: the validation layer reported %u message(s)\n", messages);
        return 3;
    }
    return 0;
}
