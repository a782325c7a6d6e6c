"""The unit silhouettes of ``assets/silhouettes.toml`` (drawn for hexfire: hand-written
polygons, a side view per kind of unit), scaled into a counter's symbol box in its side's ink:
sharp at every zoom."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache

import pygame

from game.files.shipped import assets_dir

BOX = (100, 60)
"""The box the silhouettes are drawn in (x to the right, y down)."""

DEFAULT_KIND = {"infantry": "at_infantry", "gun": "towed_gun", "vehicle": "truck"}


@dataclass(frozen=True)
class Silhouette:
    polygons: tuple[tuple[tuple[float, float], ...], ...]
    circles: tuple[tuple[float, float, float], ...]


@cache
def _art() -> tuple[dict[str, Silhouette], dict[str, str]]:
    data = tomllib.loads((assets_dir() / "silhouettes.toml").read_text("utf-8"))
    kinds = {
        name: Silhouette(
            tuple(tuple((float(x), float(y)) for x, y in poly) for poly in k.get("polygons", [])),
            tuple((float(x), float(y), float(r)) for x, y, r in k.get("circles", [])),
        )
        for name, k in data["kinds"].items()
    }
    return kinds, {str(t): str(k) for t, k in data.get("types", {}).items()}


def silhouettes() -> dict[str, Silhouette]:
    """Kind -> its silhouette."""
    return _art()[0]


def kind_of(type_id: str, category: str, turreted: bool) -> str:
    """The silhouette kind of a catalogue type: its own in ``[types]``, else its category's
    (an AFV: tank with a turret, assault gun without)."""
    own = _art()[1].get(type_id)
    if own is not None:
        return own
    if category == "afv":
        return "tank" if turreted else "assault_gun"
    return DEFAULT_KIND.get(category, "tank")


def draw_silhouette(
    surface: pygame.Surface, kind: str, box: pygame.Rect, color: tuple[int, int, int]
) -> None:
    """The silhouette of ``kind`` filled in ``color``, fitted into ``box`` (aspect kept)."""
    art = silhouettes().get(kind)
    if art is None:
        return
    scale = min(box.width / BOX[0], box.height / BOX[1])
    ox = box.centerx - BOX[0] * scale / 2
    oy = box.centery - BOX[1] * scale / 2
    for poly in art.polygons:
        pygame.draw.polygon(surface, color, [(ox + x * scale, oy + y * scale) for x, y in poly])
    for x, y, r in art.circles:
        pygame.draw.circle(surface, color, (ox + x * scale, oy + y * scale), max(1.0, r * scale))
