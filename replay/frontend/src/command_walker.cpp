#include "command_walker.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstring>

#include "record_decode.h"
#include "transfer.h"

namespace tessera::frontend {

namespace cap = tessera::capture;

namespace {

// Bounds on what hostile records can make the walker allocate.
constexpr uint64_t kMaxPushConstantBytes = 65536;
constexpr uint32_t kMaxIndirectDraws = 1u << 16;
constexpr uint32_t kMaxViewports = 16;
// maxColorAttachments is at most 8 on the devices we know; 32 bounds hostile attachment indices.
constexpr uint32_t kMaxColorAttachments = 32;

float as_float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

bool is_dynamic_buffer(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
         type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

// Faces named by a VkStencilFaceFlags mask.
template <typename F>
void for_faces(uint32_t mask, F f) {
  if ((mask & VK_STENCIL_FACE_FRONT_BIT) != 0) f(0);
  if ((mask & VK_STENCIL_FACE_BACK_BIT) != 0) f(1);
}

}  // namespace

namespace {

using Pipeline = cap::GraphicsPipelineRecord;

// Vulkan spec "Controlling the Viewport" and "Scissor Test": the viewports and scissors, by
// index or with their count (extended dynamic state).
bool apply_viewport_state(uint32_t ds, const DynamicValues& dyn, Pipeline& s) {
  switch (ds) {
    case VK_DYNAMIC_STATE_VIEWPORT:
      if (dyn.viewports_set) {
        // maxViewports is at most 16 on any device: a larger count is hostile.
        s.viewports.resize(std::min(s.viewport_count, kMaxViewports));
        for (uint32_t i = 0; i < s.viewports.size() && i < dyn.viewports.size(); ++i) {
          s.viewports[i] = dyn.viewports[i];
        }
      }
      return true;
    case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT:
      if (dyn.viewports_set) {
        s.viewports = dyn.viewports;
        s.viewport_count = static_cast<uint32_t>(dyn.viewports.size());
      }
      return true;
    case VK_DYNAMIC_STATE_SCISSOR:
      if (dyn.scissors_set) {
        s.scissors.resize(std::min(s.scissor_count, kMaxViewports));
        for (uint32_t i = 0; i < s.scissors.size() && i < dyn.scissors.size(); ++i) {
          s.scissors[i] = dyn.scissors[i];
        }
      }
      return true;
    case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT:
      if (dyn.scissors_set) {
        s.scissors = dyn.scissors;
        s.scissor_count = static_cast<uint32_t>(dyn.scissors.size());
      }
      return true;
    default: return false;
  }
}

// Vulkan spec "Fixed-Function Vertex Processing" and "Drawing Commands": topology, primitive
// restart, patch size and the binding strides of vkCmdBindVertexBuffers2 (the vertex input
// state of VK_EXT_vertex_input_dynamic_state is applied before, apply_dynamic_state).
bool apply_vertex_input_state(uint32_t ds, const DynamicValues& dyn,
                              const std::map<uint32_t, VertexBufferState>& vertex_buffers, Pipeline& s) {
  switch (ds) {
    case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
      if (dyn.topology) s.topology = *dyn.topology;
      return true;
    case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE:
      if (dyn.primitive_restart) s.primitive_restart = *dyn.primitive_restart;
      return true;
    case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT:
      if (dyn.patch_control_points) s.patch_control_points = *dyn.patch_control_points;
      return true;
    case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
      for (auto& b : s.vertex_bindings) {
        auto it = vertex_buffers.find(b.binding);
        if (it != vertex_buffers.end() && it->second.stride) {
          b.stride = static_cast<uint32_t>(*it->second.stride);
        }
      }
      return true;
    case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT:
      return true;  // applied before the others
    default: return false;
  }
}

// Vulkan spec "Rasterization": discard, polygon and line modes, line width and stipple, culling,
// depth bias, depth clamp and clip, the provoking vertex.
bool apply_rasterization_state(uint32_t ds, const DynamicValues& dyn, Pipeline& s) {
  switch (ds) {
    case VK_DYNAMIC_STATE_LINE_WIDTH:
      if (dyn.line_width) s.line_width = *dyn.line_width;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_BIAS:
      if (dyn.depth_bias) {
        s.depth_bias_constant = (*dyn.depth_bias)[0];
        s.depth_bias_clamp = (*dyn.depth_bias)[1];
        s.depth_bias_slope = (*dyn.depth_bias)[2];
      }
      return true;
    case VK_DYNAMIC_STATE_CULL_MODE:
      if (dyn.cull_mode) s.cull_mode = *dyn.cull_mode;
      return true;
    case VK_DYNAMIC_STATE_FRONT_FACE:
      if (dyn.front_face) s.front_face = *dyn.front_face;
      return true;
    case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE:
      if (dyn.rasterizer_discard) s.rasterizer_discard = *dyn.rasterizer_discard;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE:
      if (dyn.depth_bias_enable) s.depth_bias_enable = *dyn.depth_bias_enable;
      return true;
    case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT:
      if (dyn.line_stipple) {
        s.line_stipple_factor = (*dyn.line_stipple)[0];
        s.line_stipple_pattern = (*dyn.line_stipple)[1];
      }
      return true;
    case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT:
      if (dyn.depth_clamp) s.depth_clamp = *dyn.depth_clamp;
      return true;
    case VK_DYNAMIC_STATE_POLYGON_MODE_EXT:
      if (dyn.polygon_mode) s.polygon_mode = *dyn.polygon_mode;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT:
      if (dyn.depth_clip) s.depth_clip = *dyn.depth_clip != 0 ? 1 : 0;
      return true;
    case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT:
      if (dyn.provoking_vertex) s.provoking_vertex = *dyn.provoking_vertex;
      return true;
    case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT:
      if (dyn.line_mode) s.line_mode = *dyn.line_mode;
      return true;
    case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT:
      if (dyn.line_stipple_enable) s.line_stipple_enable = *dyn.line_stipple_enable;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT:
      if (dyn.depth_clip_negative_one_to_one)
        s.depth_clip_negative_one_to_one = *dyn.depth_clip_negative_one_to_one;
      return true;
    default: return false;
  }
}

// Vulkan spec "Multisampling" and "Multisample Coverage": the sample count, sample mask, alpha to
// coverage and alpha to one.
bool apply_multisample_state(uint32_t ds, const DynamicValues& dyn, Pipeline& s) {
  switch (ds) {
    case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT:
      if (dyn.rasterization_samples) s.samples = *dyn.rasterization_samples;
      return true;
    case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT:
      if (dyn.sample_mask) s.sample_mask = *dyn.sample_mask;
      return true;
    case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT:
      if (dyn.alpha_to_coverage) s.alpha_to_coverage = *dyn.alpha_to_coverage;
      return true;
    case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT:
      if (dyn.alpha_to_one) s.alpha_to_one = *dyn.alpha_to_one;
      return true;
    default: return false;
  }
}

// Vulkan spec "Fragment Operations": the depth bounds, stencil and depth tests.
bool apply_depth_stencil_state(uint32_t ds, const DynamicValues& dyn, Pipeline& s) {
  switch (ds) {
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS:
      if (dyn.depth_bounds) {
        s.min_depth_bounds = (*dyn.depth_bounds)[0];
        s.max_depth_bounds = (*dyn.depth_bounds)[1];
      }
      return true;
    case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
      if (dyn.compare_mask[0]) s.stencil_front.compare_mask = *dyn.compare_mask[0];
      if (dyn.compare_mask[1]) s.stencil_back.compare_mask = *dyn.compare_mask[1];
      return true;
    case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
      if (dyn.write_mask[0]) s.stencil_front.write_mask = *dyn.write_mask[0];
      if (dyn.write_mask[1]) s.stencil_back.write_mask = *dyn.write_mask[1];
      return true;
    case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
      if (dyn.reference[0]) s.stencil_front.reference = *dyn.reference[0];
      if (dyn.reference[1]) s.stencil_back.reference = *dyn.reference[1];
      return true;
    case VK_DYNAMIC_STATE_STENCIL_OP:
      for (int f = 0; f < 2; ++f) {
        if (!dyn.stencil_op[f]) continue;
        auto& st = f == 0 ? s.stencil_front : s.stencil_back;
        st.fail_op = (*dyn.stencil_op[f])[0];
        st.pass_op = (*dyn.stencil_op[f])[1];
        st.depth_fail_op = (*dyn.stencil_op[f])[2];
        st.compare_op = (*dyn.stencil_op[f])[3];
      }
      return true;
    case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE:
      if (dyn.depth_test) s.depth_test = *dyn.depth_test;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
      if (dyn.depth_write) s.depth_write = *dyn.depth_write;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
      if (dyn.depth_compare) s.depth_compare = *dyn.depth_compare;
      return true;
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE:
      if (dyn.depth_bounds_test) s.depth_bounds_test = *dyn.depth_bounds_test;
      return true;
    case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
      if (dyn.stencil_test) s.stencil_test = *dyn.stencil_test;
      return true;
    default: return false;
  }
}

// Vulkan spec "The Framebuffer": blend constants, logic op, colour write enables, and the
// per-attachment blend state of extended dynamic state 3. That state's pipeline may have given
// no VkPipelineColorBlendStateCreateInfo at all, so the attachments are created as needed.
bool apply_colour_blend_state(uint32_t ds, const DynamicValues& dyn, Pipeline& s) {
  const auto attachment = [&s](uint32_t index) -> Pipeline::BlendAttachment& {
    if (s.blend_attachments.size() <= index) s.blend_attachments.resize(index + 1);
    return s.blend_attachments[index];
  };
  switch (ds) {
    case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
      if (dyn.blend_constants) {
        for (int i = 0; i < 4; ++i) s.blend_constants[i] = (*dyn.blend_constants)[i];
      }
      return true;
    case VK_DYNAMIC_STATE_LOGIC_OP_EXT:
      if (dyn.logic_op) s.logic_op = *dyn.logic_op;
      return true;
    case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT:
      if (dyn.logic_op_enable) s.logic_op_enable = *dyn.logic_op_enable;
      return true;
    case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
      if (dyn.color_write_enables) s.color_write_enables = *dyn.color_write_enables;
      return true;
    case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT:
      for (const auto& [i, v] : dyn.blend_enable) attachment(i).blend_enable = v;
      return true;
    case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT:
      for (const auto& [i, v] : dyn.color_write_mask) attachment(i).write_mask = v;
      return true;
    case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT:
      for (const auto& [i, e] : dyn.blend_equation) {
        auto& a = attachment(i);
        a.src_color = e[0], a.dst_color = e[1], a.color_op = e[2];
        a.src_alpha = e[3], a.dst_alpha = e[4], a.alpha_op = e[5];
      }
      return true;
    default: return false;
  }
}

}  // namespace

void apply_dynamic_state(const DynamicValues& dyn,
                         const std::map<uint32_t, VertexBufferState>& vertex_buffers,
                         cap::GraphicsPipelineRecord& s, SkipCounts& skipped) {
  const auto dynamic = [&s](uint32_t state) {
    return std::find(s.dynamic_states.begin(), s.dynamic_states.end(), state) != s.dynamic_states.end();
  };
  // Vertex input first: a dynamic binding stride (vkCmdBindVertexBuffers2) then overrides the
  // stride it gives (VK_EXT_vertex_input_dynamic_state).
  if (dynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) && dyn.vertex_input) {
    s.vertex_bindings = dyn.vertex_input->bindings;
    s.vertex_attributes = dyn.vertex_input->attributes;
  }
  for (uint32_t ds : s.dynamic_states) {
    if (apply_viewport_state(ds, dyn, s) || apply_vertex_input_state(ds, dyn, vertex_buffers, s) ||
        apply_rasterization_state(ds, dyn, s) || apply_multisample_state(ds, dyn, s) ||
        apply_depth_stencil_state(ds, dyn, s) || apply_colour_blend_state(ds, dyn, s))
      continue;
    // The other states of extended dynamic state 3 (the layer reports their features as
    // unsupported), or a capture made with extensions the layer hides.
    skipped.add("draw: dynamic state " + std::to_string(ds) + " not captured");
  }
}

void CommandWalker::begin_frame(PassRenderer* renderer, FrameResult* result) {
  renderer_ = renderer;
  result_ = result;
  stack_.clear();
  pass_.reset();
  next_draw_ = 0;
  next_dispatch_ = 0;
}

void CommandWalker::end_frame() {
  if (pass_) {
    result_->skipped.add("render pass: not ended within the frame");
    pass_.reset();
  }
}

CommandState& CommandWalker::state() {
  if (stack_.empty()) stack_.push_back(CbFrame{});  // commands with no command buffer record
  return stack_.back().state;
}

void CommandWalker::begin_render_pass(const cap::CmdBeginRenderPassRecord& rec) {
  SkipCounts& skipped = result_->skipped;
  if (pass_) {
    skipped.add("render pass: begun inside another");
    end_pass(false);
  }
  pass_.emplace();
  pass_valid_ = false;
  auto* rp = Resources::find(res_.render_passes, rec.render_pass);
  auto* fb = Resources::find(res_.framebuffers, rec.framebuffer);
  if (rp == nullptr || fb == nullptr) {
    skipped.add(rp == nullptr ? "render pass: unknown render pass"
                              : "render pass: unknown framebuffer");
    return;
  }
  // Imageless framebuffers take their views from the begin info.
  const auto& views = rec.attachments.empty() ? fb->attachments : rec.attachments;
  if (views.size() < rp->attachments.size()) {
    skipped.add("render pass: framebuffer has fewer attachments than the render pass");
    return;
  }
  RenderPassInstance& p = *pass_;
  p.limits = res_.limits;
  p.render_area = rec.render_area;
  p.layers = std::max(fb->layers, 1u);
  for (size_t i = 0; i < rp->attachments.size(); ++i) {
    const auto& a = rp->attachments[i];
    Attachment att;
    att.view = Resources::find(res_.views, views[i]);
    if (att.view == nullptr) skipped.add("render pass: unknown attachment view");
    att.format = a.format;
    att.load_op = a.load_op, att.store_op = a.store_op;
    att.stencil_load_op = a.stencil_load_op, att.stencil_store_op = a.stencil_store_op;
    if (i < rec.clear_values.size()) att.clear = rec.clear_values[i];
    p.attachments.push_back(att);
  }
  const auto index = [&](const cap::AttachmentReference& r) {
    return r.attachment < p.attachments.size() ? r.attachment : Subpass::kUnused;
  };
  for (const auto& sp : rp->subpasses) {
    Subpass s;
    for (const auto& c : sp.colors) s.colors.push_back(index(c));
    for (const auto& in : sp.inputs) s.inputs.push_back(index(in));
    if (sp.has_depth_stencil != 0) s.depth_stencil = index(sp.depth_stencil);
    // Resolve attachment j receives colour attachment j at the end of the subpass.
    for (size_t j = 0; j < sp.resolves.size() && j < sp.colors.size(); ++j) {
      const uint32_t c = index(sp.colors[j]), r = index(sp.resolves[j]);
      if (c != Subpass::kUnused && r != Subpass::kUnused) {
        // Render pass colour resolves average the samples ("Render Pass Operations"; integer
        // formats take sample 0).
        p.attachments[c].resolve = p.attachments[r].view;
        p.attachments[c].resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT;
      }
    }
    p.subpasses.push_back(std::move(s));
  }
  pass_valid_ = true;
}

void CommandWalker::begin_rendering(const cap::CmdBeginRenderingRecord& rec) {
  SkipCounts& skipped = result_->skipped;
  if (pass_) {
    skipped.add("render pass: begun inside another");
    end_pass(false);
  }
  pass_.emplace();
  RenderPassInstance& p = *pass_;
  p.limits = res_.limits;
  p.render_area = rec.render_area;
  p.layers = std::max(rec.layer_count, 1u);
  if (rec.view_mask != 0) {
    // Multiview renders each draw once per view bit; the instance carries no view mask.
    skipped.add("render pass: multiview (view mask) not replayed, views after the first lost");
  }
  Subpass s;
  const auto make = [&](const cap::RenderingAttachment& ra) {
    Attachment a;
    a.view = Resources::find(res_.views, ra.view);
    if (a.view == nullptr && ra.view != 0) skipped.add("render pass: unknown attachment view");
    if (a.view != nullptr) a.format = a.view->format;
    a.load_op = ra.load_op, a.store_op = ra.store_op;
    a.clear = ra.clear;
    if (ra.resolve_mode != 0 && ra.resolve_view != 0) {
      a.resolve = Resources::find(res_.views, ra.resolve_view);
      if (a.resolve == nullptr) skipped.add("render pass: unknown resolve view");
      a.resolve_mode = ra.resolve_mode;
    }
    return a;
  };
  for (const auto& c : rec.colors) {
    Attachment a = make(c);
    s.colors.push_back(a.view != nullptr ? static_cast<uint32_t>(p.attachments.size())
                                         : Subpass::kUnused);
    p.attachments.push_back(a);
  }
  const bool depth = rec.has_depth != 0 && rec.depth.view != 0;
  const bool stencil = rec.has_stencil != 0 && rec.stencil.view != 0;
  if (depth || stencil) {
    // One depth/stencil attachment; an aspect the begin info leaves out is neither loaded nor
    // stored by the pass (its contents are preserved: LOAD / STORE).
    Attachment a = make(depth ? rec.depth : rec.stencil);
    a.load_op = depth ? rec.depth.load_op : uint32_t{VK_ATTACHMENT_LOAD_OP_LOAD};
    a.store_op = depth ? rec.depth.store_op : uint32_t{VK_ATTACHMENT_STORE_OP_STORE};
    a.stencil_load_op = stencil ? rec.stencil.load_op : uint32_t{VK_ATTACHMENT_LOAD_OP_LOAD};
    a.stencil_store_op = stencil ? rec.stencil.store_op : uint32_t{VK_ATTACHMENT_STORE_OP_STORE};
    a.clear.words[0] = depth ? rec.depth.clear.words[0] : 0;
    a.clear.words[1] = stencil ? rec.stencil.clear.words[1] : 0;
    // Depth and stencil resolve separately (VkRenderingAttachmentInfo::resolveMode of each).
    a.resolve_mode = depth && rec.depth.resolve_view != 0 ? rec.depth.resolve_mode : 0;
    a.stencil_resolve_mode = stencil && rec.stencil.resolve_view != 0 ? rec.stencil.resolve_mode : 0;
    if (a.resolve == nullptr && stencil && rec.stencil.resolve_mode != 0 && rec.stencil.resolve_view != 0) {
      a.resolve = Resources::find(res_.views, rec.stencil.resolve_view);
      if (a.resolve == nullptr) skipped.add("render pass: unknown resolve view");
    }
    if (depth && stencil && rec.stencil.view != rec.depth.view) {
      skipped.add("render pass: separate depth and stencil views (stencil view not used)");
    }
    s.depth_stencil = static_cast<uint32_t>(p.attachments.size());
    p.attachments.push_back(a);
  }
  p.subpasses.push_back(std::move(s));
  pass_valid_ = true;
}

void CommandWalker::end_pass(bool counted) {
  // Every vkCmdEnd* ends an instance the capture layer numbers (RenderPassContentsRecord::pass),
  // rebuilt or not: each takes the next number, so the numbers agree after one dropped here.
  const uint32_t instance = result_->instances;
  if (counted) ++result_->instances;
  if (!pass_) {
    result_->skipped.add("render pass: end without a begin");
    if (counted) result_->not_replayed.push_back(instance);
    return;
  }
  pass_->instance = instance;
  if (pass_valid_) {
    pass_->index = result_->passes++;
    renderer_->render_pass(*pass_, result_->skipped);
    for (uint32_t c : pass_->subpasses.empty() ? std::vector<uint32_t>{} : pass_->subpasses.back().colors) {
      if (c == Subpass::kUnused) continue;
      const Attachment& a = pass_->attachments[c];
      const ImageView* v = a.resolve != nullptr ? a.resolve : a.view;
      if (v != nullptr && v->image != nullptr) {
        result_->last_color_target = v->image->handle;
        result_->last_color_mip = v->range.base_mip;
        result_->last_color_layer = v->range.base_layer;
      }
      break;
    }
  } else {
    // Its draws were counted as skipped when they were recorded.
    result_->skipped.add("render pass: instance not replayed");
    result_->not_replayed.push_back(instance);
  }
  pass_.reset();
}

void CommandWalker::bind_descriptor_sets(const cap::CmdBindDescriptorSetsRecord& rec) {
  const bool compute = rec.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE;
  if (!compute && rec.bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS) return;  // ray tracing: no pipelines
  CommandState& st = state();
  std::map<uint32_t, BoundSet>& sets = compute ? st.compute_sets : st.sets;
  size_t next_offset = 0;
  for (size_t i = 0; i < rec.sets.size(); ++i) {
    BoundSet b;
    b.set = rec.sets[i];
    // Dynamic offsets are consumed in set order, then binding-number order, then array
    // element order (vkCmdBindDescriptorSets, pDynamicOffsets).
    if (const DescriptorSetState* set = Resources::find(res_.sets, b.set)) {
      for (const auto& [binding, entry] : set->bindings) {
        if (!is_dynamic_buffer(entry.type)) continue;
        for (size_t e = 0; e < entry.slots.size(); ++e) {
          b.dynamic_offsets.push_back(next_offset < rec.dynamic_offsets.size()
                                          ? rec.dynamic_offsets[next_offset]
                                          : 0);
          ++next_offset;
        }
      }
    } else if (b.set != 0) {
      result_->skipped.add("bind descriptor sets: unknown descriptor set");
    }
    sets[rec.first_set + static_cast<uint32_t>(i)] = std::move(b);
  }
  if (next_offset > rec.dynamic_offsets.size()) {
    result_->skipped.add("bind descriptor sets: fewer dynamic offsets than dynamic descriptors");
  }
}

void CommandWalker::push_descriptors(const cap::CmdPushDescriptorSetRecord& rec) {
  const bool compute = rec.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE;
  if (!compute && rec.bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS) return;
  CommandState& st = state();
  auto* layout = Resources::find(res_.pipeline_layouts, rec.layout);
  const cap::DescriptorSetLayoutRecord* set_layout =
      layout != nullptr && rec.set < layout->set_layouts.size()
          ? Resources::find(res_.set_layouts, layout->set_layouts[rec.set])
          : nullptr;
  if (set_layout == nullptr) {
    result_->skipped.add("push descriptor set: unknown pipeline or set layout");
    return;
  }
  DescriptorSetState& set = (compute ? st.compute_push_sets : st.push_sets)[rec.set];
  if ((set.layout != set_layout->layout || set.bindings.empty()) &&
      !Resources::init_set(set, *set_layout)) {
    result_->skipped.add("push descriptor set: binding beyond 16384 elements (cut)");
  }
  for (const auto& w : rec.writes) res_.write_descriptors(set, w, result_->skipped);
  BoundSet b;
  b.push = true;
  (compute ? st.compute_sets : st.sets)[rec.set] = b;
}

void CommandWalker::set_dynamic(const cap::CmdSetDynamicStateRecord& rec) {
  DynamicValues& d = state().dynamic;
  const auto& w = rec.words;
  const auto need = [&](size_t n) {
    if (w.size() >= n) return true;
    result_->skipped.add("dynamic state " + std::to_string(rec.state) + ": too few values");
    return false;
  };
  switch (rec.state) {
    case VK_DYNAMIC_STATE_LINE_WIDTH:
      if (need(1)) d.line_width = as_float(w[0]);
      break;
    case VK_DYNAMIC_STATE_DEPTH_BIAS:
      if (need(3)) d.depth_bias = {as_float(w[0]), as_float(w[1]), as_float(w[2])};
      break;
    case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
      if (need(4)) d.blend_constants = {as_float(w[0]), as_float(w[1]), as_float(w[2]), as_float(w[3])};
      break;
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS:
      if (need(2)) d.depth_bounds = {as_float(w[0]), as_float(w[1])};
      break;
    case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
      if (need(2)) for_faces(w[0], [&](int f) { d.compare_mask[f] = w[1]; });
      break;
    case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
      if (need(2)) for_faces(w[0], [&](int f) { d.write_mask[f] = w[1]; });
      break;
    case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
      if (need(2)) for_faces(w[0], [&](int f) { d.reference[f] = w[1]; });
      break;
    case VK_DYNAMIC_STATE_STENCIL_OP:
      if (need(5)) for_faces(w[0], [&](int f) { d.stencil_op[f] = {w[1], w[2], w[3], w[4]}; });
      break;
    case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT:
      if (need(2)) d.line_stipple = {w[0], w[1]};
      break;
    case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
      d.color_write_enables.emplace(w.begin(), w.begin() + std::min<size_t>(w.size(), kMaxColorAttachments));
      break;
    case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT:
      // {samples, mask words...}: the renderer keeps at most 32 samples, word 0.
      if (need(2)) d.sample_mask = w[1];
      break;
    case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT:
    case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT:
    case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT: {
      // {firstAttachment, values...}, six values per attachment for the equation.
      if (!need(1)) break;
      const size_t per = rec.state == VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT ? 6 : 1;
      const size_t count = (w.size() - 1) / per;
      if (w[0] >= kMaxColorAttachments || count > kMaxColorAttachments - w[0]) {
        result_->skipped.add("dynamic state " + std::to_string(rec.state) + ": attachment out of range");
        break;
      }
      for (size_t i = 0; i < count; ++i) {
        const uint32_t a = w[0] + static_cast<uint32_t>(i);
        const uint32_t* v = w.data() + 1 + i * per;
        if (rec.state == VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) d.blend_enable[a] = v[0];
        else if (rec.state == VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT) d.color_write_mask[a] = v[0];
        else d.blend_equation[a] = {v[0], v[1], v[2], v[3], v[4], v[5]};
      }
      break;
    }
    default: {
      std::optional<uint32_t>* one = nullptr;
      switch (rec.state) {
        case VK_DYNAMIC_STATE_CULL_MODE: one = &d.cull_mode; break;
        case VK_DYNAMIC_STATE_FRONT_FACE: one = &d.front_face; break;
        case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY: one = &d.topology; break;
        case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE: one = &d.depth_test; break;
        case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: one = &d.depth_write; break;
        case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP: one = &d.depth_compare; break;
        case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE: one = &d.depth_bounds_test; break;
        case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE: one = &d.stencil_test; break;
        case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE: one = &d.rasterizer_discard; break;
        case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE: one = &d.depth_bias_enable; break;
        case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE: one = &d.primitive_restart; break;
        case VK_DYNAMIC_STATE_LOGIC_OP_EXT: one = &d.logic_op; break;
        case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT: one = &d.patch_control_points; break;
        case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT: one = &d.depth_clamp; break;
        case VK_DYNAMIC_STATE_POLYGON_MODE_EXT: one = &d.polygon_mode; break;
        case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT: one = &d.rasterization_samples; break;
        case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT: one = &d.alpha_to_coverage; break;
        case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT: one = &d.alpha_to_one; break;
        case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT: one = &d.logic_op_enable; break;
        case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT: one = &d.depth_clip; break;
        case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT: one = &d.provoking_vertex; break;
        case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT: one = &d.line_mode; break;
        case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT: one = &d.line_stipple_enable; break;
        case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT:
          one = &d.depth_clip_negative_one_to_one;
          break;
        default:
          result_->skipped.add("dynamic state " + std::to_string(rec.state) + ": not supported");
          return;
      }
      if (need(1)) *one = w[0];
    }
  }
}

// One descriptor (Vulkan spec "Descriptor Types"): the sampler, image view or buffer range it
// names; `sampler` is the written or immutable sampler, `dynamic_offset` a dynamic buffer's.
DescriptorElement CommandWalker::resolve_element(uint32_t type, const DescriptorSlot& slot, uint64_t sampler,
                                                 uint64_t dynamic_offset) {
  SkipCounts& skipped = result_->skipped;
  DescriptorElement el;
  switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: {
      el.sampler = Resources::find(res_.samplers, sampler);
      if (el.sampler == nullptr && sampler != 0) skipped.add("descriptor: unknown sampler");
      if (type == VK_DESCRIPTOR_TYPE_SAMPLER) break;
      [[fallthrough]];
    }
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      el.view = Resources::find(res_.views, slot.view);
      if (el.view == nullptr && slot.view != 0) skipped.add("descriptor: unknown image view");
      break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
      const auto* bv = Resources::find(res_.buffer_views, slot.texel_view);
      if (bv == nullptr) {
        if (slot.texel_view != 0) skipped.add("descriptor: unknown buffer view");
        break;
      }
      el.buffer = Resources::find(res_.buffers, bv->buffer);
      if (el.buffer == nullptr) {
        skipped.add("descriptor: unknown buffer");
        break;
      }
      el.offset = bv->offset;
      el.range = bv->range == VK_WHOLE_SIZE
                     ? (el.buffer->size > bv->offset ? el.buffer->size - bv->offset : 0)
                     : bv->range;
      el.format = bv->format;
      break;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
      el.buffer = Resources::find(res_.buffers, slot.buffer);
      if (el.buffer == nullptr) {
        if (slot.buffer != 0) skipped.add("descriptor: unknown buffer");
        break;
      }
      // VK_WHOLE_SIZE: the buffer's size minus the written offset, taken at update time;
      // the dynamic offset then moves the window, clamped to the buffer.
      uint64_t range = slot.range == VK_WHOLE_SIZE
                           ? (el.buffer->size > slot.offset ? el.buffer->size - slot.offset : 0)
                           : slot.range;
      el.offset = slot.offset + dynamic_offset;
      if (el.offset >= el.buffer->size) {
        range = 0;
      } else {
        range = std::min(range, el.buffer->size - el.offset);
      }
      el.range = range;
      break;
    }
    default:
      if (slot.written) {
        skipped.add("descriptor: type " + std::to_string(type) + " not supported");
      }
      break;
  }
  return el;
}

