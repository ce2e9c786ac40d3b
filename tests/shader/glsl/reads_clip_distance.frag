#version 450
// A fragment shader reading ClipDistance back: refused (the replay does not interpolate it).
in float gl_ClipDistance[1];
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_ClipDistance[0]); }
