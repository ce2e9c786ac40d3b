#!/usr/bin/python3
"""PSNR over RGB of two images of one size, each a PNG (8-bit RGB or RGBA, not interlaced, as
tessera replay --png writes them) or a binary PPM (P6, maxval 255, as vkscene --dump-last-frame
writes it). Prints the PSNR in dB ("inf" when equal); exits 0, or 1 with one line on stderr.

Usage: image_psnr.py A B [--min DB]   (--min: exit 1 when the PSNR is below DB)
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from png_rows import png_rows  # noqa: E402 (tests/png_rows.py)


def read_png(path):
    width, height, bpp, rows = png_rows(path)
    rgb = bytearray()
    for line in rows:
        for x in range(width):
            rgb += line[x * bpp:x * bpp + 3]
    return width, height, bytes(rgb)


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; '#' comments between them
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError("only binary PPM (P6) with maxval 255")
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[pos + 1:pos + 1 + width * height * 3]


def read(path):
    with open(path, "rb") as f:
        head = f.read(2)
    return read_ppm(path) if head == b"P6" else read_png(path)


def main():
    args = sys.argv[1:]
    minimum = None
    if "--min" in args:
        i = args.index("--min")
        minimum = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    try:
        (wa, ha, a), (wb, hb, b) = read(args[0]), read(args[1])
    except (OSError, ValueError) as e:
        print(f"image_psnr: {e}", file=sys.stderr)
        return 1
    if (wa, ha) != (wb, hb) or len(a) != len(b):
        print(f"image_psnr: {args[0]} is {wa}x{ha}, {args[1]} is {wb}x{hb}", file=sys.stderr)
        return 1
    mse = sum((x - y) * (x - y) for x, y in zip(a, b)) / len(a)
    psnr = math.inf if mse == 0 else 10 * math.log10(255 * 255 / mse)
    print("inf" if math.isinf(psnr) else f"{psnr:.2f}")
    if minimum is not None and psnr < minimum:
        print(f"image_psnr: {psnr:.2f} dB < {minimum} dB", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
