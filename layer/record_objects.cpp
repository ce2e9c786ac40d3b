// Hooks that record objects when they are created: memory and its bindings, buffers, images,
// views, samplers, shader modules, pipelines, render passes, descriptor layouts, sets and
// updates (update templates are expanded into plain writes here, so replay needs no template
// logic). Each hook calls the next layer first and records only on success.
#include <algorithm>
#include <cstring>
#include <optional>

#include "descriptors.h"
#include "layer_state.h"
#include "vk_ext_frame_boundary.h"

namespace tessera::layer {

namespace {

Session* active() {
  Session* s = Session::get();
  return s != nullptr && s->recording() ? s : nullptr;
}

std::span<const std::byte> as_span(const void* p, size_t n) {
  return {static_cast<const std::byte*>(p), n};
}

template <typename T>
const T* find_in_chain(const void* chain, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  }
  return nullptr;
}

}  // namespace

// ---- Queues and memory -----------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index,
                                          VkQueue* queue) {
  DeviceData* d = device_of(device);
  d->vk.GetDeviceQueue(device, family, index, queue);
  std::lock_guard lock(d->mutex);
  d->queue_families_of[*queue] = family;
}

VKAPI_ATTR void VKAPI_CALL GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info,
                                           VkQueue* queue) {
  DeviceData* d = device_of(device);
  d->vk.GetDeviceQueue2(device, info, queue);
  std::lock_guard lock(d->mutex);
  d->queue_families_of[*queue] = info->queueFamilyIndex;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                              const VkAllocationCallbacks* alloc,
                                              VkDeviceMemory* memory) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.AllocateMemory(device, info, alloc, memory));
  if (r != VK_SUCCESS) return r;
  const VkMemoryPropertyFlags flags =
      info->memoryTypeIndex < d->memory_properties.memoryTypeCount
          ? d->memory_properties.memoryTypes[info->memoryTypeIndex].propertyFlags
          : 0;
  {
    std::lock_guard lock(d->mutex);
    MemoryState m;
    m.size = info->allocationSize;
    m.type_index = info->memoryTypeIndex;
    m.flags = flags;
    d->memories[*memory] = std::move(m);
  }
  if (Session* s = active()) {
    s->write(cap::MemoryAllocRecord{id(*memory), info->allocationSize, info->memoryTypeIndex,
                                    flags});
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL FreeMemory(VkDevice device, VkDeviceMemory memory,
                                      const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->memories.erase(memory);
  }
  d->vk.FreeMemory(device, memory, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL MapMemory(VkDevice device, VkDeviceMemory memory,
                                         VkDeviceSize offset, VkDeviceSize size,
                                         VkMemoryMapFlags flags, void** data) {
  DeviceData* d = device_of(device);
  std::lock_guard map_lock(d->map_mutex);  // not while the layer has it mapped itself
  const VkResult r = down(d->vk.MapMemory(device, memory, offset, size, flags, data));
  if (r == VK_SUCCESS) {
    std::lock_guard lock(d->mutex);
    auto it = d->memories.find(memory);
    if (it != d->memories.end()) {
      it->second.mapped = *data;
      it->second.map_offset = offset;
      it->second.map_size = size == VK_WHOLE_SIZE ? it->second.size - offset : size;
    }
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL UnmapMemory(VkDevice device, VkDeviceMemory memory) {
  DeviceData* d = device_of(device);
  // Held until the mapping is really gone: between forgetting it and unmapping, the initial
  // snapshot would otherwise map the memory a second time.
  std::lock_guard map_lock(d->map_mutex);
  // What the host wrote through this mapping during a captured frame must not be lost when
  // the mapping goes away before the next submit.
  if (Session* s = active(); s != nullptr && s->in_captured_frame()) {
    guarded("vkUnmapMemory", [&] {
      std::lock_guard lock(d->mutex);
      auto it = d->memories.find(memory);
      if (it != d->memories.end() && it->second.mapped != nullptr) {
        auto& m = it->second;
        snapshot_range(s, memory, m, m.mapped, m.map_offset, m.map_size);
      }
    });
  }
  {
    std::lock_guard lock(d->mutex);
    auto it = d->memories.find(memory);
    if (it != d->memories.end()) it->second.mapped = nullptr;
  }
  d->vk.UnmapMemory(device, memory);
}

namespace {

void mark_bound(VkDevice device, VkImage image) {
  DeviceData* d = device_of(device);
  std::lock_guard lock(d->mutex);
  if (auto it = d->images.find(image); it != d->images.end()) it->second.bound = true;
}

void record_bind(uint64_t resource, bool image, VkDeviceMemory memory, VkDeviceSize offset) {
  if (Session* s = active()) {
    s->write(cap::MemoryBindRecord{resource, image ? 1u : 0u, id(memory), offset});
  }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice device, VkBuffer buffer,
                                                VkDeviceMemory memory, VkDeviceSize offset) {
  const VkResult r = down(device_of(device)->vk.BindBufferMemory(device, buffer, memory, offset));
  if (r == VK_SUCCESS) record_bind(id(buffer), false, memory, offset);
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory(VkDevice device, VkImage image,
                                               VkDeviceMemory memory, VkDeviceSize offset) {
  const VkResult r = down(device_of(device)->vk.BindImageMemory(device, image, memory, offset));
  if (r == VK_SUCCESS) {
    record_bind(id(image), true, memory, offset);
    mark_bound(device, image);
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice device, uint32_t n,
                                                 const VkBindBufferMemoryInfo* infos) {
  const VkResult r = down(device_of(device)->vk.BindBufferMemory2(device, n, infos));
  if (r == VK_SUCCESS) {
    for (uint32_t i = 0; i < n; ++i) {
      record_bind(id(infos[i].buffer), false, infos[i].memory, infos[i].memoryOffset);
    }
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL BindImageMemory2(VkDevice device, uint32_t n,
                                                const VkBindImageMemoryInfo* infos) {
  const VkResult r = down(device_of(device)->vk.BindImageMemory2(device, n, infos));
  if (r == VK_SUCCESS) {
    for (uint32_t i = 0; i < n; ++i) {
      // Swapchain-bound images (VkBindImageMemorySwapchainInfoKHR) have no memory to record.
      if (infos[i].memory != VK_NULL_HANDLE) {
        record_bind(id(infos[i].image), true, infos[i].memory, infos[i].memoryOffset);
        mark_bound(device, infos[i].image);
      }
    }
  }
  return r;
}

// ---- Resources and views ---------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* ci,
                                            const VkAllocationCallbacks* alloc,
                                            VkBuffer* buffer) {
  const VkResult r = down(device_of(device)->vk.CreateBuffer(device, ci, alloc, buffer));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) s->write(cap::BufferRecord{id(*buffer), ci->size, ci->usage, {}});
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateImage(VkDevice device, const VkImageCreateInfo* ci,
                                           const VkAllocationCallbacks* alloc, VkImage* image) {
  DeviceData* d = device_of(device);
  // Images a draw can sample, and colour and depth/stencil render targets, get TRANSFER_SRC
  // usage so their contents can be copied out at the start (sampled) and end (render targets)
  // of a captured frame, as for swapchain images, where the format allows it.
  VkImageCreateInfo patched = *ci;
  constexpr VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                        VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  constexpr VkImageUsageFlags src = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  // A depth/stencil image created with VkImageStencilUsageCreateInfo has the usage of its
  // stencil aspect there (Vulkan spec, "Images"): TRANSFER_SRC goes into both, or the stencil
  // aspect cannot be copied. Images with a DRM format modifier or external memory are left as
  // they are: their usage is part of what the memory's other users agreed on.
  const VkImageStencilUsageCreateInfo* stencil_usage = nullptr;
  const VkImageFormatListCreateInfo* format_list = nullptr;
  bool external = ci->tiling == VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT;
  for (auto* p = static_cast<const VkBaseInStructure*>(ci->pNext); p != nullptr; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO) {
      stencil_usage = reinterpret_cast<const VkImageStencilUsageCreateInfo*>(p);
    } else if (p->sType == VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO) {
      format_list = reinterpret_cast<const VkImageFormatListCreateInfo*>(p);
    } else if (p->sType == VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO ||
               p->sType == VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO_NV ||
               p->sType == VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_LIST_CREATE_INFO_EXT ||
               p->sType == VK_STRUCTURE_TYPE_IMAGE_DRM_FORMAT_MODIFIER_EXPLICIT_CREATE_INFO_EXT) {
      external = true;
    }
  }
  const std::vector<CopyAspect> aspects = copy_aspects(ci->format);
  const bool has_stencil = std::any_of(aspects.begin(), aspects.end(),
                                       [](const CopyAspect& a) { return a.aspect == VK_IMAGE_ASPECT_STENCIL_BIT; });
  const bool separate_stencil = stencil_usage != nullptr && has_stencil;
  VkImageStencilUsageCreateInfo stencil_patched{};
  if (separate_stencil) stencil_patched = *stencil_usage;
  const bool wants = (ci->usage & src) == 0 || (separate_stencil && (stencil_usage->stencilUsage & src) == 0);
  if (active() != nullptr && !external && (ci->usage & sampled) != 0 && wants) {
    auto& ivk = d->instance->vk;
    bool supported = false;
    if (stencil_usage != nullptr || format_list != nullptr) {
      // The query sees what the creation will: the stencil usage and the view formats
      // (VkPhysicalDeviceImageFormatInfo2's pNext takes both). Vulkan 1.1 or later only.
      if (d->instance->api_version >= VK_API_VERSION_1_1 && ivk.GetPhysicalDeviceImageFormatProperties2 != nullptr) {
        VkImageFormatListCreateInfo list{};
        VkImageStencilUsageCreateInfo su{};
        const void* chain = nullptr;
        if (format_list != nullptr) {
          list = *format_list;
          list.pNext = chain;
          chain = &list;
        }
        if (stencil_usage != nullptr) {
          su = *stencil_usage;
          su.stencilUsage |= separate_stencil ? src : 0;
          su.pNext = chain;
          chain = &su;
        }
        VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, chain, ci->format,
                                              ci->imageType, ci->tiling, ci->usage | src, ci->flags};
        VkImageFormatProperties2 props{};
        props.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2;
        supported = ivk.GetPhysicalDeviceImageFormatProperties2(d->physical_device, &info, &props) == VK_SUCCESS;
      }
    } else {
      VkImageFormatProperties props{};
      supported = ivk.GetPhysicalDeviceImageFormatProperties(d->physical_device, ci->format, ci->imageType, ci->tiling,
                                                             ci->usage | src, ci->flags, &props) == VK_SUCCESS;
    }
    if (supported) {
      patched.usage |= src;
      if (separate_stencil) stencil_patched.stencilUsage |= src;
    }
  }
  VkResult r = VK_ERROR_UNKNOWN;
  {
    // The application's stencil usage structure is swapped for the patched copy for the call
    // only (as ChainWithout takes structures out), and put back before returning.
    std::optional<ChainWithout> without;
    if (separate_stencil && stencil_patched.stencilUsage != stencil_usage->stencilUsage) {
      without.emplace(&patched.pNext, VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO);
      stencil_patched.pNext = patched.pNext;
      patched.pNext = &stencil_patched;
    }
    r = down(d->vk.CreateImage(device, &patched, alloc, image));
  }
  if (r != VK_SUCCESS && (patched.usage != ci->usage || (separate_stencil && stencil_patched.stencilUsage != stencil_usage->stencilUsage))) {
    // never fail the application because of what the layer added
    patched.usage = ci->usage;
    if (separate_stencil) stencil_patched.stencilUsage = stencil_usage->stencilUsage;
    r = down(d->vk.CreateImage(device, ci, alloc, image));
  }
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      {
        ImageState st;
        st.type = ci->imageType;
        st.format = ci->format;
        st.extent = ci->extent;
        st.mips = ci->mipLevels;
        st.layers = ci->arrayLayers;
        st.samples = ci->samples;
        st.usage = patched.usage;
        st.stencil_transfer_src =
            (patched.usage & src) != 0 && (!separate_stencil || (stencil_patched.stencilUsage & src) != 0);
        st.layout = ci->initialLayout;
        std::lock_guard lock(d->mutex);
        d->images[*image] = st;
      }
      cap::ImageRecord rec;
      rec.image = id(*image);
      rec.image_type = static_cast<uint32_t>(ci->imageType);
      rec.format = static_cast<uint32_t>(ci->format);
      rec.width = ci->extent.width;
      rec.height = ci->extent.height;
      rec.depth = ci->extent.depth;
      rec.mip_levels = ci->mipLevels;
      rec.array_layers = ci->arrayLayers;
      rec.samples = static_cast<uint32_t>(ci->samples);
      rec.usage = ci->usage;
      rec.layout = static_cast<uint32_t>(ci->initialLayout);
      s->write(rec);
    }
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyImage(VkDevice device, VkImage image,
                                        const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->images.erase(image);
  }
  d->vk.DestroyImage(device, image, alloc);
}

namespace {

cap::SubresourceRange range_of(const VkImageSubresourceRange& r) {
  return {r.aspectMask, r.baseMipLevel, r.levelCount, r.baseArrayLayer, r.layerCount};
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateImageView(VkDevice device, const VkImageViewCreateInfo* ci,
                                               const VkAllocationCallbacks* alloc,
                                               VkImageView* view) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateImageView(device, ci, alloc, view));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      {
        std::lock_guard lock(d->mutex);
        d->view_images[*view] = ci->image;
        if (s->read_passes()) {
          d->views[*view] = {ci->image, ci->format, ci->subresourceRange.baseMipLevel,
                             ci->subresourceRange.baseArrayLayer};
        }
      }
      s->write(cap::ImageViewRecord{
          id(*view), id(ci->image), static_cast<uint32_t>(ci->viewType),
          static_cast<uint32_t>(ci->format), static_cast<uint32_t>(ci->components.r),
          static_cast<uint32_t>(ci->components.g), static_cast<uint32_t>(ci->components.b),
          static_cast<uint32_t>(ci->components.a), range_of(ci->subresourceRange)});
    }
  }
  return r;
}

// Destroyed handles leave the layer's maps before the driver can hand the value out again
// (erase first: another thread's create of a reused handle must not be erased afterwards).
VKAPI_ATTR void VKAPI_CALL DestroyImageView(VkDevice device, VkImageView view,
                                            const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->view_images.erase(view);
    d->views.erase(view);
  }
  d->vk.DestroyImageView(device, view, alloc);
}

VKAPI_ATTR void VKAPI_CALL DestroyFramebuffer(VkDevice device, VkFramebuffer fb,
                                              const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->framebuffer_views.erase(fb);
  }
  d->vk.DestroyFramebuffer(device, fb, alloc);
}

VKAPI_ATTR void VKAPI_CALL DestroyRenderPass(VkDevice device, VkRenderPass rp,
                                             const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->final_layouts.erase(rp);
    d->pass_attachments.erase(rp);
  }
  d->vk.DestroyRenderPass(device, rp, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBufferView(VkDevice device,
                                                const VkBufferViewCreateInfo* ci,
                                                const VkAllocationCallbacks* alloc,
                                                VkBufferView* view) {
  const VkResult r = down(device_of(device)->vk.CreateBufferView(device, ci, alloc, view));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      s->write(cap::BufferViewRecord{id(*view), id(ci->buffer), static_cast<uint32_t>(ci->format),
                                     ci->offset, ci->range});
    }
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSampler(VkDevice device, const VkSamplerCreateInfo* ci,
                                             const VkAllocationCallbacks* alloc,
                                             VkSampler* sampler) {
  const VkResult r = down(device_of(device)->vk.CreateSampler(device, ci, alloc, sampler));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      cap::SamplerRecord rec;
      rec.sampler = id(*sampler);
      rec.flags = ci->flags;
      rec.mag_filter = static_cast<uint32_t>(ci->magFilter);
      rec.min_filter = static_cast<uint32_t>(ci->minFilter);
      rec.mipmap_mode = static_cast<uint32_t>(ci->mipmapMode);
      rec.address_u = static_cast<uint32_t>(ci->addressModeU);
      rec.address_v = static_cast<uint32_t>(ci->addressModeV);
      rec.address_w = static_cast<uint32_t>(ci->addressModeW);
      rec.mip_lod_bias = ci->mipLodBias;
      rec.anisotropy_enable = ci->anisotropyEnable;
      rec.max_anisotropy = ci->maxAnisotropy;
      rec.compare_enable = ci->compareEnable;
      rec.compare_op = static_cast<uint32_t>(ci->compareOp);
      rec.min_lod = ci->minLod;
      rec.max_lod = ci->maxLod;
      rec.border_color = static_cast<uint32_t>(ci->borderColor);
      rec.unnormalized_coordinates = ci->unnormalizedCoordinates;
      if (const auto* rm = find_in_chain<VkSamplerReductionModeCreateInfo>(
              ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO)) {
        rec.reduction_mode = static_cast<uint32_t>(rm->reductionMode);
      }
      if (const auto* cb = find_in_chain<VkSamplerCustomBorderColorCreateInfoEXT>(
              ci->pNext, VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT)) {
        std::memcpy(rec.custom_border.words, &cb->customBorderColor, sizeof rec.custom_border.words);
        rec.custom_border_format = static_cast<uint32_t>(cb->format);
      }
      s->write(rec);
    }
  }
  return r;
}

