#version 450
// A value computed only in a branch some lanes of a quad skip, then differentiated there: the
// skipped lanes never write it in this batch.
layout(location = 0) in float a;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(0.0);
  if (a > 0.5) {
    float v = a * gl_FragCoord.x * gl_FragCoord.y;
    o.x = dFdx(v);
    o.y = dFdy(v);
  }
}
