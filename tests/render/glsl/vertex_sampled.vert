#version 450
// Colour fetched per vertex from a texture at the vertex's texture coordinates (explicit LOD 0):
// a vertex shader texture sample, recorded as VertexTexture events.
layout(set = 0, binding = 0) uniform sampler2D u_texture;
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec2 a_uv;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = a_position;
  v_color = textureLod(u_texture, a_uv, 0.0);
}