void CommandWalker::resolve_descriptors(const cap::PipelineLayoutRecord& layout,
                                        const std::map<uint32_t, BoundSet>& sets,
                                        const std::map<uint32_t, DescriptorSetState>& push_sets,
                                        std::vector<DescriptorBinding>* out_bindings) {
  for (uint32_t s = 0; s < layout.set_layouts.size(); ++s) {
    auto bound = sets.find(s);
    if (bound == sets.end()) continue;  // not bound: the shaders must not use it
    const DescriptorSetState* set = nullptr;
    if (bound->second.push) {
      auto it = push_sets.find(s);
      if (it != push_sets.end()) set = &it->second;
    } else {
      set = Resources::find(res_.sets, bound->second.set);
    }
    if (set == nullptr) continue;  // counted when bound
    const auto* set_layout = Resources::find(res_.set_layouts, set->layout);
    size_t next_dynamic = 0;
    for (const auto& [binding, entry] : set->bindings) {
      DescriptorBinding out;
      out.set = s;
      out.binding = binding;
      out.type = entry.type;
      const std::vector<uint64_t>* immutable = nullptr;
      if (set_layout != nullptr) {
        for (const auto& lb : set_layout->bindings) {
          if (lb.binding == binding && !lb.immutable_samplers.empty()) {
            immutable = &lb.immutable_samplers;
          }
        }
      }
      for (size_t e = 0; e < entry.slots.size(); ++e) {
        const DescriptorSlot& slot = entry.slots[e];
        // Immutable samplers take the place of written ones (VkDescriptorSetLayoutBinding).
        const uint64_t sampler = immutable != nullptr && e < immutable->size() ? (*immutable)[e] : slot.sampler;
        // Dynamic buffers take the set's dynamic offsets in binding order.
        uint64_t dynamic_offset = 0;
        if (is_dynamic_buffer(entry.type)) {
          const auto& offs = bound->second.dynamic_offsets;
          dynamic_offset = next_dynamic < offs.size() ? offs[next_dynamic] : 0;
          ++next_dynamic;
        }
        out.elements.push_back(resolve_element(entry.type, slot, sampler, dynamic_offset));
      }
      out_bindings->push_back(std::move(out));
    }
  }
}

