#version 450
layout(location = 0) flat in int k;
layout(location = 0) out ivec4 o;
int smallest_factor(int v) {  // several returns: merged by the normaliser before inlining
  if (v < 0) return -1;
  if (v == 0) return 0;
  for (int i = 2; i * i <= v; ++i)
    if (v % i == 0) return i;
  return v;
}
void main() {
  int total = 0;
  int outer_iters = 0;
  for (int i = 0; i < 8; ++i) {
    outer_iters++;
    int j = 0;
    while (true) {
      if (j > i) break;
      switch ((i + j + k) % 4) {
        case 0: total += 1; break;
        case 1: total += 10; j++; continue;
        case 2:
          if (k > 20) {
            j = 100;
          } else {
            total += 100;
          }
          break;
        default: total += 1000;
      }
      j++;
    }
    if (k == 13 && i == 3) discard;
    if (total > 3000 + k * 50) break;
  }
  do {
    total -= 7;
  } while (total > 5000);
  o = ivec4(total, outer_iters, smallest_factor(k * 3 - 10), k);
}
