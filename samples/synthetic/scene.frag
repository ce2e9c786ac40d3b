#version 450
// Fragment shader of the synthetic scene: one trilinear texture lookup, alpha from the texture.
layout(location = 0) in vec2 in_uv;
layout(location = 0) out vec4 out_color;
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() { out_color = texture(tex, in_uv); }
