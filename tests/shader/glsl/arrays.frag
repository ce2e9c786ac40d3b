#version 450
struct Light {
  vec3 dir;
  float intensity;
};
layout(set = 0, binding = 1) uniform Lights {
  Light lights[4];
  vec4 weights[4];
} L;
layout(location = 0) flat in int idx;
layout(location = 1) in vec3 n;
layout(location = 0) out vec4 o;
void main() {
  float table[5] = float[](1.0, 2.0, 4.0, 8.0, 16.0);
  float local[4];
  for (int i = 0; i < 4; ++i) local[i] = float(i * i);
  local[idx & 3] += 100.0;
  Light l = L.lights[idx & 3];
  o = vec4(table[idx % 5], local[(idx + 1) & 3] + local[idx & 3], l.intensity * dot(l.dir, n), L.weights[idx & 3].y);
}
