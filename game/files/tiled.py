"""Maps from Tiled and back (issue 42; what converts and what does not: docs/tiled.md).

A Tiled hexagonal map with ``staggeraxis="x"``, ``staggerindex="odd"`` is hexfire's column
layout: Tiled's cell (x, y) is hexfire's column x, row y. Each hex takes the topmost tile of the
visible tile layers (but ``roads``): its ``terrain`` property, or else its class, names the
terrain (a code, ``w``, or a name, ``woods``); its ``level`` property the ground level (0 when
absent). A tile of a layer named ``roads``, and every hex a polyline object crosses, is a road
(its ground level kept). :func:`map_from_tiled` gives the scenario's ``[map]`` table, which
:meth:`game.board.Board.from_map_table` then checks as it checks a file's; :func:`write_tiled`
writes a board back as TMX or TMJ on the tileset hexfire ships (``assets/tiled/``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from game.board import Board
from game.board.hexes import from_offset, label, line, to_offset
from game.board.terrain import Catalogue, terrain_catalogue

from .shipped import assets_dir
from .tiled_formats import read_tiled
from .tiled_read import Shape, TiledError, TiledMap, Tileset

__all__ = ["TILESET", "TiledError", "map_from_tiled", "map_toml", "tile_id", "write_tiled"]

TILESET = "hexfire-terrain"
"""The shipped tileset's name: ``assets/tiled/hexfire-terrain.tsx`` and ``.png``."""
TILE_WIDTH, TILE_HEIGHT, HEX_SIDE = 64, 56, 32
"""The shipped tiles: a flat-topped hex 64 pixels across, 56 high, with 32-pixel sides."""
ROADS = "roads"
"""The tile layer whose tiles are roads (its name, in any case)."""


def tile_id(terrain_id: int, level: int, cat: Catalogue | None = None) -> int:
    """The shipped tileset's tile for a terrain and ground level: a row a terrain (catalogue
    order), a column a level (0 to the highest)."""
    cat = cat or terrain_catalogue()
    return terrain_id * (cat.max_level + 1) + level


