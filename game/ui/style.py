"""The screen's style (``data/style.toml``): terrain fills and patterns, side colours, panel
colours, the odds bars' colours. Loaded once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class TerrainStyle:
    fill: RGB
    pattern: str
    ink: RGB


@dataclass(frozen=True)
class SideStyle:
    fill: RGB
    ink: RGB
    edge: RGB


@dataclass(frozen=True)
class Style:
    terrain: dict[str, TerrainStyle]
    level_tint: RGB
    level_step: float
    contour: RGB
    sides: dict[str, SideStyle]
    ui: dict[str, RGB]
    outcomes: dict[str, RGB]

    def side(self, name: str) -> SideStyle:
        return self.sides.get(name, self.sides["other"])

    def label_ink(self, fill: RGB) -> RGB:
        """The hex label's ink on ``fill``: the dark one or the light one, whichever reads
        better (the dark label all but vanished on woods and high hills). Kept by colour: each
        hex of a map tile asks, and working it out was a tenth of drawing the tile."""
        return _ink(self.ui["label"], self.ui["label_light"], fill)


@lru_cache(maxsize=1024)
def _ink(dark: RGB, light: RGB, fill: RGB) -> RGB:
    return dark if contrast(dark, fill) >= contrast(light, fill) else light


def _luminance(c: RGB) -> float:
    """Relative luminance (WCAG 2)."""

    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21; 4.5 reads as body text)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _rgb(v: list[int]) -> RGB:
    r, g, b = (int(x) for x in v)
    return (r, g, b)


@cache
def style() -> Style:
    raw = tomllib.loads(resources.files("game.ui").joinpath("data/style.toml").read_text("utf-8"))
    return Style(
        terrain={
            k: TerrainStyle(_rgb(v["fill"]), v["pattern"], _rgb(v.get("ink", v["fill"])))
            for k, v in raw["terrain"].items()
        },
        level_tint=_rgb(raw["levels"]["tint"]),
        level_step=float(raw["levels"]["step"]),
        contour=_rgb(raw["levels"]["contour"]),
        sides={
            k: SideStyle(_rgb(v["fill"]), _rgb(v["ink"]), _rgb(v["edge"]))
            for k, v in raw["sides"].items()
        },
        ui={k: _rgb(v) for k, v in raw["ui"].items()},
        outcomes={k: _rgb(v) for k, v in raw["outcomes"].items()},
    )
