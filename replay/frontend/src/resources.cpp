#include "resources.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "formats.h"
#include "record_decode.h"

namespace tessera::frontend {

namespace cap = tessera::capture;

namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Replaces (in place, so pointers stay valid) or creates the object under `handle`.
template <typename T>
T& slot(std::unordered_map<uint64_t, std::unique_ptr<T>>& map, uint64_t handle) {
  auto& p = map[handle];
  if (!p) p = std::make_unique<T>();
  return *p;
}

}  // namespace

std::optional<cap::Bytes> Resources::blob(const cap::Hash128& hash, const char* what,
                                          SkipCounts& skipped) const {
  std::string problem;
  auto b = reader_.blob(hash, &problem);
  if (!b) skipped.add(std::string(what) + ": contents blob missing");
  return b;
}

std::shared_ptr<const std::vector<uint32_t>> Resources::spirv(const cap::Hash128& hash,
                                                              std::string* problem) {
  if (auto it = spirv_.find(hash); it != spirv_.end()) return it->second;
  auto b = reader_.blob(hash, problem);
  if (!b) return nullptr;
  if (b->data.size() % 4 != 0 || b->data.empty()) {
    *problem = "SPIR-V blob of " + std::to_string(b->data.size()) + " bytes is not whole words";
    return nullptr;
  }
  auto words = std::make_shared<std::vector<uint32_t>>(b->data.size() / 4);
  std::memcpy(words->data(), b->data.data(), b->data.size());
  spirv_[hash] = words;
  return words;
}

bool Resources::hold(uint64_t& slot, uint64_t bytes, const std::string& what, std::string* error) {
  if (!budget_.reserve(bytes)) {
    *error = what + " " + budget_.refusal(bytes);
    refused_ = true;
    return false;
  }
  slot += bytes;
  held_bytes_ += bytes;
  return true;
}

void Resources::drop(uint64_t& slot, uint64_t bytes) {
  bytes = std::min(bytes, slot);
  budget_.release(bytes);
  slot -= bytes;
  held_bytes_ -= bytes;
}

// Vulkan spec "Image Creation Limits" (VkImageCreateInfo): every extent member at least 1 and
// within VkImageFormatProperties::maxExtent, mipLevels at most
// floor(log2(max(width, height, depth))) + 1, arrayLayers at least 1 and within maxArrayLayers.
// Zero extents and mip chains longer than the extent's are invalid on every device; extents and
// layers beyond the largest any implementation reports (kMaxImageDimension, kMaxImageLayers)
// cannot come from a real device. Such a capture is damaged or hostile, and is refused rather
// than replayed wrong; the memory budget bounds every shape within them.
bool Resources::shape_image(Image& img, SkipCounts& skipped, std::string* error) {
  uint64_t& held_for_image = image_held_[img.handle];
  drop(held_for_image, held_for_image);
  // The planes of the image's previous shape: one of the same size is zeroed in place below
  // instead of freed and allocated again (an image re-created every frame then costs no page
  // faults); the rest are freed before the new shape is reserved.
  std::vector<std::vector<uint8_t>> previous = std::move(img.planes);
  img.planes.clear();
  const std::string name = "image " + frontend::format_handle(img.handle) + " (" + std::to_string(img.width) + "x" +
                           std::to_string(img.height) + "x" + std::to_string(img.depth) + ", " +
                           std::to_string(img.mip_levels) + " mips, " + std::to_string(img.array_layers) +
                           " layers)";
  const uint32_t largest = std::max({img.width, img.height, img.depth});
  uint32_t full_chain = 0;
  for (uint32_t d = largest; d != 0; d >>= 1) ++full_chain;
  std::string invalid;
  if (img.width == 0 || img.height == 0 || img.depth == 0) {
    invalid = "an extent of 0 is not an image";
  } else if (largest > kMaxImageDimension) {
    invalid = "extent beyond " + std::to_string(kMaxImageDimension) +
              ", more than any Vulkan implementation reports (the largest, Mesa's panvk, 65536)";
  } else if (img.mip_levels == 0 || img.mip_levels > full_chain) {
    invalid = "mip levels outside 1.." + std::to_string(full_chain) + ", the full mip chain of its extent";
  } else if (img.array_layers == 0 || img.array_layers > kMaxImageLayers) {
    invalid = "array layers outside 1.." + std::to_string(kMaxImageLayers) +
              ", more than any Vulkan implementation reports";
  }
  if (!invalid.empty()) {
    *error = name + ": refused: " + invalid + " (Vulkan spec \"Image Creation Limits\")";
    refused_ = true;
    return false;
  }
  FormatDesc f;
  const bool known = describe_format(img.format, &f);
  const uint32_t aspects = known && f.stencil ? 2 : 1;
  // Each plane is at most 2^58 bytes (65536^3 texels of at most 16 bytes, 64 samples); the sum
  // saturates rather than wraps, and is then refused by the budget.
  uint64_t total = 0;
  std::vector<uint64_t> sizes;
  for (uint32_t a = 0; a < aspects; ++a) {
    for (uint32_t l = 0; l < img.array_layers; ++l) {
      for (uint32_t m = 0; m < img.mip_levels; ++m) {
        const uint32_t d = img.depth >> m ? img.depth >> m : 1;
        // A multisampled image holds its samples one after the other (frame.h).
        const uint64_t n = known ? aspect_bytes(f, static_cast<Aspect>(a), img.mip_width(m), img.mip_height(m), d) *
                                       img.held_samples()
                                 : 0;
        sizes.push_back(n);
        total = n > UINT64_MAX - total ? UINT64_MAX : total + n;
      }
    }
  }
  // A previous plane that the new shape does not reuse is freed before the new shape is reserved
  // and allocated: its bytes already went back to the budget (drop above), so keeping it until
  // this returns would hold the old and the new shape at once, beyond what the budget allows.
  for (size_t i = 0; i < previous.size(); ++i) {
    if (i >= sizes.size() || previous[i].capacity() != sizes[i]) std::vector<uint8_t>().swap(previous[i]);
  }
  if (!hold(held_for_image, total, name, error)) return false;
  img.planes.resize(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i < previous.size() && previous[i].capacity() == sizes[i]) img.planes[i].swap(previous[i]);
    img.planes[i].assign(sizes[i], 0);
  }
  if (!known) skipped.add("image: format " + std::to_string(img.format) + " not supported");
  auto& held = image_bytes_[img.handle];
  if (img.address == 0 || align_up(total, kAddressAlign) > held) {
    img.address = next_image_address_;
    held = align_up(std::max<uint64_t>(total, 1), kAddressAlign);
    next_image_address_ += held;
  }
  return true;
}

