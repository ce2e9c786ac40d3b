#version 450
// Dependent texel-buffer fetches (paper 002 section 3): i's index comes from the interpolated
// input alone, d's from a sample's result, so only d cannot be computed ahead of execution.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform samplerBuffer buf;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
  vec4 i = texelFetch(buf, int(uv.x * 8.0));
  vec4 a = texture(tex, uv);
  vec4 d = texelFetch(buf, int(a.r * 8.0));
  o = i + a + d;
}
