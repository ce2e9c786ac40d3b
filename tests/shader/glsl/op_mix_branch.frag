#version 450
// A divergent if/else (op_mix_test.cpp): a quad whose lanes take both sides issues both.
layout(location = 0) in float v;      // varying 1
layout(location = 0) out vec4 color;
void main() {
  vec4 r;
  if (v > 0.5) {                        // alu 1
    r = vec4(sqrt(v));                  // then: sfu 1
  } else {
    r = vec4(v) * vec4(2.0, 3.0, 4.0, 5.0);  // else: alu 4
  }
  color = r;                            // phi and output store: free
}