// ---- Shaders and pipelines -------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device,
                                                  const VkShaderModuleCreateInfo* ci,
                                                  const VkAllocationCallbacks* alloc,
                                                  VkShaderModule* module) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateShaderModule(device, ci, alloc, module));
  if (r != VK_SUCCESS) return r;
  if (Session* s = active()) {
    // Stored by content: the same SPIR-V created many times (Zink does) is one blob.
    const auto hash = s->put_blob(as_span(ci->pCode, ci->codeSize));
    s->write(cap::ShaderModuleRecord{id(*module), hash, ci->codeSize});
    std::lock_guard lock(d->mutex);
    d->shader_modules[*module] = {hash, ci->codeSize};
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule module,
                                               const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->shader_modules.erase(module);
  }
  d->vk.DestroyShaderModule(device, module, alloc);
}

cap::ShaderStage convert_stage(DeviceData* d, Session* s,
                               const VkPipelineShaderStageCreateInfo& st) {
  cap::ShaderStage out;
  out.stage = static_cast<uint32_t>(st.stage);
  out.module = id(st.module);
  out.entry_point = st.pName != nullptr ? st.pName : "";
  if (st.module != VK_NULL_HANDLE) {
    std::lock_guard lock(d->mutex);
    auto it = d->shader_modules.find(st.module);
    if (it != d->shader_modules.end()) out.code = it->second.first;
  } else if (const auto* inline_code = find_in_chain<VkShaderModuleCreateInfo>(
                 st.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)) {
    // maintenance5 / pipeline-library style: SPIR-V given inline, no module object.
    out.code = s->put_blob(as_span(inline_code->pCode, inline_code->codeSize));
  }
  if (const VkSpecializationInfo* spec = st.pSpecializationInfo) {
    for (uint32_t i = 0; i < spec->mapEntryCount; ++i) {
      const auto& e = spec->pMapEntries[i];
      out.specialization.push_back({e.constantID, e.offset, static_cast<uint32_t>(e.size)});
    }
    const auto* p = static_cast<const uint8_t*>(spec->pData);
    if (p != nullptr) out.specialization_data.assign(p, p + spec->dataSize);
  }
  return out;
}