bool Resources::apply_image(const cap::ImageRecord& rec, SkipCounts& skipped, std::string* error) {
  Image& img = slot(images, rec.image);
  const bool same = img.handle == rec.image && img.format == rec.format &&
                    img.width == rec.width && img.height == rec.height &&
                    img.depth == rec.depth && img.mip_levels == rec.mip_levels &&
                    img.array_layers == rec.array_layers && img.samples == rec.samples &&
                    !img.planes.empty();
  img.handle = rec.image;
  img.image_type = rec.image_type;
  img.usage = rec.usage;
  img.samples = rec.samples;
  img.swapchain = false;
  if (!same || rec.contents.is_zero()) {
    // A creation record (no contents): a new image whose contents are undefined.
    img.format = rec.format;
    img.width = rec.width, img.height = rec.height, img.depth = rec.depth;
    img.mip_levels = rec.mip_levels, img.array_layers = rec.array_layers;
    if (!shape_image(img, skipped, error)) return false;
    img.defined = false;
    ++img.generation;
  }
  if (rec.contents.is_zero()) return true;
  auto b = blob(rec.contents, "image", skipped);
  if (!b) return true;
  FormatDesc f;
  const bool known = describe_format(img.format, &f);
  for (const auto& sub : rec.subresources) {
    const Aspect a = sub.aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? Aspect::Stencil
                                                               : Aspect::ColorOrDepth;
    if (sub.mip >= img.mip_levels || sub.layer >= img.array_layers || img.planes.empty() ||
        (a == Aspect::Stencil && !(known && f.stencil)) || sub.offset > b->data.size() ||
        sub.size > b->data.size() - sub.offset) {
      skipped.add("image: subresource outside the image or its contents blob");
      continue;
    }
    auto& plane = img.subresource(a, sub.layer, sub.mip);
    if (known && plane.size() != sub.size) {
      skipped.add("image: subresource size disagrees with its format and extent");
      continue;
    }
    // Formats of unknown layout take the bytes given (at most the blob's, so no more than the
    // file holds; counted all the same).
    uint64_t& held_for_image = image_held_[img.handle];
    if (sub.size > plane.size() &&
        !hold(held_for_image, sub.size - plane.size(), "image " + frontend::format_handle(img.handle) + " contents", error)) {
      return false;
    }
    if (sub.size < plane.size()) drop(held_for_image, plane.size() - sub.size);
    plane.resize(static_cast<size_t>(sub.size));
    if (sub.size != 0) std::memcpy(plane.data(), b->data.data() + sub.offset, static_cast<size_t>(sub.size));
  }
  img.touch();
  return true;
}

