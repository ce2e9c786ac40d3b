#!/usr/bin/python3
"""Per-pixel LOD difference of two images of vktexlod's querylod scene (samples/vktexlod/README.md:
R = x / 8, G = (y + 2) / 12 with (x, y) = textureQueryLod, 8-bit UNORM), each a PNG as tessera
replay --png writes them. Decodes x and y of every pixel of both, prints the largest absolute
difference of each in LOD units and how many pixels differ at all, and exits 1 when x differs by
more than one 8-bit step of its encoding (8 / 255 LOD) or y by more than one of its own
(12 / 255 LOD): the two renderers quantise the same LOD to a code, so equal LODs give equal codes
or, at a rounding boundary, neighbouring ones.

Usage: texlod_lod_diff.py PRESENTED REPLAYED
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from png_rows import png_rows  # noqa: E402 (tests/png_rows.py)

X_STEP = 8.0 / 255.0   # LOD units per code of R
Y_STEP = 12.0 / 255.0  # LOD units per code of G


def channels(path):
    width, height, bpp, rows = png_rows(path)
    return width, height, [(line[x * bpp], line[x * bpp + 1]) for line in rows for x in range(width)]


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    (wa, ha, a), (wb, hb, b) = channels(sys.argv[1]), channels(sys.argv[2])
    if (wa, ha) != (wb, hb):
        print(f"texlod_lod_diff: {wa}x{ha} against {wb}x{hb}", file=sys.stderr)
        return 1
    dx = max(abs(p[0] - q[0]) for p, q in zip(a, b)) * X_STEP
    dy = max(abs(p[1] - q[1]) for p, q in zip(a, b)) * Y_STEP
    differing = sum(1 for p, q in zip(a, b) if p != q)
    print(f"max |dx| = {dx:.4f} LOD, max |dy| = {dy:.4f} LOD, {differing} of {len(a)} pixels differ")
    if dx > X_STEP + 1e-9 or dy > Y_STEP + 1e-9:
        print(f"texlod_lod_diff: beyond one code ({X_STEP:.4f} LOD in x, {Y_STEP:.4f} in y)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
