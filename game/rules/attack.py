"""One AT attack, start to end (docs/rules.md "One AT attack, start to end").

:func:`plan` works out everything that does not depend on the dice (who may fire, the To Hit
Number and DRM, the Final TK# for each hit location and for a Critical Hit); :func:`resolve`
rolls the game's dice through it (the game and the Monte Carlo test use it); :func:`.odds.odds`
enumerates the same plan exactly (the odds panel, ``hexfire odds``).

Final outcomes: miss, dud, burn, eliminated, immobilized, abandoned, shock, no_effect. The
exact odds of the same plan are :mod:`.odds`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from .attack_input import Attack
from .chart import chart_result, elimination_number
from .destruction import dc_position, dc_position_drms, destruction
from .dice import DR, Dice
from .drm import Drm, Note, RuleError
from .outcomes import abandoned, ntc_fails
from .tables import tables
from .to_hit import Situation, hit_location, is_critical_hit, keeps_rof, to_hit_drms, to_hit_number
from .to_kill import TkResult, aerial_af, final_tk
from .words import outcome_words

OUTCOMES = ("miss", "dud", "burn", "eliminated", "immobilized", "abandoned", "shock", "no_effect")
TARGETS = ("afv", "vehicle", "gun", "infantry")


TkKey = tuple[str, bool | Literal["aerial"]]
"""(hit location, Critical Hit) or (hit location, "aerial"): a DC optimally positioned
(C7.346, Aerial AF C7.12)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The dice-free part of an attack."""

    attack: Attack
    to_hit_number: int
    to_hit_rule: str
    drms: tuple[Drm, ...]
    notes: tuple[Note, ...]
    dc_position: bool
    """A DC vs an armored target: the Position DR replaces the To Hit DR (C7.346)."""
    tk: dict[TkKey, TkResult] = field(default_factory=dict)
    """(location, critical hit) -> TkResult (``asl``; armored or unarmored vehicles)."""
    elimination_number: int | str | None = None
    no_effect: tuple[str, str] | None = None
    """(rule, why) when a hit cannot affect the target: a concealed target fired at with
    ammunition that has no To Kill number against what it turns out to be (RD-20: e.g. Case D's
    NA, C7.24); a hit then reveals it and has no effect."""

    @property
    def drm_total(self) -> int:
        return sum(d.value for d in self.drms)

    @property
    def ammo(self) -> str:
        a = self.attack
        if a.weapon:
            return tables().sw[a.weapon].ammo
        return a.ammo or "AP"

    @property
    def column(self) -> str:
        return {"FT": "ftmol", "MOL": "ftmol", "DC": "dc"}.get(self.ammo, "direct")


def plan(a: Attack) -> Plan:
    """Check the attack is allowed and work out its dice-free part; RuleError if refused.

    C7.24's example, the 50L at the KV-1E's rear hull at 25 hexes: To Hit Number 6 and no DRM
    (002), Final TK# 4.

    >>> a = Attack(gun="50L", range=25, aspect="rear", location="hull", af_hull=8, af_turret=8)
    >>> p = plan(a)
    >>> p.to_hit_number, p.drm_total, p.tk[("hull", False)].final
    (6, 0, 4)
    """
    return _plan(a)


@lru_cache(maxsize=8192)
def _plan(a: Attack) -> Plan:
    """The steps of docs/rules.md "One AT attack, start to end" that need no dice: the attack
    checked (:func:`_check`), the weapon's range (:func:`_weapon_range`), the To Hit Number
    (C6) and its DRM (C6.1-C6.9), a DC's Position DR in their place (C7.346), then the Final TK#
    of each hit location (C7) or the chart's elimination number (002)."""
    _check(a)
    sw_range = _weapon_range(a)
    thn, th_rule = to_hit_number(a.firer, a.range, sw_range)
    s = replace(a.situation, firer=a.firer, range=a.range)
    drms, notes = to_hit_drms(s)
    if a.firer == "sw" and not a.weapon:
        notes.append(Note("HX-10", "an SW rated by its ATFP alone: its printed range not checked"))
    ammo = tables().sw[a.weapon].ammo if a.weapon else (a.ammo or "AP")
    dc_pos = a.rules == "asl" and ammo == "DC" and a.target == "afv"
    if dc_pos:  # the Position DR replaces the To Hit DR: positioned on a Final DR <= 8
        drms, notes = _dc_position(a, s)
        thn, th_rule = tables().raw["dc"]["position"]["success_max"], "C7.346"
    p = Plan(a, thn, th_rule, tuple(drms), tuple(notes), dc_pos)
    if a.target in ("gun", "infantry"):  # infantry: a concealed "?" fired at (HX-13)
        return p
    try:
        return _to_kill(a, p, ammo, dc_pos)
    except RuleError as refused:
        if not a.situation.concealed:
            raise
        # RD-20: a shot at a "?" is not refused by what it turns out to be; a hit reveals it
        # and, with no To Kill number against it, has no effect
        return replace(p, no_effect=(refused.rule, refused.reason))


