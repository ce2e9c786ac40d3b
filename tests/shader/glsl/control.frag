#version 450
layout(location = 0) flat in int k;
layout(location = 0) out ivec4 o;
void main() {
  int acc;
  if (k % 2 == 0) acc = 10; else acc = 20;  // diverges inside every quad
  int s = 0;
  for (int i = 0; i < 100; ++i) {
    if (i >= k) break;
    if (i % 3 == 0) continue;
    s += i;
  }
  int w;
  switch (k) {
    case 0: w = 5; break;
    case 1:
    case 2: w = 7; break;
    case 3: w = 9; break;
    default: w = -1; break;
  }
  int n = k + 1;  // Collatz steps: data-dependent trip counts
  int steps = 0;
  while (n != 1) {
    n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    steps++;
  }
  o = ivec4(acc, s, w, steps);
}
