#include "quad_grouping.h"

#include <cstdlib>

namespace tessera::model::dtexl {

namespace {
constexpr std::string_view kNames[] = {"FG-xshift2", "FG-yshift2", "FG-xshift1", "FG-yshift1", "FG-xstripe",
                                       "FG-ystripe", "CG-xrect",   "CG-yrect",   "CG-triangle", "CG-square"};
}  // namespace

std::string_view grouping_name(Grouping g) { return kNames[static_cast<size_t>(g)]; }

bool parse_grouping(std::string_view name, Grouping* g) {
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (kNames[i] == name) {
      *g = static_cast<Grouping>(i);
      return true;
    }
  }
  return false;
}

std::vector<std::string> grouping_names() { return {std::begin(kNames), std::end(kNames)}; }

bool coarse(Grouping g) { return g >= Grouping::CgXrect; }

SubtileGrid subtile_grid(Grouping g, uint32_t n) {
  switch (g) {
    case Grouping::CgXrect: return {n, 1};
    case Grouping::CgYrect: return {1, n};
    case Grouping::CgSquare: {
      // The most square cols x rows = n with cols >= rows (2x2 for 4, 4x2 for 8, 8x4 for 32).
      uint32_t rows = 1;
      for (uint32_t r = 1; r * r <= n; ++r) {
        if (n % r == 0) rows = r;
      }
      return {n / rows, rows};
    }
    default: return {1, 1};
  }
}

uint32_t subtile(Grouping g, uint32_t qx, uint32_t qy, uint32_t qw, uint32_t qh, uint32_t n) {
  switch (g) {
    case Grouping::FgXshift2: return (qx + 2 * qy) % n;
    case Grouping::FgYshift2: return (2 * qx + qy) % n;
    case Grouping::FgXshift1: return (qx + qy) % n;
    case Grouping::FgYshift1: return (3 * qx + qy) % n;
    case Grouping::FgXstripe: return qx % n;
    case Grouping::FgYstripe: return qy % n;
    case Grouping::CgTriangle: {
      // Twice the offset from the centre, so it stays integral: the triangles split at |u| = |v|.
      const int u = 2 * static_cast<int>(qx) + 1 - static_cast<int>(qw), v = 2 * static_cast<int>(qy) + 1 - static_cast<int>(qh);
      const bool horizontal = std::abs(u) > std::abs(v) || (std::abs(u) == std::abs(v) && (u > 0) == (v > 0));
      if (horizontal) return u > 0 ? 1 : 3;
      return v > 0 ? 2 : 0;
    }
    case Grouping::CgXrect:
    case Grouping::CgYrect:
    case Grouping::CgSquare: {
      const SubtileGrid grid = subtile_grid(g, n);
      const uint32_t col = qx * grid.cols / qw, row = qy * grid.rows / qh;
      return row * grid.cols + col;
    }
  }
  return 0;
}

}  // namespace tessera::model::dtexl
