// Lane batches: the unit of SPIR-V execution. A batch holds up to kMaxLanes invocations in
// structure-of-arrays form. For fragment shaders lanes come in 2x2 quads: lane 4q+0 is the
// quad's top-left pixel, 4q+1 top-right, 4q+2 bottom-left, 4q+3 bottom-right, which is what the
// derivative instructions (SPIR-V spec 3.42.18, "Derivative Instructions") read across.
#pragma once

#include <cstdint>

#include "tessera/shader/op_class.h"

namespace tessera::shader {

// 16 quads per batch: enough to amortise instruction dispatch (one decode + one switch per
// instruction for all lanes), small enough that a primitive's quads in one 32x32 tile fill it.
inline constexpr uint32_t kMaxLanes = 64;
using LaneMask = uint64_t;

// User interface slots: Location L, Component C lives at slot 4*L + C (Vulkan spec 15.1.4,
// "Location Assignment": each location holds up to four 32-bit components).
inline constexpr uint32_t kMaxLocations = 32;
inline constexpr uint32_t kMaxInterfaceSlots = kMaxLocations * 4;
// ClipDistance and CullDistance elements a vertex shader may write together: Vulkan's required
// maxCombinedClipAndCullDistances (spec table "Required Limits"), what lavapipe reports too.
inline constexpr uint32_t kMaxClipCullDistances = 8;

inline constexpr LaneMask lanes_mask(uint32_t lane_count) {
  return lane_count >= 64 ? ~LaneMask{0} : ((LaneMask{1} << lane_count) - 1);
}

// Inputs and outputs of one execute() call. Values are raw 32-bit patterns (float, int, uint
// or bool as 0/1), the way the interface stores them regardless of type.
struct LaneBatch {
  uint32_t lane_count = 0;  // fragment stage: a multiple of 4 (whole quads)

  // ---- inputs ----
  alignas(64) uint32_t inputs[kMaxInterfaceSlots][kMaxLanes];
  // Fragment stage.
  float frag_coord[4][kMaxLanes];  // window x, y (pixel centre, or the sample's location when
                                   // shading per sample), depth z, 1/w
  LaneMask front_facing = 0;
  LaneMask helper = 0;  // helper invocations: shaded for derivatives only (outside coverage)
  // Read only by shaders that declare them (ShaderInfo::reads_*): the caller fills them then.
  float point_coord[2][kMaxLanes];      // PointCoord: (s, t) within a point sprite
  int32_t sample_id[kMaxLanes];         // SampleId of a per-sample invocation
  float sample_position[2][kMaxLanes];  // SamplePosition within the pixel
  uint32_t sample_mask_in[kMaxLanes];   // SampleMask input, word 0: the invocation's coverage
  // Vertex stage.
  int32_t vertex_index[kMaxLanes];
  int32_t instance_index[kMaxLanes];
  // Compute stage (SPIR-V built-ins WorkgroupId, NumWorkgroups, LocalInvocationId; the global
  // invocation id and local index follow from them and the workgroup size).
  uint32_t workgroup_id[3] = {0, 0, 0};
  uint32_t num_workgroups[3] = {1, 1, 1};
  uint32_t workgroup_size[3] = {1, 1, 1};
  uint32_t local_invocation_id[3][kMaxLanes];

  // ---- outputs ----
  alignas(64) uint32_t outputs[kMaxInterfaceSlots][kMaxLanes];
  float position[4][kMaxLanes];  // gl_Position (vertex stage)
  float point_size[kMaxLanes];   // gl_PointSize (vertex stage), 1.0 when not written
  // ClipDistance and CullDistance elements (vertex stage; ShaderInfo::clip_distances and
  // cull_distances say how many the shader declares, at most kMaxClipCullDistances together).
  float clip_distance[kMaxClipCullDistances][kMaxLanes];
  float cull_distance[kMaxClipCullDistances][kMaxLanes];
  float frag_depth[kMaxLanes];   // gl_FragDepth; frag_coord.z when the shader does not write it
  uint32_t sample_mask[kMaxLanes];  // SampleMask output, word 0 (set when ShaderInfo::writes_sample_mask)
  // Lanes that executed OpKill / OpTerminateInvocation / OpDemoteToHelperInvocation: their
  // outputs must not be written to the framebuffer.
  LaneMask discarded = 0;
  // Dynamic SPIR-V instruction count per lane (see ShaderModule::execute for what counts).
  uint32_t instruction_count[kMaxLanes];
  // Issued operations per quad (lanes 4q..4q+3) by class (op_class.h): a block's weights count
  // once per execution in which any lane of the quad is active, helper lanes included, as a
  // lock-step warp of four lanes issues them. Quads past lane_count hold zeros.
  OpCounts quad_ops[kMaxLanes / 4];
};

}  // namespace tessera::shader