bool Resources::apply_swapchain(const cap::SwapchainRecord& rec, std::string* error) {
  slot(swapchains, rec.swapchain) = rec;
  SkipCounts ignored;  // an unsupported swapchain format shows when the frame is compared
  for (uint64_t h : rec.images) {
    Image& img = slot(images, h);
    img.handle = h;
    img.image_type = VK_IMAGE_TYPE_2D;
    img.format = rec.format;
    img.width = rec.width, img.height = rec.height, img.depth = 1;
    img.mip_levels = 1;
    img.array_layers = std::max(rec.array_layers, 1u);
    img.samples = 1;
    img.usage = rec.usage;
    img.swapchain = true;
    img.defined = false;
    if (!shape_image(img, ignored, error)) return false;
    ++img.generation;
  }
  return true;
}

void Resources::apply_memory_contents(const cap::MemoryContentsRecord& rec,
                                      SkipCounts& skipped) {
  MemoryObject* m = find(memories, rec.memory);
  if (m == nullptr) {
    skipped.add("memory contents: unknown memory object");
    return;
  }
  auto b = blob(rec.contents, "memory contents", skipped);
  if (!b) return;
  if (b->data.size() != rec.size || rec.offset > m->bytes.size() ||
      rec.size > m->bytes.size() - rec.offset) {
    skipped.add("memory contents: range outside the memory object");
    return;
  }
  if (rec.size != 0) {
    std::memcpy(m->bytes.data() + rec.offset, b->data.data(), static_cast<size_t>(rec.size));
  }
  mark_known(m);
}

void Resources::apply_bind(const cap::MemoryBindRecord& rec, SkipCounts& skipped) {
  if (rec.is_image != 0) {
    // Images hold their own contents (frame.h): their memory binding does not matter here.
    if (find(images, rec.resource) == nullptr) skipped.add("memory bind: unknown image");
    return;
  }
  Buffer* b = find(buffers, rec.resource);
  MemoryObject* m = find(memories, rec.memory);
  if (b == nullptr || m == nullptr) {
    skipped.add(b == nullptr ? "memory bind: unknown buffer" : "memory bind: unknown memory");
    return;
  }
  b->memory = m;
  b->memory_offset = rec.offset;
  b->address = memory_address_[m->handle] + rec.offset;
}

void Resources::apply_view(const cap::ImageViewRecord& rec, SkipCounts& skipped) {
  ImageView& v = slot(views, rec.view);
  v.handle = rec.view;
  v.image = find(images, rec.image);
  v.view_type = rec.view_type;
  v.format = rec.format;
  v.swizzle[0] = rec.swizzle_r, v.swizzle[1] = rec.swizzle_g;
  v.swizzle[2] = rec.swizzle_b, v.swizzle[3] = rec.swizzle_a;
  v.range = rec.range;
  if (v.image == nullptr) {
    skipped.add("image view: unknown image");
    return;
  }
  // VK_REMAINING_MIP_LEVELS / VK_REMAINING_ARRAY_LAYERS resolved against the image.
  if (v.range.mip_count == VK_REMAINING_MIP_LEVELS && v.range.base_mip < v.image->mip_levels) {
    v.range.mip_count = v.image->mip_levels - v.range.base_mip;
  }
  if (v.range.layer_count == VK_REMAINING_ARRAY_LAYERS &&
      v.range.base_layer < v.image->array_layers) {
    v.range.layer_count = v.image->array_layers - v.range.base_layer;
  }
}

bool Resources::init_set(DescriptorSetState& set, const cap::DescriptorSetLayoutRecord& layout) {
  set.layout = layout.layout;
  set.bindings.clear();
  bool cut = false;
  for (const auto& b : layout.bindings) {
    auto& dst = set.bindings[b.binding];
    dst.type = b.type;
    // Counts come from the file: a hostile count must not allocate unbounded memory.
    cut = cut || b.count > kMaxBindingElements;
    dst.slots.assign(std::min(b.count, kMaxBindingElements), DescriptorSlot{});
  }
  return !cut;
}

