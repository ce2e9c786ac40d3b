#version 450
// A typical textured, lit fragment shader (benchmark workload).
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform Material {
  vec4 light_dir;
  vec4 ambient;
  vec4 specular;
} mat;
layout(location = 0) in vec2 uv;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 view;
layout(location = 0) out vec4 color;
void main() {
  vec4 base = texture(albedo, uv);
  vec3 n = normalize(normal);
  vec3 l = normalize(mat.light_dir.xyz);
  float diffuse = max(dot(n, l), 0.0);
  vec3 h = normalize(l + normalize(view));
  float spec = pow(max(dot(n, h), 0.0), mat.specular.w);
  vec3 lit = base.rgb * (mat.ambient.rgb + diffuse) + mat.specular.rgb * spec;
  color = vec4(clamp(lit, 0.0, 1.0), base.a);
}
