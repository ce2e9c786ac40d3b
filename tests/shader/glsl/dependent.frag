#version 450
// Dependent texture reads (paper 002 section 3): b's coordinates come from a's result, c's do
// not, and the loop's sample takes its coordinates from its own previous result.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
  vec4 a = texture(tex, uv);
  vec4 b = texture(tex, a.xy * 0.5);
  vec4 c = texture(tex, uv * 2.0);
  vec2 q = uv;
  for (int i = 0; i < 2; ++i) q = texture(tex, q).yx;
  o = a + b + c + vec4(q, 0.0, 0.0);
}
