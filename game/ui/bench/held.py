"""What a process holds, measured for the soak (issue 44, item 7): its resident memory, what it
keeps once freed memory goes back to the system, the pygame surfaces alive and pygame-gui's
theming-id cache."""

from __future__ import annotations

import os


def rss_mib() -> float:
    """The process's resident memory now (Linux: /proc; elsewhere its peak, as
    :func:`.opening.peak_mib` reads it)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
        return round(pages * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except (OSError, ValueError, IndexError, AttributeError):
        from game.ui.bench.opening import peak_mib

        return peak_mib() or 0.0


def trimmed_rss_mib() -> float | None:
    """The resident memory once the collector has run and glibc's allocator has given back
    what it holds free (``malloc_trim``): what is kept, less what was freed but not returned.
    None where there is no glibc."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        return None
    return rss_mib()


def live_surfaces() -> tuple[int, float]:
    """The pygame surfaces alive now and the MiB of their pixels (a subsurface shares its
    parent's): pygame-gui's pictures, our texts and tiles, the screen. Surfaces are not
    tracked by the collector: they are found as what its objects refer to, through the
    untracked tuples and dicts between; the objects a game's screen left out of the collector
    (``gc.freeze``: :func:`.collector.settle`) are looked through too (they were not, and
    every figure taken with a game open read 0 surfaces)."""
    import gc

    import pygame

    seen: dict[int, pygame.Surface] = {}
    looked: set[int] = set()
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # (get_objects does not list the frozen)
    todo = list(gc.get_objects())
    if frozen:
        gc.freeze()
    while todo:
        for r in gc.get_referents(todo.pop()):
            if isinstance(r, pygame.Surface):
                seen[id(r)] = r
            elif (
                isinstance(r, (tuple, dict, frozenset))
                and not gc.is_tracked(r)
                and id(r) not in looked
            ):
                looked.add(id(r))
                todo.append(r)
    size = sum(_own_pixels(s) for s in seen.values())
    return len(seen), round(size / 2**20, 1)


def _own_pixels(surface) -> int:
    """The bytes of a surface's own pixels: none for a subsurface (its parent's), nor for a
    surface whose display has closed (an earlier window's screen, kept by a frozen object:
    pygame raises on it)."""
    import pygame

    try:
        if surface.get_parent() is not None:
            return 0
        return surface.get_pitch() * surface.get_height()
    except pygame.error:
        return 0


def theme_id_keys_kib(app) -> float:
    """What pygame-gui's theming-id cache holds in its keys (:func:`.memory.compact_theme_ids`)."""
    theme = app.ui.get_theme()
    own = sum(len(k) for k in theme.unique_theming_ids)
    ours = sum(len(repr(k)) for k in getattr(theme, "_hexfire_compact_ids", {}))
    return round((own + ours) / 2**10, 1)
