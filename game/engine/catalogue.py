"""The unit catalogue (game/engine/data/catalogue.toml): vehicles, Guns and infantry squads with
their AT support weapons. The figures are hexfire's own (the data file says so)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from game.rules.tables import Gun, tables

from .vocabulary import Category

SPECIAL_AMMO = ("APCR", "APDS")
"""RD-17: the scarce ammunition, each with its depletion number."""


class UnitCatalogueError(ValueError):
    """The catalogue data file is malformed."""


@dataclass(frozen=True, slots=True)
class UnitType:
    """One kind of unit: an AFV, an unarmored vehicle, a Gun or an infantry squad."""

    key: str
    name: str
    nationality: str
    category: Category
    """"afv", "vehicle", "gun" or "infantry"."""
    turret: bool = False
    open_topped: bool = False
    af_hull_front: int | None = None
    af_hull_side: int | None = None
    af_turret_front: int | None = None
    af_turret_side: int | None = None
    chart_front: str | None = None
    chart_rear: str | None = None
    atfp: str | None = None
    size: int = 0
    mp: float = 0
    mf: float = 0
    morale: int = 8
    red_cs: bool = False
    gun: str | None = None
    ammo: tuple[str, ...] = ()
    rof: int = 0
    depletion: tuple[tuple[str, int], ...] = ()
    """RD-17: (special ammunition, depletion number 1-6) where the type has its own, instead
    of its nationality's figure for the year (:func:`depletion_number`)."""
    sw: str | None = None
    available: str | None = None
    """"YYYY-MM": the first month a scenario may field it (hexfire dates)."""

    @property
    def is_vehicle(self) -> bool:
        return self.category in ("afv", "vehicle")

    @property
    def armored(self) -> bool:
        return self.category == "afv"

    @property
    def has_at_weapon(self) -> bool:
        """It may make AT attacks (002): a Gun, an AFV's gun, or Infantry with an AT SW."""
        return bool(self.gun) or bool(self.sw)

    @property
    def caliber(self) -> float:
        return _caliber(self.gun) if self.gun else 0.0

    def af(self, location: str, aspect: str) -> int | None:
        """The AF of a location ("hull"/"turret") for an aspect (side and rear use the side AF)."""
        if not self.armored:
            return None
        if location == "hull":
            return self.af_hull_front if aspect == "front" else self.af_hull_side
        return self.af_turret_front if aspect == "front" else self.af_turret_side

    @property
    def worst_af(self) -> int | None:
        vals = [self.af_hull_front, self.af_hull_side, self.af_turret_front, self.af_turret_side]
        present = [v for v in vals if v is not None]
        return min(present) if present else None


@cache
def _caliber(gun: str) -> float:
    """A gun designation's caliber (read once: every shot's acquisition asks it)."""
    return Gun.parse(gun).caliber


def _unit(key: str, category: str, d: dict) -> UnitType:
    where = f"catalogue.toml: {category}.{key}"
    try:
        af = d.get("af", {})
        chart = d.get("chart", {})
        kind = d.get("kind", category)
        u = UnitType(
            key=key,
            name=d["name"],
            nationality=d["nationality"],
            category=kind,
            turret=bool(d.get("turret", False)),
            open_topped=bool(d.get("open_topped", False)),
            af_hull_front=af.get("hull_front"),
            af_hull_side=af.get("hull_side"),
            af_turret_front=af.get("turret_front"),
            af_turret_side=af.get("turret_side"),
            chart_front=chart.get("front"),
            chart_rear=chart.get("rear"),
            atfp=d.get("atfp"),
            size=int(d.get("size", 0)),
            mp=float(d.get("mp", 0)),
            mf=float(d.get("mf", 0)),
            morale=int(d.get("morale", tables().raw["to_kill"]["crew_morale"])),
            red_cs=bool(d.get("red_cs", False)),
            gun=d.get("gun"),
            ammo=tuple(d.get("ammo", ())),
            rof=int(d.get("rof", 0)),
            depletion=tuple(sorted(d.get("depletion", {}).items())),
            sw=d.get("sw"),
            available=d.get("available"),
        )
    except KeyError as e:
        raise UnitCatalogueError(f"{where}: missing {e.args[0]}") from None
    if u.category not in ("afv", "vehicle", "gun", "infantry"):
        raise UnitCatalogueError(f"{where}: kind must be afv or vehicle")
    if u.armored and None in (u.af_hull_front, u.af_hull_side, u.af_turret_front, u.af_turret_side):
        raise UnitCatalogueError(f"{where}: an AFV needs af hull/turret front/side")
    scale = tables().armor_scale
    for v in (u.af_hull_front, u.af_hull_side, u.af_turret_front, u.af_turret_side):
        if v is not None and v not in scale:
            raise UnitCatalogueError(f"{where}: AF {v} is not on the C7.11 scale")
    if u.armored and not (u.chart_front and u.chart_rear and u.atfp):
        raise UnitCatalogueError(f"{where}: an AFV needs chart front/rear letters and an atfp")
    if not -2 <= u.size <= 2:
        raise UnitCatalogueError(f"{where}: size must be -2..+2")
    if u.gun:
        Gun.parse(u.gun)
    numbers = dict(u.depletion)
    if not set(numbers) <= {a for a in u.ammo if a in SPECIAL_AMMO}:
        raise UnitCatalogueError(
            f"{where}: depletion: only for the special ammunition it carries (RD-17)"
        )
    if any(type(n) is not int or not 1 <= n <= 6 for n in numbers.values()):
        raise UnitCatalogueError(f"{where}: depletion: numbers are 1-6 (RD-17)")
    if u.sw and u.sw not in tables().sw:
        raise UnitCatalogueError(f"{where}: unknown support weapon {u.sw}")
    return u


