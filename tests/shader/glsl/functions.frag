#version 450
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 o;
float f(float x) {
  if (x < 0.0) return -x * 2.0;
  return x + 1.0;
}
void g(inout vec2 v, out float s) {
  v = v.yx;
  s = v.x - v.y;
}
void main() {
  vec2 v = a.xy;
  float s;
  g(v, s);
  o = vec4(f(a.x), f(a.y), v.x, s);
}
