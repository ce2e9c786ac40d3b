#version 450
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
  if (c.x < 0.5) discard;
  o = c * 2.0;
  gl_FragDepth = c.y;
}
