#version 450
// Points: position (clip space); the colour attribute's w is gl_PointSize, its rgb the colour.
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = a_position;
  gl_PointSize = a_color.w;
  v_color = vec4(a_color.rgb, 1.0);
}