bool CommandWalker::build_draw(Draw* draw) {
  SkipCounts& skipped = result_->skipped;
  CommandState& st = state();
  if (!pass_) {
    skipped.add("draw: outside a render pass");
    return false;
  }
  if (!pass_valid_) {
    skipped.add("draw: in a render pass that could not be rebuilt");
    return false;
  }
  const auto* pipeline = Resources::find(res_.pipelines, st.pipeline);
  if (pipeline == nullptr) {
    skipped.add(st.pipeline == 0 ? "draw: no graphics pipeline bound"
                                 : "draw: unknown graphics pipeline");
    return false;
  }
  draw->state = *pipeline;
  apply_dynamic_state(st.dynamic, st.vertex_buffers, draw->state, skipped);
  // Stages in pipeline order: vertex first, fragment last (VkShaderStageFlagBits order).
  std::vector<const cap::ShaderStage*> stages;
  for (const auto& s : pipeline->stages) stages.push_back(&s);
  std::sort(stages.begin(), stages.end(),
            [](const auto* a, const auto* b) { return a->stage < b->stage; });
  for (const auto* s : stages) {
    ShaderStageCode code;
    if (!stage_code(*s, &code)) return false;
    draw->stages.push_back(std::move(code));
  }
  for (const auto& b : draw->state.vertex_bindings) {
    VertexBufferBinding vb;
    vb.binding = b.binding;
    auto it = st.vertex_buffers.find(b.binding);
    if (it != st.vertex_buffers.end()) {
      vb.buffer = Resources::find(res_.buffers, it->second.buffer);
      if (vb.buffer == nullptr && it->second.buffer != 0) {
        skipped.add("draw: unknown vertex buffer");
      }
      vb.offset = it->second.offset;
      if (vb.buffer != nullptr) {
        const uint64_t avail = vb.buffer->size > vb.offset ? vb.buffer->size - vb.offset : 0;
        vb.size = it->second.size == VK_WHOLE_SIZE ? avail : std::min(it->second.size, avail);
      }
    }
    draw->vertex_buffers.push_back(vb);
  }
  if (const auto* layout = Resources::find(res_.pipeline_layouts, pipeline->layout)) {
    resolve_descriptors(*layout, st.sets, st.push_sets, &draw->descriptors);
    draw->push_constants = push_constants(*layout, "draw");
  } else if (pipeline->layout != 0) {
    skipped.add("draw: unknown pipeline layout (no descriptors or push constants)");
  }
  return true;
}

