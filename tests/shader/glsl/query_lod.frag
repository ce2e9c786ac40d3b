#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(textureQueryLod(tex, uv), 0.0, 1.0);
}
