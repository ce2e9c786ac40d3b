#version 450
// Render-to-texture pass: blends a texture sample with a flat tint. Flat blades (texture weight
// 0) give the exact colour the e2e test looks for after the main pass samples this target.
layout(set = 1, binding = 0) uniform sampler2D material;

layout(push_constant) uniform Draw {
    mat4 model;
    vec4 tint;
    vec4 params;
} draw;

layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 texel = texture(material, inUv);
    outColor = mix(draw.tint, texel * draw.tint, draw.params.z);
}
