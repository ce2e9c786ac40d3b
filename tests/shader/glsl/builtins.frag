#version 450
layout(location = 0) out vec4 o;
void main() {
  o = vec4(gl_FrontFacing ? 1.0 : -1.0, gl_HelperInvocation ? 1.0 : 0.0, gl_FragCoord.z, gl_FragCoord.w);
}
