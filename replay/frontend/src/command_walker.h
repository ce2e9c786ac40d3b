// Walks a frame's command records in execution order: tracks the state a draw depends on
// (bound pipeline, descriptor sets with dynamic offsets, push descriptors, push constants,
// vertex and index buffers, dynamic state), builds render pass instances, executes transfer
// commands, and hands each finished pass to the renderer.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "resources.h"
#include "tessera/frontend/replay.h"

namespace tessera::frontend {

// The values of dynamic state commands seen so far in a command buffer ("Dynamic State" in the
// Vulkan spec's pipeline chapter). Applied to a draw only for the states its pipeline declares
// dynamic; the others keep the pipeline's static values.
struct DynamicValues {
  std::vector<capture::Viewport> viewports;
  bool viewports_set = false, viewport_with_count = false;
  std::vector<capture::Rect2D> scissors;
  bool scissors_set = false, scissor_with_count = false;
  std::optional<float> line_width;
  std::optional<std::array<float, 3>> depth_bias;  // constant, clamp, slope
  std::optional<std::array<float, 4>> blend_constants;
  std::optional<std::array<float, 2>> depth_bounds;
  // Per face, 0 front and 1 back.
  std::optional<uint32_t> compare_mask[2], write_mask[2], reference[2];
  std::optional<std::array<uint32_t, 4>> stencil_op[2];  // fail, pass, depth fail, compare
  std::optional<uint32_t> cull_mode, front_face, topology, depth_test, depth_write,
      depth_compare, depth_bounds_test, stencil_test, rasterizer_discard, depth_bias_enable,
      primitive_restart, logic_op, patch_control_points;
  std::optional<std::array<uint32_t, 2>> line_stipple;  // factor, pattern
  // VK_EXT_color_write_enable: one enable per attachment.
  std::optional<std::vector<uint32_t>> color_write_enables;
  // Extended dynamic state 3, one value each.
  std::optional<uint32_t> depth_clamp, polygon_mode, rasterization_samples, sample_mask,
      alpha_to_coverage, alpha_to_one, logic_op_enable, depth_clip, provoking_vertex, line_mode,
      line_stipple_enable, depth_clip_negative_one_to_one;
  // Extended dynamic state 3, per colour attachment index (set one attachment range at a time).
  std::map<uint32_t, uint32_t> blend_enable, color_write_mask;
  std::map<uint32_t, std::array<uint32_t, 6>> blend_equation;  // as VkColorBlendEquationEXT
  // vkCmdSetVertexInputEXT.
  std::optional<capture::CmdSetVertexInputRecord> vertex_input;
};

struct VertexBufferState {
  uint64_t buffer = 0, offset = 0, size = ~0ull;
  std::optional<uint64_t> stride;  // from vkCmdBindVertexBuffers2
};

struct BoundSet {
  bool push = false;  // the set is the push descriptor set of that index
  uint64_t set = 0;
  std::vector<uint32_t> dynamic_offsets;  // this set's share, in binding order
};

// State of one command buffer (secondaries start from a fresh one: state is not inherited).
// Pipelines and descriptor sets are bound per bind point: graphics, and compute_* for compute.
struct CommandState {
  uint64_t pipeline = 0;
  std::map<uint32_t, BoundSet> sets;
  std::map<uint32_t, DescriptorSetState> push_sets;
  uint64_t compute_pipeline = 0;
  std::map<uint32_t, BoundSet> compute_sets;
  std::map<uint32_t, DescriptorSetState> compute_push_sets;
  std::vector<uint8_t> push_constants;
  std::map<uint32_t, VertexBufferState> vertex_buffers;
  uint64_t index_buffer = 0, index_offset = 0;
  uint32_t index_type = 0;
  DynamicValues dynamic;
};

// Applies the dynamic values to a copy of the pipeline for the states it declares dynamic.
// Dynamic states it cannot apply (not recorded by the capture) are counted in `skipped`.
void apply_dynamic_state(const DynamicValues& dyn,
                         const std::map<uint32_t, VertexBufferState>& vertex_buffers,
                         capture::GraphicsPipelineRecord& state, SkipCounts& skipped);

class CommandWalker {
 public:
  explicit CommandWalker(Resources& res) : res_(res) {}

