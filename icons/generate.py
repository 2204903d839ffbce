"""Writes Folio's app icons with no dependencies: RGBA PNGs at every size the Linux desktops ask for
(hicolor 16..512, which the .deb and .rpm install), the same mark as SVG (hicolor/scalable), and
icon.ico (Windows) and icon.icns (macOS), both made of the PNGs below, for the release matrix.

Run from the repository root: python3 icons/generate.py
The mark is a folded page corner on a rounded square, drawn with 4x4 supersampling; the SVG draws
the same shapes from the same numbers.
"""
import struct
import zlib
from pathlib import Path

SIZES = {
    "16x16.png": 16,
    "24x24.png": 24,
    "32x32.png": 32,
    "48x48.png": 48,
    "64x64.png": 64,
    "128x128.png": 128,
    "128x128@2x.png": 256,
    "256x256.png": 256,
    "icon.png": 512,
}
# The page: a rectangle with its top-right corner folded (unit square), and three text lines.
RADIUS = 0.2
LEFT, TOP, RIGHT, BOTTOM, FOLD_SIZE = 0.3, 0.22, 0.7, 0.78, 0.14
LINES = (0.45, 0.55, 0.65)
BG = (37, 99, 235)  # Folio blue
PAGE = (255, 255, 255)
FOLD = (191, 219, 254)


def coverage(x, y):
    """Colour and alpha at a point of the unit square."""
    r = RADIUS  # corner radius of the background
    cx, cy = min(max(x, r), 1 - r), min(max(y, r), 1 - r)
    if (x - cx) ** 2 + (y - cy) ** 2 > r * r:
        return None
    # The page: a rectangle with its top-right corner folded.
    left, top, right, bottom, fold = LEFT, TOP, RIGHT, BOTTOM, FOLD_SIZE
    if left <= x <= right and top <= y <= bottom:
        if x - (right - fold) > y - top:
            return BG if x + y > right + top else FOLD
        if x >= right - fold and y <= top + fold and x - (right - fold) > y - top - 0.0:
            return FOLD
        # Three text lines.
        for line_y in LINES:
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


def hexrgb(c):
    return "#%02x%02x%02x" % c


def svg():
    """The mark as a 512-unit SVG (the scalable icon)."""
    u = 512
    r, f = RADIUS * u, FOLD_SIZE * u
    left, top, right, bottom = LEFT * u, TOP * u, RIGHT * u, BOTTOM * u
    lines = "".join(
        f'<rect x="{0.37 * u:g}" y="{(y - 0.02) * u:g}" width="{0.26 * u:g}" height="{0.04 * u:g}" fill="{hexrgb(FOLD)}"/>'
        for y in LINES
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{u}" height="{u}" viewBox="0 0 {u} {u}">'
        f'<rect width="{u}" height="{u}" rx="{r:g}" fill="{hexrgb(BG)}"/>'
        f'<path d="M{left:g} {top:g}H{right - f:g}L{right:g} {top + f:g}V{bottom:g}H{left:g}Z" fill="{hexrgb(PAGE)}"/>'
        f'<path d="M{right - f:g} {top:g}H{right:g}L{right - f / 2:g} {top + f / 2:g}Z" fill="{hexrgb(FOLD)}"/>'
        f"{lines}</svg>\n"
    )


def ico(pngs):
    """A Windows icon holding PNG images (Vista and later read PNG entries)."""
    head = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(head) + 16 * len(pngs)
    entries, data = b"", b""
    for size, png in pngs:
        dim = 0 if size >= 256 else size  # 0 means 256
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset + len(data))
        data += png
    return head + entries + data


def icns(pngs):
    """A macOS icon family holding PNG images (types by pixel size)."""
    types = {32: b"ic11", 64: b"ic12", 128: b"ic07", 256: b"ic08", 512: b"ic09"}
    body = b"".join(types[size] + struct.pack(">I", 8 + len(png)) + png for size, png in pngs if size in types)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


if __name__ == "__main__":
    out = Path(__file__).resolve().parent
    rendered = {}
    for name, size in SIZES.items():
        png = rendered.get(size) or render(size)
        rendered[size] = png
        (out / name).write_bytes(png)
        print(f"wrote icons/{name} ({size}x{size} RGBA)")
    (out / "icon.svg").write_text(svg())
    print("wrote icons/icon.svg (scalable)")
    (out / "icon.ico").write_bytes(ico([(s, rendered[s]) for s in (16, 24, 32, 48, 64, 256)]))
    print("wrote icons/icon.ico (16..256)")
    (out / "icon.icns").write_bytes(icns([(s, rendered[s]) for s in (32, 64, 128, 256, 512)]))
    print("wrote icons/icon.icns (32..512)")
