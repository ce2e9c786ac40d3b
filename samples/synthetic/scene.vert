#version 450
// Vertex shader of the synthetic scene: transform and pass the texture coordinate through.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec2 in_uv;
layout(location = 0) out vec2 out_uv;
layout(push_constant) uniform Push { mat4 mvp; } pc;
void main() {
  out_uv = in_uv;
  gl_Position = pc.mvp * vec4(in_position, 1.0);
}
