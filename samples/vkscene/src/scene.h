// The scene: geometry, textures, samplers, render passes, pipelines, descriptor sets and the
// per-frame command recording. Everything visible is a pure function of the frame number.
//
// One frame is two render passes:
//   1. render-to-texture: a spinning pinwheel (8 non-indexed draws) into a 512x512 colour target;
//   2. main: textured ground (anisotropic sampler), 40 textured cubes (indexed, trilinear
//      sampler, overlapping in depth), a screen showing pass 1's target, then 4 alpha-blended
//      glass panes sorted back to front (non-indexed).
#pragma once

#include "device.h"
#include "math.h"
#include "resources.h"

#include <cstdint>
#include <vector>

namespace vkscene {

// What the render-to-texture pass clears to and paints its flat blades with: exact UNORM
// values (0 and 1 survive sRGB encoding too), so the e2e test can find pass 1's output in the
// final frame by colour.
inline constexpr float kRttClear[4] = {0.0f, 1.0f, 1.0f, 1.0f};  // cyan
inline constexpr float kRttBlade[4] = {1.0f, 0.0f, 1.0f, 1.0f};  // magenta

struct DrawCounts {
    std::uint32_t indexed = 0;
    std::uint32_t nonIndexed = 0;
    std::uint32_t blended = 0;
    std::uint32_t renderToTexture = 0;
};

class Scene {
public:
    Scene() = default;
    ~Scene();
    Scene(const Scene&) = delete;
    Scene& operator=(const Scene&) = delete;

    // colorFormat: the main pass target format. finalLayout: the layout the main pass leaves the
    // target in on ordinary frames (PRESENT_SRC_KHR windowed, TRANSFER_SRC_OPTIMAL headless).
    void create(const Device& device, VkFormat colorFormat, VkImageLayout finalLayout,
                std::uint32_t framesInFlight);
    // Depth buffer and one framebuffer per target view; called again after swapchain recreation.
    void createTargets(VkExtent2D extent, const std::vector<VkImageView>& views);
    void destroyTargets();

    // Writes the per-frame uniform buffer of `slot` (the caller waited on that slot's fence).
    void updateUniforms(std::uint32_t slot, std::uint32_t frame);
    // Records both passes. readback: the main pass ends in TRANSFER_SRC_OPTIMAL with its writes
    // made available to transfer reads, so the caller can copy the image.
    void record(VkCommandBuffer cmd, std::uint32_t slot, std::uint32_t frame,
                std::uint32_t target, bool readback);

    const DrawCounts& counts() const { return counts_; }
    std::uint32_t textureCount() const { return static_cast<std::uint32_t>(textures_.size()); }

private:
    struct Mesh {
        std::uint32_t first = 0;         // first index (indexed) or first vertex
        std::uint32_t count = 0;         // index or vertex count
        std::int32_t vertexOffset = 0;   // indexed meshes only
        bool indexed = false;
    };
    struct Object {
        Mesh mesh;
        std::uint32_t material = 0;
        Vec3 position;
        float size = 1.0f;
        float spin = 0.0f;   // radians per frame about y
        float phase = 0.0f;
        float bob = 0.0f;    // vertical bobbing amplitude
    };
    struct Pane {
        Vec3 position;
        float width = 1.0f, height = 1.0f;
        float swing = 0.0f;  // radians per frame
        float tint[4]{};
    };

    void createGeometry();
    void createTextures();
    void createRenderPasses(VkFormat colorFormat, VkImageLayout finalLayout);
    void createDescriptors(std::uint32_t framesInFlight);
    void createPipelines();
    VkPipeline makePipeline(VkRenderPass pass, VkShaderModule vert, VkShaderModule frag,
                            bool depth, bool blend, VkCullModeFlags cull);
    void buildObjects();
    void draw(VkCommandBuffer cmd, const Mesh& mesh, const Mat4& model, const float tint[4],
              float uvScale, float unlit, float textureWeight);

    const Device* device_ = nullptr;
    VkDevice vk_ = VK_NULL_HANDLE;

    Buffer vertices_;
    Buffer indices_;
    Mesh cube_, plane_, quad_, blade_;
    std::vector<Image> textures_;
    VkSampler trilinear_ = VK_NULL_HANDLE;
    VkSampler anisotropic_ = VK_NULL_HANDLE;
    VkSampler clampLinear_ = VK_NULL_HANDLE;

    Image rtt_;                       // render-to-texture target, sampled by the main pass
    VkFramebuffer rttFramebuffer_ = VK_NULL_HANDLE;
    VkRenderPass rttPass_ = VK_NULL_HANDLE;
    VkRenderPass mainPass_ = VK_NULL_HANDLE;
    VkRenderPass readbackPass_ = VK_NULL_HANDLE;  // compatible with mainPass_

    VkDescriptorSetLayout frameLayout_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout materialLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<Buffer> uniforms_;
    std::vector<VkDescriptorSet> frameSets_;
    std::vector<VkDescriptorSet> materialSets_;

    VkPipeline opaque_ = VK_NULL_HANDLE;
    VkPipeline transparent_ = VK_NULL_HANDLE;
    VkPipeline rttPipeline_ = VK_NULL_HANDLE;

    VkFormat depthFormat_ = VK_FORMAT_UNDEFINED;
    Image depth_;
    VkExtent2D extent_{};
    std::vector<VkFramebuffer> framebuffers_;

    std::vector<Object> objects_;
    std::vector<Pane> panes_;
    DrawCounts counts_;
};

}  // namespace vkscene
