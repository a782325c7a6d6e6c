"""The map as numpy arrays: terrain id, ground level, obstacle height, hindrance (RD-9, RD-10).

A board is ``columns`` x ``rows`` hexes laid out as an ASL board (flat-top, odd columns shoved
down; see :mod:`game.board.hexes`). Hex ``i`` in the arrays is row-major: ``i = row * columns +
col``. Terrain never changes in play; the smoke and wreck markers do (:meth:`Board.set_smoke`,
:meth:`Board.add_wreck`).

The scenario file's ``[map]`` table (this module reads it; the scenario issue adds the rest)::

    [map]
    columns = 5
    rows = 3
    hexes = [
      "o  o  w   r  o",     # row 1: one token per column, A first
      "o  w1 w1  r  o2",    # a token is a terrain code, then the ground level (hill 0-4) if not 0
      "gr or sb  r  br",
    ]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .hexes import Hex, axial_distance, from_offset, label, parse_label, to_offset
from .terrain import Catalogue, Terrain, terrain_catalogue

MAX_MAP_SIDE = 200
"""The most columns and rows a map has (a 200 x 200 map plays within 1 GiB with on-demand
viewsheds, game.board.viewsheds); more is an error of ``map.columns`` / ``map.rows``."""

_TOKEN = re.compile(r"^([a-z]+)([0-9]?)$")


def axial_arrays(columns: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The axial (q, r) of every board index (row-major, odd-q offsets) as arrays."""
    index = np.arange(columns * rows)
    col, row = index % columns, index // columns
    return col, row - (col - (col & 1)) // 2


