#version 450
layout(set = 0, binding = 0) buffer Counter {
  uint n;
} counter;
layout(location = 0) out vec4 o;
void main() {
  uint v = atomicAdd(counter.n, 1u);
  o = vec4(float(v));
}
