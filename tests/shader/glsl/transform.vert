#version 450
layout(set = 0, binding = 0) uniform Camera {
  mat4 mvp;
  mat3 normal_matrix;
  vec4 tint;
  layout(row_major) mat4 rm;
} cam;
layout(push_constant) uniform Push {
  vec4 offset;
  float scale;
} pc;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 normal;
layout(location = 0) out vec3 o_normal;
layout(location = 1) out vec4 o_color;
layout(location = 2) out vec4 o_rm;
void main() {
  gl_Position = cam.mvp * vec4(pos * pc.scale, 1.0) + pc.offset;
  o_normal = cam.normal_matrix * normal;
  o_color = cam.tint * float(gl_VertexIndex) + float(gl_InstanceIndex);
  o_rm = cam.rm * vec4(1.0, 2.0, 3.0, 4.0);
  gl_PointSize = 3.0;
}
