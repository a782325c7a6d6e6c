"""To Hit: the To Hit Number (002, RD-1) and the target-based To Hit DRM of ASL C6 (Cases J-R),
hit location (RD-2), Critical Hit (RD-3) and multiple ROF (RD-4).

A hit is a Modified TH DR (Original DR + every DRM) <= the To Hit Number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .dice import DR
from .drm import Drm, Note, RuleError
from .inputs import derived, flag
from .tables import tables
from .vocabulary import Location

FIRERS = ("gun", "afv", "sw")
"""A Gun, an AFV's gun, or Infantry with an AT support weapon (002)."""


def to_hit_number(firer: str, range_hexes: int, sw_range: int | None = None) -> tuple[int, str]:
    """The To Hit Number and the rule it comes from.

    Infantry AT SW: 8 within its printed range, refused beyond it (002). Gun / AFV gun: 10 at
    0-10 hexes, 8 at 11-19 (RD-1), 6 at 20+ (002).

    >>> [to_hit_number("gun", r) for r in (10, 11, 19, 20)]
    [(10, '002'), (8, 'RD-1'), (8, 'RD-1'), (6, '002')]
    >>> to_hit_number("sw", 4, sw_range=4)
    (8, '002')
    >>> to_hit_number("sw", 5, sw_range=4)
    Traceback (most recent call last):
    ...
    game.rules.drm.RuleError: an AT support weapon fires only within its range (4 hexes) (002)
    """
    t = tables().to_hit
    if range_hexes < 0:
        raise RuleError("002", f"range must be >= 0, got {range_hexes}")
    if firer == "sw":
        if sw_range is not None and range_hexes > sw_range:
            raise RuleError(
                "002", f"an AT support weapon fires only within its range ({sw_range} hexes)"
            )
        return t["sw"], "002"
    if firer not in FIRERS:
        raise RuleError("002", f"unknown firer {firer!r}: expected gun, afv or sw")
    if range_hexes <= t["gun_short_max_range"]:
        return t["gun_short"], "002"
    if range_hexes < t["gun_long_min_range"]:
        return t["gun_medium"], "RD-1"
    return t["gun_long"], "002"


