#include "tessera/pipeline/clip.h"

#include <algorithm>
#include <cmath>

namespace tessera::pipeline {
namespace {

// A vertex is inside a plane when dot((a, b, c, d), position) + e >= 0. Only the w > 0 plane used
// without depth clipping needs e (w >= kMinW); the others are homogeneous. A clip distance's
// "plane" is the vertex's own value: `distance` >= 0 names ClipVertex::distances[distance].
struct Plane {
  float a, b, c, d, e;
  int distance = -1;
};
constexpr float kMinW = 1e-6f;
constexpr int kMaxPlanes = 6 + static_cast<int>(kMaxClipCullDistances);

float distance(const Plane& p, const Vec4& v) {
  return p.a * v.x + p.b * v.y + p.c * v.z + p.d * v.w + p.e;
}
// A clip distance that is NaN or infinite counts as outside, as lavapipe's clipper (Mesa's draw
// module) takes it; -1 keeps the interpolation towards the vertex finite.
float finite_or_outside(float d) { return std::isfinite(d) ? d : -1.0f; }

float distance(const Plane& p, const ClipVertex& v) {
  return p.distance >= 0 ? finite_or_outside(v.distances[static_cast<size_t>(p.distance)]) : distance(p, v.position);
}

// A cull distance below 0, NaN or infinite is out (Mesa's cull stage, cull_distance_is_out).
bool cull_out(float d) { return !(d >= 0) || !std::isfinite(d); }

uint32_t clip_count(const ClipConfig& config) { return std::min(config.clip_distances, kMaxClipCullDistances); }

// Spec "Primitive Clipping": a primitive is culled when every one of its vertices has a negative
// value of one of the cull distances (they follow the clip distances in ClipVertex::distances).
bool culled(const ClipVertex* const* vertices, size_t n, const ClipConfig& config) {
  const uint32_t first = clip_count(config);
  const uint32_t end = std::min(first + config.cull_distances, kMaxClipCullDistances);
  for (uint32_t i = first; i < end; ++i) {
    bool all_negative = true;
    for (size_t k = 0; k < n && all_negative; ++k) all_negative = cull_out(vertices[k]->distances[i]);
    if (all_negative) return true;
  }
  return false;
}

// Point on the segment from `in` (inside) to `out` (outside). Always interpolating from the
// inside vertex makes the new vertex of an edge shared by two triangles bit-identical in both,
// so clipped meshes stay watertight.
ClipVertex intersect(const ClipVertex& inside, float d_in, const ClipVertex& outside, float d_out,
                     uint32_t varying_count) {
  const float t = d_in / (d_in - d_out);
  ClipVertex r;
  auto lerp = [t](float a, float b) { return a + t * (b - a); };
  r.position = {lerp(inside.position.x, outside.position.x), lerp(inside.position.y, outside.position.y),
                lerp(inside.position.z, outside.position.z), lerp(inside.position.w, outside.position.w)};
  r.point_size = lerp(inside.point_size, outside.point_size);
  for (uint32_t i = 0; i < varying_count; ++i) r.varyings[i] = lerp(inside.varyings[i], outside.varyings[i]);
  for (uint32_t i = 0; i < kMaxClipCullDistances; ++i) r.distances[i] = lerp(inside.distances[i], outside.distances[i]);
  return r;
}

// The planes a primitive is clipped against (see clip.h): the depth planes (or w > 0 without
// depth clipping), the four guard-band planes, then the clip distances.
int clip_planes(const ClipConfig& config, Plane planes[kMaxPlanes]) {
  const float g = config.guard_band;
  int n = 0;
  if (config.depth_clip) {
    planes[n++] = config.negative_one_to_one ? Plane{0, 0, 1, 1, 0} : Plane{0, 0, 1, 0, 0};  // near
    planes[n++] = {0, 0, -1, 1, 0};                                                             // far: z <= w
  } else {
    // Without depth clipping only w > 0 is required for the divide.
    planes[n++] = {0, 0, 0, 1, -kMinW};
  }
  planes[n++] = {1, 0, 0, g, 0};
  planes[n++] = {-1, 0, 0, g, 0};
  planes[n++] = {0, 1, 0, g, 0};
  planes[n++] = {0, -1, 0, g, 0};
  for (uint32_t i = 0; i < clip_count(config); ++i) planes[n++] = {0, 0, 0, 0, 0, static_cast<int>(i)};
  return n;
}

// The view volume: -w <= x, y <= w and the depth range (0 <= z <= w, or -w <= z <= w).
int view_volume(const ClipConfig& config, Plane planes[6]) {
  planes[0] = {1, 0, 0, 1, 0};
  planes[1] = {-1, 0, 0, 1, 0};
  planes[2] = {0, 1, 0, 1, 0};
  planes[3] = {0, -1, 0, 1, 0};
  if (!config.depth_clip) return 4;
  planes[4] = config.negative_one_to_one ? Plane{0, 0, 1, 1, 0} : Plane{0, 0, 1, 0, 0};
  planes[5] = {0, 0, -1, 1, 0};
  return 6;
}

// Sutherland-Hodgman against one plane.
void clip_polygon(const std::vector<ClipVertex>& poly, const Plane& plane, uint32_t varying_count,
                  std::vector<ClipVertex>& result) {
  result.clear();
  const size_t n = poly.size();
  for (size_t i = 0; i < n; ++i) {
    const ClipVertex& cur = poly[i];
    const ClipVertex& nxt = poly[(i + 1) % n];
    const float dc = distance(plane, cur);
    const float dn = distance(plane, nxt);
    if (dc >= 0) result.push_back(cur);
    if ((dc >= 0) != (dn >= 0)) {
      result.push_back(dc >= 0 ? intersect(cur, dc, nxt, dn, varying_count)
                               : intersect(nxt, dn, cur, dc, varying_count));
    }
  }
}

}  // namespace

ClipOutcome clip_triangle(const ClipTriangle& in, uint32_t varying_count, const ClipConfig& config,
                          std::vector<ClipTriangle>& out) {
  varying_count = std::min(varying_count, kMaxVaryingFloats);
  // Trivial reject against the planes of the view volume: a triangle with all three vertices
  // outside the same plane cannot produce a fragment.
  Plane volume[6];
  const int view_planes = view_volume(config, volume);
  for (int p = 0; p < view_planes; ++p) {
    if (distance(volume[p], in[0].position) < 0 && distance(volume[p], in[1].position) < 0 &&
        distance(volume[p], in[2].position) < 0)
      return ClipOutcome::Discarded;
  }
  const ClipVertex* const vertices[3] = {&in[0], &in[1], &in[2]};
  if (culled(vertices, 3, config)) return ClipOutcome::Discarded;
  Plane planes[kMaxPlanes];
  const int plane_count = clip_planes(config, planes);

  int mask = 0;  // planes some vertex is outside of
  for (int p = 0; p < plane_count; ++p)
    for (const ClipVertex& v : in)
      if (distance(planes[p], v) < 0) mask |= 1 << p;
  if (mask == 0) {
    out.push_back(in);
    return ClipOutcome::Inside;
  }

  std::vector<ClipVertex> poly(in.begin(), in.end());
  std::vector<ClipVertex> next;
  for (int p = 0; p < plane_count && !poly.empty(); ++p) {
    if (!(mask & (1 << p))) continue;
    clip_polygon(poly, planes[p], varying_count, next);
    poly.swap(next);
  }
  if (poly.size() < 3) return ClipOutcome::Discarded;
  for (size_t i = 1; i + 1 < poly.size(); ++i) out.push_back({poly[0], poly[i], poly[i + 1]});
  return ClipOutcome::Clipped;
}

ClipOutcome clip_line(ClipVertex& a, ClipVertex& b, uint32_t varying_count, const ClipConfig& config) {
  varying_count = std::min(varying_count, kMaxVaryingFloats);
  const ClipVertex* const vertices[2] = {&a, &b};
  if (culled(vertices, 2, config)) return ClipOutcome::Discarded;
  Plane planes[kMaxPlanes];
  const int plane_count = clip_planes(config, planes);
  ClipOutcome outcome = ClipOutcome::Inside;
  for (int p = 0; p < plane_count; ++p) {
    const float da = distance(planes[p], a), db = distance(planes[p], b);
    if (da >= 0 && db >= 0) continue;
    if (da < 0 && db < 0) return ClipOutcome::Discarded;
    // One endpoint outside: move it onto the plane, interpolating from the inside one (as for
    // triangles, so a strip's shared vertex clips identically in both segments).
    if (da < 0) a = intersect(b, db, a, da, varying_count);
    else b = intersect(a, da, b, db, varying_count);
    outcome = ClipOutcome::Clipped;
  }
  return outcome;
}

bool point_kept(const ClipVertex& v, const ClipConfig& config, bool view_volume_clip) {
  const Vec4& c = v.position;
  const float g = config.guard_band;
  if (!(c.w > kMinW) || c.x > g * c.w || -c.x > g * c.w || c.y > g * c.w || -c.y > g * c.w) return false;
  const uint32_t distances = std::min(clip_count(config) + config.cull_distances, kMaxClipCullDistances);
  for (uint32_t i = 0; i < distances; ++i) {
    if (cull_out(v.distances[i])) return false;
  }
  if (!view_volume_clip) return true;
  Plane planes[6];
  const int n = view_volume(config, planes);
  for (int p = 0; p < n; ++p)
    if (distance(planes[p], c) < 0) return false;
  return true;
}

}  // namespace tessera::pipeline
