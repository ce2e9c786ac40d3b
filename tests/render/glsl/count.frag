#version 450
// Counts the fragments that run the shader in a storage buffer: a side effect, so the depth
// test comes after the shader (no EarlyFragmentTests).
layout(set = 0, binding = 2) buffer Counter { uint shaded; } c;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() {
  atomicAdd(c.shaded, 1u);
  o_color = v_color;
}
