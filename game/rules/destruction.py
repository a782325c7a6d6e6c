"""The TK DR against the Final TK#: the AFV Destruction Table (C7.7) with Dud (C7.35), Shock
(C7.41), Immobilization (C7.5) and Burning Wreck (C7.6); and the DC Position DR (C7.346)."""

from __future__ import annotations

from .drm import Drm
from .tables import tables

OUTCOMES = (
    "dud",
    "burn",
    "eliminated",
    "immobilized",
    "shock",
    "possible_shock",
    "stun",
    "no_effect",
)


COLUMNS = ("direct", "dc", "ftmol", "ifemg", "indirect", "cc")
"""The columns of the AFV Destruction Table (C7.7): Direct Fire, DC, FT/MOL, IFE/MG, Indirect
Fire, CC."""


def destruction(
    final: int,
    dr_total: int,
    *,
    column: str = "direct",
    he: bool = False,
    location: str = "hull",
    armored: bool = True,
    red_cs: bool = False,
) -> tuple[str, str]:
    """The AFV Destruction Table (C7.7) for a Final TK# (or K#/CCV) and an Original DR:
    (result, rule).

    A Dud (12) takes precedence (7.35). Every column: DR <= half the Final TK# burns (-1 DRM for
    a red CS#; 7.6). The red CS# -1 is "for Burn determination purposes" only: whether the DR
    is below, equal to or above the Final TK# is read on the DR as rolled, so it burns a DR
    that kills and never one equal to the Final TK# (HX-17). DR < Final: eliminated (FT/MOL:
    burn, 7.6). DR = Final: Immobilized on a
    hull hit (7.5), Shock on a turret hit (7.41) for Direct Fire, DC and Indirect Fire; FT/MOL
    eliminate without burning (7.5); IFE/MG Stun; CC Immobilized. HE one > Final (Direct, DC,
    Indirect; the DC column reads as HE): as DR = Final. Non-HE one > Final, Direct Fire only:
    Possible Shock (7.41). An unarmored vehicle (hexfire): Immobilized on DR = Final, no Shock.

    C7.24's example ends in a Final TK# of 4 (the 50L's AP at a KV-1E's rear hull); each TK DR:

    >>> [destruction(4, dr)[0] for dr in (2, 3, 4, 5, 6, 12)]
    ['burn', 'eliminated', 'immobilized', 'possible_shock', 'no_effect', 'dud']
    >>> destruction(4, 4, location="turret"), destruction(4, 4, armored=False)
    (('shock', 'C7.41'), ('immobilized', 'HX-6'))
    """
    if column not in COLUMNS:
        raise ValueError(f"column is one of {COLUMNS}, not {column!r}")
    if dr_total == tables().raw["to_kill"]["dud_dr"]:
        return "dud", "C7.35"
    he = he or column == "dc"
    burn_dr = dr_total + (tables().raw["to_kill"]["red_cs_burn_drm"] if red_cs and armored else 0)
    if column == "ftmol":
        if dr_total < final:
            return "burn", "C7.6"
        if dr_total == final:
            return "eliminated", "C7.5"
        return "no_effect", "C7.7"
    if 2 * burn_dr <= final and dr_total < final:  # a red CS# burns a kill, no other (HX-17)
        return "burn", "C7.6"
    if dr_total < final:
        return "eliminated", "C7.7"
    if not armored:
        return ("immobilized", "HX-6") if dr_total == final else ("no_effect", "C7.7")
    if column == "ifemg":
        return ("stun", "C7.7") if dr_total == final else ("no_effect", "C7.7")
    if column == "cc":
        return ("immobilized", "C7.7") if dr_total == final else ("no_effect", "C7.7")
    if dr_total == final or (he and dr_total == final + 1):
        if location == "hull":
            return "immobilized", "C7.5"
        return "shock", "C7.41"
    if dr_total == final + 1 and column == "direct":
        return "possible_shock", "C7.41"
    return "no_effect", "C7.7"


def dc_position(dr_total: int, drm: int) -> tuple[str, str]:
    """C7.346: the DC Position DR -> "optimal" (Aerial AF), "success" (AF), "poor" (no effect
    vs the AFV) or "none" (no effect vs the AFV or its crew).

    >>> [dc_position(dr, 0)[0] for dr in (5, 6, 8, 9, 11, 12)]
    ['optimal', 'success', 'success', 'poor', 'poor', 'none']
    >>> dc_position(5, +1)
    ('success', 'C7.346')
    """
    p = tables().raw["dc"]["position"]
    final = dr_total + drm
    if final <= p["optimal_max"]:
        return "optimal", "C7.346"
    if final <= p["success_max"]:
        return "success", "C7.346"
    if final <= p["poor_max"]:
        return "poor", "C7.346"
    return "none", "C7.346"


def dc_position_drms(
    *,
    non_stopped_or_concealed: bool = False,
    thrown: bool = False,
    thrown_from_moving: bool = False,
    aspect: str = "front",
    ce: bool = False,
    thrown_in_afph: bool = False,
    elevation_advantage: bool = False,
    immobile: bool = False,
    open_topped: bool = False,
    bypass_same_hex: bool = False,
    cx: bool = False,
) -> list[Drm]:
    """The DC Position DRM (C7.346; Case B applies inversely, C7.22).

    >>> [str(d) for d in dc_position_drms(thrown=True, aspect="rear", ce=True)]
    ['+2 Case DC (C7.346)', '-1 Case DC (C7.346)', '+1 Case DC (C7.346)']
    >>> [str(d) for d in dc_position_drms(elevation_advantage=True, open_topped=True)]
    ['+1 Case DC (C7.346)', '-2 Case B (C7.22)', '-2 Case DC (C7.346)']
    """
    d = tables().raw["dc"]["position_drm"]
    out = []
    if non_stopped_or_concealed:
        out.append(
            Drm("DC", d["non_stopped_or_concealed"], "C7.346", "non-stopped/Motion/concealed AFV")
        )
    if thrown_from_moving:
        out.append(Drm("DC", d["thrown_from_moving"], "C7.346", "Thrown from a moving conveyance"))
    elif thrown:
        out.append(Drm("DC", d["thrown"], "C7.346", "Thrown DC"))
    if aspect == "front":
        out.append(Drm("DC", d["hull_front"], "C7.346", "through the hull front Target Facing"))
    if aspect == "rear":
        out.append(Drm("DC", d["hull_rear"], "C7.346", "through the hull rear Target Facing"))
    if ce:
        out.append(Drm("DC", d["ce"], "C7.346", "the AFV is CE"))
    if thrown_in_afph:
        out.append(Drm("DC", d["thrown_in_afph"], "C7.346", "Thrown in the AFPh"))
    if elevation_advantage:
        out.append(
            Drm("B", -(2 if open_topped else 1), "C7.22", "Case B, inversely, for a DC from higher")
        )
    if immobile:
        out.append(Drm("DC", d["immobile"], "C7.346", "immobile AFV"))
    if open_topped:
        out.append(Drm("DC", d["open_topped"], "C7.346", "OT AFV"))
    if bypass_same_hex:
        out.append(Drm("DC", d["bypass_same_hex"], "C7.346", "in Bypass in the placer's hex"))
    if cx:
        out.append(Drm("DC", d["cx"], "C7.346", "the placing unit is CX"))
    return out