bool CommandWalker::stage_code(const cap::ShaderStage& s, ShaderStageCode* code) {
  SkipCounts& skipped = result_->skipped;
  code->stage = s.stage;
  code->hash = s.code;
  if (code->hash.is_zero()) {
    auto it = res_.shader_modules.find(s.module);
    if (it != res_.shader_modules.end()) code->hash = it->second.code;
  }
  const std::string what = s.stage == VK_SHADER_STAGE_COMPUTE_BIT ? "dispatch: " : "draw: ";
  std::string problem;
  code->spirv = res_.spirv(code->hash, &problem);
  if (!code->spirv) {
    skipped.add(what + "shader code missing");
    return false;
  }
  code->entry_point = s.entry_point;
  for (const auto& e : s.specialization) {
    const auto& data = s.specialization_data;
    if (e.offset > data.size() || e.size > data.size() - e.offset ||
        (e.size != 1 && e.size != 2 && e.size != 4 && e.size != 8)) {
      skipped.add(what + "specialization constant outside its data");
      continue;
    }
    // Booleans and 8/16-bit constants widen to 32 bits; 64-bit ones keep their low word.
    uint64_t v = 0;
    std::memcpy(&v, data.data() + e.offset, std::min<uint32_t>(e.size, 8));
    code->specialization.emplace_back(e.constant_id, static_cast<uint32_t>(v));
  }
  return true;
}

