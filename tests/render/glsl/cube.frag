#version 450
// Samples a cube map in the direction carried by the interpolated colour's xyz.
layout(set = 0, binding = 0) uniform samplerCube u_cube;
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() { o_color = texture(u_cube, v_color.xyz); }
