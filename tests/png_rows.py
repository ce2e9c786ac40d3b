"""A PNG's unfiltered rows, decoded with zlib alone (no imaging library is a dependency): the
report test's blank-screenshot check and the e2e tests' PSNR both read PNGs through it. Only
what the project's writers and Chromium's screenshots produce: 8-bit RGB or RGBA, not interlaced.
"""
import zlib


def png_rows(path):
    """(width, height, bytes per pixel, a generator of each row's unfiltered bytes, top first).
    Rows are decoded as they are taken, so a caller may stop early. Raises ValueError on another
    kind of PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width, height, bpp = 8, b"", 0, 0, 0
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

    def rows():
        prev = bytearray(stride)
        for y in range(height):
            f = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
            for i in range(stride):  # filter types 1-4 (PNG spec, section 9)
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
            yield bytes(line)
            prev = line

    return width, height, bpp, rows()
