"""To Kill, the ``asl`` system (ASL C7): Basic TK#, Cases A-D, AF and the Final TK#. What a TK
DR does against it (the AFV Destruction Table, C7.7) is :mod:`.destruction`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .drm import Drm, Note, RuleError
from .tables import Gun, parse_drm_cell, tables
from .words import plural

ASPECTS = ("front", "side", "rear")


@dataclass(frozen=True, slots=True)
class TkResult:
    """How the Final TK# came about (C7.11): table, Basic TK#, each modification, AF, Final."""

    table: str
    basic: int
    basic_rule: str
    modifications: tuple[Drm, ...]
    modified: int
    af: int | None
    """The AF subtracted (None: unarmored target, FT / MOL, 7.11 / 7.344)."""
    af_rule: str | None
    final: int
    armored: bool
    notes: tuple[Note, ...] = ()

    def to_dict(self) -> dict:
        return {
            "table": self.table,
            "basic": self.basic,
            "basic_rule": self.basic_rule,
            "modifications": [m.to_dict() for m in self.modifications],
            "modified": self.modified,
            "af": self.af,
            "af_rule": self.af_rule,
            "final": self.final,
            "armored": self.armored,
            "notes": [n.to_dict() for n in self.notes],
        }


# --- AF (C7.11, C7.12) ------------------------------------------------------------------------


def aerial_af(worst_af: int) -> int:
    """C7.12 / RD-14: one step below the AFV's worst AF on the C7.11 scale; 0 stays 0.

    >>> aerial_af(8), aerial_af(0)
    (6, 0)
    """
    scale = tables().armor_scale
    if worst_af not in scale:
        raise RuleError("C7.11", f"AF {worst_af} is not on the AF scale {scale}")
    i = scale.index(worst_af)
    return scale[max(0, i - 1)]


# --- Basic TK# ----------------------------------------------------------------------------


def _colour_of(nationality: str | None, variant: str | None, colour: str) -> bool:
    if variant and variant.lower() == colour:
        return True
    return nationality is not None and nationality.lower() in tables().colours.get(colour, [])


def table_for(ammo: str, gun: Gun | None) -> tuple[str, str]:
    """Which TK Table resolves the hit (7.1; the German 28LL / 40LL use APCR, 7.32).

    >>> table_for("AP", None), table_for("HEAT", None)
    (('AP', 'C7.31'), ('HEAT', 'C7.33'))
    """
    always_apcr = tables().raw["apcr"]["german_always"]["guns"]
    if ammo == "AP" and gun is not None and gun.designation in always_apcr:
        return "APCR", "C7.32"
    rule = {"AP": "C7.31", "APCR": "C7.32", "APDS": "C7.32", "HEAT": "C7.33", "HE": "C7.34"}
    if ammo not in rule:
        raise RuleError("C7.1", f"unknown ammunition {ammo!r}")
    return ammo, rule[ammo]


def he_band(caliber: float) -> int:
    """C7.34: the index of the highest caliber band not above the gun's caliber.

    >>> he_band(75)
    4
    """
    bands = tables().raw["he"]["bands"]
    if caliber < bands[0]:
        raise RuleError("C7.34", f"a {caliber:g}mm gun is below the HE To Kill Table (20+)")
    return max(i for i, b in enumerate(bands) if b <= caliber)


def _support_weapon(weapon: str):
    sw = tables().sw.get(weapon)
    if sw is None:
        known = ", ".join(tables().sw)
        raise RuleError("002", f"unknown support weapon {weapon!r} (known: {known})")
    return sw


def _charge_basic(kind: str) -> tuple[str, int, str]:
    """FT / MOL / DC: their Basic TK# (hexfire values), no AF (C7.344) or via the Position DR
    (C7.346); the same figure vs an unarmored target."""
    return kind, tables().raw[kind.lower()]["basic"], "C7.346" if kind == "DC" else "C7.344"


