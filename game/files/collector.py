"""Python's cyclic garbage collector paused over the long reads of a save: reading one and
replaying its actions make millions of small objects and no cycles, and each of the
collector's full passes walks all of them (reading a 200,000-action save spent two thirds of
its 3 s in them, and freed nothing)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_depth = 0
"""How many blocks are inside the pause, in every thread."""
_resume = False
"""Whether the collector ran when the first of them began (it runs again after the last)."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (reference counting frees as usual); the
    collector runs again after the last block still open, in any thread, ends, if it ran
    before the first began. What is already garbage is collected first, so that it is not
    held through the block (a viewer closed just before, with its snapshots, would be)."""
    global _depth, _resume
    with _LOCK:
        if _depth == 0:
            _resume = gc.isenabled()
            if _resume:
                gc.collect()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()


def settle() -> None:
    """A game was opened and will be played for a while: collect what is garbage now (the last
    game's included), then leave what lives to the collector's oldest generation for good
    (``gc.freeze``), so that its full passes during play walk only what play makes (a full
    pass over a four-board game's objects took 35 ms: a frame and a half, at random moments)."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def unsettle() -> None:
    """The game :func:`settle` left out of the collector's passes has closed: every object goes
    back to them, so that what the game held in cycles is freed by the next collection (frozen,
    a closed game's boards, map tiles and history stayed until another game opened: issue 44,
    item 7)."""
    gc.unfreeze()
