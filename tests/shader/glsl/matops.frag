#version 450
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() {
  mat2 m = mat2(a.x, a.y, a.z, a.w);
  mat2 p = m * transpose(m);
  mat2 inv = inverse(m);
  o0 = vec4(p[0], p[1]);
  o1 = vec4(inv[0], inv[1]);
  o2 = vec4(determinant(m), vec2(1.0, 2.0) * m, dot(cross(a.xyz, a.yzw), vec3(1.0)));
}
