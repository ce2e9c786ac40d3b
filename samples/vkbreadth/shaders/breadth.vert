#version 450
// Positions are placed per draw by push constants: xy * scale + offset in NDC, z as given.
layout(location = 0) in vec3 position;
layout(push_constant) uniform Push {
    vec4 color;
    vec4 placement;  // xy offset, zw scale
} pc;

void main() {
    gl_Position = vec4(position.xy * pc.placement.zw + pc.placement.xy, position.z, 1.0);
}
