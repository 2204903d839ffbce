"""Writes Folio's app icons (RGBA PNGs in the sizes Tauri's bundler needs) with no dependencies.

Run from the repository root: python3 icons/generate.py
The mark is a folded page corner on a rounded square, drawn with 4x4 supersampling.
"""
import struct
import zlib
from pathlib import Path

SIZES = {"32x32.png": 32, "128x128.png": 128, "128x128@2x.png": 256, "icon.png": 512}
BG = (37, 99, 235)  # Folio blue
PAGE = (255, 255, 255)
FOLD = (191, 219, 254)


def coverage(x, y):
    """Colour and alpha at a point of the unit square."""
    r = 0.2  # corner radius of the background
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return None
    # The page: a rectangle with its top-right corner folded.
    left, top, right, bottom, fold = 0.3, 0.22, 0.7, 0.78, 0.14
    if left <= x <= right and top <= y <= bottom:
        if x - (right - fold) > y - top:
            return BG if x + y > right + top else FOLD
        if x >= right - fold and y <= top + fold and x - (right - fold) > y - top - 0.0:
            return FOLD
        # Three text lines.
        for line_y in (0.45, 0.55, 0.65):
            if abs(y - line_y) < 0.02 and 0.37 <= x <= 0.63:
                return FOLD
        return PAGE
    return BG


def render(size):
    rows = []
    n = 4
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    c = coverage((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size)
                    if c is not None:
                        acc[0] += c[0]
                        acc[1] += c[1]
                        acc[2] += c[2]
                        acc[3] += 255
            hits = acc[3] // 255
            if hits:
                row += bytes([acc[0] // hits, acc[1] // hits, acc[2] // hits, acc[3] // (n * n)])
            else:
                row += bytes([0, 0, 0, 0])
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent
    for name, size in SIZES.items():
        (out / name).write_bytes(render(size))
        print(f"wrote icons/{name} ({size}x{size} RGBA)")