std::vector<uint8_t> CommandWalker::push_constants(const cap::PipelineLayoutRecord& layout, const char* what) {
  const CommandState& st = state();
  uint64_t end = 0;
  for (const auto& r : layout.push_ranges) end = std::max(end, uint64_t{r.offset} + r.size);
  if (end > kMaxPushConstantBytes) {
    result_->skipped.add(std::string(what) + ": push constant range beyond 64 KiB (truncated)");
    end = kMaxPushConstantBytes;
  }
  std::vector<uint8_t> out(static_cast<size_t>(end), 0);
  std::copy_n(st.push_constants.begin(), std::min<size_t>(end, st.push_constants.size()), out.begin());
  return out;
}

void CommandWalker::dispatch(const uint32_t base[3], const uint32_t count[3]) {
  SkipCounts& skipped = result_->skipped;
  CommandState& st = state();
  // vkCmdDispatch* "must not be called inside a render pass instance".
  if (pass_) {
    skipped.add("dispatch: inside a render pass (not replayed)");
    return;
  }
  const auto* pipeline = Resources::find(res_.compute_pipelines, st.compute_pipeline);
  if (pipeline == nullptr) {
    skipped.add(st.compute_pipeline == 0 ? "dispatch: no compute pipeline bound" : "dispatch: unknown compute pipeline");
    return;
  }
  Dispatch d;
  if (!stage_code(pipeline->stage, &d.stage)) return;
  if (const auto* layout = Resources::find(res_.pipeline_layouts, pipeline->layout)) {
    resolve_descriptors(*layout, st.compute_sets, st.compute_push_sets, &d.descriptors);
    d.push_constants = push_constants(*layout, "dispatch");
  } else if (pipeline->layout != 0) {
    skipped.add("dispatch: unknown pipeline layout (no descriptors or push constants)");
  }
  for (int k = 0; k < 3; ++k) {
    d.base[k] = base[k];
    d.group_count[k] = count[k];
  }
  d.index = next_dispatch_++;
  ++result_->dispatches;
  renderer_->dispatch(d, skipped);
}