@dataclass(frozen=True, slots=True)
class Situation:
    """What the firer knows about the shot, as the To Hit DRM cases need it (C6).

    ``moving``: the target entered a new hex this player turn and has stopped (Case J; Case L may
    apply). ``motion``: the target is in Motion at the moment of the shot (Case J, no Case L).
    ``was_motion``: it was in Motion earlier this player turn and has stopped since (Case J; Case
    L may apply, C6.1 / C6.3). ``non_stopped``: the target is moving and has not stopped at the
    moment of the shot (no Case L, C6.3; +2 DC Position DRM, C7.346); a vehicle that has spent
    its Stop MP has stopped (docs/rules.md, C6.1). ``dff_mp``: Defensive First Fire at a
    vehicle that has spent that many MP in the firer's continuous LOS (J2 <= 1, J1 <= 3, else J).
    ``dff_exempt``: it began its move in that LOS and has not left it since (C6.15: Case J
    only). ``acquired``: 0, 1 or 2 for
    an Acquired -1 / -2 counter that applies. ``size``, ``tem``, ``hindrance``: the DRM of Cases
    P, Q and R.
    """

    firer: str = field(default="gun", metadata=derived("--firer", "the attack's firer"))
    range: int = field(default=1, metadata=derived("--range", "the attack's range"))
    moving: bool = field(
        default=False,
        metadata=flag(
            "the target entered a new hex this player turn and has stopped (Case J, C6.1)"
        ),
    )
    motion: bool = field(
        default=False, metadata=flag("the target is in Motion (Case J, no Case L)")
    )
    was_motion: bool = field(
        default=False,
        metadata=flag("was in Motion this player turn, stopped now (Case J; Case L may apply)"),
    )
    non_stopped: bool = field(
        default=False, metadata=derived("--dff-mp, --stopped", "moving, its Stop MP not spent")
    )
    dff_mp: float | None = field(
        default=None,
        metadata=flag(
            "Defensive First Fire: MP spent in the firer's LOS (C6.17)",
            kind=float,
            limits=(0, 60, "MP, C6.17"),
        ),
    )
    dff_exempt: bool = field(
        default=False,
        metadata=flag("with --dff-mp: it began its move in the firer's LOS and never left (C6.15)"),
    )
    dash: bool = field(default=False, metadata=flag("a Dash target (Case J, C6.1)"))
    concealed: bool = field(default=False, metadata=flag("Case K: a concealed target (C6.2)"))
    smoke_ammo: bool = field(
        default=False, metadata=flag("the shot fires SMOKE (Case K, C6.2: with --concealed)")
    )
    known_units_in_target_hex: int = field(
        default=0,
        metadata=flag(
            "Known enemy units in the target's hex (Case K with SMOKE, C6.2)",
            kind=int,
            limits=(0, 20, "units"),
        ),
    )
    non_hidden_units_in_target_hex: int = field(
        default=1,
        metadata=flag(
            "non-hidden enemy ground units in the target's hex (Case K with SMOKE, C6.2)",
            kind=int,
            limits=(0, 20, "units"),
        ),
    )
    acquired: int = field(
        default=0,
        metadata=flag(
            "an Acquired -1 / -2 counter applies (Case N, C6.5)", kind=int, choices=(1, 2)
        ),
    )
    bore_sighted: bool = field(
        default=False, metadata=flag("Case M: a Bore Sighted Location (C6.42)")
    )
    hazardous: bool = field(default=False, metadata=flag("Case O: Hazardous Movement"))
    size: int = field(
        default=0,
        metadata=flag("Case P: target size DRM -2..+2", kind=int, limits=(-2, 2, "Case P, C6.7")),
    )
    tem: int = field(
        default=0, metadata=flag("Case Q: TEM", kind=int, limits=(0, 5, "Case Q, C6.8"))
    )
    hindrance: int = field(
        default=0,
        metadata=flag(
            "Case R: hindrance DRM",
            kind=int,
            limits=(0, 5, "Case R, C6.9: 6 or more blocks the LOS"),
        ),
    )
    firer_non_stopped: bool = field(
        default=False, metadata=flag("the firer is non-stopped (no Case L, C6.3)")
    )
    area_target_type: bool = field(
        default=False,
        metadata=flag("the Area Target Type (no Case L, C6.3; no TEM, Case Q; C6.52)"),
    )
    infantry_target: bool = field(
        default=False, metadata=derived("--target", "--target infantry (refused, 002)")
    )
    infantry_non_assault: bool = field(
        default=False, metadata=flag("Infantry in Non-Assault Movement (Case J3, C6.13)")
    )
    infantry_in_open: bool = field(
        default=False, metadata=flag("moving Infantry in Open Ground (Case J4, C6.14)")
    )


def case_j(s: Situation) -> tuple[list[Drm], list[Note]]:
    """Case J and its subcases (C6.1-.16).

    >>> drms, _ = case_j(Situation(dff_mp=1.5))
    >>> [str(d) for d in drms]
    ['+3 Case J1 (C6.11)']
    >>> [str(d) for d in case_j(Situation(motion=True))[0]]
    ['+2 Case J (C6.1)']
    """
    notes: list[Note] = []
    if s.infantry_target:
        drms = []
        if s.dff_mp is not None and s.infantry_non_assault:
            drms.append(Drm("J3", -1, "C6.13", "Defensive First Fire vs Non-Assault Movement"))
        if s.dff_mp is not None and s.infantry_in_open:
            drms.append(Drm("J4", -1, "C6.14", "Defensive First Fire vs moving Infantry in Open"))
        if s.dash:
            drms.append(Drm("J", 2, "C6.1", "a Dash target"))
        return drms, notes
    if s.dff_mp is not None:
        if s.dff_exempt:
            notes.append(
                Note("C6.15", "it began its move in the firer's LOS and has not left it: no J1/J2")
            )
            return [Drm("J", 2, "C6.1", "Defensive First Fire at a moving vehicle")], notes
        mp = s.dff_mp
        if mp <= 1:
            return [Drm("J2", 4, "C6.12", f"{mp:g} MP in the firer's LOS (<= 1): Limited Aim")], []
        if mp <= 3:
            return [
                Drm("J1", 3, "C6.11", f"{mp:g} MP in the firer's LOS (<= 3): Restricted Aim")
            ], []
        return [Drm("J", 2, "C6.1", f"moving vehicle, {mp:g} MP in the firer's LOS (> 3)")], []
    if s.motion:
        return [Drm("J", 2, "C6.1", "the target is in Motion")], notes
    if s.was_motion:
        return [Drm("J", 2, "C6.1", "the target was in Motion this player turn")], notes
    if s.moving:
        return [Drm("J", 2, "C6.1", "the target entered a new hex this player turn")], notes
    if s.dash:
        return [Drm("J", 2, "C6.1", "a Dash target")], notes
    return [], notes


