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


def surface_owners(top: int = 8) -> list[str]:
    """The live surfaces by owner, most pixels first: ``"count, MiB owner"``, the owner being
    the nearest object up the referrers (the object, ``global module.name`` or a function)
    that is not a plain container. How mem44d found file dialogs no screen closed (1,337
    surfaces with the soak's game alone open). The frozen objects are thawed while it looks
    (``gc.get_referrers`` does not see them)."""
    import collections
    import gc

    import pygame

    frozen = gc.get_freeze_count()
    gc.unfreeze()
    try:
        objs = gc.get_objects()
        found: dict[int, tuple[pygame.Surface, object]] = {}
        for root in objs:
            todo, looked = [root], set()
            while todo:
                for r in gc.get_referents(todo.pop()):
                    if isinstance(r, pygame.Surface):
                        found.setdefault(id(r), (r, root))
                    elif isinstance(r, _PLAIN) and not gc.is_tracked(r) and id(r) not in looked:
                        looked.add(id(r))
                        todo.append(r)
        held = list(found.values())
        mine = {id(objs), id(found), id(held), *(id(h) for h in held)}
        count: collections.Counter[str] = collections.Counter()
        size: collections.Counter[str] = collections.Counter()
        named: dict[int, str] = {}
        for surface, root in held:
            if id(root) not in named:
                named[id(root)] = _owner(root, mine)
            count[named[id(root)]] += 1
            size[named[id(root)]] += _own_pixels(surface)
        del objs, held, found
    finally:
        if frozen:
            gc.freeze()
    return [f"{count[k]}, {size[k] / 2**20:.1f} MiB {k}" for k, _ in size.most_common(top)]


_PLAIN = (list, dict, tuple, set, frozenset)


def _owner(root: object, mine: set[int], depth: int = 5) -> str:
    """The nearest up ``root``'s referrers that is not a plain container (nor one of ``mine``,
    the looker's own)."""
    import gc
    import types

    def name(r: object, child: object) -> str:
        if isinstance(r, dict) and "__builtins__" in r and "__name__" in r:
            key = next((k for k, v in r.items() if v is child), "?")
            return f"global {r['__name__']}.{key}"
        if isinstance(r, types.FunctionType):
            return f"function {r.__module__}.{r.__qualname__}"
        if isinstance(r, _PLAIN) or type(r).__name__ == "cell":
            return ""
        return f"{type(r).__module__}.{type(r).__qualname__}"

    if own := name(root, None):
        return own
    level, seen = [root], {*mine, id(root)}
    for _ in range(depth):
        above = []
        for x in level:
            for r in gc.get_referrers(x):
                if id(r) in seen or isinstance(r, types.FrameType):
                    continue
                seen.add(id(r))
                if own := name(r, x):
                    return f"{own} (in a {type(root).__name__})"
                above.append(r)
        level = above
    return f"a {type(root).__name__} held by no object"


def _short(filename: str) -> str:
    """A file as the docs name it: ``game/...`` or a library's ``package/...``."""
    for mark in ("site-packages/", "/game/"):
        if mark in filename:
            return ("game/" if mark == "/game/" else "") + filename.rsplit(mark, 1)[-1]
    return filename


def holders(top: int) -> list[str]:
    """The largest holders of what was allocated since tracing began and is still kept."""
    import tracemalloc

    snap = tracemalloc.take_snapshot().filter_traces(
        (tracemalloc.Filter(False, tracemalloc.__file__),)
    )
    return [
        f"{_short(s.traceback[0].filename)}:{s.traceback[0].lineno} "
        f"{s.size / 2**20:.1f} MiB in {s.count} blocks"
        for s in snap.statistics("lineno")[:top]
    ]
