#version 450
// gl_PointCoord as red and green.
layout(location = 0) out vec4 o_color;
void main() { o_color = vec4(gl_PointCoord, 0.0, 1.0); }
