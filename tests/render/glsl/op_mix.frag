#version 450
// Known operation counts per quad (stream_counts_test.cpp): every quad has lanes of both column
// parities (helper lanes run too), so every shaded quad issues both sides of the branch.
layout(location = 0) in vec4 v_color;   // varying 4 (read three times, interpolated once)
layout(location = 0) out vec4 o_color;
void main() {
  vec3 n = normalize(v_color.rgb);             // alu 6, sfu 1
  vec4 c;
  if ((int(gl_FragCoord.x) & 1) == 0) {        // varying 1 (FragCoord.x); alu 3: convert, and, compare
    c = vec4(n, 1.0) * v_color;                // alu 4
  } else {
    c = vec4(sqrt(n), v_color.a);              // sfu 3
  }
  o_color = c;                                 // phi, output store: free
}
