// Device extensions the capture can record (docs/architecture.md, "What capture guarantees", after RenderDoc): everything
// else is hidden from the application, which then falls back to paths the capture understands
// instead of producing a file replay cannot use. Extensions on this list either add commands
// and state that the hooks record, or change only shader capabilities or driver behaviour that
// the captured SPIR-V and records already carry.
#include <cstring>
#include <string_view>

#include "layer_state.h"
#include "platform.h"

namespace tessera::layer {

namespace {

constexpr std::string_view kAllowed[] = {
    // Recorded commands and objects.
    "VK_KHR_swapchain",
    "VK_KHR_push_descriptor",
    "VK_KHR_descriptor_update_template",
    "VK_KHR_dynamic_rendering",
    "VK_KHR_create_renderpass2",
    "VK_KHR_imageless_framebuffer",  // views given at vkCmdBeginRenderPass (Zink needs it)
    "VK_KHR_synchronization2",
    "VK_KHR_draw_indirect_count",
    "VK_EXT_extended_dynamic_state",
    "VK_EXT_extended_dynamic_state2",
    "VK_EXT_extended_dynamic_state3",       // the states kHiddenEds3Fields does not hide
    "VK_EXT_vertex_input_dynamic_state",    // vkCmdSetVertexInputEXT
    "VK_EXT_color_write_enable",            // color_write_enables, vkCmdSetColorWriteEnableEXT
    "VK_EXT_depth_clip_control",            // depth_clip_negative_one_to_one
    "VK_KHR_bind_memory2",
    "VK_EXT_vertex_attribute_divisor",
    "VK_EXT_index_type_uint8",
    "VK_EXT_depth_clip_enable",       // GraphicsPipelineRecord::depth_clip
    "VK_EXT_line_rasterization",      // line_mode, stipple, vkCmdSetLineStippleEXT
    "VK_EXT_provoking_vertex",        // provoking_vertex
    "VK_EXT_custom_border_color",     // SamplerRecord::custom_border
    "VK_EXT_sampler_filter_minmax",   // SamplerRecord::reduction_mode
    "VK_EXT_transform_feedback",      // Zink's GL 3.0+; use warned (record_commands.cpp)
    // Memory, synchronisation and driver information: no new rendering state.
    "VK_KHR_maintenance1",
    "VK_KHR_maintenance2",
    "VK_KHR_maintenance3",
    "VK_KHR_maintenance4",
    "VK_KHR_get_memory_requirements2",
    "VK_KHR_dedicated_allocation",
    "VK_KHR_driver_properties",
    "VK_KHR_image_format_list",
    "VK_KHR_external_memory",
    "VK_KHR_external_memory_fd",
    "VK_KHR_external_semaphore",
    "VK_KHR_external_semaphore_fd",
    "VK_KHR_external_fence",
    "VK_KHR_external_fence_fd",
    "VK_KHR_timeline_semaphore",
    "VK_KHR_format_feature_flags2",
    "VK_KHR_incremental_present",
    "VK_KHR_swapchain_mutable_format",
    "VK_KHR_separate_depth_stencil_layouts",
    "VK_KHR_depth_stencil_resolve",
    "VK_KHR_sampler_mirror_clamp_to_edge",
    "VK_EXT_4444_formats",
    "VK_EXT_border_color_swizzle",
    "VK_EXT_host_query_reset",
    "VK_EXT_private_data",
    "VK_EXT_pipeline_creation_cache_control",
    "VK_EXT_pipeline_creation_feedback",
    "VK_EXT_separate_stencil_usage",
    "VK_EXT_image_robustness",
    "VK_EXT_robustness2",
    "VK_EXT_calibrated_timestamps",
    "VK_EXT_tooling_info",
    "VK_EXT_debug_marker",
    "VK_EXT_frame_boundary",  // frame metadata on submissions; offered by the layer at marker boundaries
    "VK_EXT_primitive_topology_list_restart",
    "VK_EXT_non_seamless_cube_map",
    "VK_EXT_image_2d_view_of_3d",
    // Shader capabilities: carried by the SPIR-V itself.
    "VK_KHR_16bit_storage",
    "VK_KHR_8bit_storage",
    "VK_KHR_relaxed_block_layout",
    "VK_KHR_shader_atomic_int64",
    "VK_KHR_shader_clock",
    "VK_KHR_shader_draw_parameters",
    "VK_KHR_shader_float16_int8",
    "VK_KHR_shader_float_controls",
    "VK_KHR_shader_integer_dot_product",
    "VK_KHR_shader_subgroup_extended_types",
    "VK_KHR_shader_terminate_invocation",
    "VK_KHR_shader_non_semantic_info",
    "VK_KHR_spirv_1_4",
    "VK_KHR_storage_buffer_storage_class",
    "VK_KHR_uniform_buffer_standard_layout",
    "VK_KHR_variable_pointers",
    "VK_KHR_vulkan_memory_model",
    "VK_KHR_zero_initialize_workgroup_memory",
    "VK_EXT_scalar_block_layout",
    "VK_EXT_shader_atomic_float",
    "VK_EXT_shader_atomic_float2",
    "VK_EXT_shader_demote_to_helper_invocation",
    "VK_EXT_shader_stencil_export",
    "VK_EXT_shader_subgroup_ballot",
    "VK_EXT_shader_subgroup_vote",
    "VK_EXT_shader_viewport_index_layer",
    "VK_EXT_subgroup_size_control",
    "VK_EXT_texel_buffer_alignment",
    "VK_EXT_post_depth_coverage",
    "VK_GOOGLE_decorate_string",
    "VK_GOOGLE_hlsl_functionality1",
    "VK_GOOGLE_user_type",
};

// Feature structures of hidden extensions: zeroed in vkGetPhysicalDeviceFeatures2 so an
// application that checks features rather than extension names also falls back.
struct HiddenFeature {
  VkStructureType type;
  size_t size;
  const char* extension;  // shown (and its features kept) when extension_allowed() says so
};
constexpr HiddenFeature kHiddenFeatures[] = {
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
     sizeof(VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT), "VK_EXT_graphics_pipeline_library"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT,
     sizeof(VkPhysicalDeviceExtendedDynamicState3FeaturesEXT), "VK_EXT_extended_dynamic_state3"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT,
     sizeof(VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT), "VK_EXT_vertex_input_dynamic_state"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT,
     sizeof(VkPhysicalDeviceMultiDrawFeaturesEXT), "VK_EXT_multi_draw"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
     sizeof(VkPhysicalDeviceTransformFeedbackFeaturesEXT), "VK_EXT_transform_feedback"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT,
     sizeof(VkPhysicalDeviceConditionalRenderingFeaturesEXT), "VK_EXT_conditional_rendering"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT,
     sizeof(VkPhysicalDeviceColorWriteEnableFeaturesEXT), "VK_EXT_color_write_enable"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT,
     sizeof(VkPhysicalDeviceDepthClipControlFeaturesEXT), "VK_EXT_depth_clip_control"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT,
     sizeof(VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT), "VK_EXT_primitives_generated_query"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT,
     sizeof(VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT), "VK_EXT_attachment_feedback_loop_layout"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT,
     sizeof(VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT), "VK_EXT_multisampled_render_to_single_sampled"},
    {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT,
     sizeof(VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT), "VK_EXT_rasterization_order_attachment_access"},
};

// Extended dynamic state 3 is shown, but only with the states the capture records
// (record_commands.cpp) and replay applies: the features of the others read VK_FALSE, so an
// application sets them in its pipelines instead (or does without).
using Eds3Features = VkPhysicalDeviceExtendedDynamicState3FeaturesEXT;
constexpr VkBool32 Eds3Features::*kHiddenEds3Fields[] = {
    &Eds3Features::extendedDynamicState3TessellationDomainOrigin,  // no tessellation replay
    &Eds3Features::extendedDynamicState3RasterizationStream,
    &Eds3Features::extendedDynamicState3ConservativeRasterizationMode,
    &Eds3Features::extendedDynamicState3ExtraPrimitiveOverestimationSize,
    &Eds3Features::extendedDynamicState3SampleLocationsEnable,
    &Eds3Features::extendedDynamicState3ColorBlendAdvanced,
    &Eds3Features::extendedDynamicState3ViewportWScalingEnable,
    &Eds3Features::extendedDynamicState3ViewportSwizzle,
    &Eds3Features::extendedDynamicState3CoverageToColorEnable,
    &Eds3Features::extendedDynamicState3CoverageToColorLocation,
    &Eds3Features::extendedDynamicState3CoverageModulationMode,
    &Eds3Features::extendedDynamicState3CoverageModulationTableEnable,
    &Eds3Features::extendedDynamicState3CoverageModulationTable,
    &Eds3Features::extendedDynamicState3CoverageReductionMode,
    &Eds3Features::extendedDynamicState3RepresentativeFragmentTestEnable,
    &Eds3Features::extendedDynamicState3ShadingRateImageEnable,
};

}  // namespace

