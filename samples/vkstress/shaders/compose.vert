#version 450
// Quads from the frame's vertex buffer (rewritten through a mapping every frame).
layout(location = 0) in vec2 inPosition;
layout(location = 1) in vec2 inUv;
layout(location = 0) out vec2 outUv;
void main() {
    gl_Position = vec4(inPosition, 0.0, 1.0);
    outUv = inUv;
}
