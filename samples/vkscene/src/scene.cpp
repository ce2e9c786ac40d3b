#include "scene.h"

#include "rtt.frag.spv.h"
#include "rtt.vert.spv.h"
#include "scene.frag.spv.h"
#include "scene.vert.spv.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <span>

namespace vkscene {

namespace {

constexpr VkFormat kRttFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr std::uint32_t kRttSize = 512;
constexpr std::uint32_t kBlades = 8;
constexpr float kPi = 3.14159265358979f;

// Material = texture + sampler, one descriptor set each (set 1).
enum Material : std::uint32_t {
    kChecker,
    kBricks,
    kRings,
    kMarble,
    kGround,
    kGlass,
    kRenderTarget,
    kMaterialCount
};

struct Vertex {
    float position[3];
    float normal[3];
    float uv[2];
};

// Mirrors the push_constant block of the shaders (std430: mat4, vec4, vec4 = 96 bytes, under the
// 128-byte maxPushConstantsSize every implementation guarantees).
struct DrawConstants {
    float model[16];
    float tint[4];
    float params[4];
};
static_assert(sizeof(DrawConstants) == 96);

// Mirrors the std140 Frame uniform block.
struct FrameUniforms {
    float viewProj[16];
    float lightDir[4];
    float eye[4];
};
static_assert(sizeof(FrameUniforms) == 96);

// Four corners of a face with normal n, counter-clockwise seen from outside: with
// u = up x n, u x up = n, so (-u-v, +u-v, +u+v, -u+v) winds counter-clockwise about n.
void addFace(std::vector<Vertex>& out, Vec3 center, Vec3 n, Vec3 up) {
    const Vec3 u = cross(up, n);
    const float su[4] = {-1, 1, 1, -1};
    const float sv[4] = {-1, -1, 1, 1};
    for (int i = 0; i < 4; ++i) {
        Vertex v{};
        v.position[0] = center.x + 0.5f * (su[i] * u.x + sv[i] * up.x);
        v.position[1] = center.y + 0.5f * (su[i] * u.y + sv[i] * up.y);
        v.position[2] = center.z + 0.5f * (su[i] * u.z + sv[i] * up.z);
        v.normal[0] = n.x;
        v.normal[1] = n.y;
        v.normal[2] = n.z;
        v.uv[0] = (su[i] + 1.0f) * 0.5f;
        v.uv[1] = 1.0f - (sv[i] + 1.0f) * 0.5f;  // texture row 0 at the top of the face
        out.push_back(v);
    }
}

VkShaderModule makeModule(VkDevice device, std::span<const std::uint32_t> code) {
    VkShaderModuleCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    info.codeSize = code.size_bytes();
    info.pCode = code.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
    return module;
}

void store(float (&dst)[16], const Mat4& m) { std::memcpy(dst, m.m.data(), sizeof(dst)); }

// The camera sways on an arc in front of the scene. Pure function of the frame number: frame N
// looks the same in every run, which makes captures of different runs comparable.
Vec3 eyeAt(std::uint32_t frame) {
    const float a = 0.5f * std::sin(static_cast<float>(frame) * 0.015f);
    return {18.0f * std::sin(a), 7.0f, -2.0f + 18.0f * std::cos(a)};
}
constexpr Vec3 kLookAt{0.0f, 1.5f, -2.0f};

}  // namespace

Scene::~Scene() {
    if (vk_ == VK_NULL_HANDLE) return;
    vkDeviceWaitIdle(vk_);
    destroyTargets();
    for (VkPipeline p : {opaque_, transparent_, rttPipeline_}) {
        if (p != VK_NULL_HANDLE) vkDestroyPipeline(vk_, p, nullptr);
    }
    if (pipelineLayout_ != VK_NULL_HANDLE) vkDestroyPipelineLayout(vk_, pipelineLayout_, nullptr);
    if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(vk_, pool_, nullptr);
    for (VkDescriptorSetLayout l : {frameLayout_, materialLayout_}) {
        if (l != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(vk_, l, nullptr);
    }
    for (Buffer& b : uniforms_) destroyBuffer(vk_, b);
    if (rttFramebuffer_ != VK_NULL_HANDLE) vkDestroyFramebuffer(vk_, rttFramebuffer_, nullptr);
    for (VkRenderPass p : {rttPass_, mainPass_, readbackPass_}) {
        if (p != VK_NULL_HANDLE) vkDestroyRenderPass(vk_, p, nullptr);
    }
    destroyImage(vk_, rtt_);
    for (VkSampler s : {trilinear_, anisotropic_, clampLinear_}) {
        if (s != VK_NULL_HANDLE) vkDestroySampler(vk_, s, nullptr);
    }
    for (Image& t : textures_) destroyImage(vk_, t);
    destroyBuffer(vk_, vertices_);
    destroyBuffer(vk_, indices_);
}

void Scene::create(const Device& device, VkFormat colorFormat, VkImageLayout finalLayout,
                   std::uint32_t framesInFlight) {
    device_ = &device;
    vk_ = device.device;
    createGeometry();
    createTextures();
    createRenderPasses(colorFormat, finalLayout);
    createDescriptors(framesInFlight);
    createPipelines();
    buildObjects();
}

void Scene::createGeometry() {
    std::vector<Vertex> vertices;
    std::vector<std::uint16_t> indices;

    // Cube: 24 vertices (normals and uvs differ per face), 36 indices.
    const std::array<std::pair<Vec3, Vec3>, 6> faces = {{
        {{1, 0, 0}, {0, 1, 0}},
        {{-1, 0, 0}, {0, 1, 0}},
        {{0, 0, 1}, {0, 1, 0}},
        {{0, 0, -1}, {0, 1, 0}},
        {{0, 1, 0}, {0, 0, -1}},
        {{0, -1, 0}, {0, 0, 1}},
    }};
    for (const auto& [n, up] : faces) {
        const auto base = static_cast<std::uint16_t>(vertices.size());
        addFace(vertices, {0.5f * n.x, 0.5f * n.y, 0.5f * n.z}, n, up);
        for (std::uint16_t i : {0, 1, 2, 0, 2, 3})
            indices.push_back(static_cast<std::uint16_t>(base + i));
    }
    cube_ = {0, 36, 0, true};

    // Ground plane: indexed, reusing the face helper with its own vertex offset so the draw
    // exercises vertexOffset.
    const auto planeVertex = static_cast<std::int32_t>(vertices.size());
    const auto planeIndex = static_cast<std::uint32_t>(indices.size());
    addFace(vertices, {0, 0, 0}, {0, 1, 0}, {0, 0, -1});
    for (std::uint16_t i : {0, 1, 2, 0, 2, 3}) indices.push_back(i);
    plane_ = {planeIndex, 6, planeVertex, true};

    // Quad for the screen and the glass panes: non-indexed, 6 vertices.
    const auto quadFirst = static_cast<std::uint32_t>(vertices.size());
    std::vector<Vertex> corners;
    addFace(corners, {0, 0, 0}, {0, 0, 1}, {0, 1, 0});
    for (int i : {0, 1, 2, 0, 2, 3}) vertices.push_back(corners[static_cast<std::size_t>(i)]);
    quad_ = {quadFirst, 6, 0, false};

    // One pinwheel blade: a thin triangle from the centre, drawn 8 times rotated.
    const auto bladeFirst = static_cast<std::uint32_t>(vertices.size());
    const float spread = kPi / static_cast<float>(kBlades);
    for (const auto& [x, y] : {std::pair{0.0f, 0.0f}, std::pair{0.9f, 0.0f},
                               std::pair{0.9f * std::cos(spread), 0.9f * std::sin(spread)}}) {
        vertices.push_back({{x, y, 0.0f}, {0.0f, 0.0f, 1.0f}, {x * 0.5f + 0.5f, y * 0.5f + 0.5f}});
    }
    blade_ = {bladeFirst, 3, 0, false};

    vertices_ = createDeviceBuffer(
        *device_,
        {reinterpret_cast<const std::uint8_t*>(vertices.data()), vertices.size() * sizeof(Vertex)},
        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    indices_ = createDeviceBuffer(*device_,
                                  {reinterpret_cast<const std::uint8_t*>(indices.data()),
                                   indices.size() * sizeof(std::uint16_t)},
                                  VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
}

void Scene::createTextures() {
    // Material order: kChecker..kMarble at 256x256 (9 mips), ground 512x512 (10 mips), glass
    // 128x128 (8 mips).
    const std::array<std::pair<Pattern, std::uint32_t>, 6> specs = {{
        {Pattern::Checker, 256},
        {Pattern::Bricks, 256},
        {Pattern::Rings, 256},
        {Pattern::Marble, 256},
        {Pattern::Tiles, 512},
        {Pattern::Glass, 128},
    }};
    for (const auto& [pattern, size] : specs) {
        textures_.push_back(createTexture(*device_, makePattern(pattern, size)));
    }

    VkSamplerCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    info.magFilter = VK_FILTER_LINEAR;
    info.minFilter = VK_FILTER_LINEAR;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;  // trilinear: blend two mip levels
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    info.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    info.maxLod = VK_LOD_CLAMP_NONE;
    check(vkCreateSampler(vk_, &info, nullptr, &trilinear_), "vkCreateSampler");

    // The ground is seen at grazing angles, where anisotropic filtering takes several trilinear
    // probes along the long axis of the pixel footprint.
    info.anisotropyEnable =
        device_->anisotropy && device_->maxAnisotropy > 1.0f ? VK_TRUE : VK_FALSE;
    info.maxAnisotropy = device_->maxAnisotropy;
    check(vkCreateSampler(vk_, &info, nullptr, &anisotropic_), "vkCreateSampler");

    // The render target has one level and must not repeat at the screen's borders.
    info.anisotropyEnable = VK_FALSE;
    info.maxAnisotropy = 1.0f;
    info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    info.maxLod = 0.0f;
    check(vkCreateSampler(vk_, &info, nullptr, &clampLinear_), "vkCreateSampler");

    rtt_ = createImage(*device_, {kRttSize, kRttSize}, kRttFormat, 1,
                       VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                       VK_IMAGE_ASPECT_COLOR_BIT);
}

void Scene::createRenderPasses(VkFormat colorFormat, VkImageLayout finalLayout) {
    // Pass 1, render to texture. Its dependencies are what makes "sampled later in the same
    // frame" legal: writes -> fragment-shader reads within the frame (0 -> EXTERNAL), and the
    // next frame's writes wait for this frame's reads (EXTERNAL -> 0, a write-after-read
    // hazard, which needs only an execution dependency).
    {
        VkAttachmentDescription color{};
        color.format = kRttFormat;
        color.samples = VK_SAMPLE_COUNT_1_BIT;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        color.finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkSubpassDescription subpass{};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        subpass.colorAttachmentCount = 1;
        subpass.pColorAttachments = &ref;
        std::array<VkSubpassDependency, 2> deps{};
        deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
        deps[0].dstSubpass = 0;
        deps[0].srcStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
        deps[0].srcAccessMask = 0;
        deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].srcSubpass = 0;
        deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
        deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
        deps[1].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        VkRenderPassCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
        info.attachmentCount = 1;
        info.pAttachments = &color;
        info.subpassCount = 1;
        info.pSubpasses = &subpass;
        info.dependencyCount = static_cast<std::uint32_t>(deps.size());
        info.pDependencies = deps.data();
        check(vkCreateRenderPass(vk_, &info, nullptr, &rttPass_), "vkCreateRenderPass");

        VkFramebufferCreateInfo fb{};
        fb.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
        fb.renderPass = rttPass_;
        fb.attachmentCount = 1;
        fb.pAttachments = &rtt_.view;
        fb.width = kRttSize;
        fb.height = kRttSize;
        fb.layers = 1;
        check(vkCreateFramebuffer(vk_, &fb, nullptr, &rttFramebuffer_), "vkCreateFramebuffer");
    }

    // Depth: D16 is the only depth format every implementation must support as an attachment;
    // prefer 32-bit float when present, as desktop and mobile engines do.
    for (VkFormat candidate :
         {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM}) {
        VkFormatProperties props{};
        vkGetPhysicalDeviceFormatProperties(device_->physical, candidate, &props);
        if ((props.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) != 0) {
            depthFormat_ = candidate;
            break;
        }
    }
    if (depthFormat_ == VK_FORMAT_UNDEFINED) throw Error("no depth attachment format supported");

    // Pass 2, main. Built twice, differing only in the colour attachment's final layout, so the
    // two are compatible and pipelines and framebuffers serve both.
    auto makeMain = [&](VkImageLayout colorFinal) {
        std::array<VkAttachmentDescription, 2> attachments{};
        attachments[0].format = colorFormat;
        attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
        attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        attachments[0].finalLayout = colorFinal;
        attachments[1].format = depthFormat_;
        attachments[1].samples = VK_SAMPLE_COUNT_1_BIT;
        attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachments[1].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        attachments[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        attachments[1].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        attachments[1].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        attachments[1].finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
        VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        VkAttachmentReference depthRef{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
        VkSubpassDescription subpass{};
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
        subpass.colorAttachmentCount = 1;
        subpass.pColorAttachments = &colorRef;
        subpass.pDepthStencilAttachment = &depthRef;

        std::array<VkSubpassDependency, 2> deps{};
        // One depth buffer serves all frames in flight: the previous frame's depth writes must
        // finish before this frame clears it (write-after-write). The colour target's layout
        // transition waits at COLOR_ATTACHMENT_OUTPUT, the stage the acquire semaphore is waited
        // at, so the transition happens after the presentation engine released the image.
        constexpr VkPipelineStageFlags attachmentStages =
            VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
            VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
        deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
        deps[0].dstSubpass = 0;
        deps[0].srcStageMask = attachmentStages;
        deps[0].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
        deps[0].dstStageMask = attachmentStages;
        deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
        // Towards the copy of --dump-last-frame (and the headless targets, which end in
        // TRANSFER_SRC_OPTIMAL). Both variants must carry the same dependencies: only layouts
        // and load/store ops may differ between compatible render passes (Vulkan spec,
        // "Render Pass Compatibility"). For presenting, the render-finished semaphore orders
        // everything before the present anyway.
        deps[1].srcSubpass = 0;
        deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
        deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
        deps[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
        deps[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        VkRenderPassCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
        info.attachmentCount = static_cast<std::uint32_t>(attachments.size());
        info.pAttachments = attachments.data();
        info.subpassCount = 1;
        info.pSubpasses = &subpass;
        info.dependencyCount = static_cast<std::uint32_t>(deps.size());
        info.pDependencies = deps.data();
        VkRenderPass pass = VK_NULL_HANDLE;
        check(vkCreateRenderPass(vk_, &info, nullptr, &pass), "vkCreateRenderPass");
        return pass;
    };
    mainPass_ = makeMain(finalLayout);
    readbackPass_ = makeMain(VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
}

void Scene::createDescriptors(std::uint32_t framesInFlight) {
    VkDescriptorSetLayoutBinding frameBinding{};
    frameBinding.binding = 0;
    frameBinding.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    frameBinding.descriptorCount = 1;
    frameBinding.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutCreateInfo layoutInfo{};
    layoutInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    layoutInfo.bindingCount = 1;
    layoutInfo.pBindings = &frameBinding;
    check(vkCreateDescriptorSetLayout(vk_, &layoutInfo, nullptr, &frameLayout_),
          "vkCreateDescriptorSetLayout");

    VkDescriptorSetLayoutBinding materialBinding{};
    materialBinding.binding = 0;
    materialBinding.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    materialBinding.descriptorCount = 1;
    materialBinding.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    layoutInfo.pBindings = &materialBinding;
    check(vkCreateDescriptorSetLayout(vk_, &layoutInfo, nullptr, &materialLayout_),
          "vkCreateDescriptorSetLayout");

    const std::array<VkDescriptorSetLayout, 2> setLayouts = {frameLayout_, materialLayout_};
    VkPushConstantRange range{};
    range.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    range.offset = 0;
    range.size = sizeof(DrawConstants);
    VkPipelineLayoutCreateInfo pipelineInfo{};
    pipelineInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pipelineInfo.setLayoutCount = static_cast<std::uint32_t>(setLayouts.size());
    pipelineInfo.pSetLayouts = setLayouts.data();
    pipelineInfo.pushConstantRangeCount = 1;
    pipelineInfo.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(vk_, &pipelineInfo, nullptr, &pipelineLayout_),
          "vkCreatePipelineLayout");

    const std::array<VkDescriptorPoolSize, 2> sizes = {{
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, framesInFlight},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kMaterialCount},
    }};
    VkDescriptorPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    poolInfo.maxSets = framesInFlight + kMaterialCount;
    poolInfo.poolSizeCount = static_cast<std::uint32_t>(sizes.size());
    poolInfo.pPoolSizes = sizes.data();
    check(vkCreateDescriptorPool(vk_, &poolInfo, nullptr, &pool_), "vkCreateDescriptorPool");

    // One uniform buffer per frame in flight: the CPU writes frame N+1's while the GPU may still
    // read frame N's.
    std::vector<VkDescriptorSetLayout> frameLayouts(framesInFlight, frameLayout_);
    frameSets_.resize(framesInFlight);
    VkDescriptorSetAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = framesInFlight;
    alloc.pSetLayouts = frameLayouts.data();
    check(vkAllocateDescriptorSets(vk_, &alloc, frameSets_.data()), "vkAllocateDescriptorSets");
    for (std::uint32_t i = 0; i < framesInFlight; ++i) {
        uniforms_.push_back(createBuffer(*device_, sizeof(FrameUniforms),
                                         VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
        VkDescriptorBufferInfo bufferInfo{uniforms_.back().buffer, 0, sizeof(FrameUniforms)};
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = frameSets_[i];
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        write.pBufferInfo = &bufferInfo;
        vkUpdateDescriptorSets(vk_, 1, &write, 0, nullptr);
    }

    std::vector<VkDescriptorSetLayout> materialLayouts(kMaterialCount, materialLayout_);
    materialSets_.resize(kMaterialCount);
    alloc.descriptorSetCount = kMaterialCount;
    alloc.pSetLayouts = materialLayouts.data();
    check(vkAllocateDescriptorSets(vk_, &alloc, materialSets_.data()), "vkAllocateDescriptorSets");
    for (std::uint32_t m = 0; m < kMaterialCount; ++m) {
        VkDescriptorImageInfo imageInfo{};
        imageInfo.imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        if (m == kRenderTarget) {
            imageInfo.imageView = rtt_.view;
            imageInfo.sampler = clampLinear_;
        } else {
            imageInfo.imageView = textures_[m].view;
            imageInfo.sampler = m == kGround ? anisotropic_ : trilinear_;
        }
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = materialSets_[m];
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &imageInfo;
        vkUpdateDescriptorSets(vk_, 1, &write, 0, nullptr);
    }
}

VkPipeline Scene::makePipeline(VkRenderPass pass, VkShaderModule vert, VkShaderModule frag,
                               bool depth, bool blend, VkCullModeFlags cull) {
    std::array<VkPipelineShaderStageCreateInfo, 2> stages{};
    stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vert;
    stages[0].pName = "main";
    stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = frag;
    stages[1].pName = "main";

    VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    const std::array<VkVertexInputAttributeDescription, 3> attributes = {{
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
        {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)},
    }};
    VkPipelineVertexInputStateCreateInfo vertexInput{};
    vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    vertexInput.vertexBindingDescriptionCount = 1;
    vertexInput.pVertexBindingDescriptions = &binding;
    vertexInput.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(attributes.size());
    vertexInput.pVertexAttributeDescriptions = attributes.data();

    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

    // Viewport and scissor are dynamic so a swapchain resize needs no new pipelines.
    VkPipelineViewportStateCreateInfo viewport{};
    viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    const std::array<VkDynamicState, 2> dynamics = {VK_DYNAMIC_STATE_VIEWPORT,
                                                    VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{};
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = static_cast<std::uint32_t>(dynamics.size());
    dynamic.pDynamicStates = dynamics.data();

    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = cull;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;

    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

    // Transparent surfaces test against opaque depth but do not write it, so panes behind
    // other panes still blend (they are drawn back to front).
    VkPipelineDepthStencilStateCreateInfo depthState{};
    depthState.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    depthState.depthTestEnable = depth ? VK_TRUE : VK_FALSE;
    depthState.depthWriteEnable = depth && !blend ? VK_TRUE : VK_FALSE;
    depthState.depthCompareOp = VK_COMPARE_OP_LESS;

    VkPipelineColorBlendAttachmentState attachment{};
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (blend) {
        attachment.blendEnable = VK_TRUE;
        attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.colorBlendOp = VK_BLEND_OP_ADD;
        attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    VkPipelineColorBlendStateCreateInfo blendState{};
    blendState.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blendState.attachmentCount = 1;
    blendState.pAttachments = &attachment;

    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.stageCount = static_cast<std::uint32_t>(stages.size());
    info.pStages = stages.data();
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depthState;
    info.pColorBlendState = &blendState;
    info.pDynamicState = &dynamic;
    info.layout = pipelineLayout_;
    info.renderPass = pass;
    info.subpass = 0;
    VkPipeline pipeline = VK_NULL_HANDLE;
    check(vkCreateGraphicsPipelines(vk_, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline),
          "vkCreateGraphicsPipelines");
    return pipeline;
}

void Scene::createPipelines() {
    VkShaderModule sceneVert = makeModule(vk_, scene_vert_spv);
    VkShaderModule sceneFrag = makeModule(vk_, scene_frag_spv);
    VkShaderModule rttVert = makeModule(vk_, rtt_vert_spv);
    VkShaderModule rttFrag = makeModule(vk_, rtt_frag_spv);
    // Modules are only needed while pipelines are created (Vulkan spec, vkDestroyShaderModule).
    try {
        opaque_ = makePipeline(mainPass_, sceneVert, sceneFrag, true, false, VK_CULL_MODE_BACK_BIT);
        transparent_ = makePipeline(mainPass_, sceneVert, sceneFrag, true, true, VK_CULL_MODE_NONE);
        rttPipeline_ = makePipeline(rttPass_, rttVert, rttFrag, false, false, VK_CULL_MODE_NONE);
    } catch (...) {
        for (VkShaderModule m : {sceneVert, sceneFrag, rttVert, rttFrag}) {
            vkDestroyShaderModule(vk_, m, nullptr);
        }
        throw;
    }
    for (VkShaderModule m : {sceneVert, sceneFrag, rttVert, rttFrag}) {
        vkDestroyShaderModule(vk_, m, nullptr);
    }
}

void Scene::buildObjects() {
    // 6 x 6 grid of cubes of varied size, texture and spin, then 4 large cubes placed between
    // grid cells so they intersect their neighbours: depth-test work and overdraw that no draw
    // order can remove.
    for (std::uint32_t i = 0; i < 6; ++i) {
        for (std::uint32_t j = 0; j < 6; ++j) {
            Object o;
            o.mesh = cube_;
            o.material = (i + j) % 4;
            o.size = 1.2f + 0.18f * static_cast<float>((i * 3 + j * 5) % 5);
            o.position = {-7.5f + 3.0f * static_cast<float>(i), o.size * 0.5f,
                          -7.5f + 3.0f * static_cast<float>(j)};
            const float direction = ((i + j) % 2 == 0) ? 1.0f : -1.0f;
            o.spin = direction * (0.01f + 0.004f * static_cast<float>((i + 2 * j) % 4));
            o.phase = 0.7f * static_cast<float>(i * 6 + j);
            o.bob = (i * j) % 3 == 0 ? 0.35f : 0.0f;
            objects_.push_back(o);
        }
    }
    const std::array<Vec3, 4> big = {{{-3.0f, 1.3f, -3.0f},
                                      {3.0f, 2.0f, 3.0f},
                                      {-6.0f, 1.5f, 4.5f},
                                      {4.5f, 1.8f, -4.5f}}};
    for (std::uint32_t k = 0; k < big.size(); ++k) {
        Object o;
        o.mesh = cube_;
        o.material = (k + 1) % 4;
        o.size = 3.2f;
        o.position = big[k];
        o.spin = 0.006f * (k % 2 == 0 ? 1.0f : -1.0f);
        o.phase = static_cast<float>(k);
        objects_.push_back(o);
    }

    // Glass panes between the camera and the cubes.
    for (std::uint32_t k = 0; k < 4; ++k) {
        Pane p;
        p.position = {-6.0f + 4.0f * static_cast<float>(k), 1.8f, 9.0f};
        p.width = 3.2f;
        p.height = 3.6f;
        p.swing = 0.02f + 0.005f * static_cast<float>(k);
        const std::array<std::array<float, 4>, 4> tints = {{{1.0f, 1.0f, 1.0f, 1.0f},
                                                             {1.0f, 0.75f, 0.75f, 1.0f},
                                                             {0.75f, 1.0f, 0.75f, 1.0f},
                                                             {0.85f, 0.85f, 1.0f, 0.8f}}};
        std::copy(tints[k].begin(), tints[k].end(), p.tint);
        panes_.push_back(p);
    }
}

void Scene::createTargets(VkExtent2D extent, const std::vector<VkImageView>& views) {
    extent_ = extent;
    depth_ = createImage(*device_, extent, depthFormat_, 1,
                         VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
    for (VkImageView view : views) {
        const std::array<VkImageView, 2> attachments = {view, depth_.view};
        VkFramebufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
        info.renderPass = mainPass_;
        info.attachmentCount = static_cast<std::uint32_t>(attachments.size());
        info.pAttachments = attachments.data();
        info.width = extent.width;
        info.height = extent.height;
        info.layers = 1;
        VkFramebuffer fb = VK_NULL_HANDLE;
        check(vkCreateFramebuffer(vk_, &info, nullptr, &fb), "vkCreateFramebuffer");
        framebuffers_.push_back(fb);
    }
}

void Scene::destroyTargets() {
    for (VkFramebuffer fb : framebuffers_) vkDestroyFramebuffer(vk_, fb, nullptr);
    framebuffers_.clear();
    destroyImage(vk_, depth_);
}

void Scene::updateUniforms(std::uint32_t slot, std::uint32_t frame) {
    const float aspect = static_cast<float>(extent_.width) / static_cast<float>(extent_.height);
    const Vec3 eye = eyeAt(frame);
    const Mat4 viewProj = perspective(60.0f * kPi / 180.0f, aspect, 0.1f, 100.0f) *
                          lookAt(eye, kLookAt, {0.0f, 1.0f, 0.0f});
    FrameUniforms u{};
    store(u.viewProj, viewProj);
    const Vec3 light = normalize({0.4f, 1.0f, 0.3f});
    u.lightDir[0] = light.x;
    u.lightDir[1] = light.y;
    u.lightDir[2] = light.z;
    u.eye[0] = eye.x;
    u.eye[1] = eye.y;
    u.eye[2] = eye.z;
    u.eye[3] = 1.0f;
    std::memcpy(uniforms_[slot].mapped, &u, sizeof(u));
}

void Scene::draw(VkCommandBuffer cmd, const Mesh& mesh, const Mat4& model, const float tint[4],
                 float uvScale, float unlit, float textureWeight) {
    DrawConstants c{};
    store(c.model, model);
    std::copy(tint, tint + 4, c.tint);
    c.params[0] = uvScale;
    c.params[1] = unlit;
    c.params[2] = textureWeight;
    vkCmdPushConstants(cmd, pipelineLayout_,
                       VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(c), &c);
    if (mesh.indexed) {
        vkCmdDrawIndexed(cmd, mesh.count, 1, mesh.first, mesh.vertexOffset, 0);
        ++counts_.indexed;
    } else {
        vkCmdDraw(cmd, mesh.count, 1, mesh.first, 0);
        ++counts_.nonIndexed;
    }
}

void Scene::record(VkCommandBuffer cmd, std::uint32_t slot, std::uint32_t frame,
                   std::uint32_t target, bool readback) {
    counts_ = {};
    const float t = static_cast<float>(frame);
    const float white[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const VkDeviceSize zero = 0;

    // Pass 1: render to texture.
    {
        VkClearValue clear{};
        std::copy(std::begin(kRttClear), std::end(kRttClear), clear.color.float32);
        VkRenderPassBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
        begin.renderPass = rttPass_;
        begin.framebuffer = rttFramebuffer_;
        begin.renderArea = {{0, 0}, {kRttSize, kRttSize}};
        begin.clearValueCount = 1;
        begin.pClearValues = &clear;
        vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
        const VkViewport viewport{0.0f, 0.0f, static_cast<float>(kRttSize),
                                  static_cast<float>(kRttSize), 0.0f, 1.0f};
        const VkRect2D scissor{{0, 0}, {kRttSize, kRttSize}};
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, rttPipeline_);
        vkCmdBindVertexBuffers(cmd, 0, 1, &vertices_.buffer, &zero);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 1, 1,
                                &materialSets_[kChecker], 0, nullptr);
        const float textured[4] = {1.0f, 1.0f, 0.6f, 1.0f};
        for (std::uint32_t b = 0; b < kBlades; ++b) {
            const float angle = t * 0.03f + 2.0f * kPi * static_cast<float>(b) /
                                                static_cast<float>(kBlades);
            const bool flat = b % 2 == 0;
            draw(cmd, blade_, rotateZ(angle), flat ? kRttBlade : textured, 1.0f, 0.0f,
                 flat ? 0.0f : 1.0f);
            ++counts_.renderToTexture;
        }
        vkCmdEndRenderPass(cmd);
    }

    // Pass 2: main.
    std::array<VkClearValue, 2> clears{};
    clears[0].color = {{0.45f, 0.55f, 0.7f, 1.0f}};  // sky
    clears[1].depthStencil = {1.0f, 0};
    VkRenderPassBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
    begin.renderPass = readback ? readbackPass_ : mainPass_;
    begin.framebuffer = framebuffers_[target];
    begin.renderArea = {{0, 0}, extent_};
    begin.clearValueCount = static_cast<std::uint32_t>(clears.size());
    begin.pClearValues = clears.data();
    vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
    const VkViewport viewport{0.0f, 0.0f, static_cast<float>(extent_.width),
                              static_cast<float>(extent_.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent_};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, opaque_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 0, 1,
                            &frameSets_[slot], 0, nullptr);
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices_.buffer, &zero);
    vkCmdBindIndexBuffer(cmd, indices_.buffer, 0, VK_INDEX_TYPE_UINT16);

    // Ground first, then cubes in grid order (not sorted front to back): the overdraw a simple
    // engine produces, which tile-based GPUs' early depth test has to absorb.
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 1, 1,
                            &materialSets_[kGround], 0, nullptr);
    draw(cmd, plane_, scale({40.0f, 1.0f, 40.0f}), white, 20.0f, 0.0f, 1.0f);

    for (const Object& o : objects_) {
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 1, 1,
                                &materialSets_[o.material], 0, nullptr);
        const Vec3 at{o.position.x, o.position.y + o.bob * std::sin(t * 0.05f + o.phase),
                      o.position.z};
        const Mat4 model = translate(at) * rotateY(o.phase + t * o.spin) *
                           rotateX(0.15f * std::sin(o.phase)) *
                           scale({o.size, o.size, o.size});
        draw(cmd, o.mesh, model, white, 1.0f, 0.0f, 1.0f);
    }

    // The screen: samples pass 1's target, unlit so its texels reach the frame unchanged.
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 1, 1,
                            &materialSets_[kRenderTarget], 0, nullptr);
    draw(cmd, quad_, translate({0.0f, 6.5f, -11.0f}) * scale({8.0f, 6.0f, 1.0f}), white, 1.0f,
         1.0f, 1.0f);

    // Glass last, back to front by distance to the eye: blending is order dependent.
    const Vec3 eye = eyeAt(frame);
    std::vector<const Pane*> order;
    for (const Pane& p : panes_) order.push_back(&p);
    std::stable_sort(order.begin(), order.end(), [&](const Pane* a, const Pane* b) {
        const Vec3 da = a->position - eye;
        const Vec3 db = b->position - eye;
        return dot(da, da) > dot(db, db);
    });
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, transparent_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelineLayout_, 1, 1,
                            &materialSets_[kGlass], 0, nullptr);
    for (const Pane* p : order) {
        const float swing = 0.4f * std::sin(t * p->swing + p->position.x);
        const Mat4 model = translate(p->position) * rotateY(swing) *
                           scale({p->width, p->height, 1.0f});
        draw(cmd, quad_, model, p->tint, 1.0f, 0.0f, 1.0f);
        ++counts_.blended;
    }
    vkCmdEndRenderPass(cmd);
}

}  // namespace vkscene
