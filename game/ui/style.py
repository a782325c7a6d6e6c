"""The screen's style (``data/style.toml``): terrain fills and patterns, side colours, panel
colours, the odds bars' colours. Loaded once."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
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
