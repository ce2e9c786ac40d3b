#version 450
// The interpolated colour, written to samples 0 and 2 only (gl_SampleMask).
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() {
  o_color = v_color;
  gl_SampleMask[0] = 0x5;
}
