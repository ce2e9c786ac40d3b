#version 450
// The shape of vkcube's vertex shader: positions and attributes in a uniform buffer indexed by
// gl_VertexIndex.
layout(std140, binding = 0) uniform buf {
  mat4 MVP;
  vec4 position[12 * 3];
  vec4 attr[12 * 3];
} ubuf;
layout(location = 0) out vec4 texcoord;
void main() {
  texcoord = ubuf.attr[gl_VertexIndex];
  gl_Position = ubuf.MVP * ubuf.position[gl_VertexIndex];
}
