#version 450
// Memory operation classes (op_mix_test.cpp): storage-buffer loads and stores, a uniform indexed
// by a per-lane value, an atomic; uniforms at constant offsets are free.
layout(set = 0, binding = 0) uniform Table {
  vec4 row[8];
  float bias;
} table;
layout(set = 0, binding = 1, std430) buffer Data {
  uint counter;
  vec4 values[];
} data;
layout(location = 0) flat in int index;  // varying 1
layout(location = 0) out vec4 color;
void main() {
  int i = index & 7;                      // alu 1
  vec4 v = data.values[i];                // memory 4
  vec4 u = table.row[i];                  // memory 4 (offset depends on the lane)
  atomicAdd(data.counter, 1u);            // memory 1
  data.values[i + 8] = v * table.bias;    // alu 1 (i + 8), alu 4 (vector * scalar), memory 4
  color = u;
}
