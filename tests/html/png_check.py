#!/usr/bin/env python3
"""Checks a Chromium screenshot without third-party modules.

    png_check.py FILE.png WIDTH COLOUR...

Decodes the PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes)
with zlib, and fails unless it is WIDTH pixels wide, is not one flat colour,
and contains every COLOUR (hex, e.g. 0072b2) as an exact pixel: the charts'
series colours, so the charts were drawn and not just the text.
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace:
        sys.exit(f"{path}: unsupported PNG (depth {depth}, type {colour_type}, interlace {interlace})")
    bpp = 3 if colour_type == 2 else 4
    return width, height, bpp, zlib.decompress(b"".join(idat))


def unfilter(width, height, bpp, raw):
    """Yields each row's pixel bytes (PNG filters 0-4, RFC 2083 section 6)."""
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 0xFF
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, prev))
        elif kind == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = (row[i] + pred) & 0xFF
        elif kind != 0:
            sys.exit(f"bad PNG filter {kind} in row {y}")
        yield row
        prev = row


def main():
    path, want_width, colours = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    width, height, bpp, raw = read_png(path)
    if width != want_width:
        sys.exit(f"{path}: {width} pixels wide, expected {want_width}")
    missing = {c.lower(): bytes.fromhex(c) for c in colours}
    first, flat = None, True
    for row in unfilter(width, height, bpp, raw):
        pixels = row if bpp == 3 else bytes(b for i, b in enumerate(row) if i % 4 != 3)
        if first is None:
            first = pixels[:3]
        flat = flat and pixels == first * width
        for name, rgb in list(missing.items()):
            at = pixels.find(rgb)
            while at != -1 and at % 3:  # only whole pixels count
                at = pixels.find(rgb, at + 1)
            if at != -1:
                del missing[name]
    if flat:
        sys.exit(f"{path}: blank (one colour, #{first.hex()})")
    if missing:
        sys.exit(f"{path}: no pixel of colour(s) {', '.join('#' + m for m in missing)}")
    print(f"{path}: {width}x{height}, not blank, colours {' '.join('#' + c for c in colours)} present")


if __name__ == "__main__":
    main()
