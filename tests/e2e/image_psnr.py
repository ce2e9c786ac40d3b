#!/usr/bin/python3
"""PSNR over RGB of two images of one size, each a PNG (8-bit RGB or RGBA, not interlaced, as
tessera replay --png writes them) or a binary PPM (P6, maxval 255, as vkscene --dump-last-frame
writes it). Prints the PSNR in dB ("inf" when equal); exits 0, or 1 with one line on stderr.

Usage: image_psnr.py A B [--min DB]   (--min: exit 1 when the PSNR is below DB)
"""
import math
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            if body[8] != 8 or body[9] not in (2, 6) or body[12] != 0:
                raise ValueError("only 8-bit RGB/RGBA, not interlaced")
            bpp = 3 if body[9] == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * bpp
    prev, rgb = bytearray(stride), bytearray()
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filter types 1-4 (PNG spec, section 9)
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        for x in range(width):
            rgb += line[x * bpp:x * bpp + 3]
        prev = line
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