def _check(a: Attack) -> None:
    """RuleError unless the attack is one the rules allow: a To Kill system (HX-1), no Critical
    Hit under the chart (RD-3), a target AT fire affects (002; a "?" may be fired at, HX-13), a
    hit location hull or turret (RD-2)."""
    if a.rules not in ("asl", "chart"):
        raise RuleError("HX-1", f"the To Kill system is asl or chart, not {a.rules!r}")
    if a.critical_hit and a.rules == "chart":
        raise RuleError("RD-3", "a Critical Hit has no meaning under the Armor Elimination Chart")
    if a.target not in TARGETS:
        raise RuleError("002", f"target is afv, vehicle, gun or infantry, not {a.target!r}")
    if a.target == "infantry" and not a.situation.concealed:
        raise RuleError("002", "AT fire has no effect on Infantry")
    if a.location not in (None, "hull", "turret"):
        raise RuleError("RD-2", f"hit location is hull or turret, not {a.location!r}")


def _weapon_range(a: Attack) -> int | None:
    """The printed range an Infantry support weapon fires within (002; None: a gun, or an SW
    the chart rates by its ATFP alone, HX-10); RuleError for a weapon that cannot fire so (an
    SW fired by anyone but Infantry, a Gun or AFV without its gun, C7.1)."""
    by_atfp = a.rules == "chart" and bool(a.atfp) and not a.weapon
    if a.firer == "sw" and not by_atfp:  # HX-10: the chart rates an SW by its ATFP alone
        if not a.weapon:
            raise RuleError(
                "002", "Infantry fire AT with a support weapon (--weapon, or --atfp on the chart)"
            )
        sw = tables().sw.get(a.weapon)
        if sw is None:
            raise RuleError(
                "002", f"unknown support weapon {a.weapon!r} (known: {', '.join(tables().sw)})"
            )
        return sw.range
    if a.firer != "sw" and a.weapon:
        raise RuleError("002", "a support weapon is fired by Infantry (--firer sw)")
    if a.firer != "sw" and not a.gun and a.rules == "asl":
        raise RuleError("C7.1", "a Gun or an AFV fires its gun (--gun, e.g. 75L)")
    return None


def _dc_position(a: Attack, s: Situation) -> tuple[list[Drm], list[Note]]:
    """C7.346: a DC against an AFV rolls a Position DR instead of a To Hit DR: its DRM (Thrown,
    the target moving or concealed, its aspect, CE, the AFPh, elevation, immobile, Open Topped),
    and no Critical Hit (RuleError if one is asked)."""
    drms = dc_position_drms(
        non_stopped_or_concealed=s.non_stopped or s.motion or s.concealed,
        thrown=a.range >= 1,
        aspect=a.aspect,
        ce=a.ce,
        thrown_in_afph=a.advancing_fire and a.range >= 1,
        elevation_advantage=a.elevation_advantage,
        immobile=a.immobilized,
        open_topped=a.open_topped,
    )
    if a.critical_hit:
        raise RuleError(
            "C7.346", "a DC vs an AFV rolls a Position DR, not a To Hit DR: no Critical Hit"
        )
    return drms, [Note("C7.346", "a DC vs an AFV: a Position DR instead of a To Hit DR")]


