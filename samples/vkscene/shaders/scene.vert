#version 450
// Main-pass vertex shader: world transform from push constants (changes every draw, the
// cheapest per-draw path in Vulkan), camera from the per-frame uniform buffer.
layout(set = 0, binding = 0) uniform Frame {
    mat4 viewProj;
    vec4 lightDir;   // xyz: direction towards the light, world space
    vec4 eye;        // xyz: camera position
} frame;

layout(push_constant) uniform Draw {
    mat4 model;
    vec4 tint;
    vec4 params;     // x: uv scale, y: 1 = unlit, z: texture weight (rtt.frag only)
} draw;

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec2 outUv;
layout(location = 2) out vec3 outWorld;

void main() {
    vec4 world = draw.model * vec4(inPosition, 1.0);
    // Objects are scaled uniformly, so the model matrix itself transforms normals correctly.
    outNormal = mat3(draw.model) * inNormal;
    outUv = inUv * draw.params.x;
    outWorld = world.xyz;
    gl_Position = frame.viewProj * world;
}
