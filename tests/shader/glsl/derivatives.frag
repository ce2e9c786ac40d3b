#version 450
layout(location = 0) out vec4 o;
layout(location = 1) out vec4 o2;
void main() {
  float f = 3.0 * gl_FragCoord.x - 2.0 * gl_FragCoord.y + 0.5;
  float g = gl_FragCoord.x * gl_FragCoord.y;
  o = vec4(dFdx(f), dFdy(f), fwidth(f), dFdxFine(g));
  o2 = vec4(dFdyFine(g), dFdxCoarse(g), dFdyCoarse(g), fwidthFine(g));
}
