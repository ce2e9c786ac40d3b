// Dispatch tables of the next layer in the chain: the small X-macro list of every Vulkan function
// the capture layer either intercepts or calls itself (vkBasalt style; the full API surface is
// not needed since everything else is answered by the next layer's GetProcAddr directly).
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

namespace tessera::layer {

// Instance-level functions (including physical-device functions).
#define TESSERA_INSTANCE_FUNCTIONS(X)        \
  X(DestroyInstance)                         \
  X(EnumerateDeviceExtensionProperties)      \
  X(GetPhysicalDeviceProperties)             \
  X(GetPhysicalDeviceProperties2)            \
  X(GetPhysicalDeviceMemoryProperties)       \
  X(GetPhysicalDeviceImageFormatProperties)  \
  X(GetPhysicalDeviceFormatProperties)       \
  X(GetPhysicalDeviceQueueFamilyProperties)  \
  X(GetPhysicalDeviceFeatures2)              \
  X(GetPhysicalDeviceFeatures2KHR)           \
  X(GetPhysicalDeviceSurfaceCapabilitiesKHR) \
  X(CreateDevice)

// Device-level functions: the intercepted ones (see the hook table in layer.cpp) and the ones
// the layer calls to read back images and memory.
#define TESSERA_DEVICE_FUNCTIONS(X)           \
  X(DestroyDevice)                            \
  X(GetDeviceQueue)                           \
  X(GetDeviceQueue2)                          \
  X(DeviceWaitIdle)                           \
  X(QueueSubmit)                              \
  X(QueueSubmit2)                             \
  X(QueueSubmit2KHR)                          \
  X(QueueWaitIdle)                            \
  X(QueuePresentKHR)                          \
  X(CreateSwapchainKHR)                       \
  X(DestroySwapchainKHR)                      \
  X(GetSwapchainImagesKHR)                    \
  X(AllocateMemory)                           \
  X(FreeMemory)                               \
  X(MapMemory)                                \
  X(UnmapMemory)                              \
  X(InvalidateMappedMemoryRanges)             \
  X(BindBufferMemory)                         \
  X(BindImageMemory)                          \
  X(BindBufferMemory2)                        \
  X(BindBufferMemory2KHR)                     \
  X(BindImageMemory2)                         \
  X(BindImageMemory2KHR)                      \
  X(GetBufferMemoryRequirements)              \
  X(CreateBuffer)                             \
  X(DestroyBuffer)                            \
  X(CreateImage)                              \
  X(DestroyImage)                             \
  X(CreateImageView)                          \
  X(DestroyImageView)                         \
  X(CreateBufferView)                         \
  X(CreateSampler)                            \
  X(CreateShaderModule)                       \
  X(DestroyShaderModule)                      \
  X(CreateGraphicsPipelines)                  \
  X(CreateComputePipelines)                   \
  X(CreateDescriptorSetLayout)                \
  X(CreatePipelineLayout)                     \
  X(CreateRenderPass)                         \
  X(CreateRenderPass2)                        \
  X(CreateRenderPass2KHR)                     \
  X(CreateFramebuffer)                        \
  X(DestroyFramebuffer)                       \
  X(DestroyRenderPass)                        \
  X(AllocateDescriptorSets)                   \
  X(UpdateDescriptorSets)                     \
  X(CreateDescriptorUpdateTemplate)           \
  X(CreateDescriptorUpdateTemplateKHR)        \
  X(DestroyDescriptorUpdateTemplate)          \
  X(DestroyDescriptorUpdateTemplateKHR)       \
  X(UpdateDescriptorSetWithTemplate)          \
  X(UpdateDescriptorSetWithTemplateKHR)       \
  X(CreateCommandPool)                        \
  X(DestroyCommandPool)                       \
  X(ResetCommandPool)                         \
  X(AllocateCommandBuffers)                   \
  X(FreeCommandBuffers)                       \
  X(BeginCommandBuffer)                       \
  X(EndCommandBuffer)                         \
  X(ResetCommandBuffer)                       \
  X(CreateFence)                              \
  X(DestroyFence)                             \
  X(WaitForFences)                            \
  X(CreateSemaphore)                          \
  X(DestroySemaphore)                         \
  X(CmdBeginRenderPass)                       \
  X(CmdBeginRenderPass2)                      \
  X(CmdBeginRenderPass2KHR)                   \
  X(CmdNextSubpass)                           \
  X(CmdNextSubpass2)                          \
  X(CmdNextSubpass2KHR)                       \
  X(CmdEndRenderPass)                         \
  X(CmdEndRenderPass2)                        \
  X(CmdEndRenderPass2KHR)                     \
  X(CmdBeginRendering)                        \
  X(CmdBeginRenderingKHR)                     \
  X(CmdEndRendering)                          \
  X(CmdEndRenderingKHR)                       \
  X(CmdBindPipeline)                          \
  X(CmdBindDescriptorSets)                    \
  X(CmdPushDescriptorSetKHR)                  \
  X(CmdPushDescriptorSetWithTemplateKHR)      \
  X(CmdPushConstants)                         \
  X(CmdBindVertexBuffers)                     \
  X(CmdBindVertexBuffers2)                    \
  X(CmdBindVertexBuffers2EXT)                 \
  X(CmdBindIndexBuffer)                       \
  X(CmdDraw)                                  \
  X(CmdDrawIndexed)                           \
  X(CmdDrawIndirect)                          \
  X(CmdDrawIndexedIndirect)                   \
  X(CmdDrawIndirectCount)                     \
  X(CmdDrawIndexedIndirectCount)              \
  X(CmdDispatch)                              \
  X(CmdDispatchIndirect)                      \
  X(CmdDispatchBase)                          \
  X(CmdSetViewport)                           \
  X(CmdSetViewportWithCount)                  \
  X(CmdSetViewportWithCountEXT)               \
  X(CmdSetScissor)                            \
  X(CmdSetScissorWithCount)                   \
  X(CmdSetScissorWithCountEXT)                \
  X(CmdSetLineWidth)                          \
  X(CmdSetDepthBias)                          \
  X(CmdSetBlendConstants)                     \
  X(CmdSetDepthBounds)                        \
  X(CmdSetStencilCompareMask)                 \
  X(CmdSetStencilWriteMask)                   \
  X(CmdSetStencilReference)                   \
  X(CmdSetCullMode)                           \
  X(CmdSetCullModeEXT)                        \
  X(CmdSetFrontFace)                          \
  X(CmdSetFrontFaceEXT)                       \
  X(CmdSetPrimitiveTopology)                  \
  X(CmdSetPrimitiveTopologyEXT)               \
  X(CmdSetDepthTestEnable)                    \
  X(CmdSetDepthTestEnableEXT)                 \
  X(CmdSetDepthWriteEnable)                   \
  X(CmdSetDepthWriteEnableEXT)                \
  X(CmdSetDepthCompareOp)                     \
  X(CmdSetDepthCompareOpEXT)                  \
  X(CmdSetDepthBoundsTestEnable)              \
  X(CmdSetDepthBoundsTestEnableEXT)           \
  X(CmdSetStencilTestEnable)                  \
  X(CmdSetStencilTestEnableEXT)               \
  X(CmdSetStencilOp)                          \
  X(CmdSetStencilOpEXT)                       \
  X(CmdSetRasterizerDiscardEnable)            \
  X(CmdSetRasterizerDiscardEnableEXT)         \
  X(CmdSetDepthBiasEnable)                    \
  X(CmdSetDepthBiasEnableEXT)                 \
  X(CmdSetPrimitiveRestartEnable)             \
  X(CmdSetPrimitiveRestartEnableEXT)          \
  X(CmdSetLogicOpEXT)                         \
  X(CmdSetPatchControlPointsEXT)              \
  X(CmdSetColorWriteEnableEXT)                \
  X(CmdSetVertexInputEXT)                     \
  X(CmdSetDepthClampEnableEXT)                \
  X(CmdSetPolygonModeEXT)                     \
  X(CmdSetRasterizationSamplesEXT)            \
  X(CmdSetSampleMaskEXT)                      \
  X(CmdSetAlphaToCoverageEnableEXT)           \
  X(CmdSetAlphaToOneEnableEXT)                \
  X(CmdSetLogicOpEnableEXT)                   \
  X(CmdSetColorBlendEnableEXT)                \
  X(CmdSetColorBlendEquationEXT)              \
  X(CmdSetColorWriteMaskEXT)                  \
  X(CmdSetDepthClipEnableEXT)                 \
  X(CmdSetProvokingVertexModeEXT)             \
  X(CmdSetLineRasterizationModeEXT)           \
  X(CmdSetLineStippleEnableEXT)               \
  X(CmdSetDepthClipNegativeOneToOneEXT)       \
  X(CmdClearAttachments)                      \
  X(CmdClearColorImage)                       \
  X(CmdClearDepthStencilImage)                \
  X(CmdSetLineStippleEXT)                     \
  X(CmdBeginTransformFeedbackEXT)             \
  X(CmdDrawIndirectByteCountEXT)              \
  X(CmdCopyBuffer2)                           \
  X(CmdCopyImage2)                            \
  X(CmdCopyBufferToImage2)                    \
  X(CmdCopyImageToBuffer2)                    \
  X(CmdBlitImage2)                            \
  X(CmdResolveImage2)                         \
  X(CmdCopyBuffer)                            \
  X(CmdCopyImage)                             \
  X(CmdCopyBufferToImage)                     \
  X(CmdCopyImageToBuffer)                     \
  X(CmdBlitImage)                             \
  X(CmdResolveImage)                          \
  X(CmdUpdateBuffer)                          \
  X(CmdFillBuffer)                            \
  X(CmdPipelineBarrier)                       \
  X(CmdPipelineBarrier2)                      \
  X(CmdPipelineBarrier2KHR)                   \
  X(CmdExecuteCommands)

struct InstanceDispatch {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
#define TESSERA_DECLARE(name) PFN_vk##name name = nullptr;
  TESSERA_INSTANCE_FUNCTIONS(TESSERA_DECLARE)
#undef TESSERA_DECLARE
};

struct DeviceDispatch {
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
#define TESSERA_DECLARE(name) PFN_vk##name name = nullptr;
  TESSERA_DEVICE_FUNCTIONS(TESSERA_DECLARE)
#undef TESSERA_DECLARE
};

inline void load_instance_dispatch(InstanceDispatch& t, VkInstance instance,
                                   PFN_vkGetInstanceProcAddr gipa) {
  t.GetInstanceProcAddr = gipa;
#define TESSERA_LOAD(name) \
  t.name = reinterpret_cast<PFN_vk##name>(gipa(instance, "vk" #name));
  TESSERA_INSTANCE_FUNCTIONS(TESSERA_LOAD)
#undef TESSERA_LOAD
}

inline void load_device_dispatch(DeviceDispatch& t, VkDevice device,
                                 PFN_vkGetDeviceProcAddr gdpa) {
  t.GetDeviceProcAddr = gdpa;
#define TESSERA_LOAD(name) t.name = reinterpret_cast<PFN_vk##name>(gdpa(device, "vk" #name));
  TESSERA_DEVICE_FUNCTIONS(TESSERA_LOAD)
#undef TESSERA_LOAD
}

// The loader's dispatch pointer stored at the start of every dispatchable object: equal for an
// instance and its physical devices, and for a device and its queues and command buffers.
template <typename Handle>
inline void* dispatch_key(Handle h) {
  return *reinterpret_cast<void**>(h);
}

}  // namespace tessera::layer
