#version 450
// color.vert with two clip distances and a cull distance (spec "Primitive Clipping"): clip
// distance 0 is the vertex's x in NDC (keeps the right half), clip distance 1 is 1 (keeps all),
// and the cull distance is alpha - 0.5 (a primitive whose every vertex has alpha < 0.5 is culled).
layout(location = 0) in vec4 a_position;
layout(location = 1) in vec4 a_color;
layout(location = 0) out vec4 v_color;
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[2];
  float gl_CullDistance[1];
};
void main() {
  gl_Position = a_position;
  gl_ClipDistance[0] = a_position.x;
  gl_ClipDistance[1] = 1.0;
  gl_CullDistance[0] = a_color.a - 0.5;
  v_color = vec4(a_color.rgb, 1.0);
}
