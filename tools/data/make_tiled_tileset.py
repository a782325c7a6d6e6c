"""Write the Tiled tileset hexfire ships: assets/tiled/hexfire-terrain.png (one flat-topped hex
tile for each terrain and ground level, in the play screen's colours, game/ui/data/style.toml)
and its .tsx (each tile's class, and its ``terrain`` and ``level`` properties, which
``hexfire convert`` reads). Deterministic: the same catalogue gives the same bytes.

    python3 tools/data/make_tiled_tileset.py           # write both files
    python3 tools/data/make_tiled_tileset.py --check   # exit 1 when they are out of date
"""

from __future__ import annotations

import argparse
import struct
import sys
import tomllib
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from game.board.terrain import terrain_catalogue  # noqa: E402
from game.files.tiled import HEX_SIDE, TILE_HEIGHT, TILE_WIDTH, TILESET, tile_id  # noqa: E402

OUT = ROOT / "assets" / "tiled"


def _hex_mask() -> np.ndarray:
    """The pixels inside a flat-topped hex of the tile's size."""
    ys, xs = np.mgrid[0:TILE_HEIGHT, 0:TILE_WIDTH] + 0.5
    w, h, inset = TILE_WIDTH, TILE_HEIGHT, (TILE_WIDTH - HEX_SIDE) / 2
    dy = np.abs(ys - h / 2)
    dx = np.minimum(xs, w - xs)
    return dx >= inset * (dy / (h / 2)) - 1e-9


def _edge(mask: np.ndarray, width: int = 2) -> np.ndarray:
    """The pixels of ``mask`` within ``width`` of its border (the hill's contour line)."""
    pad = np.pad(mask, width)
    h, w = mask.shape
    inside = mask.copy()
    for dy in range(-width, width + 1):
        for dx in range(-width, width + 1):
            inside &= pad[width + dy : width + dy + h, width + dx : width + dx + w]
    return mask & ~inside


def _pattern(kind: str) -> np.ndarray:
    """Where a terrain's pattern inks the tile (as the screen's patterns, simpler)."""
    ys, xs = np.mgrid[0:TILE_HEIGHT, 0:TILE_WIDTH]
    if kind == "road":
        return np.abs(ys - TILE_HEIGHT // 2) <= 4
    if kind == "rows":
        return (ys % 7 == 0) & (ys > 6) & (ys < TILE_HEIGHT - 6)
    if kind == "tufts":
        return ((xs % 10 == 4) & (ys % 10 == 4)) | ((xs % 10 == 5) & (ys % 10 == 3))
    if kind in ("trees", "canopy"):
        radius, step = (3, 12) if kind == "trees" else (6, 14)
        cx, cy = (xs % step) - step // 2, (ys % step) - step // 2
        return cx * cx + cy * cy <= radius * radius
    if kind == "building":
        return (np.abs(xs - TILE_WIDTH // 2) <= 13) & (np.abs(ys - TILE_HEIGHT // 2) <= 10)
    return np.zeros_like(xs, dtype=bool)


def tiles() -> tuple[np.ndarray, list[str]]:
    """The tileset's image (RGBA) and its <tile> elements."""
    cat = terrain_catalogue()
    style = tomllib.loads((ROOT / "game" / "ui" / "data" / "style.toml").read_text())
    levels = cat.max_level + 1
    image = np.zeros((TILE_HEIGHT * len(cat.terrains), TILE_WIDTH * levels, 4), dtype=np.uint8)
    mask = _hex_mask()
    inner = _edge(mask)
    tint = np.array(style["levels"]["tint"], dtype=float)
    contour = np.array(style["levels"]["contour"], dtype=np.uint8)
    elements = []
    for t in cat.terrains:
        look = style["terrain"][t.key]
        ink = np.array(look.get("ink", look["fill"]), dtype=np.uint8)
        pattern = _pattern(look["pattern"]) & mask
        for level in range(levels):
            k = min(1.0, style["levels"]["step"] * level)
            fill = np.round(np.array(look["fill"]) * (1 - k) + tint * k).astype(np.uint8)
            tile = np.zeros((TILE_HEIGHT, TILE_WIDTH, 4), dtype=np.uint8)
            tile[mask, :3], tile[mask, 3] = fill, 255
            tile[pattern, :3] = ink
            if level:
                tile[inner, :3] = contour
                for p in range(level):  # one pip a level along the top
                    x0 = TILE_WIDTH // 2 - 5 * level + 10 * p + 2
                    tile[6:12, x0 : x0 + 6, :3] = contour
            r, c = t.id * TILE_HEIGHT, level * TILE_WIDTH
            image[r : r + TILE_HEIGHT, c : c + TILE_WIDTH] = tile
            elements.append(
                f'  <tile id="{tile_id(t.id, level, cat)}" class="{t.key}">\n'
                "   <properties>\n"
                f'    <property name="terrain" value="{t.code}"/>\n'
                f'    <property name="level" type="int" value="{level}"/>\n'
                "   </properties>\n"
                "  </tile>"
            )
    return image, elements


def png(image: np.ndarray) -> bytes:
    """An RGBA image as PNG bytes (the standard library's zlib; no timestamps)."""
    h, w, _ = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def tsx(image: np.ndarray, elements: list[str]) -> bytes:
    """The tileset's .tsx: the image and each tile's class and properties."""
    h, w, _ = image.shape
    columns = w // TILE_WIDTH
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        "<!-- hexfire's terrain for Tiled: made by tools/data/make_tiled_tileset.py; a tile's\n"
        "     terrain and level properties are what hexfire convert reads (docs/tiled.md). -->\n"
        f'<tileset version="1.10" tiledversion="1.10.2" name="{TILESET}" '
        f'tilewidth="{TILE_WIDTH}" tileheight="{TILE_HEIGHT}" '
        f'tilecount="{len(elements)}" columns="{columns}">\n'
        f' <image source="{TILESET}.png" width="{w}" height="{h}"/>\n'
        + "\n".join(elements)
        + "\n</tileset>\n"
    )
    return text.encode("utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the files are out of date")
    args = ap.parse_args()
    image, elements = tiles()
    files = {OUT / f"{TILESET}.png": png(image), OUT / f"{TILESET}.tsx": tsx(image, elements)}
    stale = [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]
    if args.check:
        for p in stale:
            print(f"{p.relative_to(ROOT)}: out of date (run {Path(__file__).name})")
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for p, data in files.items():
        p.write_bytes(data)
        print(f"wrote {p.relative_to(ROOT)} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