void CommandWalker::dispatch_indirect(const cap::CmdDispatchRecord& rec) {
  // VkDispatchIndirectCommand {x, y, z} read from the buffer where the command executes.
  const Buffer* buf = Resources::find(res_.buffers, rec.indirect_buffer);
  if (buf == nullptr || !res_.known(buf->memory)) {
    result_->skipped.add("dispatch: indirect buffer contents not captured");
    return;
  }
  const auto bytes = buf->bytes();
  if (rec.indirect_offset > bytes.size() || bytes.size() - rec.indirect_offset < 12) {
    result_->skipped.add("dispatch: indirect command beyond its buffer");
    return;
  }
  uint32_t count[3];
  std::memcpy(count, bytes.data() + rec.indirect_offset, 12);
  const uint32_t base[3] = {0, 0, 0};
  dispatch(base, count);
}

void CommandWalker::emit_draw(Draw&& draw) {
  CommandState& st = state();
  if (draw.indexed) {
    draw.index_buffer = Resources::find(res_.buffers, st.index_buffer);
    draw.index_offset = st.index_offset;
    draw.index_type = st.index_type;
    if (draw.index_buffer == nullptr) {
      result_->skipped.add(st.index_buffer == 0 ? "draw: no index buffer bound"
                                                : "draw: unknown index buffer");
      return;
    }
  }
  draw.index = next_draw_++;
  ++result_->draws;
  pass_->commands.emplace_back(std::move(draw));
}