void Resources::write_descriptors(DescriptorSetState& set, const cap::DescriptorWrite& w,
                                  SkipCounts& skipped) const {
  const size_t n = w.images.size() + w.buffers.size() + w.texel_views.size();
  auto it = set.bindings.find(w.binding);
  uint32_t element = w.array_element;
  for (size_t i = 0; i < n; ++i) {
    // Writes past a binding's end continue into the next binding ("descriptor update
    // consecutive binding" rule of VkWriteDescriptorSet).
    while (it != set.bindings.end() && element >= it->second.slots.size()) {
      element -= static_cast<uint32_t>(it->second.slots.size());
      ++it;
    }
    if (it == set.bindings.end()) {
      skipped.add("descriptor write: past the set layout's bindings");
      return;
    }
    DescriptorSlot s;
    s.written = true;
    if (i < w.images.size()) {
      s.sampler = w.images[i].sampler;
      s.view = w.images[i].view;
    } else if (i < w.images.size() + w.buffers.size()) {
      const auto& b = w.buffers[i - w.images.size()];
      s.buffer = b.buffer, s.offset = b.offset, s.range = b.range;
    } else {
      s.texel_view = w.texel_views[i - w.images.size() - w.buffers.size()];
    }
    it->second.slots[element] = s;
    ++element;
  }
}

void Resources::apply_descriptor_update(const cap::DescriptorUpdateRecord& rec,
                                        SkipCounts& skipped) {
  for (const auto& w : rec.writes) {
    DescriptorSetState* set = find(sets, w.set);
    if (set == nullptr) {
      skipped.add("descriptor write: unknown descriptor set");
      continue;
    }
    write_descriptors(*set, w, skipped);
  }
  for (const auto& c : rec.copies) {
    DescriptorSetState* src = find(sets, c.src_set);
    DescriptorSetState* dst = find(sets, c.dst_set);
    if (src == nullptr || dst == nullptr) {
      skipped.add("descriptor copy: unknown descriptor set");
      continue;
    }
    auto si = src->bindings.find(c.src_binding);
    auto di = dst->bindings.find(c.dst_binding);
    uint32_t se = c.src_array_element, de = c.dst_array_element;
    for (uint32_t i = 0; i < c.count; ++i) {
      while (si != src->bindings.end() && se >= si->second.slots.size()) {
        se -= static_cast<uint32_t>(si->second.slots.size());
        ++si;
      }
      while (di != dst->bindings.end() && de >= di->second.slots.size()) {
        de -= static_cast<uint32_t>(di->second.slots.size());
        ++di;
      }
      if (si == src->bindings.end() || di == dst->bindings.end()) {
        skipped.add("descriptor copy: past the set layout's bindings");
        break;
      }
      di->second.slots[de++] = si->second.slots[se++];
    }
  }
}

// Vulkan spec "Memory Allocation": the allocation's bytes (held within the replay's budget) and
// its place in the replayer's address space.
bool Resources::apply_memory_alloc(const cap::MemoryAllocRecord& r, std::string* error) {
  MemoryObject& m = slot(memories, r.memory);
  m.handle = r.memory;
  m.property_flags = r.property_flags;
  known_memory_.erase(r.memory);
  uint64_t& held_for_memory = memory_held_[r.memory];
  drop(held_for_memory, held_for_memory);
  // An allocation of the size the handle had is zeroed in place (no free, allocation and page
  // faults when the application allocates the same memory every frame).
  if (m.bytes.capacity() != r.size) m.bytes = {};
  if (!hold(held_for_memory, r.size, "memory " + frontend::format_handle(r.memory), error)) {
    m.bytes = {};
    return false;
  }
  m.bytes.assign(static_cast<size_t>(r.size), std::byte{0});
  memory_address_[r.memory] = next_memory_address_;
  next_memory_address_ += align_up(std::max<uint64_t>(r.size, 1), kAddressAlign);
  return true;
}

// The device limits rasterization depends on (Vulkan spec "Limits": point size and line width
// ranges, strictLines; "Point Clipping"), when the capture recorded them.
void Resources::apply_device_limits(const cap::DeviceInfoRecord& r) {
  // A range no device reports (NaN, reversed, beyond 2^16) keeps the required minimum.
  const auto usable = [](const float range[2]) {
    return range[0] >= 0.0f && range[0] <= range[1] && range[1] <= 65536.0f;
  };
  if (r.has_limits == 0) return;
  const auto& l = r.limits;
  if (usable(l.point_size_range)) {
    limits.point_size_range[0] = l.point_size_range[0];
    limits.point_size_range[1] = l.point_size_range[1];
  }
  if (usable(l.line_width_range)) {
    limits.line_width_range[0] = l.line_width_range[0];
    limits.line_width_range[1] = l.line_width_range[1];
  }
  limits.strict_lines = l.strict_lines != 0;
  limits.points_clip_to_view_volume = l.point_clipping_behavior == VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
}

