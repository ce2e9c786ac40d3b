#version 450
// Writes texel (x, y) = (32 x, 32 y, 128, 255) / 255 of an rgba8 storage image; the workgroup
// id includes vkCmdDispatchBase's base.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D u_image;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(u_image, p, vec4(vec2(p) * 32.0 / 255.0, 0.5, 1.0));
}
