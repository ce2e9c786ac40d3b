#version 450
// The workgroup size from a specialization constant (the WorkgroupSize built-in).
layout(local_size_x_id = 0, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Out { uint ids[]; } o;
void main() { o.ids[gl_LocalInvocationIndex] = gl_LocalInvocationID.x + 100u * gl_LocalInvocationID.y; }