bool Resources::apply(uint32_t kind, std::span<const std::byte> body, SkipCounts& skipped,
                      std::string* error) {
  using K = cap::VkRecordKind;
  using RK = cap::RecordKind;
  switch (kind) {
    case static_cast<uint32_t>(RK::kImage):
      return with_record<cap::ImageRecord>(body, error, [&](auto& r) { return apply_image(r, skipped, error); });
    case static_cast<uint32_t>(RK::kBuffer):
      return with_record<cap::BufferRecord>(body, error, [&](auto& r) {
        Buffer& b = slot(buffers, r.buffer);
        b = Buffer{};
        b.handle = r.buffer;
        b.size = r.size;
        b.usage = r.usage;
        if (!r.contents.is_zero()) skipped.add("buffer: contents before its memory is bound");
      });
    case static_cast<uint32_t>(RK::kShaderModule):
      return with_record<cap::ShaderModuleRecord>(body, error, [&](auto& r) { shader_modules[r.module] = r; });
    case static_cast<uint32_t>(K::kSwapchain):
      return with_record<cap::SwapchainRecord>(body, error, [&](auto& r) { return apply_swapchain(r, error); });
    case static_cast<uint32_t>(K::kSampler):
      return with_record<cap::SamplerRecord>(body, error, [&](auto& r) { slot(samplers, r.sampler) = r; });
    case static_cast<uint32_t>(K::kImageView):
      return with_record<cap::ImageViewRecord>(body, error, [&](auto& r) { apply_view(r, skipped); });
    case static_cast<uint32_t>(K::kBufferView):
      return with_record<cap::BufferViewRecord>(body, error, [&](auto& r) { slot(buffer_views, r.view) = r; });
    case static_cast<uint32_t>(K::kDescriptorSetLayout):
      return with_record<cap::DescriptorSetLayoutRecord>(body, error, [&](auto& r) {
        // Dynamic offsets and update spill-over follow binding-number order.
        std::sort(r.bindings.begin(), r.bindings.end(),
                  [](const auto& a, const auto& b) { return a.binding < b.binding; });
        slot(set_layouts, r.layout) = r;
      });
    case static_cast<uint32_t>(K::kPipelineLayout):
      return with_record<cap::PipelineLayoutRecord>(body, error,
                                                    [&](auto& r) { slot(pipeline_layouts, r.layout) = r; });
    case static_cast<uint32_t>(K::kRenderPass):
      return with_record<cap::RenderPassRecord>(body, error, [&](auto& r) { slot(render_passes, r.render_pass) = r; });
    case static_cast<uint32_t>(K::kFramebuffer):
      return with_record<cap::FramebufferRecord>(body, error, [&](auto& r) { slot(framebuffers, r.framebuffer) = r; });
    case static_cast<uint32_t>(K::kGraphicsPipeline):
      return with_record<cap::GraphicsPipelineRecord>(body, error, [&](auto& r) { slot(pipelines, r.pipeline) = r; });
    case static_cast<uint32_t>(K::kComputePipeline):
      return with_record<cap::ComputePipelineRecord>(body, error,
                                                     [&](auto& r) { slot(compute_pipelines, r.pipeline) = r; });
    case static_cast<uint32_t>(K::kDescriptorSetAlloc):
      return with_record<cap::DescriptorSetAllocRecord>(body, error, [&](auto& r) {
        auto* layout = find(set_layouts, r.layout);
        DescriptorSetState& set = slot(sets, r.set);
        if (layout == nullptr) {
          set = DescriptorSetState{};
          skipped.add("descriptor set: unknown set layout");
        } else if (!init_set(set, *layout)) {
          skipped.add("descriptor set: binding beyond 16384 elements (cut)");
        }
      });
    case static_cast<uint32_t>(K::kDescriptorUpdate):
      return with_record<cap::DescriptorUpdateRecord>(body, error,
                                                      [&](auto& r) { apply_descriptor_update(r, skipped); });
    case static_cast<uint32_t>(K::kMemoryAlloc):
      return with_record<cap::MemoryAllocRecord>(body, error, [&](auto& r) { return apply_memory_alloc(r, error); });
    case static_cast<uint32_t>(K::kMemoryBind):
      return with_record<cap::MemoryBindRecord>(body, error, [&](auto& r) { apply_bind(r, skipped); });
    case static_cast<uint32_t>(K::kMemoryContents):
      return with_record<cap::MemoryContentsRecord>(body, error, [&](auto& r) { apply_memory_contents(r, skipped); });
    case static_cast<uint32_t>(RK::kDeviceInfo):
      return with_record<cap::DeviceInfoRecord>(body, error, [&](auto& r) { apply_device_limits(r); });
    default:
      // Session records, frame boundaries, render-target and presented-image references and
      // format properties carry no object state.
      return true;
  }
}

}  // namespace tessera::frontend
