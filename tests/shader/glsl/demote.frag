#version 450
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
void main() {
  if (v > 1.5) demote;
  o = vec4(dFdxFine(v * v), helperInvocationEXT() ? 1.0 : 0.0, 0.0, 1.0);
}
