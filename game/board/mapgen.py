"""Maps made from a seed: the benchmark's 4-board map and random maps for property tests.

Terrain comes in patches, as on a real board: hills of levels 1-3 as stepped mounds, woods,
orchards and grain in clumps, buildings in small villages, a road across. The same seed gives
the same map.
"""

from __future__ import annotations

import numpy as np

from .board import Board
from .hexes import from_offset
from .terrain import terrain_catalogue


def _patch(board_hexes, center, radius: int) -> list[int]:
    return [i for i, h in enumerate(board_hexes) if h.distance(center) <= radius]


def random_map(columns: int, rows: int, seed: int, density: float = 1.0) -> Board:
    """A map of ``columns`` x ``rows`` with woods, buildings, orchards, grain, brush, a road and
    hills 0-3, reproducible from ``seed``. ``density`` scales the number of patches."""
    rng = np.random.default_rng(seed)
    cat = terrain_catalogue()
    n = columns * rows
    hexes = [from_offset(i % columns, i // columns) for i in range(n)]
    terrain = np.full(n, cat.by_key("open").id, dtype=np.int8)
    ground = np.zeros(n, dtype=np.int8)
    area = n / 100.0

    def center():
        return hexes[int(rng.integers(n))]

    for k in range(max(1, round(area * 0.6 * density))):  # hills: stepped mounds
        c = center()
        top = 3 if k == 0 else int(rng.integers(1, 4))
        for lvl in range(1, top + 1):
            radius = int(rng.integers(1, 4)) + (top - lvl) * 2
            for i in _patch(hexes, c, radius):
                ground[i] = max(ground[i], lvl)
    patches = (
        ("woods", 0.9, 3),
        ("orchard", 0.3, 1),
        ("grain", 0.4, 2),
        ("brush", 0.3, 1),
        ("wooden_building", 0.35, 1),
        ("stone_building", 0.25, 1),
    )
    for key, per_100, max_radius in patches:
        tid = cat.by_key(key).id
        for _ in range(max(1, round(area * per_100 * density))):
            c = center()
            for i in _patch(hexes, c, int(rng.integers(0, max_radius + 1))):
                if rng.random() < 0.75:
                    terrain[i] = tid
    road = cat.by_key("road").id
    row = int(rng.integers(rows))
    for col in range(columns):  # a road across the map, wandering a row up or down
        i = row * columns + col
        terrain[i] = road
        if rng.random() < 0.2:
            row = min(rows - 1, max(0, row + int(rng.choice([-1, 1]))))
    return Board(columns, rows, terrain, ground)


def bench_map(seed: int = 1944) -> Board:
    """The benchmark's 4-board map: 66 x 20 = 1,320 hexes (two ASL boards by two)."""
    return random_map(66, 20, seed)
