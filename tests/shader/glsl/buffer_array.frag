#version 450
#extension GL_EXT_scalar_block_layout : require
// Zink's shape for a program with several GL uniform blocks: an array of blocks whose elements
// are separate descriptors of one binding, each indexed by a constant.
layout(set = 0, binding = 2, scalar) uniform Uniforms {
  uint data[4];
} u[3];
layout(location = 0) flat in int idx;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(uintBitsToFloat(u[0].data[idx]), uintBitsToFloat(u[1].data[idx]), uintBitsToFloat(u[2].data[3]), 1.0);
}
