#version 450
// Operation classes of a straight-line shader (op_mix_test.cpp); each line's cost is in its
// comment. Loads of the uniform block at constant offsets, copies through function variables,
// swizzles and constructs are free.
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform Params {
  vec4 tint;
  vec4 offsets[4];
} params;
layout(location = 0) in vec4 base;    // varying 4
layout(location = 1) in vec2 uv;      // varying 2 (read twice, interpolated once)
layout(location = 2) in vec3 normal;  // varying 3
layout(location = 0) out vec4 color;  // the store is free (the blend unit takes the colour)
void main() {
  vec4 t = texture(albedo, uv);            // texture 1
  vec4 sum = base + t;                     // alu 4
  vec3 n = normalize(normal);              // alu 6, sfu 1
  vec4 copies[2];                          // function variables: registers
  copies[0] = sum;
  copies[1] = vec4(n, uv.x);
  // The normaliser fuses the multiply and the add into one GLSL.std.450 Fma: alu 4.
  vec4 lit = copies[1] * params.tint + copies[0].wzyx;
  color = lit + params.offsets[2];         // alu 4
}
