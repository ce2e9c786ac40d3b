#version 450
// textured.frag's inputs; never terminates where u > 1 (u only grows, to infinity; the executor's
// watchdog gives up after its block budget): a draw whose fragment shader never ends in some tiles
// only, which stops the pass in the first of them.
// The loop's result is the output, so the optimizer keeps it.
layout(location = 0) in vec2 v_uv;
layout(location = 0) out vec4 o_color;
void main() {
  float u = v_uv.x;
  while (u > 1.0) u = u * 1.5 + 1.0;
  o_color = vec4(u, 0.5, 0.25, 1.0);
}
