"""Tables made per board size, kept for the size in use only (issue 44, item 7).

The line tables of a board size (:func:`.lines.line_tables`, 28 MiB for the four-board map;
:func:`.sightlines.sight_lines`, 66 MiB for a 200 x 200 one) were kept by ``lru_cache`` for the
last 4 and 2 sizes asked for: a window that met other sizes (the editor's maps, the lessons,
the start screen's scenarios) kept them all to the end. :class:`OneSize` keeps the tables of
the last size asked for of any of them (the size in use: a 200 x 200 game's sight lines go
once the four-board map's line tables are asked for), and any other only while a board's LOS
still uses it (a game open on one size, the editor checking another): a size no one uses is
let go, and made again if asked for again.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Generic, NamedTuple, TypeVar

T = TypeVar("T")

_CACHES: weakref.WeakSet[OneSize] = weakref.WeakSet()
"""Every :class:`OneSize`: a size asked of one is the size in use for all."""


class SizeCacheInfo(NamedTuple):
    """What a :class:`OneSize` holds now and has done (as ``lru_cache``'s ``cache_info``)."""

    hits: int
    misses: int
    kept: tuple[tuple[int, int], ...]
    """The sizes whose tables are alive (the last one asked for, and those still used)."""


class OneSize(Generic[T]):
    """``make(columns, rows)`` cached for the last size asked for, and for any size whose
    tables are still referred to elsewhere (a weak reference finds them again)."""

    def __init__(self, make: Callable[[int, int], T]):
        self._make = make
        self.__doc__ = make.__doc__
        self._last: tuple[tuple[int, int], T] | None = None
        self._alive: weakref.WeakValueDictionary[tuple[int, int], T] = weakref.WeakValueDictionary()
        self._lock = threading.Lock()
        self._hits = self._misses = 0
        _CACHES.add(self)

    def __call__(self, columns: int, rows: int) -> T:
        key = (columns, rows)
        for other in list(_CACHES):
            if other is not self:
                other._in_use(key)
        with self._lock:
            last = self._last
            hit = last[1] if last is not None and last[0] == key else self._alive.get(key)
            if hit is not None:
                self._hits += 1
                self._last = (key, hit)
                return hit
            self._misses += 1
        made = self._make(columns, rows)  # (outside the lock: another size may be made meanwhile)
        with self._lock:
            hit = self._alive.get(key)  # made by another thread meanwhile: one copy kept
            if hit is None:
                self._alive[key] = hit = made
            self._last = (key, hit)
        return hit

    def _in_use(self, key: tuple[int, int]) -> None:
        """``key`` is the size in use now: another size's tables are kept only while used."""
        with self._lock:
            if self._last is not None and self._last[0] != key:
                self._last = None

    def cache_clear(self) -> None:
        """Forget every size (the benchmarks time a size made from scratch)."""
        with self._lock:
            self._last = None
            self._alive = weakref.WeakValueDictionary()

    def cache_info(self) -> SizeCacheInfo:
        with self._lock:
            return SizeCacheInfo(self._hits, self._misses, tuple(sorted(self._alive.keys())))


def one_size(make: Callable[[int, int], T]) -> OneSize[T]:
    """Decorator: :class:`OneSize` over ``make``."""
    return OneSize(make)
