#version 450
// Division and multiply-add rounded as the driver rounds them (shader_exec_test.cpp) and what
// each is charged (op_mix_test.cpp).
layout(location = 0) in vec2 v;  // a dividend and a divisor: varying 2
layout(location = 1) in vec3 f;  // multiply-add operands: varying 3
layout(location = 0) out vec4 o;
void main() {
  o = vec4(v.x / 15.0,           // a constant divisor: alu 1 (the reciprocal is the compiler's)
           v.x / v.y,            // alu 1, sfu 1
           f.x * f.y + f.z,      // the normaliser fuses it into Fma: alu 1
           fma(f.x, f.y, f.z));  // alu 1
}