def case_k(s: Situation) -> Drm | None:
    """Case K (C6.2): +2 vs a concealed target; when firing SMOKE only if the hex holds <= one
    non-hidden enemy ground unit and none of them is Known.

    >>> str(case_k(Situation(concealed=True))), case_k(Situation())
    ('+2 Case K (C6.2)', None)
    """
    if not s.concealed:
        return None
    if s.smoke_ammo and not (
        s.non_hidden_units_in_target_hex <= 1 and s.known_units_in_target_hex == 0
    ):
        return None
    return Drm("K", 2, "C6.2", "concealed target")


def case_l(s: Situation) -> tuple[Drm | None, Note | None]:
    """Case L (C6.3): -2 at one hex, -1 at two; not for LATW, not vs a target in Motion or
    non-stopped at the moment of the shot (a vehicle stopped after Motion or after its Stop MP
    qualifies), not at a target in the firer's hex, not with the Area Target Type, not for a
    non-stopped firer.

    >>> str(case_l(Situation(range=1))[0]), str(case_l(Situation(range=2))[0])
    ('-2 Case L (C6.3)', '-1 Case L (C6.3)')
    >>> drm, note = case_l(Situation(range=1, motion=True))
    >>> drm, note.text
    (None, 'no Point Blank Range DRM: the target is in Motion')
    """
    if s.range not in (1, 2):
        return None, None
    reasons = []
    if s.firer == "sw":
        reasons.append("the firer is a LATW")
    if s.motion:
        reasons.append("the target is in Motion")
    elif s.non_stopped:
        reasons.append("the target is non-stopped")
    if s.area_target_type:
        reasons.append("Area Target Type")
    if s.firer_non_stopped:
        reasons.append("the firer is non-stopped")
    if reasons:
        return None, Note("C6.3", "no Point Blank Range DRM: " + ", ".join(reasons))
    value = -2 if s.range == 1 else -1
    return Drm(
        "L", value, "C6.3", f"Point Blank Range ({s.range} hex{'es' if s.range > 1 else ''})"
    ), None


def cases_m_n(s: Situation) -> tuple[Drm | None, Note | None]:
    """Cases M (bore sighted, -2, C6.4) and N (acquired -1 / -2, C6.5): the better one, never
    both (C6.4). Neither is open to a LATW (C6.41, C6.5).

    >>> best, note = cases_m_n(Situation(bore_sighted=True, acquired=1))
    >>> str(best), note.rule
    ('-2 Case M (C6.4)', 'C6.4')
    """
    if s.acquired not in (0, 1, 2):
        raise RuleError("C6.5", f"an Acquired counter is -1 or -2, not -{s.acquired}")
    if s.firer == "sw" and (s.bore_sighted or s.acquired):
        raise RuleError("C6.41", "a LATW can neither Bore Sight nor acquire a target (C6.5)")
    m = Drm("M", -2, "C6.4", "Bore Sighted Location") if s.bore_sighted else None
    n = Drm("N", -s.acquired, "C6.5", f"Acquired -{s.acquired} counter") if s.acquired else None
    if m and n:
        best = m if m.value <= n.value else n
        return best, Note("C6.4", f"Cases M and N both apply: only the better, Case {best.case}")
    return m or n, None


