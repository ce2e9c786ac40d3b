#version 450
// The LOD as an image (samples/vktexlod/README.md, "querylod"): R = x / 8 (the mip level
// textureQueryLod says would be read, 0..8 for the 9-level texture), G = (y + 2) / 12 (the LOD
// before the sampler's clamps, -2..10), B = fract(x) (the blend weight between levels).
layout(set = 0, binding = 0) uniform sampler2D ground;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 colour;

void main() {
    const vec2 lod = textureQueryLod(ground, uv);
    colour = vec4(lod.x / 8.0, (lod.y + 2.0) / 12.0, fract(lod.x), 1.0);
}
