"""Which hexes a brush touches: a disc of a radius, a fill of the connected hexes that look the
same, a line (a road, a wall of woods) from one hex to another. Pure geometry on a board: the
editor paints what these return."""

from __future__ import annotations

from dataclasses import dataclass

from game.board import Board
from game.board.hexes import Hex, line, ring

BRUSH_SIZES = (1, 2, 3, 5)
"""The brush's widths in hexes across (1: one hex; 3: the hex and its neighbours)."""
FILL_LIMIT = 40_000
"""The most hexes one fill paints (the largest map's)."""


@dataclass(frozen=True)
class Paint:
    """What a stroke puts in each hex: a terrain kind (its id) and/or a ground level."""

    kind: int | None = None
    level: int | None = None

    def differs(self, board: Board, i: int) -> bool:
        """Whether painting board index ``i`` changes it."""
        return (self.kind is not None and int(board.terrain[i]) != self.kind) or (
            self.level is not None and int(board.ground[i]) != self.level
        )


def disc(board: Board, center: Hex, size: int) -> list[Hex]:
    """The hexes on the map under a brush ``size`` hexes across, centred on ``center``."""
    out = [center] if board.contains(center) else []
    for radius in range(1, (size + 1) // 2):
        out += [h for h in ring(center, radius) if board.contains(h)]
    return out


def stroke_line(board: Board, a: Hex, b: Hex) -> list[Hex]:
    """The hexes of a line from ``a`` to ``b`` (each step to a neighbour: a road drawn so joins
    up), on the map."""
    return [h for h in line(a, b) if board.contains(h)]


def fill(board: Board, start: Hex) -> list[Hex]:
    """The hexes connected to ``start`` with its terrain and level (a flood fill)."""
    if not board.contains(start):
        return []
    i0 = board.index(start)
    kind, level = int(board.terrain[i0]), int(board.ground[i0])
    seen, todo = {start}, [start]
    while todo and len(seen) < FILL_LIMIT:
        h = todo.pop()
        for n in board.around(h)[0]:
            if n not in seen:
                i = board.index(n)
                if int(board.terrain[i]) == kind and int(board.ground[i]) == level:
                    seen.add(n)
                    todo.append(n)
    return sorted(seen, key=board.index)