def case_o(s: Situation, j: list[Drm]) -> tuple[Drm | None, Note | None]:
    """Case O (C6.6): -2 vs a target in Hazardous Movement; never with Case J.

    >>> s = Situation(hazardous=True)
    >>> str(case_o(s, [])[0])
    '-2 Case O (C6.6)'
    >>> case_o(s, case_j(Situation(moving=True))[0])[1].text
    'Case O cannot be used with Case J'
    """
    if not s.hazardous:
        return None, None
    if j:
        return None, Note("C6.6", "Case O cannot be used with Case J")
    return Drm("O", -2, "C6.6", "the target is in Hazardous Movement"), None


def to_hit_drms(s: Situation) -> tuple[list[Drm], list[Note]]:
    """Every To Hit DRM of the shot (C6; all cumulative except where a case says otherwise).

    A concealed vehicle that moved into a woods hex one hex away:

    >>> drms, notes = to_hit_drms(Situation(range=1, moving=True, concealed=True, tem=1))
    >>> [str(d) for d in drms]
    ['+2 Case J (C6.1)', '+2 Case K (C6.2)', '-2 Case L (C6.3)', '+1 Case Q (C6.8)']
    >>> sum(d.value for d in drms)
    3
    """
    if not -2 <= s.size <= 2:
        raise RuleError("C6.7", f"a Target Size DRM is -2..+2, got {s.size:+d}")
    if s.hindrance < 0 or s.tem < 0:
        raise RuleError("C6.8", "TEM and hindrance DRM are not negative")
    drms, notes = case_j(s)
    k = case_k(s)
    if k:
        drms.append(k)
    l_drm, l_note = case_l(s)
    mn, mn_note = cases_m_n(s)
    o, o_note = case_o(s, [d for d in drms if d.case.startswith("J") and d.value > 0])
    for d in (l_drm, mn, o):
        if d:
            drms.append(d)
    for n in (l_note, mn_note, o_note):
        if n:
            notes.append(n)
    if s.size:
        drms.append(Drm("P", s.size, "C6.7", "Target Size"))
    if s.tem and not s.area_target_type:
        drms.append(Drm("Q", s.tem, "C6.8", "TEM of the target's Location"))
    if s.hindrance:
        drms.append(Drm("R", s.hindrance, "C6.9", "hindrances along the LOS"))
    return drms, notes


# --- after the roll ----------------------------------------------------------------------


def hit_location(dr: DR) -> Location:
    """RD-2: a turret (or upper superstructure: a vehicle without a turret takes its "turret"
    hits there) hit when the colored die < the white die.

    >>> hit_location(DR(5, 2)), hit_location(DR(2, 5)), hit_location(DR(3, 3))
    ('turret', 'hull', 'hull')
    """
    return "turret" if dr.colored < dr.white else "hull"


def is_critical_hit(dr: DR, hit: bool) -> bool:
    """RD-3: a hit whose Original TH DR is 2.

    >>> is_critical_hit(DR(1, 1), hit=True), is_critical_hit(DR(1, 2), hit=True)
    (True, False)
    """
    return hit and dr.total == tables().to_hit["critical_hit_dr"]


def keeps_rof(dr: DR, rof: int, phase_allows: bool = True) -> bool:
    """RD-4: the colored die <= the weapon's ROF lets it fire again this phase (not in the
    Advancing Fire Phase; C6.17 still limits Defensive First Fire).

    >>> keeps_rof(DR(4, 1), rof=1), keeps_rof(DR(4, 2), rof=1)
    (True, False)
    >>> keeps_rof(DR(4, 1), rof=1, phase_allows=False)
    False
    """
    return phase_allows and rof > 0 and dr.colored <= rof
