"""The map's terrain tiles kept, within one budget for the whole window (issue 44, item 7).

Each map renderer kept its last 96 tiles (1 MiB each at the four-board map's zooms), and a
window holds several renderers at once: the editor's under its Test play's, a closed screen's
until it is collected. A 20-minute soak of random input held 2,300 surfaces, 83 MiB, two
renderers' tiles among them. Here every renderer's tiles share :data:`MAX_TILE_BYTES`: the
least recently drawn tile of any renderer goes first, so the map on screen keeps its tiles
and one covered or closed gives its up.
"""

from __future__ import annotations

import itertools
import time
import weakref
from collections import OrderedDict
from collections.abc import Iterator

import pygame

MAX_TILE_BYTES = 32 * 2**20
"""The pixels every renderer's tiles may hold together: 32 tiles of 512 x 512 (1 MiB each),
more than a full-HD window's map shows at once (20 at most), so that no frame draws a tile
again; another zoom's or a covered screen's go first."""

TILE_BUDGET_S = 0.03
"""A frame's time for new map tiles (the editor's and the play screen's
:attr:`.MapView.tile_budget`): a map read again (an undo), a zoom or a new game's first frame is
drawn over a few frames, not all at once (issue 44: 6-16 s frames on a loaded machine)."""

Key = tuple[int, bool, int, int]
"""(zoom, labels shown, tile column, tile row)."""

_frame_bytes = 0
"""The most pixels one frame's tiles have taken (:func:`drawn_at_once`): a window larger than
full HD (4K: 40 tiles) keeps twice that, so that no frame draws a tile it drew the last."""

_ALL: weakref.WeakSet[Tiles] = weakref.WeakSet()
_clock = itertools.count()
"""When each tile was last drawn, across renderers (the least recent goes first)."""


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_pitch() * surface.get_height()


class Tiles:
    """One renderer's tiles, least recently drawn first."""

    def __init__(self) -> None:
        self._tiles: OrderedDict[Key, tuple[pygame.Surface, int]] = OrderedDict()
        self.nbytes = 0
        _ALL.add(self)

    def get(self, key: Key) -> pygame.Surface | None:
        """The tile, marked drawn now; None if it is not kept."""
        kept = self._tiles.get(key)
        if kept is None:
            return None
        self._tiles[key] = (kept[0], next(_clock))
        self._tiles.move_to_end(key)
        return kept[0]

    def put(self, key: Key, surface: pygame.Surface) -> None:
        """Keep ``surface``; the least recently drawn tiles of every renderer go while they
        hold more than :func:`budget` (this one stays, even alone over it)."""
        self.pop(key)
        self._tiles[key] = (surface, next(_clock))
        self.nbytes += _bytes(surface)
        while total_bytes() > budget():
            oldest = min(
                (t for t in _ALL if t._tiles and (t is not self or len(t._tiles) > 1)),
                key=lambda t: next(iter(t._tiles.values()))[1],
                default=None,
            )
            if oldest is None:
                break
            oldest.pop(next(iter(oldest._tiles)))

    def peek(self, key: Key) -> pygame.Surface | None:
        """The tile if kept, not marked drawn (a stand-in for another renderer's)."""
        kept = self._tiles.get(key)
        return None if kept is None else kept[0]

    def pop(self, key: Key) -> None:
        kept = self._tiles.pop(key, None)
        if kept is not None:
            self.nbytes -= _bytes(kept[0])

    def clear(self) -> None:
        self._tiles.clear()
        self.nbytes = 0

    def keys(self) -> list[Key]:
        return list(self._tiles)

    def __getitem__(self, key: Key) -> pygame.Surface:
        return self._tiles[key][0]

    def __iter__(self) -> Iterator[Key]:
        return iter(self._tiles)

    def __len__(self) -> int:
        return len(self._tiles)


def total_bytes() -> int:
    """The pixels every live renderer's tiles hold now."""
    return sum(t.nbytes for t in _ALL)


def drawn_at_once(nbytes: int) -> None:
    """A frame draws tiles of ``nbytes`` pixels: the budget holds twice the most seen."""
    global _frame_bytes
    _frame_bytes = max(_frame_bytes, nbytes)


def budget() -> int:
    """The pixels every renderer's tiles may hold together: :data:`MAX_TILE_BYTES`, or twice
    the largest frame's tiles if more."""
    return max(MAX_TILE_BYTES, 2 * _frame_bytes)


class Deadline:
    """A frame's time for drawing new tiles (``seconds``; None: no end): a tile kept is always
    shown, a new one drawn while time is left, one at least; past it the tile is :attr:`owed`
    to the next frames. A new renderer of a large map at a small zoom drew some 20 tiles in
    one frame: 4-5 s on a loaded machine, the window drawing nothing else (issue 44)."""

    def __init__(self, seconds: float | None) -> None:
        self.until = None if seconds is None else time.perf_counter() + seconds
        self.fresh = 0
        self.owed = False

    def allows(self, kept: bool) -> bool:
        """Whether a tile (``kept``: already drawn) may be shown now."""
        if kept or self.until is None or not self.fresh or time.perf_counter() < self.until:
            self.fresh += not kept
            return True
        self.owed = True
        return False