void convert_graphics_pipeline(DeviceData* d, Session* s, const VkGraphicsPipelineCreateInfo& ci,
                               VkPipeline pipeline, cap::GraphicsPipelineRecord& rec) {
  rec.pipeline = id(pipeline);
  rec.layout = id(ci.layout);
  rec.render_pass = id(ci.renderPass);
  rec.subpass = ci.subpass;
  rec.flags = ci.flags;
  for (uint32_t i = 0; i < ci.stageCount; ++i) rec.stages.push_back(convert_stage(d, s, ci.pStages[i]));
  if (const auto* ds = ci.pDynamicState) {
    for (uint32_t i = 0; i < ds->dynamicStateCount; ++i) {
      rec.dynamic_states.push_back(static_cast<uint32_t>(ds->pDynamicStates[i]));
    }
  }
  const auto dynamic = [&rec](VkDynamicState state) {
    return std::find(rec.dynamic_states.begin(), rec.dynamic_states.end(),
                     static_cast<uint32_t>(state)) != rec.dynamic_states.end();
  };
  // With VK_DYNAMIC_STATE_VERTEX_INPUT_EXT, pVertexInputState is ignored and may point anywhere
  // (VkGraphicsPipelineCreateInfo): vkCmdSetVertexInputEXT supplies that state.
  const auto* vertex_input = dynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) ? nullptr : ci.pVertexInputState;
  if (const auto* vi = vertex_input) {
    for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; ++i) {
      const auto& b = vi->pVertexBindingDescriptions[i];
      rec.vertex_bindings.push_back({b.binding, b.stride, static_cast<uint32_t>(b.inputRate), 1});
    }
    for (uint32_t i = 0; i < vi->vertexAttributeDescriptionCount; ++i) {
      const auto& a = vi->pVertexAttributeDescriptions[i];
      rec.vertex_attributes.push_back(
          {a.location, a.binding, static_cast<uint32_t>(a.format), a.offset});
    }
    if (const auto* div = find_in_chain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
            vi->pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)) {
      for (uint32_t i = 0; i < div->vertexBindingDivisorCount; ++i) {
        for (auto& b : rec.vertex_bindings) {
          if (b.binding == div->pVertexBindingDivisors[i].binding) {
            b.divisor = div->pVertexBindingDivisors[i].divisor;
          }
        }
      }
    }
  }
  if (const auto* ia = ci.pInputAssemblyState) {
    rec.topology = static_cast<uint32_t>(ia->topology);
    rec.primitive_restart = ia->primitiveRestartEnable;
  }
  if (const auto* ts = ci.pTessellationState) rec.patch_control_points = ts->patchControlPoints;
  if (const auto* vp = ci.pViewportState) {
    rec.viewport_count = vp->viewportCount;
    rec.scissor_count = vp->scissorCount;
    if (const auto* cc = find_in_chain<VkPipelineViewportDepthClipControlCreateInfoEXT>(
            vp->pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT)) {
      rec.depth_clip_negative_one_to_one = cc->negativeOneToOne;
    }
    // Pointers are ignored (may be garbage) when the state is dynamic.
    bool dyn_vp = false, dyn_sc = false;
    if (const auto* ds = ci.pDynamicState) {
      for (uint32_t i = 0; i < ds->dynamicStateCount; ++i) {
        dyn_vp |= ds->pDynamicStates[i] == VK_DYNAMIC_STATE_VIEWPORT ||
                  ds->pDynamicStates[i] == VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT;
        dyn_sc |= ds->pDynamicStates[i] == VK_DYNAMIC_STATE_SCISSOR ||
                  ds->pDynamicStates[i] == VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT;
      }
    }
    if (!dyn_vp && vp->pViewports != nullptr) {
      for (uint32_t i = 0; i < vp->viewportCount; ++i) {
        const auto& v = vp->pViewports[i];
        rec.viewports.push_back({v.x, v.y, v.width, v.height, v.minDepth, v.maxDepth});
      }
    }
    if (!dyn_sc && vp->pScissors != nullptr) {
      for (uint32_t i = 0; i < vp->scissorCount; ++i) {
        const auto& r = vp->pScissors[i];
        rec.scissors.push_back({r.offset.x, r.offset.y, r.extent.width, r.extent.height});
      }
    }
  }
  if (const auto* rs = ci.pRasterizationState) {
    rec.depth_clamp = rs->depthClampEnable;
    rec.rasterizer_discard = rs->rasterizerDiscardEnable;
    rec.polygon_mode = static_cast<uint32_t>(rs->polygonMode);
    rec.cull_mode = rs->cullMode;
    rec.front_face = static_cast<uint32_t>(rs->frontFace);
    rec.depth_bias_enable = rs->depthBiasEnable;
    rec.depth_bias_constant = rs->depthBiasConstantFactor;
    rec.depth_bias_clamp = rs->depthBiasClamp;
    rec.depth_bias_slope = rs->depthBiasSlopeFactor;
    rec.line_width = rs->lineWidth;
    if (const auto* dc = find_in_chain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT)) {
      rec.depth_clip = dc->depthClipEnable;
    }
    if (const auto* ls = find_in_chain<VkPipelineRasterizationLineStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT)) {
      rec.line_mode = static_cast<uint32_t>(ls->lineRasterizationMode);
      rec.line_stipple_enable = ls->stippledLineEnable;
      rec.line_stipple_factor = ls->lineStippleFactor;
      rec.line_stipple_pattern = ls->lineStipplePattern;
    }
    if (const auto* pv = find_in_chain<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
            rs->pNext,
            VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT)) {
      rec.provoking_vertex = static_cast<uint32_t>(pv->provokingVertexMode);
    }
  }
  if (const auto* ms = ci.pMultisampleState) {
    rec.samples = static_cast<uint32_t>(ms->rasterizationSamples);
    rec.sample_shading = ms->sampleShadingEnable;
    rec.min_sample_shading = ms->minSampleShading;
    // pSampleMask is ignored when the mask is dynamic (extended dynamic state 3).
    if (ms->pSampleMask != nullptr && !dynamic(VK_DYNAMIC_STATE_SAMPLE_MASK_EXT)) {
      rec.sample_mask = ms->pSampleMask[0];
    }
    rec.alpha_to_coverage = ms->alphaToCoverageEnable;
    rec.alpha_to_one = ms->alphaToOneEnable;
  }
  if (const auto* ds = ci.pDepthStencilState) {
    rec.depth_test = ds->depthTestEnable;
    rec.depth_write = ds->depthWriteEnable;
    rec.depth_compare = static_cast<uint32_t>(ds->depthCompareOp);
    rec.depth_bounds_test = ds->depthBoundsTestEnable;
    rec.stencil_test = ds->stencilTestEnable;
    auto stencil = [](const VkStencilOpState& o) {
      return cap::GraphicsPipelineRecord::StencilOpState{
          static_cast<uint32_t>(o.failOp),      static_cast<uint32_t>(o.passOp),
          static_cast<uint32_t>(o.depthFailOp), static_cast<uint32_t>(o.compareOp),
          o.compareMask,                        o.writeMask,
          o.reference};
    };
    rec.stencil_front = stencil(ds->front);
    rec.stencil_back = stencil(ds->back);
    rec.min_depth_bounds = ds->minDepthBounds;
    rec.max_depth_bounds = ds->maxDepthBounds;
  }
  if (const auto* cb = ci.pColorBlendState) {
    rec.logic_op_enable = cb->logicOpEnable;
    rec.logic_op = static_cast<uint32_t>(cb->logicOp);
    for (uint32_t i = 0; i < cb->attachmentCount && cb->pAttachments != nullptr; ++i) {
      const auto& a = cb->pAttachments[i];
      rec.blend_attachments.push_back(
          {a.blendEnable, static_cast<uint32_t>(a.srcColorBlendFactor),
           static_cast<uint32_t>(a.dstColorBlendFactor), static_cast<uint32_t>(a.colorBlendOp),
           static_cast<uint32_t>(a.srcAlphaBlendFactor),
           static_cast<uint32_t>(a.dstAlphaBlendFactor), static_cast<uint32_t>(a.alphaBlendOp),
           a.colorWriteMask});
    }
    for (int i = 0; i < 4; ++i) rec.blend_constants[i] = cb->blendConstants[i];
    if (const auto* cw = find_in_chain<VkPipelineColorWriteCreateInfoEXT>(
            cb->pNext, VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT)) {
      for (uint32_t i = 0; i < cw->attachmentCount && cw->pColorWriteEnables != nullptr; ++i) {
        rec.color_write_enables.push_back(cw->pColorWriteEnables[i]);
      }
    }
  }
  if (ci.renderPass == VK_NULL_HANDLE) {
    if (const auto* pr = find_in_chain<VkPipelineRenderingCreateInfo>(
            ci.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)) {
      rec.view_mask = pr->viewMask;
      for (uint32_t i = 0; i < pr->colorAttachmentCount; ++i) {
        rec.color_formats.push_back(static_cast<uint32_t>(pr->pColorAttachmentFormats[i]));
      }
      rec.depth_format = static_cast<uint32_t>(pr->depthAttachmentFormat);
      rec.stencil_format = static_cast<uint32_t>(pr->stencilAttachmentFormat);
    }
  }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
                                                       uint32_t n,
                                                       const VkGraphicsPipelineCreateInfo* cis,
                                                       const VkAllocationCallbacks* alloc,
                                                       VkPipeline* pipelines) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateGraphicsPipelines(device, cache, n, cis, alloc, pipelines));
  if (r < VK_SUCCESS) return r;
  if (Session* s = active()) {
    for (uint32_t i = 0; i < n; ++i) {
      if (pipelines[i] == VK_NULL_HANDLE) continue;
      cap::GraphicsPipelineRecord rec;
      convert_graphics_pipeline(d, s, cis[i], pipelines[i], rec);
      s->write(rec);
    }
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                      uint32_t n,
                                                      const VkComputePipelineCreateInfo* cis,
                                                      const VkAllocationCallbacks* alloc,
                                                      VkPipeline* pipelines) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateComputePipelines(device, cache, n, cis, alloc, pipelines));
  if (r < VK_SUCCESS) return r;
  if (Session* s = active()) {
    for (uint32_t i = 0; i < n; ++i) {
      if (pipelines[i] == VK_NULL_HANDLE) continue;
      s->write(cap::ComputePipelineRecord{id(pipelines[i]), id(cis[i].layout), cis[i].flags,
                                          convert_stage(d, s, cis[i].stage)});
    }
  }
  return r;
}

