"""Exact odds (RD-16: the odds are what the dice do): the plan of an attack (:func:`.attack.plan`)
with every die enumerated: 36 To Hit DR, then the To Kill DR, the NTC of a Possible Shock (RD-5)
and the abandonment check (002). The odds panel and ``hexfire odds`` show them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from .attack import OUTCOMES, Attack, Plan, TkKey, plan
from .chart import chart_result
from .destruction import dc_position as dc_position_dr
from .destruction import destruction
from .dice import DR
from .outcomes import abandoned, ntc_fails
from .tables import tables

_TWO_D6 = [(t, 6 - abs(t - 7)) for t in range(2, 13)]  # (total, ways of 36)
_ALL_DR = [DR(w, c) for w in range(1, 7) for c in range(1, 7)]


@dataclass(frozen=True, slots=True)
class Odds:
    plan: Plan
    p_hit: float
    p: dict[str, float]
    p_critical: float
    p_rof: float
    branches: tuple[Branch, ...] = ()
    """When a die drawn before the To Hit DR decides what the shot is (RD-16: the special
    ammunition's availability, RD-17; the chart's 90-degree die, RD-8), each way it may turn
    out with its probability; the figures above are their weighted sum (:func:`blend`)."""


@dataclass(frozen=True, slots=True)
class Branch:
    """One way a shot may turn out before its To Hit DR: its probability, why, the rule."""

    weight: float
    why: str
    rule: str
    odds: Odds


def blend(parts: Sequence[Branch]) -> Odds:
    """The odds of a shot that is one of ``parts`` with their probabilities (summing to 1):
    every figure the weighted sum of theirs (RD-16); nested branches are flattened. The plan
    shown is the first part's (the shot as declared).

    The chart's 90-degree line (RD-8): a die decides front (AF E) or rear (AF C), half and half:

    >>> front = odds(Attack(rules="chart", firer="gun", atfp="D", armor="E", range=5))
    >>> rear = odds(Attack(rules="chart", firer="gun", atfp="D", armor="C", range=5))
    >>> either = blend([Branch(0.5, "front", "RD-8", front), Branch(0.5, "rear", "RD-8", rear)])
    >>> [round(o.p["eliminated"], 4) for o in (front, rear, either)]
    [0.1528, 0.662, 0.4074]
    >>> [b.why for b in either.branches]
    ['front', 'rear']
    """
    flat: list[Branch] = []
    for b in parts:
        if b.odds.branches:
            flat.extend(
                Branch(b.weight * c.weight, f"{b.why}; {c.why}", f"{b.rule}, {c.rule}", c.odds)
                for c in b.odds.branches
            )
        else:
            flat.append(b)
    if len(flat) == 1:
        return flat[0].odds
    p = {k: sum(b.weight * b.odds.p[k] for b in flat) for k in OUTCOMES}
    return Odds(
        flat[0].odds.plan,
        sum(b.weight * b.odds.p_hit for b in flat),
        p,
        sum(b.weight * b.odds.p_critical for b in flat),
        sum(b.weight * b.odds.p_rof for b in flat),
        tuple(flat),
    )


@cache
def _p_ntc_fail(morale: int) -> float:
    return sum(w for t, w in _TWO_D6 if ntc_fails(t, morale)) / 36


@cache
def _p_abandon() -> float:
    return sum(1 for d in range(1, 7) if abandoned(d)) / 6


def odds(a: Attack) -> Odds:
    """The exact probability of every final outcome of attack ``a`` (sums to 1).

    C7.24's example as a whole attack: a 50L AT Gun's AP at the rear of a KV-1E 25 hexes away,
    a hull hit (To Hit Number 6, 002; Final TK# 4 against the rear hull's AF 8):

    >>> o = odds(Attack(gun="50L", ammo="AP", range=25, aspect="rear", location="hull",
    ...                 af_hull=8, af_turret=8))
    >>> round(o.p_hit, 4), o.plan.tk[("hull", False)].final
    (0.4167, 4)
    >>> {k: round(v, 4) for k, v in o.p.items() if k in ("miss", "dud", "burn")}
    {'miss': 0.5833, 'dud': 0.0116, 'burn': 0.0309}
    >>> round(sum(o.p.values()), 9)
    1.0
    """
    p = plan(a)
    out = dict.fromkeys(OUTCOMES, 0.0)
    # the same tests as critical() and keeps_rof(), hoisted out of the 36 dice and kept (the
    # odds panel and the threat map call this thousands of times, on few To Hit situations)
    rof = a.rof if (a.phase_allows_rof and a.rof > 0) else 0
    hits, p_hit, p_ch, p_rof = _to_hit_masses(
        p.drm_total,
        p.to_hit_number,
        p.dc_position,
        a.rules == "asl",
        bool(a.critical_hit),
        rof,
        a.location,
    )
    out["miss"] = _p_miss(p.drm_total, p.to_hit_number, p.dc_position)
    for key, q in hits:
        for outcome, r in _hit_outcomes(p, key):
            out[outcome] += q * r
    if a.immobilized or out["immobilized"]:
        pa = _p_abandon()
        survivors = (
            ("miss", "dud", "shock", "no_effect", "immobilized")
            if a.immobilized
            else ("immobilized",)
        )
        for k in survivors:
            moved = out[k] * pa
            out[k] -= moved
            out["abandoned"] += moved
    return Odds(p, p_hit, out, p_ch, p_rof)


@cache
def _p_miss(drm: int, thn: int, dc_position: bool) -> float:
    """P(miss): the Original TH DR that miss, summed die by die (never 1 - P(hit), which may
    round below zero)."""
    misses = 0
    for dr in _ALL_DR:
        if dc_position:
            misses += dc_position_dr(dr.total, drm)[0] not in ("optimal", "success")
        else:
            misses += dr.total + drm > thn
    return sum(1 / 36 for _ in range(misses))


@cache
def _to_hit_masses(
    drm: int, thn: int, dc_position: bool, asl: bool, forced: bool, rof: int, location: str | None
) -> tuple[tuple[tuple[TkKey, float], ...], float, float, float]:
    """The 36 Original TH DR of one To Hit situation: the probability of each hit key (hit
    location RD-2, Critical Hit RD-3, the DC's Position, C7.346), P(hit), P(CH), P(ROF kept)."""
    hits: dict[TkKey, float] = {}
    key: TkKey
    p_hit = p_ch = p_rof = 0.0
    w = 1 / 36
    ch_total = tables().to_hit["critical_hit_dr"]
    for dr in _ALL_DR:
        loc = location or ("turret" if dr.colored < dr.white else "hull")  # RD-2
        if dc_position:
            pos, _ = dc_position_dr(dr.total, drm)
            hit = pos in ("optimal", "success")
            key = (loc, "aerial" if pos == "optimal" else False)
        else:
            hit = dr.total + drm <= thn
            ch = asl and hit and (forced or dr.total == ch_total)  # RD-3
            key = (loc, ch)
            if dr.colored <= rof:  # RD-4
                p_rof += w
            if ch:
                p_ch += w
        if hit:
            p_hit += w
            hits[key] = hits.get(key, 0.0) + w
    return tuple(hits.items()), p_hit, p_ch, p_rof


def _hit_outcomes(p: Plan, key: TkKey) -> tuple[tuple[str, float], ...]:
    a = p.attack
    if a.target == "gun":
        return (("eliminated", 1.0),)
    if a.target == "infantry":  # a concealed "?" fired at (HX-13)
        return (("no_effect", 1.0),)
    if p.no_effect:  # a "?" hit with ammunition that cannot harm it (RD-20)
        return (("no_effect", 1.0),)
    if a.rules == "chart":
        if a.target == "vehicle":
            return (("eliminated", 1.0),)
        assert p.elimination_number is not None
        return _chart_distribution(p.elimination_number)
    tk = p.tk[key]
    return _tk_distribution(
        tk.final, p.column, p.ammo == "HE", str(key[0]), tk.armored, a.red_cs, a.morale
    )


@cache
def _chart_distribution(en: int | str) -> tuple[tuple[str, float], ...]:
    if en in ("E", "-"):
        return ((chart_result(en, 0)[0], 1.0),)
    return tuple((chart_result(en, t)[0], w / 36) for t, w in _TWO_D6)


@cache
def _tk_distribution(
    final: int, column: str, he: bool, location: str, armored: bool, red_cs: bool, morale: int
) -> tuple[tuple[str, float], ...]:
    """The final outcomes of a TK DR against ``final`` (C7.7), the NTC resolved (RD-5)."""
    res = []
    for t, w in _TWO_D6:
        outcome, _ = destruction(
            final, t, column=column, he=he, location=location, armored=armored, red_cs=red_cs
        )
        q = w / 36
        if outcome == "possible_shock":
            f = _p_ntc_fail(morale)
            res.append(("shock", q * f))
            res.append(("no_effect", q * (1 - f)))
        else:
            res.append((outcome, q))
    return tuple(res)


def odds_to_dict(o: Odds) -> dict:
    """The odds of one attack as one JSON-ready object (``hexfire odds --json``).

    >>> d = odds_to_dict(odds(Attack(gun="50L", ammo="AP", range=25, aspect="rear",
    ...                              location="hull", af_hull=8, af_turret=8)))
    >>> list(d), d["to_hit"]["number"], d["to_kill"]["final"]
    (['rules', 'to_hit', 'to_kill', 'p'], 6, 4)
    """
    p = o.plan
    a = p.attack
    to_hit = {
        "number": p.to_hit_number,
        "rule": p.to_hit_rule,
        "drms": [d.to_dict() for d in p.drms],
        "drm_total": p.drm_total,
        "notes": [n.to_dict() for n in p.notes],
        "p_hit": o.p_hit,
        "p_critical_hit": o.p_critical,
        "p_rof": o.p_rof,
    }
    if p.dc_position:
        to_hit["position_dr"] = True
    out: dict = {"rules": a.rules, "to_hit": to_hit}
    out["to_kill"] = _to_kill_dict(p)
    if o.branches:
        out["branches"] = [
            {"p": b.weight, "why": b.why, "rule": b.rule, "to_kill": _to_kill_dict(b.odds.plan)}
            for b in o.branches
        ]
    out["p"] = {k: o.p[k] for k in OUTCOMES}
    return out


def _to_kill_dict(p: Plan) -> dict:
    """The To Kill part of a plan as JSON: a Gun's fate, the chart's Elimination Number, or the
    C7 derivation."""
    a = p.attack
    out: dict = {}
    if a.target == "gun":
        out["to_kill"] = {"rule": "002", "gun": "a Gun hit by AT fire is eliminated"}
    elif a.target == "infantry":
        out["to_kill"] = {"rule": "002", "gun": "AT fire has no effect on Infantry (HX-13)"}
    elif p.no_effect:
        rule, why = p.no_effect
        out["to_kill"] = {"rule": "RD-20", "gun": f"{why} ({rule}): a hit has no effect"}
    elif a.rules == "chart":
        out["to_kill"] = {
            "elimination_number": p.elimination_number if a.target == "afv" else "E",
            "rule": "002",
        }
    else:
        loc = a.location or "hull"
        main = p.tk[(loc, bool(a.critical_hit))]
        tk = main.to_dict()
        tk["location"] = loc
        tk["by_location"] = {
            f"{lc}{'_ch' if ch is True else ('_aerial' if ch == 'aerial' else '')}": r.final
            for (lc, ch), r in p.tk.items()
        }
        out["to_kill"] = tk
    return out["to_kill"]
