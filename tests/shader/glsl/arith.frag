#version 450
layout(location = 0) in vec4 a;
layout(location = 1) flat in ivec4 b;
layout(location = 2) flat in uvec2 u;
layout(location = 0) out vec4 o_f;
layout(location = 1) out ivec4 o_i;
layout(location = 2) out vec4 o_g;
layout(location = 3) out uvec4 o_u;
void main() {
  o_f = vec4(a.x + a.y, a.x * a.z - a.w, a.y / a.z, mod(a.x, a.w));
  o_i = ivec4(b.x + b.y, b.x * b.y, b.x / b.y, (b.x << 2) | (b.y & 3)) + ivec4(b.z >> 1, -b.w, min(b.x, b.y), max(b.z, b.w));
  o_g = vec4(sqrt(abs(a.x)), clamp(a.y, 0.0, 1.0), floor(a.z) + fract(a.w), step(a.x, a.y) + float(a.x < a.y) * 10.0);
  o_u = uvec4(u.x / u.y, u.x % u.y, u.x >> 3, uint(a.x > 0.0 && b.x < 0 || u.y == 7u));
}
