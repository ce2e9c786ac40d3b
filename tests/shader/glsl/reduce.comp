#version 450
// Tree reduction in Workgroup storage with a barrier inside the loop: each step halves the
// active invocations; the sum of the workgroup's 128 values lands in sums[workgroup]. The first
// invocation also writes the input's length() (OpArrayLength) after the sums.
layout(local_size_x = 64, local_size_y = 2) in;
layout(set = 0, binding = 0) readonly buffer In { uint values[]; } inp;
layout(set = 0, binding = 1) buffer Out { uint sums[]; } outp;
shared uint partial[128];
void main() {
  uint i = gl_LocalInvocationIndex;
  uint g = gl_WorkGroupID.x * 128u + i;
  partial[i] = inp.values[g];
  barrier();
  for (uint stride = 64u; stride > 0u; stride >>= 1u) {
    if (i < stride) partial[i] += partial[i + stride];
    barrier();
  }
  if (i == 0u) outp.sums[gl_WorkGroupID.x] = partial[0];
  if (g == 0u) outp.sums[gl_NumWorkGroups.x] = uint(inp.values.length());
}
