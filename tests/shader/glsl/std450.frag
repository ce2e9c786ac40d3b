#version 450
layout(location = 0) in vec4 a;
layout(location = 1) in vec3 nrm;
layout(location = 2) flat in uint bits;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;
layout(location = 5) out uvec4 o5;
void main() {
  o0 = vec4(length(a.xyz), distance(a.xy, a.zw), smoothstep(0.0, 4.0, a.x), pow(abs(a.y), 1.5));
  o1 = vec4(normalize(a.xyz), inversesqrt(abs(a.w) + 1.0));
  o2 = vec4(reflect(a.xyz, normalize(nrm)), faceforward(2.0, a.w, -1.0));
  o3 = vec4(refract(normalize(a.xyz), normalize(nrm), 0.5), atan(a.x, a.y));
  o4 = vec4(unpackHalf2x16(packHalf2x16(a.xy)), unpackUnorm4x8(bits).xy);
  o5 = uvec4(bitfieldExtract(bits, 4, 8), bitfieldInsert(bits, 0xfu, 8, 4), bitfieldReverse(bits), uint(findMSB(bits)));
}
