// Procedural textures. High-frequency detail (grout lines, mortar, fine noise) on purpose: it
// makes the mip levels differ from each other, so trilinear and anisotropic filtering touch
// visibly different texels, which is what texture-cache schemes are evaluated on.
#include "resources.h"

#include <algorithm>
#include <cmath>

namespace vkscene {

namespace {

// Integer hash (the "lowbias32" xorshift-multiply mix): well mixed, no state, the same on every
// platform.
std::uint32_t hash(std::uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

std::uint32_t hash2(std::uint32_t x, std::uint32_t y, std::uint32_t seed) {
    return hash(x ^ hash(y ^ hash(seed)));
}

struct Rgba {
    float r, g, b, a;
};

std::uint8_t toByte(float v) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

// Lattice value noise with smooth interpolation, in [0, 1].
float valueNoise(float x, float y, std::uint32_t seed, std::uint32_t period) {
    const auto xi = static_cast<std::uint32_t>(std::floor(x));
    const auto yi = static_cast<std::uint32_t>(std::floor(y));
    const float fx = x - std::floor(x);
    const float fy = y - std::floor(y);
    auto at = [&](std::uint32_t i, std::uint32_t j) {
        // Wrapping at `period` makes the texture tile without seams under REPEAT addressing.
        return static_cast<float>(hash2(i % period, j % period, seed) & 0xffffU) / 65535.0f;
    };
    const float sx = fx * fx * (3.0f - 2.0f * fx);
    const float sy = fy * fy * (3.0f - 2.0f * fy);
    const float top = at(xi, yi) + (at(xi + 1, yi) - at(xi, yi)) * sx;
    const float bottom = at(xi, yi + 1) + (at(xi + 1, yi + 1) - at(xi, yi + 1)) * sx;
    return top + (bottom - top) * sy;
}

Rgba checker(std::uint32_t x, std::uint32_t y, std::uint32_t size) {
    const std::uint32_t cell = size / 8;
    const std::uint32_t cx = x / cell;
    const std::uint32_t cy = y / cell;
    const std::uint32_t h = hash2(cx, cy, 1);
    const bool dark = ((cx + cy) & 1U) != 0;
    const float base = dark ? 0.22f : 0.78f;
    const float hueShift = static_cast<float>(h & 0xffU) / 255.0f * 0.2f;
    Rgba c{base + hueShift * 0.5f, base * 0.9f, base * 0.7f + hueShift, 1.0f};
    if (x % cell < 2 || y % cell < 2) c = {0.9f, 0.55f, 0.1f, 1.0f};  // grid lines
    return c;
}

Rgba bricks(std::uint32_t x, std::uint32_t y) {
    const std::uint32_t brickH = 16;
    const std::uint32_t brickW = 32;
    const std::uint32_t row = y / brickH;
    const std::uint32_t shifted = x + ((row & 1U) != 0 ? brickW / 2 : 0);
    const std::uint32_t col = shifted / brickW;
    if (y % brickH < 2 || shifted % brickW < 2) return {0.72f, 0.7f, 0.66f, 1.0f};  // mortar
    const float v = static_cast<float>(hash2(col, row, 2) & 0xffU) / 255.0f;
    const float grain = static_cast<float>(hash2(x, y, 3) & 0x3fU) / 255.0f;
    return {0.55f + 0.2f * v + grain, 0.2f + 0.1f * v + grain * 0.5f, 0.12f + grain * 0.5f, 1.0f};
}

Rgba rings(std::uint32_t x, std::uint32_t y, std::uint32_t size) {
    const float dx = static_cast<float>(x) + 0.5f - static_cast<float>(size) / 2.0f;
    const float dy = static_cast<float>(y) + 0.5f - static_cast<float>(size) / 2.0f;
    const float r = std::sqrt(dx * dx + dy * dy) / static_cast<float>(size) * 24.0f;
    const float band = r - std::floor(r);
    const auto ring = static_cast<std::uint32_t>(r);
    const float s = band < 0.5f ? 0.85f : 0.35f;
    switch (ring % 3) {
        case 0: return {s, 0.3f * s, 0.25f, 1.0f};
        case 1: return {0.2f, s * 0.8f, 0.3f, 1.0f};
        default: return {0.25f, 0.35f, s, 1.0f};
    }
}

Rgba marble(std::uint32_t x, std::uint32_t y, std::uint32_t size) {
    float n = 0.0f;
    float amplitude = 0.5f;
    float frequency = 8.0f / static_cast<float>(size);
    std::uint32_t period = 8;
    for (std::uint32_t octave = 0; octave < 4; ++octave) {
        n += amplitude * valueNoise(static_cast<float>(x) * frequency,
                                    static_cast<float>(y) * frequency, 4 + octave, period);
        amplitude *= 0.5f;
        frequency *= 2.0f;
        period *= 2;
    }
    const float vein = 0.5f + 0.5f * std::sin((static_cast<float>(x) / static_cast<float>(size) +
                                               n * 1.5f) * 6.2831853f * 3.0f);
    const float v = 0.35f + 0.6f * vein;
    return {v * 0.92f, v * 0.9f, v * 0.95f, 1.0f};
}

Rgba tiles(std::uint32_t x, std::uint32_t y, std::uint32_t size) {
    const std::uint32_t tile = size / 16;
    const std::uint32_t tx = x / tile;
    const std::uint32_t ty = y / tile;
    if (x % tile < 2 || y % tile < 2) return {0.12f, 0.12f, 0.13f, 1.0f};  // grout
    const float shade = 0.45f + 0.3f * static_cast<float>(hash2(tx, ty, 5) & 0xffU) / 255.0f;
    const float speck = static_cast<float>(hash2(x, y, 6) & 0x1fU) / 255.0f;
    const bool warm = ((tx ^ ty) & 1U) != 0;
    return warm ? Rgba{shade + speck, shade * 0.8f + speck, shade * 0.6f, 1.0f}
                : Rgba{shade * 0.7f, shade * 0.75f + speck, shade * 0.8f + speck, 1.0f};
}

Rgba glass(std::uint32_t x, std::uint32_t y, std::uint32_t size) {
    const std::uint32_t border = size / 16;
    if (x < border || y < border || x >= size - border || y >= size - border) {
        return {0.2f, 0.25f, 0.3f, 0.9f};  // opaque-looking frame
    }
    const float n = valueNoise(static_cast<float>(x) / 16.0f, static_cast<float>(y) / 16.0f, 7,
                               size / 16);
    return {0.55f + 0.2f * n, 0.75f + 0.1f * n, 0.9f, 0.35f + 0.25f * n};
}

}  // namespace

const char* patternName(Pattern pattern) {
    switch (pattern) {
        case Pattern::Checker: return "checker";
        case Pattern::Bricks: return "bricks";
        case Pattern::Rings: return "rings";
        case Pattern::Marble: return "marble";
        case Pattern::Tiles: return "tiles";
        case Pattern::Glass: return "glass";
    }
    return "?";
}

Pixels makePattern(Pattern pattern, std::uint32_t size) {
    Pixels pixels;
    pixels.width = size;
    pixels.height = size;
    pixels.rgba.resize(static_cast<std::size_t>(size) * size * 4);
    for (std::uint32_t y = 0; y < size; ++y) {
        for (std::uint32_t x = 0; x < size; ++x) {
            Rgba c{};
            switch (pattern) {
                case Pattern::Checker: c = checker(x, y, size); break;
                case Pattern::Bricks: c = bricks(x, y); break;
                case Pattern::Rings: c = rings(x, y, size); break;
                case Pattern::Marble: c = marble(x, y, size); break;
                case Pattern::Tiles: c = tiles(x, y, size); break;
                case Pattern::Glass: c = glass(x, y, size); break;
            }
            std::uint8_t* p = &pixels.rgba[(static_cast<std::size_t>(y) * size + x) * 4];
            p[0] = toByte(c.r);
            p[1] = toByte(c.g);
            p[2] = toByte(c.b);
            p[3] = toByte(c.a);
        }
    }
    return pixels;
}

}  // namespace vkscene
