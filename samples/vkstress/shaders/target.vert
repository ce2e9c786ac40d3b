#version 450
// One triangle per offscreen target, from gl_VertexIndex (no vertex buffer), turned by the
// push-constant angle so each frame's contents differ.
layout(push_constant) uniform Push {
    vec4 color;
    float angle;
} push;
layout(location = 0) out vec4 outColor;
void main() {
    const vec2 corners[3] = vec2[](vec2(0.0, -0.8), vec2(0.75, 0.6), vec2(-0.75, 0.6));
    vec2 p = corners[gl_VertexIndex];
    float c = cos(push.angle), s = sin(push.angle);
    gl_Position = vec4(c * p.x - s * p.y, s * p.x + c * p.y, 0.0, 1.0);
    outColor = push.color;
}
