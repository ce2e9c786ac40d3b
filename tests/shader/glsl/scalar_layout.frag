#version 450
#extension GL_EXT_scalar_block_layout : require
// The shape Zink gives GL uniforms: a one-element array of blocks holding a tightly packed
// uint array (scalar block layout, stride 4), read with bit casts.
layout(set = 0, binding = 0, scalar) uniform Uniforms {
  uint data[6];
} u[1];
layout(location = 0) flat in int idx;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(uintBitsToFloat(u[0].data[idx]), uintBitsToFloat(u[0].data[idx + 1]), float(u[0].data[5]), 1.0);
}