  void begin_frame(PassRenderer* renderer, FrameResult* result);
  // One command record (kinds 0x0400 and up). False with *error when its body does not decode.
  bool command(uint32_t kind, std::span<const std::byte> body, std::string* error);
  // A pass still open when the frame ends is handed over as it is (counted).
  void end_frame();

 private:
  CommandState& state();
  // The command groups of command(), each for the records of its kinds: empty when `kind` is
  // not one of them, else whether the record decoded (false with *error).
  bool command_buffer_record(capture::VkRecordKind kind, std::span<const std::byte> body, std::string* error);
  std::optional<bool> render_pass_command(capture::VkRecordKind kind, std::span<const std::byte> body,
                                          std::string* error);
  std::optional<bool> binding_command(capture::VkRecordKind kind, std::span<const std::byte> body, std::string* error);
  std::optional<bool> drawing_command(capture::VkRecordKind kind, std::span<const std::byte> body, std::string* error);
  std::optional<bool> dynamic_state_command(capture::VkRecordKind kind, std::span<const std::byte> body,
                                            std::string* error);
  std::optional<bool> transfer_command(capture::VkRecordKind kind, std::span<const std::byte> body, std::string* error);
  void begin_render_pass(const capture::CmdBeginRenderPassRecord& rec);
  void begin_rendering(const capture::CmdBeginRenderingRecord& rec);
  // counted: ended by a vkCmdEnd* command (the capture layer numbers those), not by a begin
  // inside the instance.
  void end_pass(bool counted = true);
  void bind_descriptor_sets(const capture::CmdBindDescriptorSetsRecord& rec);
  void push_descriptors(const capture::CmdPushDescriptorSetRecord& rec);
  void set_dynamic(const capture::CmdSetDynamicStateRecord& rec);
  // Builds the resolved draw from the current state; false (counted) when it cannot be.
  bool build_draw(Draw* draw);
  void emit_draw(Draw&& draw);
  void resolve_descriptors(const capture::PipelineLayoutRecord& layout, const std::map<uint32_t, BoundSet>& sets,
                           const std::map<uint32_t, DescriptorSetState>& push_sets,
                           std::vector<DescriptorBinding>* out);
  DescriptorElement resolve_element(uint32_t type, const DescriptorSlot& slot, uint64_t sampler,
                                    uint64_t dynamic_offset);
  // The stage's SPIR-V and specialization; false (counted) when the code is missing.
  bool stage_code(const capture::ShaderStage& stage, ShaderStageCode* code);
  // Push constants of `layout` (0 .. the end of its largest range) from the command buffer's;
  // `what` ("draw", "dispatch") names the command in a skip reason.
  std::vector<uint8_t> push_constants(const capture::PipelineLayoutRecord& layout, const char* what);
  void draw_indirect(const capture::CmdDrawIndirectRecord& rec);
  // vkCmdDispatch*: builds the dispatch from the compute bind point and hands it over.
  void dispatch(const uint32_t base[3], const uint32_t count[3]);
  void dispatch_indirect(const capture::CmdDispatchRecord& rec);

  struct CbFrame {
    uint64_t remaining = 0;
    bool secondary = false;
    CommandState state;
  };

  Resources& res_;
  PassRenderer* renderer_ = nullptr;
  FrameResult* result_ = nullptr;
  std::vector<CbFrame> stack_;
  std::optional<RenderPassInstance> pass_;
  bool pass_valid_ = false;
  uint32_t next_draw_ = 0;
  uint32_t next_dispatch_ = 0;
};

}  // namespace tessera::frontend
