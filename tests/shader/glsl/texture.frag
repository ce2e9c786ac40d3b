#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform texture2D img;
layout(set = 0, binding = 2) uniform sampler smp;
layout(set = 1, binding = 3) uniform sampler2DShadow shadow;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
void main() {
  o0 = texture(tex, uv);
  o1 = textureLod(sampler2D(img, smp), uv, 2.0) + texelFetch(tex, ivec2(uv * 8.0), 1);
  o2 = vec4(vec2(textureSize(tex, 1)), float(textureQueryLevels(tex)), texture(shadow, vec3(uv, 0.5)));
  o3 = textureGather(tex, uv, 2) + textureGrad(tex, uv, vec2(0.25, 0.0), vec2(0.0, 0.5));
}
