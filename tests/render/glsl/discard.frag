#version 450
// Fragments whose interpolated alpha is below one half are discarded.
layout(location = 0) in vec4 v_color;
layout(location = 0) out vec4 o_color;
void main() {
  if (v_color.a < 0.5) discard;
  o_color = v_color;
}
