"""Python's cyclic garbage collector paused over the long reads of a save: reading one and
replaying its actions make millions of small objects and no cycles, and each of the
collector's full passes walks all of them (reading a 200,000-action save spent two thirds of
its 3 s in them, and freed nothing)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (reference counting frees as usual); the
    collector runs again after it if it ran before (nested blocks: the outermost decides).
    What is already garbage is collected first, so that it is not held through the block (a
    viewer closed just before, with its snapshots, would be)."""
    was = gc.isenabled()
    if was:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
