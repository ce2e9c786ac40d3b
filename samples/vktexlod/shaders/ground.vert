#version 450
// The ground plane y = 0, x in [-60, 60], z in [0.2, 120], seen from a camera 0.6 above it that
// looks along +z pitched down by push.pitch radians: most of the screen shows the plane at
// grazing angles. No vertex buffer: the six corners come from gl_VertexIndex.
layout(push_constant) uniform Push {
    float pitch;
    float aspect;
    float uvScale;
} push;
layout(location = 0) out vec2 uv;

void main() {
    const vec2 corners[6] = vec2[](vec2(-60.0, 0.2), vec2(60.0, 0.2), vec2(60.0, 120.0),
                                   vec2(-60.0, 0.2), vec2(60.0, 120.0), vec2(-60.0, 120.0));
    const vec2 c = corners[gl_VertexIndex];
    const vec3 rel = vec3(c.x, -0.6, c.y);  // world point minus the camera at (0, 0.6, 0)
    const float cp = cos(push.pitch), sp = sin(push.pitch);
    const float forward = rel.z * cp - rel.y * sp;
    const float up = rel.y * cp + rel.z * sp;
    const float f = 1.0 / tan(0.5 * 1.1);  // vertical field of view 1.1 rad
    gl_Position = vec4(rel.x * f / push.aspect, -up * f, 0.5 * forward, forward);
    uv = c * push.uvScale;
}