bool extension_allowed(const char* name) {
  for (std::string_view a : kAllowed) {
    if (a == name) return true;
  }
  // Escape hatch for experiments: TESSERA_CAPTURE_ALLOW_EXTENSIONS=VK_X,VK_Y shows extensions
  // the capture does not understand (their commands are then missing from the file).
  static const std::string extra =
      platform_setting("TESSERA_CAPTURE_ALLOW_EXTENSIONS", "debug.tessera.allow_extensions")
          .value_or("");
  const std::string_view n(name);
  for (size_t pos = 0; pos < extra.size();) {
    size_t end = extra.find(',', pos);
    if (end == std::string::npos) end = extra.size();
    if (std::string_view(extra).substr(pos, end - pos) == n) return true;
    pos = end + 1;
  }
  return false;
}

void hide_features(void* chain) {
  for (auto* s = static_cast<VkBaseOutStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT) {
      auto* f = reinterpret_cast<Eds3Features*>(s);
      for (VkBool32 Eds3Features::*field : kHiddenEds3Fields) f->*field = VK_FALSE;
    }
    for (const auto& h : kHiddenFeatures) {
      if (s->sType == h.type && !extension_allowed(h.extension)) {
        // Every VkBool32 after the sType/pNext header.
        std::memset(reinterpret_cast<char*>(s) + sizeof(VkBaseOutStructure), 0,
                    h.size - sizeof(VkBaseOutStructure));
      }
    }
  }
}

}  // namespace tessera::layer