def _to_kill(a: Attack, p: Plan, ammo: str, dc_pos: bool) -> Plan:
    """The To Kill part of :func:`_plan` (an AFV or an unarmored vehicle); RuleError if the
    ammunition has no To Kill number against it (Case D's NA, C7.24)."""
    t = tables()
    if a.rules == "chart":
        if a.target == "afv":
            atfp = a.atfp or (t.sw[a.weapon].atfp if a.weapon else None)
            if atfp is None or a.armor is None:
                raise RuleError("002", "the Armor Elimination Chart needs the ATFP and AF letters")
            return replace(p, elimination_number=elimination_number(atfp, a.armor))
        return p
    armored = a.target == "afv"
    tk: dict[TkKey, TkResult] = {}
    for loc in ("hull", "turret"):
        af = a.af_hull if loc == "hull" else a.af_turret
        for ch in (False, True):
            if ch and dc_pos:
                continue  # no To Hit DR, no Critical Hit
            tk[(loc, ch)] = final_tk(
                ammo,
                gun=None if a.weapon else a.gun,
                weapon=a.weapon,
                nationality=a.nationality,
                variant=a.variant,
                range_hexes=a.range,
                aspect=a.aspect if loc == "hull" else (a.turret_aspect or a.aspect),
                af=af,
                armored=armored,
                critical_hit=ch,
                ce=a.ce,
                open_topped=a.open_topped,
                elevation_advantage=a.elevation_advantage,
            )
            if dc_pos:
                worst = a.worst_af if a.worst_af is not None else af
                if worst is None:
                    raise RuleError("C7.12", "a DC needs the AFV's worst AF for its Aerial AF")
                optimal = final_tk(
                    ammo, weapon=a.weapon, aspect=a.aspect, af=aerial_af(worst), armored=True
                )
                tk[(loc, "aerial")] = replace(optimal, af_rule="C7.12")
    return replace(p, tk=tk)


# --- the game's path: roll the dice ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One thing that happened in the attack, with its dice and its rule."""

    what: str
    rule: str
    dice: tuple[int, ...] = ()

    def __str__(self) -> str:
        d = f" [{'+'.join(map(str, self.dice))}]" if self.dice else ""
        return f"{self.what}{d} ({self.rule})"


@dataclass(frozen=True, slots=True)
class AttackResult:
    outcome: str
    hit: bool
    location: str | None
    critical_hit: bool
    rof_kept: bool
    th_dr: DR | None
    tk: TkResult | None
    steps: tuple[Step, ...]

    @property
    def log(self) -> str:
        return "; ".join(str(s) for s in self.steps)


