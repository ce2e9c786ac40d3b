#version 450
// Main-pass fragment shader: one texture sample per fragment (the access the texture-cache
// schemes model), simple diffuse lighting, alpha from texture times tint for the blended pass.
layout(set = 0, binding = 0) uniform Frame {
    mat4 viewProj;
    vec4 lightDir;
    vec4 eye;
} frame;

layout(set = 1, binding = 0) uniform sampler2D material;

layout(push_constant) uniform Draw {
    mat4 model;
    vec4 tint;
    vec4 params;
} draw;

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec2 inUv;
layout(location = 2) in vec3 inWorld;

layout(location = 0) out vec4 outColor;

void main() {
    vec4 texel = texture(material, inUv) * draw.tint;
    if (draw.params.y > 0.5) {
        // Unlit: the render-to-texture screen shows its texels unchanged, which lets the e2e test
        // find the offscreen pass's exact colours in the final frame.
        outColor = texel;
        return;
    }
    vec3 n = normalize(inNormal);
    float diffuse = max(dot(n, normalize(frame.lightDir.xyz)), 0.0);
    // A little view-dependent rim keeps faces facing away from the light distinguishable.
    float rim = 1.0 - max(dot(n, normalize(frame.eye.xyz - inWorld)), 0.0);
    vec3 lit = texel.rgb * (0.25 + 0.75 * diffuse) + 0.08 * rim * rim;
    outColor = vec4(lit, texel.a);
}
