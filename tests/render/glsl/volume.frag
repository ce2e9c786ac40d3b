#version 450
// Samples a 3D texture at the (s, t, r) carried by the interpolated colour's xyz.
layout(set = 0, binding = 0) uniform sampler3D u_volume;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() { o_color = texture(u_volume, v_color.xyz); }
