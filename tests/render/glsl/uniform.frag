#version 450
// Colour = uniform buffer colour * push-constant scale; flat integer input picks a channel.
layout(set = 0, binding = 1) uniform Block { vec4 color; } u_block;
layout(push_constant) uniform Push { vec4 scale; } u_push;
layout(location = 0) out vec4 o_color;
void main() { o_color = u_block.color * u_push.scale; }