class _Terrains:
    """What each gid of a map means: (terrain code, level), or the located reason it means
    nothing; computed once a gid."""

    def __init__(self, m: TiledMap):
        self.m = m
        self.cat = terrain_catalogue()
        self.known: dict[str, str] = {}
        for key, t in zip(self._keys(), self.cat.terrains, strict=True):
            for word in (t.code, key, t.name.lower().replace(" ", "_")):
                self.known[word] = t.code
        self.sets = sorted(m.tilesets, key=lambda ts: ts.firstgid)
        self.cache: dict[int, tuple[str, int]] = {}

    def _keys(self) -> list[str]:
        return [t.key for t in self.cat.terrains]

    def tileset_of(self, gid: int) -> Tileset | None:
        found = None
        for ts in self.sets:
            if ts.firstgid <= gid:
                found = ts
        return found

    def of(self, gid: int, layer: str, cell: int) -> tuple[str, int]:
        """The terrain code and level of ``gid``, first met in ``layer`` at ``cell``."""
        hit = self.cache.get(gid)
        if hit is not None:
            return hit
        hx = label(from_offset(cell % self.m.width, cell // self.m.width))
        at = f"{self.m.name}: layer {layer!r}: hex {hx}"
        ts = self.tileset_of(gid)
        if ts is None:
            raise TiledError(f"{at}: tile gid {gid} is in no tileset")
        local = gid - ts.firstgid
        at = f"{at}: tile {local} of tileset {ts.name!r}"
        tile = ts.tiles.get(local)
        prop = None if tile is None else tile.props.get("terrain")
        word, source = (prop, "terrain property") if prop else (tile and tile.klass, "class")
        if not word:
            raise TiledError(
                f"{at}: no terrain property or class (expected a terrain: "
                f"{', '.join(self.cat.codes)})"
            )
        code = self.known.get(str(word).strip().lower().replace(" ", "_"))
        if code is None:
            raise TiledError(
                f"{at}: {source} {str(word)[:40]!r}: unknown terrain (expected one of "
                f"{', '.join(self.cat.codes)}, or a name: {', '.join(self._keys())})"
            )
        level = _level(tile.props.get("level") if tile else None, self.cat.max_level, at)
        self.cache[gid] = (code, level)
        return code, level


def _level(value: object, top: int, at: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise TiledError(
            f"{at}: level property {str(value)[:20]!r}: expected a ground level 0-{top}"
        )
    return value


def _hex_at(m: TiledMap, x: float, y: float) -> int:
    """The map cell whose centre is nearest the pixel (x, y) (a point off the map: the
    nearest cell on it), in Tiled's staggered-x hexagonal layout."""
    tw, th = m.tilewidth & ~1, m.tileheight & ~1
    colw = (tw + m.hexside) / 2
    guess = round((x - tw / 2) / colw)
    best: tuple[float, int] = (float("inf"), 0)
    for c in {min(max(guess + d, 0), m.width - 1) for d in (-1, 0, 1)}:
        off = th / 2 if c % 2 else 0
        r = min(max(round((y - th / 2 - off) / th), 0), m.height - 1)
        cx, cy = c * colw + tw / 2, r * th + th / 2 + off
        best = min(best, ((cx - x) ** 2 + (cy - y) ** 2, r * m.width + c))
    return best[1]


def _road_cells(m: TiledMap, shape: Shape) -> set[int]:
    """The cells a polyline crosses: its points' hexes joined by hex lines."""
    cells = [_hex_at(m, x, y) for x, y in shape.points]
    out = set(cells)
    for a, b in zip(cells, cells[1:], strict=False):
        ha = from_offset(a % m.width, a // m.width)
        hb = from_offset(b % m.width, b // m.width)
        for h in line(ha, hb):
            col, row = to_offset(h)
            if 0 <= col < m.width and 0 <= row < m.height:
                out.add(row * m.width + col)
    return out


def map_from_tiled(path: str | Path) -> tuple[dict, list[str]]:
    """The ``[map]`` table of a Tiled map file (checked by the board, as a scenario's is) and
    what was left out, one line each; TiledError when it cannot be converted."""
    m = read_tiled(path)
    terrains = _Terrains(m)
    ground = [layer for layer in m.layers if layer.name.lower() != ROADS]
    if not ground:
        raise TiledError(
            f"{m.name}: no tile layer (the topmost tile of each hex names its terrain)"
        )
    n = m.width * m.height
    tokens: list[tuple[str, int]] = []
    for i in range(n):
        top = next(((layer, layer.gids[i]) for layer in reversed(ground) if layer.gids[i]), None)
        if top is None:
            hx = label(from_offset(i % m.width, i // m.width))
            raise TiledError(f"{m.name}: hex {hx}: empty in every tile layer (no terrain)")
        tokens.append(terrains.of(top[1], top[0].name, i))
    roads: set[int] = set()
    for layer in m.layers:
        if layer.name.lower() == ROADS:
            roads.update(i for i, g in enumerate(layer.gids) if g)
    notes = list(m.skipped)
    for shape in m.shapes:
        if shape.kind == "polyline" and shape.points:
            roads |= _road_cells(m, shape)
        else:
            notes.append(f"layer {shape.layer!r}: object {shape.name!r}: a {shape.kind}, skipped")
    for i in roads:
        tokens[i] = ("r", tokens[i][1])
    hexes = [
        " ".join(c + (str(lv) if lv else "") for c, lv in tokens[r * m.width : (r + 1) * m.width])
        for r in range(m.height)
    ]
    table = {"columns": m.width, "rows": m.height, "hexes": hexes}
    Board.from_map_table(table)  # the board's own check (a MapError here is a bug above)
    return table, notes


def map_toml(table: dict, source: str) -> str:
    """A ``[map]`` table as TOML text, its columns aligned as the shipped scenarios'."""
    rows = [row.split() for row in table["hexes"]]
    widths = [max(2, *(len(r[c]) for r in rows)) for c in range(table["columns"])]
    lines = [
        f"# The map of {Path(source).name}, made by hexfire convert (docs/tiled.md).",
        "[map]",
        f"columns = {table['columns']}",
        f"rows = {table['rows']}",
        "hexes = [",
        *(
            '  "' + " ".join(t.ljust(w) for t, w in zip(r, widths, strict=True)).rstrip() + '",'
            for r in rows
        ),
        "]",
    ]
    return "\n".join(lines) + "\n"


def _gids(board: Board) -> list[int]:
    cat = board.catalogue
    return [
        1 + tile_id(int(board.terrain[i]), int(board.ground[i]), cat) for i in range(board.size)
    ]


def write_tiled(board: Board, out: Path) -> list[Path]:
    """Write ``board`` as a Tiled map (``.tmx`` or ``.tmj``, by the suffix) with the shipped
    tileset beside it (its ``.tsx`` and ``.png``, copied); the files written."""
    gids = _gids(board)
    w, h = board.columns, board.rows
    if out.suffix.lower() == ".tmx":
        rows = [",".join(map(str, gids[r * w : (r + 1) * w])) for r in range(h)]
        text = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" '
            f'renderorder="right-down" width="{w}" height="{h}" tilewidth="{TILE_WIDTH}" '
            f'tileheight="{TILE_HEIGHT}" infinite="0" hexsidelength="{HEX_SIDE}" '
            'staggeraxis="x" staggerindex="odd" nextlayerid="2" nextobjectid="1">\n'
            f' <tileset firstgid="1" source="{TILESET}.tsx"/>\n'
            f' <layer id="1" name="terrain" width="{w}" height="{h}">\n'
            '  <data encoding="csv">\n' + ",\n".join(rows) + "\n</data>\n </layer>\n</map>\n"
        )
    else:
        doc = {
            "type": "map",
            "version": "1.10",
            "tiledversion": "1.10.2",
            "orientation": "hexagonal",
            "renderorder": "right-down",
            "width": w,
            "height": h,
            "tilewidth": TILE_WIDTH,
            "tileheight": TILE_HEIGHT,
            "hexsidelength": HEX_SIDE,
            "staggeraxis": "x",
            "staggerindex": "odd",
            "infinite": False,
            "nextlayerid": 2,
            "nextobjectid": 1,
            "tilesets": [{"firstgid": 1, "source": f"{TILESET}.tsx"}],
            "layers": [
                {
                    "id": 1,
                    "name": "terrain",
                    "type": "tilelayer",
                    "width": w,
                    "height": h,
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "data": gids,
                }
            ],
        }
        text = json.dumps(doc, indent=1) + "\n"
    written = [out]
    out.write_text(text, encoding="utf-8")
    for suffix in (".tsx", ".png"):
        src = assets_dir() / "tiled" / f"{TILESET}{suffix}"
        dst = out.parent / src.name
        shutil.copyfile(src, dst)
        written.append(dst)
    return written
