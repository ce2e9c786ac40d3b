#version 450
// A workgroup of 128 invocations (two 64-lane batches): each invocation writes its slot of
// Workgroup storage and waits at barrier(); it then reads the slot of its mirror invocation
// (written by the other batch), adds it to a shared sum with an atomic, waits again and writes
// the whole sum: only a barrier honoured across both batches gives every invocation the full
// sum. Buffer atomics of every kind collect the mirror values.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Result {
  uint mirror[256];
  uint group_sum[256];
  uint order[256];
  uint exchanged[256];
  uint total;
  uint maximum;
  uint minimum;
  uint bits_or;
  uint bits_and;
  uint bits_xor;
  uint exchange;
  uint swaps;
  uint counter;
  int signed_min;
  int signed_max;
  uint wrap;
} r;
shared uint tile[128];
shared uint sum;
void main() {
  uint i = gl_LocalInvocationIndex;
  uint g = gl_GlobalInvocationID.x;
  tile[i] = g * 3u + 1u;
  if (i == 0u) sum = 0u;
  barrier();
  uint m = tile[127u - i];
  atomicAdd(sum, m);
  barrier();
  r.mirror[g] = m;
  r.group_sum[g] = sum;
  atomicAdd(r.total, m);
  atomicMax(r.maximum, m);
  atomicMin(r.minimum, m);
  atomicOr(r.bits_or, 1u << (g % 32u));
  atomicAnd(r.bits_and, ~(1u << (g % 31u)));
  atomicXor(r.bits_xor, m * 2654435761u);
  r.exchanged[g] = atomicExchange(r.exchange, g + 1000u);
  if (atomicCompSwap(r.swaps, g, g + 1u) == g) r.order[g] = atomicAdd(r.counter, 1u);
  atomicMin(r.signed_min, int(m) - 400);
  atomicMax(r.signed_max, 400 - int(m));
  atomicAdd(r.wrap, 0x80000000u);
}
