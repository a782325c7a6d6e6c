"""The window's memory between screens (issue 44, item 7).

Two things a storm of input left behind that no cache of ours held:

- glibc's allocator keeps what the program freed (a closed game's boards, a storm's widgets)
  for reuse instead of giving it back: a 150,000-event storm ended at 480 MiB resident, 305 MiB
  once ``malloc_trim`` returned the free memory. :func:`trim_heap` gives it back when a screen
  is replaced (a game closed, another opened); it does nothing where there is no glibc.
- pygame-gui caches each element's theming ids under a key made with ``str.join`` over the
  stringified id lists, which puts one list's text between every character of the next: a
  key of some 460 KB for a button in a list in a window, 59 such keys (25 MiB) after 10,000
  events. :func:`compact_theme_ids` keys the same cache by the id tuples.
"""

from __future__ import annotations

import ctypes
import gc
import platform
import sys
import types
from collections.abc import Callable
from typing import Any

MAX_THEME_IDS = 4096
"""The most id combinations kept (a few hundred are ever made; past this the cache restarts)."""

_trim: Callable[[int], int] | None = None
_looked = False
_trimming = True
"""Whether :func:`release` trims (``hexfire bench soak --no-trim`` measures without)."""


def set_trimming(on: bool) -> None:
    """Whether a screen change gives freed memory back (:func:`release`)."""
    global _trimming
    _trimming = on


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None (another C library, another system)."""
    global _trim, _looked
    if not _looked:
        _looked = True
        if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
            try:
                _trim = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):
                _trim = None
    return _trim


def trim_heap() -> bool:
    """Give the memory the allocator holds free back to the system (glibc's ``malloc_trim(0)``:
    the top of each arena and the whole free pages inside it); False where there is no glibc
    (a no-op). The caller collects cycles first if it wants them counted."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def release(collect: bool = True) -> bool:
    """What a closed screen left: its cycles collected (``collect``), then :func:`trim_heap`
    (unless :func:`set_trimming` turned it off)."""
    if not _trimming:
        return False
    if collect:
        gc.collect()
    return trim_heap()


def compact_theme_ids(theme: Any) -> None:
    """Key ``theme``'s (a pygame-gui ``UIAppearanceTheme``) cache of combined element ids by
    the id lists as tuples instead of its quadratic string (see the module's text); the ids
    it returns are the same. Safe to call twice."""
    if getattr(theme, "_hexfire_compact_ids", None) is not None:
        return
    build = theme.build_all_combined_ids
    kept: dict[tuple, list[str]] = {}

    def build_all_combined_ids(self, element_base_ids, element_ids, class_ids, object_ids):
        key = tuple(
            None if ids is None else tuple(ids)
            for ids in (element_base_ids, element_ids, class_ids, object_ids)
        )
        got = kept.get(key)
        if got is None:
            got = build(element_base_ids, element_ids, class_ids, object_ids)
            self.unique_theming_ids.clear()  # its one long key: ours is kept instead
            if len(kept) >= MAX_THEME_IDS:
                kept.clear()
            kept[key] = got
        return got

    theme.build_all_combined_ids = types.MethodType(build_all_combined_ids, theme)
    theme._hexfire_compact_ids = kept
    theme.unique_theming_ids.clear()