@cache
def basic_tk(
    ammo: str,
    gun: str | None = None,
    weapon: str | None = None,
    nationality: str | None = None,
    variant: str | None = None,
) -> tuple[str, int, str]:
    """(table, Basic TK#, rule) of a hit on an armored target (C7.31-.34, C7.344, C7.346).

    C7.24's example: a 50L AT gun's AP, Basic TK# 13.

    >>> basic_tk("AP", gun="50L")
    ('AP', 13, 'C7.31')
    """
    t = tables()
    if weapon is not None:
        sw = _support_weapon(weapon)
        if sw.ammo in ("FT", "MOL", "DC"):
            return _charge_basic(sw.ammo)
        if sw.ammo == "HEAT":
            return "HEAT", t.basic("heat")[sw.tk], "C7.33"
        gun = sw.tk  # the ATR fires AP
        ammo = "AP"
    if gun is None:
        raise RuleError("C7.1", "a gun (e.g. 75L) or a support weapon is needed")
    g = Gun.parse(gun)
    table, rule = table_for(ammo, g)
    if table == "HE":
        return "HE", t.raw["he"]["armored_basic"][he_band(g.caliber)], rule
    if table == "HEAT":
        value = t.basic("heat").get(g.base)
        if value is None:
            raise RuleError("C7.33", f"a {g.base}mm gun has no HEAT entry on C7.33")
        return "HEAT", value, rule
    key = {"AP": "ap", "APCR": "apcr", "APDS": "apds"}[table]
    for colour, value in t.colored(key).get(g.designation, {}).items():
        if _colour_of(nationality, variant, colour):
            return table, value, f"{rule} ({colour} entry)"
    value = t.basic(key).get(g.designation)
    if value is None:
        raise RuleError(rule, f"{g.designation} is not on the {table} To Kill Table")
    return table, value, rule


def unarmored_final(
    ammo: str,
    gun: str | None,
    weapon: str | None,
    nationality: str | None = None,
    variant: str | None = None,
) -> tuple[str, int, str]:
    """(table, Final TK#, rule) vs an unarmored target (7.311, 7.321, 7.331, 7.342; FT / MOL
    C7.344, DC C7.346). HEAT, APCR and APDS are fired only by the guns their tables list (C7.32,
    C7.33): another gun is refused here as against an armored target.

    >>> unarmored_final("AP", "50L", None)
    ('AP', 8, 'C7.311')
    """
    t = tables()
    if weapon is not None:
        sw = _support_weapon(weapon)
        if sw.ammo in ("FT", "MOL", "DC"):
            return _charge_basic(sw.ammo)
        if sw.ammo == "HEAT":
            return "HEAT", t.raw["heat"]["unarmored_final"], "C7.331"
        gun, ammo = sw.tk, "AP"
    if gun is None:
        raise RuleError("C7.1", "a gun (e.g. 75L) or a support weapon is needed")
    g = Gun.parse(gun)
    if ammo in ("HEAT", "APCR", "APDS"):
        basic_tk(ammo, gun, None, nationality, variant)  # RuleError: the gun has none (C7.32-.33)
    if ammo == "HEAT":
        return "HEAT", t.raw["heat"]["unarmored_final"], "C7.331"
    if ammo == "HE":
        return "HE", t.raw["he"]["unarmored_final"][he_band(g.caliber)], "C7.342"
    u = t.raw["ap"]["unarmored"]
    i = max(i for i, b in enumerate(u["bands"]) if b <= g.caliber)
    return ammo, u["final"][i], "C7.311" if ammo == "AP" else "C7.321"