void CommandWalker::draw_indirect(const cap::CmdDrawIndirectRecord& rec) {
  SkipCounts& skipped = result_->skipped;
  if (rec.count_buffer == 0 && rec.draw_count == 0) return;  // draws nothing
  const Buffer* buf = Resources::find(res_.buffers, rec.buffer);
  if (buf == nullptr || !res_.known(buf->memory)) {
    skipped.add("draw: indirect buffer contents not captured", std::max(rec.draw_count, 1u));
    return;
  }
  uint32_t count = rec.draw_count;
  if (rec.count_buffer != 0) {
    // vkCmdDraw*IndirectCount: the count is read from the count buffer, at most maxDrawCount.
    const Buffer* cb = Resources::find(res_.buffers, rec.count_buffer);
    if (cb == nullptr || !res_.known(cb->memory) || rec.count_offset > cb->bytes().size() ||
        cb->bytes().size() - rec.count_offset < 4) {
      skipped.add("draw: indirect count buffer contents not captured", std::max(count, 1u));
      return;
    }
    uint32_t n;
    std::memcpy(&n, cb->bytes().data() + rec.count_offset, 4);
    count = std::min(count, n);
  }
  const uint64_t size = rec.indexed != 0 ? 20 : 16;  // VkDraw[Indexed]IndirectCommand
  if (count > 1 && rec.stride < size) {
    skipped.add("draw: indirect stride smaller than a command", count);
    return;
  }
  if (count > kMaxIndirectDraws) {
    skipped.add("draw: indirect draws beyond 65536 in one command", count - kMaxIndirectDraws);
    count = kMaxIndirectDraws;
  }
  Draw base;
  if (!build_draw(&base)) {
    if (count > 1) skipped.add("draw: indirect draws after the first not built", count - 1);
    return;
  }
  const auto bytes = buf->bytes();
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t off = rec.offset + uint64_t{i} * rec.stride;
    if (off > bytes.size() || bytes.size() - off < size) {
      skipped.add("draw: indirect command beyond its buffer", count - i);
      return;
    }
    uint32_t w[5] = {};
    std::memcpy(w, bytes.data() + off, static_cast<size_t>(size));
    Draw d = base;
    d.indexed = rec.indexed != 0;
    d.vertex_count = w[0];
    d.instance_count = w[1];
    d.first_vertex = w[2];
    if (d.indexed) {
      std::memcpy(&d.vertex_offset, &w[3], 4);
      d.first_instance = w[4];
    } else {
      d.first_instance = w[3];
    }
    emit_draw(std::move(d));
  }
}

bool CommandWalker::command(uint32_t kind, std::span<const std::byte> body, std::string* error) {
  using K = cap::VkRecordKind;
  if (kind == static_cast<uint32_t>(K::kSubmit) || kind == static_cast<uint32_t>(K::kCommandBuffer)) {
    return command_buffer_record(static_cast<K>(kind), body, error);
  }
  state();  // a command buffer frame exists from here on
  const auto k = static_cast<K>(kind);
  std::optional<bool> ok = render_pass_command(k, body, error);
  if (!ok) ok = binding_command(k, body, error);
  if (!ok) ok = drawing_command(k, body, error);
  if (!ok) ok = dynamic_state_command(k, body, error);
  if (!ok) ok = transfer_command(k, body, error);
  if (!ok) {
    const char* name = cap::record_kind_name(kind);
    result_->skipped.add(std::string("command: ") + (name != nullptr ? name : "unknown kind ") +
                         (name != nullptr ? "" : std::to_string(kind)) + " not supported");
    ok = true;
  }
  if (!*ok) return false;
  // One command of the innermost command buffer done; secondaries end with their last command.
  if (!stack_.empty()) {
    if (stack_.back().remaining > 0) --stack_.back().remaining;
    while (stack_.size() > 1 && stack_.back().secondary && stack_.back().remaining == 0) {
      stack_.pop_back();
    }
  }
  return true;
}

// A submission, or the start of a command buffer's records: a primary one starts from no state;
// a secondary one (vkCmdExecuteCommands, its records inline) runs on a fresh state of its own
// until its last command.
bool CommandWalker::command_buffer_record(cap::VkRecordKind kind, std::span<const std::byte> body, std::string* error) {
  if (kind == cap::VkRecordKind::kSubmit) {
    cap::SubmitRecord r;
    return decode_into(body, &r, error);
  }
  cap::CommandBufferRecord r;
  if (!decode_into(body, &r, error)) return false;
  if (r.level == VK_COMMAND_BUFFER_LEVEL_PRIMARY) stack_.clear();
  CbFrame f;
  f.remaining = r.command_count;
  f.secondary = r.level != VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  stack_.push_back(std::move(f));
  while (stack_.size() > 1 && stack_.back().secondary && stack_.back().remaining == 0) {
    stack_.pop_back();
  }
  return true;
}

// Vulkan spec "Render Pass": render pass instances begun, advanced and ended (render pass objects
// and dynamic rendering).
std::optional<bool> CommandWalker::render_pass_command(cap::VkRecordKind kind, std::span<const std::byte> body,
                                                       std::string* error) {
  using K = cap::VkRecordKind;
  switch (kind) {
    case K::kCmdBeginRenderPass:
      return with_record<cap::CmdBeginRenderPassRecord>(body, error, [&](auto& r) { begin_render_pass(r); });
    case K::kCmdNextSubpass:
      return with_record<cap::CmdNextSubpassRecord>(body, error, [&](auto&) {
        if (pass_) {
          pass_->commands.emplace_back(NextSubpass{});
        } else {
          result_->skipped.add("next subpass: outside a render pass");
        }
      });
    case K::kCmdEndRenderPass:
    case K::kCmdEndRendering:
      end_pass();
      return true;
    case K::kCmdBeginRendering:
      return with_record<cap::CmdBeginRenderingRecord>(body, error, [&](auto& r) { begin_rendering(r); });
    default: return std::nullopt;
  }
}

// What a draw or dispatch reads, bound to the command buffer: pipelines (spec "Pipeline
// Binding"), descriptor sets and push descriptors (spec "Descriptor Set Binding", "Push
// Descriptor Updates"), push constants (spec "Push Constant Updates"), vertex and index buffers
// (spec "Vertex Input Description", "Drawing Commands").
std::optional<bool> CommandWalker::binding_command(cap::VkRecordKind kind, std::span<const std::byte> body,
                                                   std::string* error) {
  using K = cap::VkRecordKind;
  switch (kind) {
    case K::kCmdBindPipeline:
      return with_record<cap::CmdBindPipelineRecord>(body, error, [&](auto& r) {
        if (r.bind_point == VK_PIPELINE_BIND_POINT_GRAPHICS) state().pipeline = r.pipeline;
        if (r.bind_point == VK_PIPELINE_BIND_POINT_COMPUTE) state().compute_pipeline = r.pipeline;
      });
    case K::kCmdBindDescriptorSets:
      return with_record<cap::CmdBindDescriptorSetsRecord>(body, error, [&](auto& r) { bind_descriptor_sets(r); });
    case K::kCmdPushDescriptorSet:
      return with_record<cap::CmdPushDescriptorSetRecord>(body, error, [&](auto& r) { push_descriptors(r); });
    case K::kCmdPushConstants:
      return with_record<cap::CmdPushConstantsRecord>(body, error, [&](auto& r) {
        auto& pc = state().push_constants;
        // Push constant ranges are at most maxPushConstantsSize (a few hundred bytes).
        if (r.offset > kMaxPushConstantBytes || r.data.size() > kMaxPushConstantBytes) {
          result_->skipped.add("push constants: range out of bounds");
          return;
        }
        if (pc.size() < r.offset + r.data.size()) pc.resize(r.offset + r.data.size(), 0);
        std::copy(r.data.begin(), r.data.end(), pc.begin() + r.offset);
      });
    case K::kCmdBindVertexBuffers:
      return with_record<cap::CmdBindVertexBuffersRecord>(body, error, [&](auto& r) {
        auto& vbs = state().vertex_buffers;
        for (size_t i = 0; i < r.buffers.size(); ++i) {
          VertexBufferState v;
          v.buffer = r.buffers[i];
          v.offset = i < r.offsets.size() ? r.offsets[i] : 0;
          if (i < r.sizes.size()) v.size = r.sizes[i];
          if (i < r.strides.size()) v.stride = r.strides[i];
          vbs[r.first_binding + static_cast<uint32_t>(i)] = v;
        }
      });
    case K::kCmdBindIndexBuffer:
      return with_record<cap::CmdBindIndexBufferRecord>(body, error, [&](auto& r) {
        state().index_buffer = r.buffer;
        state().index_offset = r.offset;
        state().index_type = r.index_type;
      });
    default: return std::nullopt;
  }
}