// ---- Layouts, render passes, framebuffers ----------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(
    VkDevice device, const VkDescriptorSetLayoutCreateInfo* ci,
    const VkAllocationCallbacks* alloc, VkDescriptorSetLayout* layout) {
  const VkResult r = down(device_of(device)->vk.CreateDescriptorSetLayout(device, ci, alloc, layout));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      cap::DescriptorSetLayoutRecord rec;
      rec.layout = id(*layout);
      rec.flags = ci->flags;
      for (uint32_t i = 0; i < ci->bindingCount; ++i) {
        const auto& b = ci->pBindings[i];
        cap::DescriptorSetLayoutRecord::Binding out{b.binding,
                                                    static_cast<uint32_t>(b.descriptorType),
                                                    b.descriptorCount, b.stageFlags, {}};
        if (b.pImmutableSamplers != nullptr) {
          for (uint32_t j = 0; j < b.descriptorCount; ++j) {
            out.immutable_samplers.push_back(id(b.pImmutableSamplers[j]));
          }
        }
        rec.bindings.push_back(std::move(out));
      }
      s->write(rec);
    }
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device,
                                                    const VkPipelineLayoutCreateInfo* ci,
                                                    const VkAllocationCallbacks* alloc,
                                                    VkPipelineLayout* layout) {
  const VkResult r = down(device_of(device)->vk.CreatePipelineLayout(device, ci, alloc, layout));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      cap::PipelineLayoutRecord rec;
      rec.layout = id(*layout);
      for (uint32_t i = 0; i < ci->setLayoutCount; ++i) rec.set_layouts.push_back(id(ci->pSetLayouts[i]));
      for (uint32_t i = 0; i < ci->pushConstantRangeCount; ++i) {
        const auto& p = ci->pPushConstantRanges[i];
        rec.push_ranges.push_back({p.stageFlags, p.offset, p.size});
      }
      s->write(rec);
    }
  }
  return r;
}

