"""Draws images/icon.png, the extension's 128x128 icon (the Marketplace and
Open VSX want a PNG): a terminal prompt over a lint squiggle.  Standard
library only; 4x4 supersampling for smooth edges.

    python3 client/scripts/icon.py
"""

from __future__ import annotations

import math
import os
import struct
import zlib

SIZE = 128
SS = 4  # samples per pixel side
BACKGROUND = (24, 44, 84)  # deep blue
PROMPT = (236, 242, 250)  # near white
SQUIGGLE = (255, 196, 0)  # warning yellow


def inside_rounded_square(x: float, y: float, radius: float = 26.0) -> bool:
    cx = min(max(x, radius), SIZE - radius)
    cy = min(max(y, radius), SIZE - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2


def distance_to_segment(px, py, ax, ay, bx, by) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def on_prompt(x: float, y: float) -> bool:
    # ">" : two strokes meeting at a point, then "_" as a cursor.
    w = 6.5
    return (distance_to_segment(x, y, 30, 30, 58, 54) <= w or distance_to_segment(x, y, 58, 54, 30, 78) <= w
            or distance_to_segment(x, y, 68, 78, 98, 78) <= w)


def on_squiggle(x: float, y: float) -> bool:
    if not 24 <= x <= 104:
        return False
    centre = 100 + 5.5 * math.sin((x - 24) / 80 * 4 * math.pi)
    return abs(y - centre) <= 4.0


def pixel(px: int, py: int) -> tuple[int, int, int, int]:
    acc = [0.0, 0.0, 0.0, 0.0]
    for sy in range(SS):
        for sx in range(SS):
            x, y = px + (sx + 0.5) / SS, py + (sy + 0.5) / SS
            if not inside_rounded_square(x, y):
                continue
            colour = PROMPT if on_prompt(x, y) else SQUIGGLE if on_squiggle(x, y) else BACKGROUND
            for i in range(3):
                acc[i] += colour[i]
            acc[3] += 255
    n = SS * SS
    alpha = acc[3] / n
    if alpha == 0:
        return (0, 0, 0, 0)
    covered = acc[3] / 255
    return (round(acc[0] / covered), round(acc[1] / covered), round(acc[2] / covered), round(alpha))


def png(rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)  # 8-bit RGBA
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main() -> None:
    rows = [b"".join(bytes(pixel(x, y)) for x in range(SIZE)) for y in range(SIZE)]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "images", "icon.png")
    with open(out, "wb") as fh:
        fh.write(png(rows))


if __name__ == "__main__":
    main()
