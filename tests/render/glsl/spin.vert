#version 450
// color.vert's inputs and outputs; never terminates for a vertex with x > 1 (x only grows, to
// infinity; the executor's watchdog gives up after its block budget). The loop's result is the
// position, so the optimizer keeps it.
layout(location = 0) in vec4 a_pos;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_color;
void main() {
  float x = a_pos.x;
  while (x > 1.0) x = x * 1.5 + 1.0;
  gl_Position = vec4(x, a_pos.yzw);
  v_color = a_color;
}