namespace {

cap::AttachmentReference ref_of(uint32_t attachment, VkImageLayout layout) {
  return {attachment, static_cast<uint32_t>(layout)};
}

// vkCreateRenderPass and vkCreateRenderPass2 read the same members (the *2 structs extend the
// originals with the same names), so one body records both.
template <typename RenderPassCreateInfo>
void note_render_pass(DeviceData* d, const RenderPassCreateInfo* ci, VkRenderPass rp) {
  {
    std::lock_guard lock(d->mutex);
    auto& finals = d->final_layouts[rp];
    finals.clear();  // a handle the driver reuses after vkDestroyRenderPass
    for (uint32_t i = 0; i < ci->attachmentCount; ++i) finals.push_back(ci->pAttachments[i].finalLayout);
  }
  if (Session* s = active()) {
    cap::RenderPassRecord rec;
    rec.render_pass = id(rp);
    for (uint32_t i = 0; i < ci->attachmentCount; ++i) {
      const auto& a = ci->pAttachments[i];
      rec.attachments.push_back(
          {static_cast<uint32_t>(a.format), static_cast<uint32_t>(a.samples),
           static_cast<uint32_t>(a.loadOp), static_cast<uint32_t>(a.storeOp),
           static_cast<uint32_t>(a.stencilLoadOp), static_cast<uint32_t>(a.stencilStoreOp),
           static_cast<uint32_t>(a.initialLayout), static_cast<uint32_t>(a.finalLayout)});
    }
    for (uint32_t i = 0; i < ci->subpassCount; ++i) {
      const auto& sp = ci->pSubpasses[i];
      cap::RenderPassRecord::Subpass out;
      out.bind_point = static_cast<uint32_t>(sp.pipelineBindPoint);
      for (uint32_t j = 0; j < sp.inputAttachmentCount; ++j) {
        out.inputs.push_back(ref_of(sp.pInputAttachments[j].attachment, sp.pInputAttachments[j].layout));
      }
      for (uint32_t j = 0; j < sp.colorAttachmentCount; ++j) {
        out.colors.push_back(ref_of(sp.pColorAttachments[j].attachment, sp.pColorAttachments[j].layout));
        if (sp.pResolveAttachments != nullptr) {
          out.resolves.push_back(
              ref_of(sp.pResolveAttachments[j].attachment, sp.pResolveAttachments[j].layout));
        }
      }
      if (sp.pDepthStencilAttachment != nullptr) {
        out.has_depth_stencil = 1;
        out.depth_stencil =
            ref_of(sp.pDepthStencilAttachment->attachment, sp.pDepthStencilAttachment->layout);
      }
      out.preserve.assign(sp.pPreserveAttachments,
                          sp.pPreserveAttachments + sp.preserveAttachmentCount);
      rec.subpasses.push_back(std::move(out));
    }
    for (uint32_t i = 0; i < ci->dependencyCount; ++i) {
      const auto& dep = ci->pDependencies[i];
      rec.dependencies.push_back({dep.srcSubpass, dep.dstSubpass, dep.srcStageMask,
                                  dep.dstStageMask, dep.srcAccessMask, dep.dstAccessMask,
                                  dep.dependencyFlags});
    }
    s->write(rec);
  }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass(VkDevice device, const VkRenderPassCreateInfo* ci,
                                                const VkAllocationCallbacks* alloc,
                                                VkRenderPass* rp) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateRenderPass(device, ci, alloc, rp));
  if (r == VK_SUCCESS) {
    note_render_pass(d, ci, *rp);
    note_render_pass_attachments(d, ci, *rp);
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateRenderPass2(VkDevice device,
                                                 const VkRenderPassCreateInfo2* ci,
                                                 const VkAllocationCallbacks* alloc,
                                                 VkRenderPass* rp) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateRenderPass2(device, ci, alloc, rp));
  if (r == VK_SUCCESS) {
    note_render_pass(d, ci, *rp);
    note_render_pass_attachments(d, ci, *rp);
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateFramebuffer(VkDevice device,
                                                 const VkFramebufferCreateInfo* ci,
                                                 const VkAllocationCallbacks* alloc,
                                                 VkFramebuffer* fb) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateFramebuffer(device, ci, alloc, fb));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      if ((ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) == 0) {
        std::lock_guard lock(d->mutex);
        d->framebuffer_views[*fb].assign(ci->pAttachments, ci->pAttachments + ci->attachmentCount);
      }
      cap::FramebufferRecord rec;
      rec.framebuffer = id(*fb);
      rec.render_pass = id(ci->renderPass);
      if ((ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) == 0) {
        for (uint32_t i = 0; i < ci->attachmentCount; ++i) rec.attachments.push_back(id(ci->pAttachments[i]));
      }
      rec.width = ci->width;
      rec.height = ci->height;
      rec.layers = ci->layers;
      s->write(rec);
    }
  }
  return r;
}

