"""One AT attack's inputs as a plain value (:class:`Attack`, with the firer's knowledge of the
shot in its :class:`~game.rules.to_hit.Situation`), each field described once: what it is, and
how ``hexfire odds`` sets it (:mod:`game.rules.inputs`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .inputs import derived, flag
from .to_hit import Situation


@dataclass(frozen=True, slots=True)
class Attack:
    """Everything one AT attack needs, as plain values.

    ``target``: "afv" (armored), "vehicle" (unarmored), "gun", or "infantry" (refused, 002).
    ``af_hull`` / ``af_turret``: the AF of the aspect hit for each location (C7.11).
    ``location``: fixes the hit location; None lets the dice decide (RD-2).
    ``atfp`` / ``armor``: the ``chart`` system's letters (the SW's own ATFP if not given).
    """

    rules: str = field(
        default="asl",
        metadata=flag("asl (C6, C7) or the chart (002)", kind=str, choices=("asl", "chart")),
    )
    firer: str = field(
        default="gun",
        metadata=flag(
            "a Gun, an AFV's gun or an AT support weapon", kind=str, choices=("gun", "afv", "sw")
        ),
    )
    gun: str | None = field(
        default=None, metadata=flag("the gun: caliber and length, e.g. 50L, 75*, 76LL", kind=str)
    )
    weapon: str | None = field(
        default=None,
        metadata=flag("an AT support weapon: PSK PIAT BAZ43 BAZ44 PF PFk ATR FT DC MOL", kind=str),
    )
    nationality: str | None = field(
        default=None,
        metadata=flag("for the colored entries of C7.31-.32 (russian, ...)", kind=str),
    )
    variant: str | None = field(
        default=None,
        metadata=flag("a vehicle's own table entry (grant: the M3 Grant's hull 75)", kind=str),
    )
    ammo: str | None = field(
        default="AP",
        metadata=flag("the round fired", kind=str, choices=("AP", "APCR", "APDS", "HEAT", "HE")),
    )
    range: int = field(
        default=1,
        metadata=flag("range in hexes", kind=int, required=True, limits=(0, 200, "hexes")),
    )
    aspect: str = field(
        default="front",
        metadata=flag("the Target Facing hit (RD-8)", kind=str, choices=("front", "side", "rear")),
    )
    """The Target Facing of the hull (RD-8)."""
    turret_aspect: str | None = field(
        default=None,
        metadata=flag(
            "the turret's Target Facing, if not the hull's (RD-8)",
            kind=str,
            choices=("front", "side", "rear"),
        ),
    )
    """The Target Facing of the turret, if not the hull's (RD-8: the turret for turret hits)."""
    location: str | None = field(
        default=None,
        metadata=flag("fix the hit location (RD-2)", kind=str, choices=("hull", "turret")),
    )
    target: str = field(
        default="afv",
        metadata=flag("what is hit", kind=str, choices=("afv", "vehicle", "gun", "infantry")),
    )
    af_hull: int | None = field(
        default=None,
        metadata=flag(
            "AF of the aspect hit (asl)", kind=int, name="af", limits=(0, 26, "the C7.11 AF scale")
        ),
    )
    af_turret: int | None = field(
        default=None,
        metadata=flag(
            "turret AF of that aspect, if not --af",
            kind=int,
            name="turret_af",
            limits=(0, 26, "the C7.11 AF scale"),
        ),
    )
    worst_af: int | None = field(
        default=None,
        metadata=flag(
            "the AFV's worst AF (Aerial AF for a DC)",
            kind=int,
            limits=(0, 26, "the C7.11 AF scale"),
        ),
    )
    open_topped: bool = field(default=False, metadata=flag("an Open Topped AFV"))
    ce: bool = field(default=False, metadata=flag("the AFV is Crew Exposed"))
    immobilized: bool = field(default=False, metadata=flag("already immobilized (002)"))
    red_cs: bool = field(default=False, metadata=flag("the AFV has a red CS# (C7.7)"))
    morale: int = field(
        default=8,
        metadata=flag(
            "crew morale for the NTC (RD-5)", kind=int, limits=(2, 12, "a 2d6 NTC, RD-5")
        ),
    )
    atfp: str | None = field(
        default=None, metadata=flag("the firer's ATFP (chart)", kind=str, choices=tuple("ABCDEF"))
    )
    armor: str | None = field(
        default=None,
        metadata=flag("the target's AF letter (chart)", kind=str, choices=tuple("ABCDEF")),
    )
    rof: int = field(
        default=0, metadata=flag("the weapon's ROF (RD-4)", kind=int, limits=(0, 3, "RD-4"))
    )
    phase_allows_rof: bool = field(
        default=True, metadata=derived("--phase", "no Multiple ROF in the Advancing Fire Phase")
    )
    advancing_fire: bool = field(default=False, metadata=derived("--phase", "--phase advancing"))
    """The shot is taken in the Advancing Fire Phase (+1 DC Position DRM if Thrown, C7.346)."""
    elevation_advantage: bool = field(
        default=False,
        metadata=flag(
            "the firer is >= 1 level higher (Case B, C7.22: MOL To Kill, DC Position DR)"
        ),
    )
    """The firer is at least one level higher than the target (Case B, C7.22: MOL To Kill +1,
    a DC's Position DR -1; each doubled vs an Open Topped AFV)."""
    critical_hit: bool | None = field(
        default=None, metadata=derived("--ch", "--ch: every hit is a Critical Hit (C7.23)")
    )
    """None: a hit is a CH on an Original TH DR of 2 (RD-3); True: every hit is a CH."""
    situation: Situation = field(
        default_factory=Situation, metadata=derived("the Situation's flags", "the To Hit cases")
    )