@cache
def _raw() -> dict:
    text = resources.files("game.engine").joinpath("data/catalogue.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def unit_types() -> dict[str, UnitType]:
    """Every unit type by key."""
    raw = _raw()
    out: dict[str, UnitType] = {}
    for category in ("vehicle", "gun", "infantry"):
        for key, d in raw.get(category, {}).items():
            if key in out:
                raise UnitCatalogueError(f"catalogue.toml: duplicate unit type {key}")
            out[key] = _unit(key, category, d)
    table = depletion_table()
    for key, u in out.items():
        for ammo in u.ammo:
            own = ammo in dict(u.depletion)
            if ammo in SPECIAL_AMMO and not own and (u.nationality, ammo) not in table:
                raise UnitCatalogueError(
                    f"catalogue.toml: {key}: {ammo}: no depletion number for "
                    f"{u.nationality} {ammo} ([depletion.{u.nationality}], RD-17)"
                )
    return out


FIRST_YEAR, LAST_YEAR = 1941, 1945
"""The years of the depletion table; an earlier year reads the first, a later the last."""
UNDATED_YEAR = 1944
"""The year a set-up without a date (one built in code) takes for RD-17."""


@cache
def depletion_table() -> dict[tuple[str, str], tuple[int, ...]]:
    """RD-17: (nationality, special ammunition) -> its depletion number for each year 1941-1945
    (0: not yet issued)."""
    out: dict[tuple[str, str], tuple[int, ...]] = {}
    for nationality, row in _raw().get("depletion", {}).items():
        for ammo, numbers in row.items():
            years = LAST_YEAR - FIRST_YEAR + 1
            if (
                ammo not in SPECIAL_AMMO
                or not isinstance(numbers, list)
                or len(numbers) != years
                or any(type(n) is not int or not 0 <= n <= 6 for n in numbers)
            ):
                raise UnitCatalogueError(
                    f"catalogue.toml: depletion.{nationality}.{ammo}: expected {years} numbers "
                    "0-6, one a year 1941-1945 (RD-17)"
                )
            out[(nationality, ammo)] = tuple(numbers)
    return out


def depletion_number(ut: UnitType, ammo: str | None, year: int | None) -> int | None:
    """RD-17: the depletion number of ``ammo`` for a unit of type ``ut`` in ``year``: the type's
    own if it has one, else its nationality's for the year. None: not special ammunition (or
    not carried); 0: not yet issued that year."""
    if ammo not in SPECIAL_AMMO or ammo not in ut.ammo:
        return None
    own = dict(ut.depletion).get(ammo)
    if own is not None:
        return own
    row = depletion_table()[(ut.nationality, ammo)]
    y = min(max(year if year is not None else UNDATED_YEAR, FIRST_YEAR), LAST_YEAR)
    return row[y - FIRST_YEAR]


def nationalities() -> tuple[str, ...]:
    """The catalogue's nationalities, sorted (an editor's choice of them)."""
    return tuple(sorted({u.nationality for u in unit_types().values()}))


@cache
def _search_table() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    """The catalogue's ``[search]`` table: other spellings of a word, and words for a kind."""
    raw = _raw().get("search", {})
    spellings = {
        k.casefold(): tuple(v.casefold() for v in vs) for k, vs in raw.get("spellings", {}).items()
    }
    return spellings, {k.casefold(): v for k, v in raw.get("kinds", {}).items()}


def _word_finds(word: str, u: UnitType) -> bool:
    """Whether one word of a search finds type ``u``: in its name or key, one of the word's
    other spellings in its name, or the word names its kind (``tank``: an AFV)."""
    name, key = u.name.casefold(), u.key.casefold()
    if word in name or word in key:
        return True
    spellings, kinds = _search_table()
    if any(s in name for s in spellings.get(word, ())):
        return True
    return kinds.get(word) == u.category


def search_units(
    text: str = "", nationality: str | None = None, year: int | str | None = None
) -> tuple[UnitType, ...]:
    """The unit types an editor offers for a search: every word of ``text`` in the type's
    name or key, or one of its other spellings, or its kind (the catalogue's ``[search]``;
    case ignored; empty: any), of ``nationality`` (None: any), fielded by
    ``year`` (a year, or a scenario date "YYYY-MM": the type's ``available`` month no later;
    None: any). The catalogue gives the first month of service only, no last: a type stays
    in service from then on, and a type without ``available`` matches every year. Sorted by
    nationality, category and name."""
    words = text.casefold().split()
    latest: str | None
    if isinstance(year, int):
        latest = f"{year:04d}-12"
    else:
        latest = year.strip() if isinstance(year, str) and year.strip() else None
    found = [
        u
        for u in unit_types().values()
        if all(_word_finds(w, u) for w in words)
        and (nationality is None or u.nationality == nationality.casefold())
        and (latest is None or u.available is None or u.available <= latest)
    ]
    order = ("afv", "vehicle", "gun", "infantry")
    return tuple(sorted(found, key=lambda u: (u.nationality, order.index(u.category), u.name)))
