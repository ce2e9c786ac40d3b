#version 450
// One invocation writes every word of its storage buffer, in one loop: over a 64 MiB buffer
// that is 16 M iterations, far past the executor's watchdog (2^20 block executions per batch);
// a GPU would hit its timeout and lose the device.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint words[]; } d;
void main() {
  for (uint i = 0u; i < uint(d.words.length()); ++i) d.words[i] = i;
}
