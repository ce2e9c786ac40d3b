#version 450
layout(location = 0) flat in int k;
layout(location = 0) out int o;
void main() {
  int i = 0;
  while (i != k) i += 2;  // never ends for odd k
  o = i;
}
