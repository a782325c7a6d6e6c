"""Maps made from a seed: the benchmark's 4-board map and random maps for property tests.

Terrain comes in patches, as on a real board: hills of levels 1-3 as stepped mounds, woods,
orchards and grain in clumps, buildings in small villages, a road across. The same seed gives
the same map.
"""

from __future__ import annotations

import numpy as np

from .board import Board, axial_arrays
from .hexes import axial_distance
from .terrain import terrain_catalogue


def _patch(q: np.ndarray, r: np.ndarray, center: int, radius: int) -> np.ndarray:
    """The board indices within ``radius`` of index ``center``, in index order."""
    return np.flatnonzero(axial_distance(q - q[center], r - r[center]) <= radius)


def random_map(columns: int, rows: int, seed: int, density: float = 1.0) -> Board:
    """A map of ``columns`` x ``rows`` with woods, buildings, orchards, grain, brush, a road and
    hills 0-3, reproducible from ``seed``. ``density`` scales the number of patches."""
    rng = np.random.default_rng(seed)
    cat = terrain_catalogue()
    n = columns * rows
    q, r = axial_arrays(columns, rows)
    terrain = np.full(n, cat.by_key("open").id, dtype=np.int8)
    ground = np.zeros(n, dtype=np.int8)
    area = n / 100.0

    def center() -> int:
        return int(rng.integers(n))

    for k in range(max(1, round(area * 0.6 * density))):  # hills: stepped mounds
        c = center()
        top = 3 if k == 0 else int(rng.integers(1, 4))
        for lvl in range(1, top + 1):
            radius = int(rng.integers(1, 4)) + (top - lvl) * 2
            patch = _patch(q, r, c, radius)
            ground[patch] = np.maximum(ground[patch], lvl)
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
            patch = _patch(q, r, c, int(rng.integers(0, max_radius + 1)))
            terrain[patch[rng.random(len(patch)) < 0.75]] = tid  # the same draws, in order
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


def large_map(seed: int = 1944) -> Board:
    """The benchmark's large map: 200 x 200 = 40,000 hexes, the largest a scenario may have."""
    return random_map(200, 200, seed)
