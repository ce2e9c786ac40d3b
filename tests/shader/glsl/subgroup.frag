#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// Subgroup operations are not interpreted: the module is refused with the opcode named.
layout(location = 0) in float v;
layout(location = 0) out vec4 o;
void main() { o = vec4(subgroupAdd(v)); }
