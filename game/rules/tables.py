"""The rules tables (game/rules/data/tables.toml), loaded once and checked on load.

Code holds the procedure, data holds the numbers: the To Hit Numbers (002, RD-1), the four To
Kill tables and Case D (C7.24, C7.31-.34), FT / MOL / DC (C7.344, C7.346), the AF scale (C7.11),
Shock / UK recovery (C7.42), abandonment (002) and the Armor Elimination Chart (002, RD-15).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources

NA = None
"""A Case D cell that refuses the shot."""

_GUN = re.compile(r"^(\d+(?:\.\d+)?)(\*|LL|L)?$")


class TablesError(ValueError):
    """tables.toml is malformed."""


@dataclass(frozen=True, slots=True)
class Gun:
    """A gun designation: caliber in mm and barrel length ("" normal, "*" short, "L", "LL").

    >>> Gun.parse("75L")
    Gun(designation='75L', caliber=75.0, length='L')
    >>> Gun.parse("37*").base
    '37'
    """

    designation: str
    caliber: float
    length: str

    @classmethod
    def parse(cls, text: str) -> Gun:
        t = text.strip()
        if t.upper() == "ATR":
            return cls("ATR", 14.5, "")
        m = _GUN.match(t)
        if not m:
            raise ValueError(
                f"bad gun {text!r}: expected a caliber in mm, then *, L or LL (e.g. 75L, 37*)"
            )
        return cls(t, float(m.group(1)), m.group(2) or "")

    @property
    def base(self) -> str:
        """The caliber alone, as the HEAT table lists it (7.33: lengths omitted)."""
        c = self.caliber
        return str(int(c)) if c == int(c) else str(c)


@dataclass(frozen=True, slots=True)
class SupportWeapon:
    key: str
    name: str
    range: int
    ammo: str
    tk: str
    atfp: str
    long_range: int | None = None


@dataclass(frozen=True)
class Tables:
    raw: dict

    # --- To Hit -------------------------------------------------------------------------
    @property
    def to_hit(self) -> dict:
        return self.raw["to_hit"]

    # --- To Kill ------------------------------------------------------------------------
    def basic(self, table: str) -> dict[str, int]:
        return self.raw[table]["basic"]

    def colored(self, table: str) -> dict[str, dict[str, int]]:
        return self.raw[table].get("colored", {})

    @property
    def colours(self) -> dict[str, list[str]]:
        return self.raw["colours"]

    @property
    def armor_scale(self) -> list[int]:
        return self.raw["armor"]["scale"]

    @cached_property
    def sw(self) -> dict[str, SupportWeapon]:
        return {
            k: SupportWeapon(
                k, v["name"], v["range"], v["ammo"], v["tk"], v["atfp"], v.get("long_range")
            )
            for k, v in self.raw["sw"].items()
        }

    def chart_cell(self, atfp: str, af: str) -> str:
        letters = self.raw["chart"]["letters"]
        return self.raw["chart"]["elimination"][letters.index(atfp)][letters.index(af)]


def parse_drm_cell(cell: str) -> int | None:
    """A Case D cell: "+2" -> 2, "0" -> 0, "NA" -> None (no shot).

    >>> parse_drm_cell("+2"), parse_drm_cell("0"), parse_drm_cell("NA")
    (2, 0, None)
    """
    if cell == "NA":
        return NA
    return int(cell)


def _check(raw: dict) -> None:
    def need(cond: bool, where: str, what: str) -> None:
        if not cond:
            raise TablesError(f"tables.toml: {where}: {what}")

    for table in ("ap", "apcr", "apds", "heat"):
        for gun, tk in raw[table]["basic"].items():
            need(isinstance(tk, int) and 1 <= tk <= 40, f"{table}.basic.{gun}", "TK# 1-40")
    for table in ("ap", "apcr"):
        for gun in raw[table]["basic"]:
            Gun.parse(gun)
    ap_d = raw["ap"]["case_d"]
    need(len(ap_d["rows"]) == len(ap_d["bands"]), "ap.case_d", "one row per band")
    for row in ap_d["rows"]:
        need(len(row) == len(ap_d["range_max"]), "ap.case_d.rows", "one cell per range band")
        for cell in row:
            parse_drm_cell(cell)
    he = raw["he"]
    need(
        len(he["bands"]) == len(he["armored_basic"]) == len(he["unarmored_final"]),
        "he",
        "bands, armored_basic and unarmored_final of one length",
    )
    scale = raw["armor"]["scale"]
    need(scale == sorted(scale) and scale[0] == 0, "armor.scale", "ascending from 0")
    chart = raw["chart"]
    need(len(chart["elimination"]) == 6, "chart.elimination", "six rows (ATFP A-F)")
    for row in chart["elimination"]:
        need(len(row) == 6, "chart.elimination", "six columns (AF A-F)")
        for cell in row:
            need(cell in ("-", "E") or cell.isdigit(), "chart.elimination", f"bad cell {cell!r}")
    for key, sw in raw["sw"].items():
        need(sw["atfp"] in chart["letters"], f"sw.{key}.atfp", "a letter A-F")
        need(sw["ammo"] in ("HEAT", "AP", "FT", "MOL", "DC"), f"sw.{key}.ammo", "HEAT/AP/FT/MOL/DC")


@cache
def tables() -> Tables:
    """The rules tables shipped with the game.

    >>> t = tables()
    >>> t.to_hit["gun_short"], t.to_hit["gun_medium"], t.to_hit["gun_long"], t.to_hit["sw"]
    (10, 8, 6, 8)
    >>> t.chart_cell("D", "D")
    '7'
    """
    text = resources.files("game.rules").joinpath("data/tables.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    _check(raw)
    return Tables(raw)
