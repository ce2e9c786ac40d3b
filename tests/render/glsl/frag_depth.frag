#version 450
// Writes the depth from the colour's green channel (forces late depth tests).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() {
  o_color = v_color;
  gl_FragDepth = v_color.g;
}
