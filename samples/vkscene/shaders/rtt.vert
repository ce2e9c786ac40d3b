#version 450
// Render-to-texture pass: 2D geometry placed by the push-constant matrix only, no camera.
layout(push_constant) uniform Draw {
    mat4 model;
    vec4 tint;
    vec4 params;
} draw;

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;

layout(location = 0) out vec2 outUv;

void main() {
    outUv = inUv * draw.params.x;
    gl_Position = draw.model * vec4(inPosition, 1.0);
}
