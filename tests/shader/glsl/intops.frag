#version 450
layout(location = 0) flat in uvec2 u;
layout(location = 1) flat in ivec2 i;
layout(location = 2) in vec4 v;
layout(location = 0) out uvec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out vec4 o2;
void main() {
  uint hi, lo, carry, borrow;
  umulExtended(u.x, u.y, hi, lo);
  uint sum = uaddCarry(u.x, u.y, carry);
  uint diff = usubBorrow(u.x, u.y, borrow);
  o0 = uvec4(hi, lo, sum + carry * 1000u, diff ^ borrow);
  int shi, slo;
  imulExtended(i.x, i.y, shi, slo);
  int e;
  float m = frexp(v.x, e);
  o1 = ivec4(shi, slo, e, int((v * 2.0)[u.x & 3u]));  // OpVectorExtractDynamic
  vec4 w = v;
  w[int(u.y & 3u)] = 42.0;  // dynamic insert into a vector value
  float whole;
  float fr = modf(v.y, whole);
  o2 = vec4(w[int(u.x & 3u)], m, fr, whole);  // dynamic extract
}
