#version 450
// Operation classes of a vertex shader (op_mix_test.cpp).
layout(set = 0, binding = 0) uniform Transform {
  mat4 mvp;
} xf;
layout(location = 0) in vec3 position;  // varying 3 (attribute load)
layout(location = 1) in vec2 uv;        // varying 2
layout(location = 0) out vec2 out_uv;   // free
void main() {
  gl_Position = xf.mvp * vec4(position, 1.0);  // alu 16 (matrix x vector), uniform load free
  out_uv = uv;
}
