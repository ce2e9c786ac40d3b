#version 450
// One invocation writes every word of its storage buffer, in one loop: a long shader that the
// replay's watchdog (block executions per batch) lets finish or stops, by the buffer's size.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint words[]; } d;
void main() {
  for (uint i = 0u; i < uint(d.words.length()); ++i) d.words[i] = i;
}
