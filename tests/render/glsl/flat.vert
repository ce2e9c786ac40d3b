#version 450
// Per-vertex integer id passed flat: the provoking vertex decides the triangle's colour.
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 0) flat out vec4 v_color;
void main() {
  gl_Position = a_position;
  v_color = a_color;
}
