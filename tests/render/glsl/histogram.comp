#version 450
// Histogram of values % 4 in an r32ui storage image (image atomics), the running total in a
// storage buffer (buffer atomics), and imageLoad of a second image's texel.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D u_hist;
layout(set = 0, binding = 1) buffer Data { uint total; uint loaded; uint values[]; } d;
layout(set = 0, binding = 2, rgba8) uniform readonly image2D u_source;
void main() {
  uint v = d.values[gl_GlobalInvocationID.x];
  imageAtomicAdd(u_hist, ivec2(int(v % 4u), 0), 1u);
  atomicAdd(d.total, v);
  if (gl_GlobalInvocationID.x == 0u) d.loaded = packUnorm4x8(imageLoad(u_source, ivec2(1, 1)));
}
