"""The terrain catalogue (game/board/data/terrain.toml): MP costs (RD-10), TEM (Case Q, C6.8)
and LOS role (RD-9), loaded once and checked on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class Terrain:
    """One kind of terrain. Heights are in levels above the hex's ground level (RD-9)."""

    id: int
    key: str
    code: str
    name: str
    mp: float
    """Vehicle MP to enter (RD-10); negative: a vehicle may not enter."""
    mf: float
    """Infantry MF to enter (RD-10)."""
    tem: int
    """Case Q TEM (C6.8)."""
    obstacle: int
    hindrance: int
    hindrance_top: float
    orchard: bool = False
    mp_from_other: float | None = None
    """Vehicle MP to enter it from a hex of other terrain, if not ``mp`` (RD-10: a road costs
    1/2 MP only along the road)."""
    season: tuple[int, int] | None = None
    """The months (first, last) it is in season; None: always."""
    out_of_season: tuple[tuple[str, object], ...] = ()
    """Field values that change outside its season."""

    def in_season(self, month: int | None) -> bool:
        if self.season is None or month is None:
            return True
        first, last = self.season
        return first <= month <= last if first <= last else (month >= first or month <= last)

    def for_month(self, month: int | None) -> Terrain:
        """This terrain as it stands in ``month`` (TABLES.md: grain, orchard "in season")."""
        if self.in_season(month):
            return self
        changes: dict[str, Any] = dict(self.out_of_season)
        return replace(self, **changes)

    @property
    def enterable_by_vehicle(self) -> bool:
        return self.mp >= 0

    def vehicle_mp(self, came_from: Terrain) -> float:
        """RD-10: the MP to enter from a hex of ``came_from`` (a road costs 1/2 MP only along
        the road, from a road hex; from any other hex it costs as open ground)."""
        if self.mp_from_other is not None and came_from.key != self.key:
            return self.mp_from_other
        return self.mp


@dataclass(frozen=True, slots=True)
class Marker:
    """A hindrance that appears in play (smoke, wreck) in the hex it stands in (RD-9)."""

    key: str
    name: str
    hindrance: int
    hindrance_top: float


@dataclass(frozen=True, slots=True)
class Catalogue:
    terrains: tuple[Terrain, ...]
    max_level: int
    climb_mp: float
    smoke: Marker
    wreck: Marker

    def by_key(self, key: str) -> Terrain:
        for t in self.terrains:
            if t.key == key:
                return t
        raise KeyError(f"unknown terrain {key!r}")

    @property
    def codes(self) -> dict[str, Terrain]:
        return {t.code: t for t in self.terrains}


class TerrainCatalogueError(ValueError):
    """The terrain data file is malformed."""


def _need(table: dict, key: str, kind: type | tuple[type, ...], where: str):
    if key not in table:
        raise TerrainCatalogueError(f"terrain.toml: {where}.{key}: missing")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise TerrainCatalogueError(
            f"terrain.toml: {where}.{key}: wrong type {type(value).__name__}"
        )
    return value


def _season(t: dict, where: str) -> tuple[int, int] | None:
    s = t.get("season")
    if s is None:
        return None
    if not (
        isinstance(s, list) and len(s) == 2 and all(isinstance(m, int) and 1 <= m <= 12 for m in s)
    ):
        raise TerrainCatalogueError(
            f"terrain.toml: {where}.season: expected [first month, last month]"
        )
    for key in t.get("out_of_season", {}):
        if key not in ("obstacle", "hindrance", "hindrance_top", "orchard", "tem"):
            raise TerrainCatalogueError(
                f"terrain.toml: {where}.out_of_season.{key}: not a seasonal field"
            )
    return (s[0], s[1])


def parse_catalogue(data: dict) -> Catalogue:
    """Check and build the catalogue from the parsed TOML."""
    terrains = []
    seen_codes: set[str] = set()
    for i, (key, t) in enumerate(data.get("terrain", {}).items()):
        where = f"terrain.{key}"
        code = _need(t, "code", str, where)
        if code in seen_codes:
            raise TerrainCatalogueError(f"terrain.toml: {where}.code: duplicate code {code!r}")
        if not code.isalpha() or not code.islower():
            raise TerrainCatalogueError(f"terrain.toml: {where}.code: lower-case letters only")
        seen_codes.add(code)
        terrains.append(
            Terrain(
                id=i,
                key=key,
                code=code,
                name=_need(t, "name", str, where),
                mp=float(_need(t, "mp", (int, float), where)),
                mf=float(_need(t, "mf", (int, float), where)),
                tem=_need(t, "tem", int, where),
                obstacle=_need(t, "obstacle", int, where),
                hindrance=_need(t, "hindrance", int, where),
                hindrance_top=float(_need(t, "hindrance_top", (int, float), where)),
                orchard=bool(t.get("orchard", False)),
                mp_from_other=(
                    None
                    if "mp_from_other" not in t
                    else float(_need(t, "mp_from_other", (int, float), where))
                ),
                season=_season(t, where),
                out_of_season=tuple(sorted(t.get("out_of_season", {}).items())),
            )
        )
    if not terrains:
        raise TerrainCatalogueError("terrain.toml: no [terrain.*] tables")
    hill = data.get("hill", {})
    markers = data.get("marker", {})

    def marker(key: str) -> Marker:
        m = markers.get(key)
        if m is None:
            raise TerrainCatalogueError(f"terrain.toml: marker.{key}: missing")
        return Marker(
            key,
            _need(m, "name", str, f"marker.{key}"),
            _need(m, "hindrance", int, f"marker.{key}"),
            float(_need(m, "hindrance_top", (int, float), f"marker.{key}")),
        )

    return Catalogue(
        terrains=tuple(terrains),
        max_level=_need(hill, "max_level", int, "hill"),
        climb_mp=float(_need(hill, "climb_mp", (int, float), "hill")),
        smoke=marker("smoke"),
        wreck=marker("wreck"),
    )


@cache
def terrain_catalogue() -> Catalogue:
    """The terrain catalogue shipped with the game."""
    text = resources.files("game.board").joinpath("data/terrain.toml").read_text("utf-8")
    return parse_catalogue(tomllib.loads(text))
