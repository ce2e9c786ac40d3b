#version 450
layout(push_constant) uniform Push {
    vec4 color;
    vec4 placement;
} pc;
layout(location = 0) out vec4 color;

void main() { color = pc.color; }
