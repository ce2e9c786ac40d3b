#version 450
layout(constant_id = 3) const int K = 2;
layout(constant_id = 4) const float SCALE = 1.5;
layout(location = 0) out vec4 o;
void main() {
  o = vec4(float(K * 10), SCALE, float(K) * SCALE, 0.0);
}