def ft_long_range(weapon: str | None, basic: int, range_hexes: int) -> Drm | None:
    """C7.344: the Basic TK# of a FT is halved at Long Range (against any target).

    >>> str(ft_long_range("FT", 36, 2)), ft_long_range("FT", 36, 1)
    ('-18 Case FT (C7.344)', None)
    """
    sw = tables().sw.get(weapon) if weapon else None
    if sw is None or sw.ammo != "FT" or not sw.long_range or range_hexes < sw.long_range:
        return None
    return Drm("FT", -(basic - basic // 2), "C7.344", "FT at Long Range: Basic TK# halved")


# --- Case D -------------------------------------------------------------------------------


def _band_row(bands: list[int], caliber: float) -> int:
    return max(i for i, b in enumerate(bands) if b <= caliber)


def case_d(table: str, gun: Gun, range_hexes: int) -> Drm | None:
    """C7.24: the range modification of an AP / APCR / APDS hit vs an armored Target Facing.
    Raises RuleError for "NA" (no shot at that range).

    C7.24's example: the 50L at 25 hexes, -2; none at 3 hexes.

    >>> from game.rules.tables import Gun
    >>> str(case_d("AP", Gun.parse("50L"), 25)), case_d("AP", Gun.parse("50L"), 3)
    ('-2 Case D (C7.24)', None)
    """
    t = tables().raw
    if table == "AP":
        d = t["ap"]["case_d"]
        row = d["rows"][_band_row(d["bands"], gun.caliber)]
        limits = d["range_max"]
    elif table == "APDS":
        d = t["apcr"]["case_d"]
        row, limits = d["apds_row"], d["range_max"]
    elif table == "APCR":
        d = t["apcr"]["case_d"]
        row = d["apcr_rows"][_band_row(d["apcr_bands"], gun.caliber)]
        limits = d["range_max"]
    else:
        return None
    col = next((i for i, m in enumerate(limits) if range_hexes <= m), None)
    value = parse_drm_cell(row[col]) if col is not None else None
    if value is None:
        raise RuleError(
            "C7.24",
            f"Case D: NA - no {table} shot by a {gun.designation} at {plural(range_hexes, 'hex')}",
        )
    if value == 0:
        return None
    return Drm("D", value, "C7.24", f"range {plural(range_hexes, 'hex')}")


# --- the Final TK# ------------------------------------------------------------------------


def final_tk(
    ammo: str,
    *,
    gun: str | None = None,
    weapon: str | None = None,
    nationality: str | None = None,
    variant: str | None = None,
    range_hexes: int = 1,
    aspect: str = "front",
    af: int | None = None,
    armored: bool = True,
    critical_hit: bool = False,
    ce: bool = False,
    open_topped: bool = False,
    elevation_advantage: bool = False,
    aerial: bool = False,
) -> TkResult:
    """The Final TK# of a hit (C7.11): Basic TK# -> Cases C, A, B, D (and the FT / MOL
    modifications, C7.344) -> Modified TK# -> minus the AF of the aspect and location hit.

    C7.24's example: a 50L AT gun's AP at 25 hexes into a KV-1E's rear hull (AF 8): 13 +1
    (Case A, rear) -2 (Case D) = 12, less the AF: Final TK# 4.

    >>> final_tk("AP", gun="50L", range_hexes=25, aspect="rear", af=8).final
    4
    """
    if aspect not in ASPECTS:
        raise RuleError("RD-8", f"aspect is front, side or rear, not {aspect!r}")
    if not armored:
        return _unarmored_tk(ammo, gun, weapon, nationality, variant, range_hexes, critical_hit)
    if af is None:
        raise RuleError("C7.11", "an armored target needs the AF of the aspect hit")
    table, basic, rule = basic_tk(ammo, gun, weapon, nationality, variant)
    g = Gun.parse(gun) if gun else (Gun.parse("ATR") if table == "AP" else None)  # an SW's ATR
    charge = table in ("FT", "MOL")
    mods, notes = (
        _charge_mods(table, weapon, basic, range_hexes, ce, open_topped, critical_hit)
        if charge
        else ([_case_c(basic)] if critical_hit else [], [])
    )
    mods += _case_a(aspect, aerial) + _case_b(table, elevation_advantage, aerial, open_topped)
    if table in ("AP", "APCR", "APDS") and not aerial and g is not None:
        mods += _case_d(table, g, range_hexes)
    modified = basic + sum(m.value for m in mods)
    if charge:
        notes.append(Note("C7.344", "no AF applies to a FT/MOL attack"))
        return TkResult(
            table, basic, rule, tuple(mods), modified, None, None, modified, True, tuple(notes)
        )
    af_rule = "C7.12" if aerial else "C7.11"
    return TkResult(
        table, basic, rule, tuple(mods), modified, af, af_rule, modified - af, True, tuple(notes)
    )


def _unarmored_tk(
    ammo: str,
    gun: str | None,
    weapon: str | None,
    nationality: str | None,
    variant: str | None,
    range_hexes: int,
    critical_hit: bool,
) -> TkResult:
    """The Final TK# vs an unarmored target (C7.11: no AF, no range or barrel-length effect):
    its table's final figure (:func:`unarmored_final`), halved for a FT at Long Range (C7.344),
    doubled by a Critical Hit but for FT / MOL / DC (C7.23, HX-7)."""
    table, final, rule = unarmored_final(ammo, gun, weapon, nationality, variant)
    mods: list[Drm] = []
    notes: list[Note] = [Note("C7.11", "unarmored: no AF; no range or barrel-length effect")]
    ft = ft_long_range(weapon, final, range_hexes) if table == "FT" else None
    if ft:
        mods.append(ft)
    if critical_hit and table not in ("FT", "MOL", "DC"):
        mods.append(Drm("C", final, "C7.23", "Critical Hit doubles the TK#"))
        notes.append(Note("HX-7", "a CH doubles the unarmored TK#, HE as well"))
    modified = final + sum(m.value for m in mods)
    return TkResult(
        table, final, rule, tuple(mods), modified, None, None, modified, False, tuple(notes)
    )


def _charge_mods(
    table: str,
    weapon: str | None,
    basic: int,
    range_hexes: int,
    ce: bool,
    open_topped: bool,
    critical_hit: bool,
) -> tuple[list[Drm], list[Note]]:
    """C7.344: a FT's or MOL's modifications vs an AFV: a FT halved at Long Range, +CE and +OT
    each; a MOL one only, OT first; Case C is NA to either."""
    t = tables().raw[table.lower()]
    mods: list[Drm] = []
    if table == "FT":
        ft = ft_long_range(weapon, basic, range_hexes)
        if ft:
            mods.append(ft)
        if ce:
            mods.append(Drm("CE", t["ce"], "C7.344", "the AFV is CE"))
        if open_topped:
            mods.append(Drm("OT", t["ot"], "C7.344", "the AFV is Open Topped"))
    elif open_topped:
        mods.append(Drm("OT", t["ot"], "C7.344", "the AFV is Open Topped (MOL: one only)"))
    elif ce:
        mods.append(Drm("CE", t["ce"], "C7.344", "the AFV is CE (MOL: one only)"))
    notes = [Note("C7.344", "Case C is NA to FT/MOL")] if critical_hit else []
    return mods, notes


def _case_c(basic: int) -> Drm:
    """Case C (C7.23): a Critical Hit doubles the Basic TK# before the other modifications."""
    return Drm("C", basic, "C7.23", "Critical Hit: Basic TK# doubled before the others")


def _case_a(aspect: str, aerial: bool) -> list[Drm]:
    """Case A (C7.21): +1 vs a rear Target Facing, or an aircraft hit."""
    if aspect == "rear" or aerial:
        return [Drm("A", 1, "C7.21", "rear Target Facing" if not aerial else "aircraft hit")]
    return []


def _case_b(table: str, elevation_advantage: bool, aerial: bool, open_topped: bool) -> list[Drm]:
    """Case B (C7.22): +1 for an aircraft hit or a MOL from at least one level higher, doubled
    vs an Open Topped AFV."""
    if not (aerial or (table == "MOL" and elevation_advantage)):
        return []
    why = "aircraft hit" if aerial else "MOL from >= 1 level higher"
    return [Drm("B", 2 if open_topped else 1, "C7.22", why + (" vs OT" if open_topped else ""))]


def _case_d(table: str, gun: Gun, range_hexes: int) -> list[Drm]:
    """Case D (C7.24): the range modification, when not 0 (:func:`case_d`)."""
    d = case_d(table, gun, range_hexes)
    return [d] if d else []
