#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
  o0 = texture(tex, uv);
  o1 = vec4(vec2(textureSize(tex, 2)), float(textureQueryLevels(tex)), texelFetch(tex, ivec2(3, 1), 1).r);
}