// Vulkan spec "Drawing Commands" and "Dispatching Commands".
std::optional<bool> CommandWalker::drawing_command(cap::VkRecordKind kind, std::span<const std::byte> body,
                                                   std::string* error) {
  using K = cap::VkRecordKind;
  switch (kind) {
    case K::kCmdDraw:
      return with_record<cap::CmdDrawRecord>(body, error, [&](auto& r) {
        Draw d;
        if (!build_draw(&d)) return;
        d.vertex_count = r.vertex_count;
        d.instance_count = r.instance_count;
        d.first_vertex = r.first_vertex;
        d.first_instance = r.first_instance;
        emit_draw(std::move(d));
      });
    case K::kCmdDrawIndexed:
      return with_record<cap::CmdDrawIndexedRecord>(body, error, [&](auto& r) {
        Draw d;
        if (!build_draw(&d)) return;
        d.indexed = true;
        d.vertex_count = r.index_count;
        d.instance_count = r.instance_count;
        d.first_vertex = r.first_index;
        d.vertex_offset = r.vertex_offset;
        d.first_instance = r.first_instance;
        emit_draw(std::move(d));
      });
    case K::kCmdDrawIndirect:
      return with_record<cap::CmdDrawIndirectRecord>(body, error, [&](auto& r) { draw_indirect(r); });
    case K::kCmdDispatch:
      return with_record<cap::CmdDispatchRecord>(body, error, [&](auto& r) {
        const uint32_t base[3] = {0, 0, 0}, count[3] = {r.x, r.y, r.z};
        if (r.indirect_buffer != 0) dispatch_indirect(r);
        else dispatch(base, count);
      });
    case K::kCmdDispatchBase:
      return with_record<cap::CmdDispatchBaseRecord>(body, error, [&](auto& r) {
        const uint32_t base[3] = {r.base_x, r.base_y, r.base_z}, count[3] = {r.x, r.y, r.z};
        dispatch(base, count);
      });
    default: return std::nullopt;
  }
}

// Dynamic state commands (spec "Dynamic State"): values kept for the draws whose pipelines
// declare the state dynamic (apply_dynamic_state).
std::optional<bool> CommandWalker::dynamic_state_command(cap::VkRecordKind kind, std::span<const std::byte> body,
                                                         std::string* error) {
  using K = cap::VkRecordKind;
  switch (kind) {
    case K::kCmdSetViewport:
      return with_record<cap::CmdSetViewportRecord>(body, error, [&](auto& r) {
        auto& d = state().dynamic;
        if (r.with_count != 0) {
          d.viewports = r.viewports;
          d.viewport_with_count = true;
        } else if (r.first < kMaxViewports && r.viewports.size() <= kMaxViewports) {
          if (d.viewports.size() < r.first + r.viewports.size()) {
            d.viewports.resize(r.first + r.viewports.size());
          }
          std::copy(r.viewports.begin(), r.viewports.end(), d.viewports.begin() + r.first);
        } else {
          result_->skipped.add("set viewport: index out of range");
          return;
        }
        d.viewports_set = true;
      });
    case K::kCmdSetScissor:
      return with_record<cap::CmdSetScissorRecord>(body, error, [&](auto& r) {
        auto& d = state().dynamic;
        if (r.with_count != 0) {
          d.scissors = r.scissors;
          d.scissor_with_count = true;
        } else if (r.first < kMaxViewports && r.scissors.size() <= kMaxViewports) {
          if (d.scissors.size() < r.first + r.scissors.size()) {
            d.scissors.resize(r.first + r.scissors.size());
          }
          std::copy(r.scissors.begin(), r.scissors.end(), d.scissors.begin() + r.first);
        } else {
          result_->skipped.add("set scissor: index out of range");
          return;
        }
        d.scissors_set = true;
      });
    case K::kCmdSetDynamicState:
      return with_record<cap::CmdSetDynamicStateRecord>(body, error, [&](auto& r) { set_dynamic(r); });
    case K::kCmdSetVertexInput:
      return with_record<cap::CmdSetVertexInputRecord>(
          body, error, [&](auto& r) { state().dynamic.vertex_input = std::move(r); });
    default: return std::nullopt;
  }
}

// Vulkan spec "Clear Commands" and "Copy Commands", and the synchronisation commands that need
// nothing here.
std::optional<bool> CommandWalker::transfer_command(cap::VkRecordKind kind, std::span<const std::byte> body,
                                                    std::string* error) {
  using K = cap::VkRecordKind;
  SkipCounts& skipped = result_->skipped;
  switch (kind) {
    case K::kCmdClearAttachments:
      return with_record<cap::CmdClearAttachmentsRecord>(body, error, [&](auto& r) {
        if (pass_ && pass_valid_) {
          pass_->commands.emplace_back(ClearAttachments{std::move(r)});
        } else {
          skipped.add("clear attachments: outside a replayable render pass");
        }
      });
    case K::kCmdClearImage:
      return with_record<cap::CmdClearImageRecord>(body, error, [&](auto& r) {
        execute_clear_image(res_, r, skipped);
        ++result_->transfers;
      });
    case K::kCmdCopy:
      return with_record<cap::CmdCopyRecord>(body, error, [&](auto& r) {
        execute_copy(res_, r, skipped);
        ++result_->transfers;
      });
    case K::kCmdUpdateBuffer:
      return with_record<cap::CmdUpdateBufferRecord>(body, error, [&](auto& r) {
        execute_update_buffer(res_, r, skipped);
        ++result_->transfers;
      });
    case K::kCmdFillBuffer:
      return with_record<cap::CmdFillBufferRecord>(body, error, [&](auto& r) {
        execute_fill_buffer(res_, r, skipped);
        ++result_->transfers;
      });
    case K::kCmdPipelineBarrier:
      // Execution is in order and layouts do not change how images are held here.
      return true;
    case K::kCmdExecuteCommands:
      // The secondaries' records follow inline, each after its own command buffer record.
      return true;
    default: return std::nullopt;
  }
}

}  // namespace tessera::frontend
