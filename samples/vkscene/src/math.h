// The little linear algebra vkscene needs. Matrices are column-major float[16], the layout GLSL
// uses for a mat4 in a uniform block or push-constant block (std140/std430 column-major).
#pragma once

#include <array>
#include <cmath>

namespace vkscene {

struct Vec3 {
    float x = 0, y = 0, z = 0;
};

inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline Vec3 normalize(Vec3 v) {
    const float len = std::sqrt(dot(v, v));
    return {v.x / len, v.y / len, v.z / len};
}

struct Mat4 {
    std::array<float, 16> m{};  // m[col * 4 + row]
    float& at(int row, int col) { return m[static_cast<std::size_t>(col * 4 + row)]; }
    float at(int row, int col) const { return m[static_cast<std::size_t>(col * 4 + row)]; }

    static Mat4 identity() {
        Mat4 r;
        for (int i = 0; i < 4; ++i) r.at(i, i) = 1.0f;
        return r;
    }
};

inline Mat4 operator*(const Mat4& a, const Mat4& b) {
    Mat4 r;
    for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 4; ++col) {
            float sum = 0.0f;
            for (int k = 0; k < 4; ++k) sum += a.at(row, k) * b.at(k, col);
            r.at(row, col) = sum;
        }
    }
    return r;
}

inline Mat4 translate(Vec3 t) {
    Mat4 r = Mat4::identity();
    r.at(0, 3) = t.x;
    r.at(1, 3) = t.y;
    r.at(2, 3) = t.z;
    return r;
}

inline Mat4 scale(Vec3 s) {
    Mat4 r = Mat4::identity();
    r.at(0, 0) = s.x;
    r.at(1, 1) = s.y;
    r.at(2, 2) = s.z;
    return r;
}

inline Mat4 rotateY(float radians) {
    Mat4 r = Mat4::identity();
    const float c = std::cos(radians), s = std::sin(radians);
    r.at(0, 0) = c;
    r.at(0, 2) = s;
    r.at(2, 0) = -s;
    r.at(2, 2) = c;
    return r;
}

inline Mat4 rotateX(float radians) {
    Mat4 r = Mat4::identity();
    const float c = std::cos(radians), s = std::sin(radians);
    r.at(1, 1) = c;
    r.at(1, 2) = -s;
    r.at(2, 1) = s;
    r.at(2, 2) = c;
    return r;
}

inline Mat4 rotateZ(float radians) {
    Mat4 r = Mat4::identity();
    const float c = std::cos(radians), s = std::sin(radians);
    r.at(0, 0) = c;
    r.at(0, 1) = -s;
    r.at(1, 0) = s;
    r.at(1, 1) = c;
    return r;
}

// Right-handed view matrix (camera looks down -z in view space).
inline Mat4 lookAt(Vec3 eye, Vec3 target, Vec3 up) {
    const Vec3 f = normalize(target - eye);
    const Vec3 s = normalize(cross(f, up));
    const Vec3 u = cross(s, f);
    Mat4 r = Mat4::identity();
    r.at(0, 0) = s.x; r.at(0, 1) = s.y; r.at(0, 2) = s.z; r.at(0, 3) = -dot(s, eye);
    r.at(1, 0) = u.x; r.at(1, 1) = u.y; r.at(1, 2) = u.z; r.at(1, 3) = -dot(u, eye);
    r.at(2, 0) = -f.x; r.at(2, 1) = -f.y; r.at(2, 2) = -f.z; r.at(2, 3) = dot(f, eye);
    return r;
}

// Perspective for Vulkan clip space: depth in [0, 1] and y pointing down in framebuffer
// coordinates (Vulkan spec, "Coordinate Transformations"), hence the negated y scale. With that
// flip, counter-clockwise world-space triangles stay counter-clockwise on screen.
inline Mat4 perspective(float fovyRadians, float aspect, float nearZ, float farZ) {
    const float f = 1.0f / std::tan(fovyRadians / 2.0f);
    Mat4 r;
    r.at(0, 0) = f / aspect;
    r.at(1, 1) = -f;
    r.at(2, 2) = farZ / (nearZ - farZ);
    r.at(2, 3) = nearZ * farZ / (nearZ - farZ);
    r.at(3, 2) = -1.0f;
    return r;
}

inline Vec3 transformPoint(const Mat4& a, Vec3 p) {
    return {a.at(0, 0) * p.x + a.at(0, 1) * p.y + a.at(0, 2) * p.z + a.at(0, 3),
            a.at(1, 0) * p.x + a.at(1, 1) * p.y + a.at(1, 2) * p.z + a.at(1, 3),
            a.at(2, 0) * p.x + a.at(2, 1) * p.y + a.at(2, 2) * p.z + a.at(2, 3)};
}

}  // namespace vkscene