// ---- Descriptor sets -------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice device,
                                                      const VkDescriptorSetAllocateInfo* info,
                                                      VkDescriptorSet* sets) {
  const VkResult r = down(device_of(device)->vk.AllocateDescriptorSets(device, info, sets));
  if (r == VK_SUCCESS) {
    if (Session* s = active()) {
      for (uint32_t i = 0; i < info->descriptorSetCount; ++i) {
        s->write(cap::DescriptorSetAllocRecord{id(sets[i]), id(info->pSetLayouts[i])});
      }
    }
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t nw,
                                                const VkWriteDescriptorSet* writes, uint32_t nc,
                                                const VkCopyDescriptorSet* copies) {
  device_of(device)->vk.UpdateDescriptorSets(device, nw, writes, nc, copies);
  if (Session* s = active()) {
    cap::DescriptorUpdateRecord rec;
    for (uint32_t i = 0; i < nw; ++i) rec.writes.push_back(convert_write(writes[i]));
    for (uint32_t i = 0; i < nc; ++i) {
      const auto& c = copies[i];
      rec.copies.push_back({id(c.srcSet), c.srcBinding, c.srcArrayElement, id(c.dstSet),
                            c.dstBinding, c.dstArrayElement, c.descriptorCount});
    }
    s->write(rec);
  }
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(
    VkDevice device, const VkDescriptorUpdateTemplateCreateInfo* ci,
    const VkAllocationCallbacks* alloc, VkDescriptorUpdateTemplate* tpl) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.CreateDescriptorUpdateTemplate(device, ci, alloc, tpl));
  if (r == VK_SUCCESS) {
    TemplateState t;
    t.type = ci->templateType;
    t.entries.assign(ci->pDescriptorUpdateEntries,
                     ci->pDescriptorUpdateEntries + ci->descriptorUpdateEntryCount);
    std::lock_guard lock(d->mutex);
    d->templates[*tpl] = std::move(t);
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroyDescriptorUpdateTemplate(VkDevice device,
                                                           VkDescriptorUpdateTemplate tpl,
                                                           const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->templates.erase(tpl);
  }
  d->vk.DestroyDescriptorUpdateTemplate(device, tpl, alloc);
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                           VkDescriptorUpdateTemplate tpl,
                                                           const void* data) {
  DeviceData* d = device_of(device);
  d->vk.UpdateDescriptorSetWithTemplate(device, set, tpl, data);
  if (Session* s = active()) {
    cap::DescriptorUpdateRecord rec;
    {
      std::lock_guard lock(d->mutex);
      auto it = d->templates.find(tpl);
      if (it == d->templates.end()) return;
      rec.writes = expand_template(it->second.entries, id(set), data);
    }
    s->write(rec);
  }
}

// ---- Descriptor conversion (shared with push descriptors) -----------------------------------

namespace {
bool is_image_type(VkDescriptorType t) {
  return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
         t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
         t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}
bool is_texel_type(VkDescriptorType t) {
  return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
         t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}
bool is_buffer_type(VkDescriptorType t) {
  return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
         t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
         t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}
}  // namespace

cap::DescriptorWrite convert_write(const VkWriteDescriptorSet& w) {
  cap::DescriptorWrite out;
  out.set = id(w.dstSet);
  out.binding = w.dstBinding;
  out.array_element = w.dstArrayElement;
  out.type = static_cast<uint32_t>(w.descriptorType);
  for (uint32_t i = 0; i < w.descriptorCount; ++i) {
    if (is_image_type(w.descriptorType) && w.pImageInfo != nullptr) {
      const auto& ii = w.pImageInfo[i];
      out.images.push_back({id(ii.sampler), id(ii.imageView), static_cast<uint32_t>(ii.imageLayout)});
    } else if (is_buffer_type(w.descriptorType) && w.pBufferInfo != nullptr) {
      const auto& bi = w.pBufferInfo[i];
      out.buffers.push_back({id(bi.buffer), bi.offset, bi.range});
    } else if (is_texel_type(w.descriptorType) && w.pTexelBufferView != nullptr) {
      out.texel_views.push_back(id(w.pTexelBufferView[i]));
    }
  }
  return out;
}

std::vector<cap::DescriptorWrite> expand_template(
    const std::vector<VkDescriptorUpdateTemplateEntry>& entries, uint64_t set, const void* data) {
  std::vector<cap::DescriptorWrite> out;
  const auto* base = static_cast<const std::byte*>(data);
  for (const auto& e : entries) {
    cap::DescriptorWrite w;
    w.set = set;
    w.binding = e.dstBinding;
    w.array_element = e.dstArrayElement;
    w.type = static_cast<uint32_t>(e.descriptorType);
    for (uint32_t i = 0; i < e.descriptorCount; ++i) {
      // Vulkan spec, VkDescriptorUpdateTemplateEntry: element i is at offset + i * stride.
      const std::byte* p = base + e.offset + i * e.stride;
      if (is_image_type(e.descriptorType)) {
        VkDescriptorImageInfo ii;
        std::memcpy(&ii, p, sizeof ii);
        w.images.push_back({id(ii.sampler), id(ii.imageView), static_cast<uint32_t>(ii.imageLayout)});
      } else if (is_buffer_type(e.descriptorType)) {
        VkDescriptorBufferInfo bi;
        std::memcpy(&bi, p, sizeof bi);
        w.buffers.push_back({id(bi.buffer), bi.offset, bi.range});
      } else if (is_texel_type(e.descriptorType)) {
        VkBufferView v;
        std::memcpy(&v, p, sizeof v);
        w.texel_views.push_back(id(v));
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace tessera::layer