def resolve(a: Attack, dice: Dice) -> AttackResult:
    """Roll the attack with the game's dice (the procedure of the game itself).

    The same shot with dice 3+2 (a hit, 5 <= 6), then To Kill 1+1 = 2, under the Final TK# 4:
    a burning wreck (C7.7):

    >>> from game.rules.dice import FixedDice
    >>> a = Attack(gun="50L", range=25, aspect="rear", location="hull", af_hull=8, af_turret=8)
    >>> r = resolve(a, FixedDice([3, 2, 1, 1]))
    >>> r.hit, r.location, r.outcome
    (True, 'hull', 'burn')
    """
    p = plan(a)
    steps: list[Step] = []
    dr = dice.roll()
    modified = dr.total + p.drm_total
    tk: TkResult | None = None
    loc: str | None = None
    ch = False
    if p.dc_position:
        pos, rule = dc_position(dr.total, p.drm_total)
        steps.append(
            Step(
                f"DC Position DR {dr} {p.drm_total:+d} = {modified}: {pos}",
                rule,
                (dr.white, dr.colored),
            )
        )
        hit = pos in ("optimal", "success")
        if hit:
            loc = a.location or hit_location(dr)
            if not p.no_effect:
                tk = p.tk[(loc, "aerial")] if pos == "optimal" else p.tk[(loc, False)]
    else:
        hit = modified <= p.to_hit_number
        steps.append(
            Step(
                f"TH DR {dr} {p.drm_total:+d} = {modified} vs {p.to_hit_number}: "
                + ("hit" if hit else "miss"),
                p.to_hit_rule,
                (dr.white, dr.colored),
            )
        )
        if hit:
            loc = a.location or hit_location(dr)
            ch = critical(a, dr, hit)
            if ch:
                steps.append(Step("Critical Hit", "RD-3"))
    rof = (not p.dc_position) and keeps_rof(dr, a.rof, a.phase_allows_rof)
    if not hit:
        outcome = "miss"
    elif a.target == "gun":
        outcome = "eliminated"
        steps.append(Step("a Gun hit by AT fire is eliminated", "002"))
    elif a.target == "infantry":  # a concealed "?" that was Infantry (HX-13)
        outcome = "no_effect"
        steps.append(Step("the concealed unit is Infantry: AT fire has no effect on it", "002"))
    elif p.no_effect:  # a "?" hit with ammunition that cannot harm it (RD-20)
        rule, why = p.no_effect
        steps.append(Step(why, rule))
        steps.append(Step("no To Kill number: the hit has no effect", "RD-20"))
        outcome = "no_effect"
    elif a.rules == "chart":
        outcome = _chart_hit(p, dice, steps)
    else:
        tk = tk or p.tk[(loc or "hull", ch)]
        tdr = dice.roll()
        outcome, rule = destruction(
            tk.final,
            tdr.total,
            column=p.column,
            he=p.ammo == "HE",
            location=loc or "hull",
            armored=tk.armored,
            red_cs=a.red_cs,
        )
        steps.append(
            Step(
                f"{loc} hit, Final TK# {tk.final}: TK DR {tdr} = {tdr.total}: "
                f"{outcome_words(outcome)}",
                rule,
                (tdr.white, tdr.colored),
            )
        )
        if outcome == "possible_shock":
            ntc = dice.roll()
            failed = ntc_fails(ntc.total, a.morale)
            outcome = "shock" if failed else "no_effect"
            steps.append(
                Step(
                    f"NTC DR {ntc} vs morale {a.morale}: {'Shock' if failed else 'passed'}",
                    "RD-5",
                    (ntc.white, ntc.colored),
                )
            )
    # 002: one check at once, then one each attack it survives; an Immobilized result on an
    # AFV already immobilized is that attack's one check, not a second (HX-19)
    if outcome == "immobilized" or (a.immobilized and outcome not in ("burn", "eliminated")):
        d = dice.die()
        if abandoned(d):
            steps.append(Step(f"abandonment dr {d}: the crew abandons it", "002", (d,)))
            outcome = "abandoned"
        else:
            steps.append(Step(f"abandonment dr {d}: the crew stays", "002", (d,)))
    return AttackResult(outcome, hit, loc, ch, rof, dr, tk, tuple(steps))


def critical(a: Attack, dr: DR, hit: bool) -> bool:
    """RD-3: a hit on an Original TH DR of 2 is a Critical Hit, under ``asl`` only (a CH has no
    meaning under the Armor Elimination Chart).

    >>> a = Attack(gun="50L", range=3, af_hull=8)
    >>> critical(a, DR(1, 1), True), critical(a, DR(3, 2), True)
    (True, False)
    """
    if a.rules != "asl":
        return False
    return hit and (bool(a.critical_hit) or is_critical_hit(dr, hit))


def _chart_hit(p: Plan, dice: Dice, steps: list[Step]) -> str:
    a = p.attack
    if a.target == "vehicle":
        steps.append(Step("an unarmored vehicle hit by AT fire is eliminated", "002"))
        return "eliminated"
    en = p.elimination_number
    assert en is not None  # an AFV under the chart has its Elimination Number (002)
    if en in ("E", "-"):
        result, rule = chart_result(en, 0)
        steps.append(Step(f"EN {en}: {result}", rule))
        return result
    edr = dice.roll()
    result, rule = chart_result(en, edr.total)
    steps.append(Step(f"EN {en}: DR {edr} = {edr.total}: {result}", rule, (edr.white, edr.colored)))
    return result
