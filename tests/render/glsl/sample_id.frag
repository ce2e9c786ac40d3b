#version 450
// Reading gl_SampleID shades every sample: red = SampleID / 3 (0, 1/3, 2/3, 1 at 4 samples).
layout(location = 0) out vec4 o_color;
void main() { o_color = vec4(float(gl_SampleID) / 3.0, 0.0, 0.0, 1.0); }