class MapError(ValueError):
    """A malformed ``[map]`` table. ``path`` is the field path (``map.hexes[2]``)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True, slots=True)
class HexInfo:
    """What the board says of one hex."""

    hex: Hex
    label: str
    terrain: Terrain
    level: int
    smoke: bool
    wrecks: int


class Board:
    """The map. Terrain arrays are read-only; smoke and wreck markers change in play."""

    def __init__(
        self,
        columns: int,
        rows: int,
        terrain: np.ndarray,
        ground: np.ndarray,
        month: int | None = None,
    ):
        cat = terrain_catalogue()
        self.month = month
        """The scenario's month: grain and orchards in or out of season (None: in season)."""
        self.catalogue: Catalogue = cat
        self.columns = columns
        self.rows = rows
        n = columns * rows
        if terrain.shape != (n,) or ground.shape != (n,):
            raise ValueError(f"terrain and ground must have {n} entries")
        self._set_terrain(terrain, ground)
        self.smoke = np.zeros(n, dtype=bool)
        self.wrecks = np.zeros(n, dtype=np.int8)
        self._lock()
        self._hexes = [from_offset(i % columns, i // columns) for i in range(n)]
        self._index_of = {h: i for i, h in enumerate(self._hexes)}
        """Hex -> board index (:meth:`index`, asked tens of thousands of times a game)."""
        self._parsed: dict[str, Hex] = {}
        """The labels :meth:`parse` has read (only this board's hexes: bounded)."""
        self._seasonal: dict[tuple[int, int | None], Terrain] = {}
        """(terrain kind, month) -> that terrain as it stands then (:meth:`terrain_at`)."""
        self._around: dict[Hex, tuple[tuple[Hex, ...], bool]] = {}
        """Hex -> (its neighbours on the map, whether one is off it): :meth:`around`."""
        self.axial = axial_arrays(columns, rows)
        """(q, r) of every board index, as arrays (for distances to many hexes at once)."""

    def _set_terrain(self, terrain: np.ndarray, ground: np.ndarray) -> None:
        """The terrain and ground level of every index, and the arrays read from them."""
        self.terrain = terrain.astype(np.int8)
        self.ground = ground.astype(np.int8)
        now = [t.for_month(self.month) for t in self.catalogue.terrains]
        obstacle = np.array([t.obstacle for t in now], dtype=np.int8)
        hindrance = np.array([t.hindrance for t in now], dtype=np.int8)
        htop = np.array([round(2 * t.hindrance_top) for t in now], dtype=np.int16)
        orchard = np.array([t.orchard for t in now], dtype=bool)
        tem = np.array([t.tem for t in now], dtype=np.int8)
        self.obstacle = obstacle[self.terrain]
        """Obstacle height in levels above ground (RD-9)."""
        self.hindrance = hindrance[self.terrain]
        """Case R DRM of the terrain (C6.9)."""
        self.hindrance_top2 = htop[self.terrain]
        """Levels x 2 above ground up to which the terrain hinders."""
        self.orchard = orchard[self.terrain]
        self.tem = tem[self.terrain]
        for a in (
            self.terrain,
            self.ground,
            self.obstacle,
            self.hindrance,
            self.hindrance_top2,
            self.orchard,
            self.tem,
        ):
            a.setflags(write=False)  # shared by every copy (:meth:`__deepcopy__`)
        self._levels: list[int] = self.ground.tolist()
        self._kinds: list[int] = self.terrain.tolist()
        """The ground level and terrain kind of each index as Python ints (read per shot and
        per step: a numpy item costs several times a list's)."""

    def painted(self, indices: np.ndarray, terrain: int | None, level: int | None) -> Board:
        """A new board with ``terrain`` (a terrain id) and/or ``level`` at board ``indices``
        (an editor's brush stroke), the rest as here: the arrays of the map's shape shared,
        only the terrain's read again (some milliseconds on the 200 x 200 map, where building
        a board takes 30 ms)."""
        new = Board.__new__(Board)
        new.__dict__.update(self.__dict__)
        kinds, levels = self.terrain.copy(), self.ground.copy()
        if terrain is not None:
            kinds[indices] = terrain
        if level is not None:
            levels[indices] = level
        new._set_terrain(kinds, levels)
        new.smoke, new.wrecks = self.smoke.copy(), self.wrecks.copy()
        new._lock()
        return new

    def __deepcopy__(self, memo: dict) -> Board:
        """A copy for a snapshot or a search: the markers that change in play (smoke, wrecks)
        copied, the terrain and its tables shared (read-only; copying the 40,000 hexes of the
        largest map took 0.4 s a snapshot)."""
        new = Board.__new__(Board)
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        new.smoke = self.smoke.copy()
        new.wrecks = self.wrecks.copy()
        new._lock()
        return new

    # --- building -------------------------------------------------------------------------

    @classmethod
    def from_map_table(cls, table: dict, path: str = "map", month: int | None = None) -> Board:
        """Build a board from the scenario's ``[map]`` table; raises MapError on bad input."""
        if not isinstance(table, dict):
            raise MapError(path, "expected a table")
        known = {"columns", "rows", "hexes"}
        for key in table:
            if key not in known:
                raise MapError(
                    f"{path}.{key}", f"unknown key (expected {', '.join(sorted(known))})"
                )
        cols = table.get("columns")
        rows = table.get("rows")
        for key, v in (("columns", cols), ("rows", rows)):
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_MAP_SIDE:
                raise MapError(f"{path}.{key}", f"expected an integer 1-{MAX_MAP_SIDE}, got {v!r}")
        assert isinstance(cols, int) and isinstance(rows, int)
        hexes = table.get("hexes")
        if not isinstance(hexes, list):
            raise MapError(f"{path}.hexes", "expected a list of row strings")
        if len(hexes) != rows:
            raise MapError(f"{path}.hexes", f"expected {rows} rows, got {len(hexes)}")
        cat = terrain_catalogue()
        codes = cat.codes
        terrain = np.zeros(cols * rows, dtype=np.int8)
        ground = np.zeros(cols * rows, dtype=np.int8)
        for r, row in enumerate(hexes):
            where = f"{path}.hexes[{r}]"
            if not isinstance(row, str):
                raise MapError(where, f"expected a string, got {type(row).__name__}")
            tokens = row.split()
            if len(tokens) != cols:
                raise MapError(where, f"expected {cols} hexes, got {len(tokens)}")
            for c, tok in enumerate(tokens):
                m = _TOKEN.match(tok)
                hex_label = label(from_offset(c, r))
                if not m or m.group(1) not in codes:
                    known_codes = ", ".join(codes)
                    raise MapError(
                        where,
                        f"hex {hex_label}: bad token {tok!r} (expected a terrain code "
                        f"[{known_codes}] then a ground level 0-{cat.max_level})",
                    )
                level = int(m.group(2) or 0)
                if level > cat.max_level:
                    raise MapError(where, f"hex {hex_label}: level {level} > {cat.max_level}")
                terrain[r * cols + c] = codes[m.group(1)].id
                ground[r * cols + c] = level
        return cls(cols, rows, terrain, ground, month)

    def to_map_table(self) -> dict:
        """The ``[map]`` table of this board (inverse of :meth:`from_map_table`)."""
        terrains = self.catalogue.terrains
        rows = []
        for r in range(self.rows):
            toks = []
            for c in range(self.columns):
                i = r * self.columns + c
                lvl = int(self.ground[i])
                toks.append(terrains[self.terrain[i]].code + (str(lvl) if lvl else ""))
            rows.append(" ".join(toks))
        return {"columns": self.columns, "rows": self.rows, "hexes": rows}

    def __repr__(self) -> str:
        marks = [f"smoke {label(self.hex_at(i))}" for i in range(self.size) if self.smoke[i]] + [
            f"wrecks {label(self.hex_at(i))} x{self.wrecks[i]}"
            for i in range(self.size)
            if self.wrecks[i]
        ]
        return f"Board({self.to_map_table()!r}{', ' if marks else ''}{', '.join(marks)})"

    def copy(self) -> Board:
        b = Board(self.columns, self.rows, self.terrain.copy(), self.ground.copy(), self.month)
        b.smoke, b.wrecks = self.smoke.copy(), self.wrecks.copy()
        b._lock()
        return b

    # --- indexing -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.columns * self.rows

    def distances(self, i: int) -> np.ndarray:
        """The range from board index ``i`` to every index."""
        q, r = self.axial
        return axial_distance(q - q[i], r - r[i])

    def contains(self, h: Hex) -> bool:
        col, row = to_offset(h)
        return 0 <= col < self.columns and 0 <= row < self.rows

    def index(self, h: Hex) -> int:
        """The array index of hex ``h``; raises KeyError off the map."""
        i = self._index_of.get(h)
        if i is not None:
            return i
        col, row = to_offset(h)
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise KeyError(f"{label(h) if col >= 0 and row >= 0 else h} is off the map")
        return row * self.columns + col

    def around(self, h: Hex) -> tuple[tuple[Hex, ...], bool]:
        """The neighbours of ``h`` that are on the map, in direction order, and whether ``h``
        is an edge hex (a neighbour off the map); made once a hex (the legal moves ask it of
        the moving unit after every step)."""
        got = self._around.get(h)
        if got is None:
            near = h.neighbors()
            inside = tuple(n for n in near if self.contains(n))
            got = (inside, len(inside) < len(near))
            if len(self._around) < self.size:  # bounded: this board's hexes
                self._around[h] = got
        return got

    def edge_beyond(self, h: Hex) -> str | None:
        """The map edge ("north", "south", "west", "east") an off-map hex ``h`` lies beyond;
        None when ``h`` is on the map."""
        col, row = to_offset(h)
        if 0 <= col < self.columns and 0 <= row < self.rows:
            return None
        if row < 0:
            return "north"
        if row >= self.rows:
            return "south"
        return "west" if col < 0 else "east"

    def hex_at(self, i: int) -> Hex:
        return self._hexes[i]

    @property
    def hexes(self) -> list[Hex]:
        return list(self._hexes)

    def parse(self, text: str) -> Hex:
        """An ASL label on this board ("W6"); ValueError when malformed or off the map. The
        labels read are kept (the legal-action lists name thousands of hexes by label)."""
        known = self._parsed
        h = known.get(text)
        if h is not None:
            return h
        h = parse_label(text)
        if not self.contains(h):
            raise ValueError(f"{text} is off the map ({self.describe_size()})")
        if len(known) < 2 * self.size:  # bounded: only labels of this board's hexes
            known[text] = h
        return h

    def describe_size(self) -> str:
        last = label(from_offset(self.columns - 1, self.rows - 1))
        return f"{self.columns} x {self.rows} hexes, A1 to {last}"

    def info(self, h: Hex) -> HexInfo:
        i = self.index(h)
        return HexInfo(
            h,
            label(h),
            self.catalogue.terrains[self.terrain[i]],
            int(self.ground[i]),
            bool(self.smoke[i]),
            int(self.wrecks[i]),
        )

    def level_at(self, h: Hex) -> int:
        """The ground level of hex ``h`` (RD-9: hill level 0-4)."""
        i = self._index_of.get(h)
        return self._levels[self.index(h) if i is None else i]

    def terrain_at(self, h: Hex) -> Terrain:
        """The terrain of hex ``h`` as it stands in the board's month (each kind's seasonal
        form made once: rebuilding it took a replay 4% of its time)."""
        i = self._index_of.get(h)
        kind = self._kinds[self.index(h) if i is None else i]
        seasonal = self._seasonal
        got = seasonal.get((kind, self.month))
        if got is None:
            got = seasonal[(kind, self.month)] = self.catalogue.terrains[kind].for_month(self.month)
        return got

    # --- markers that appear in play ------------------------------------------------------

    def _lock(self) -> None:
        """The markers change only through the methods below (they keep :meth:`markers`
        right): the arrays are read-only in between."""
        self.smoke.setflags(write=False)
        self.wrecks.setflags(write=False)
        self._marker_key: tuple | None = None

    def _mark(self, array: np.ndarray, i: int, value: int | bool) -> None:
        array.setflags(write=True)
        try:
            array[i] = value
        finally:
            array.setflags(write=False)
            self._marker_key = None

    def set_smoke(self, h: Hex, present: bool = True) -> None:
        self._mark(self.smoke, self.index(h), present)

    def add_wreck(self, h: Hex) -> None:
        i = self.index(h)
        self._mark(self.wrecks, i, int(self.wrecks[i]) + 1)

    def remove_wreck(self, h: Hex) -> None:
        i = self.index(h)
        if self.wrecks[i] <= 0:
            raise ValueError(f"no wreck in {label(h)}")
        self._mark(self.wrecks, i, int(self.wrecks[i]) - 1)

    def markers(self) -> tuple:
        """((board index, wrecks) of each hex with a wreck, board indexes with smoke): the
        state hash reads it after every action; kept until a marker changes."""
        key = self._marker_key
        if key is None:
            wrecks = self.wrecks
            key = self._marker_key = (
                tuple((int(i), int(wrecks[i])) for i in wrecks.nonzero()[0]),
                tuple(int(i) for i in self.smoke.nonzero()[0]),
            )
        return key
