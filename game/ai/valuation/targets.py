"""What an enemy is worth to the computer's side, and what each of its legal shots is worth:
P(knock out) x the target's worth, from the odds its side may be shown (the odds panel's own
exact numbers, RD-16). The fire and Defensive First Fire candidates score by it, and a
vehicle's move by the shots a hex would give."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game.engine.actions import Action, Fire
from game.engine.errors import IllegalAction
from game.engine.table import Table

from ..tuning import tuning
from .danger import removal_risk, seen_guns


def may_be(table: Table, unit_id: str, names: Iterable[str]) -> bool:
    """Whether the enemy ``unit_id`` may be one of the units ``names`` (a victory condition's):
    a unit this side sees is itself; which "?" is which is secret (RD-11), so a "?" may be any
    of them not seen elsewhere and still in play (a removal is seen by both sides, HX-13)."""
    if not names:
        return False
    shown = table.known_enemies()
    if unit_id in shown:
        return unit_id in names
    gone = table.out_of_play()
    return any(x not in shown and x not in gone for x in names)


def last_named(table: Table, side: str, unit_id: str) -> bool:
    """Whether ``unit_id`` is the last unit still in play of those an elimination victory of
    ``side`` names: its removal meets that victory and wins the game at once (RD-13). Which
    units are out of play is what ``side`` saw leave (a removal is seen by both sides, HX-13)."""
    gone = table.out_of_play()
    return any(
        v.side == side
        and v.kind == "eliminate"
        and unit_id in v.units
        and all(x in gone for x in v.units if x != unit_id)
        for v in table.victory
    )


def worth(table: Table, side: str, unit_id: str) -> float:
    """What knocking out an enemy is worth to ``side``: an AFV 2, anything else 1 (the points
    of RD-13), doubled when a victory condition names it (``[targets] wins`` times more when
    it is the last such unit it must remove: :func:`last_named`), tripled when it stands on a
    hex ``side`` must hold, doubled when on a hex its own side must hold (``[targets]``)."""
    t = tuning().targets
    entry = next((u for u in table.units() if u["id"] == unit_id), None)
    base = t.afv if entry is not None and entry.get("category") == "afv" else t.other
    for v in table.victory:
        if v.side == side and may_be(table, unit_id, v.units):
            base *= t.named
        if v.side == side and entry is not None and entry["hex"] in v.hexes:
            base *= t.on_our_hold  # it stands on a hex this side must hold
        if v.side != side and v.kind == "hold" and entry and entry["hex"] in v.hexes:
            base *= t.on_their_hold  # it stands on a hex its side must hold (RD-13)
    if unit_id in table.known_enemies() and last_named(table, side, unit_id):
        base *= t.wins  # a "?" may be any of them (RD-11): only a unit it sees
    return base


def gun_worth(table: Table, side: str, unit_id: str) -> float:
    """What knocking out the enemy Gun ``unit_id``, a "?" its side has seen to be it
    (:func:`~.danger.seen_guns`), is worth to ``side``: ``[targets] other``, doubled for each
    victory condition of ``side`` that names it (RD-13), and ``[targets] wins`` times more when
    its removal meets that victory (:func:`last_named`)."""
    t = tuning().targets
    base = t.other
    for v in table.victory:
        if v.side == side and unit_id in v.units:
            base *= t.named
    if last_named(table, side, unit_id):
        base *= t.wins
    return base


def hold_factor(table: Table, side: str, unit_id: str) -> float:
    """``[targets] on_our_hold`` for an enemy on a hex ``side`` must hold (it must go), else 1."""
    where = table.where(unit_id)
    hold = any(v.side == side and where in v.hexes for v in table.victory)
    return tuning().targets.on_our_hold if hold else 1.0


def loss_share(table: Table, side: str, unit: Any) -> float:
    """The share of the enemy's elimination victories (RD-13, public facts) that the loss of
    ``side``'s own ``unit`` (a view of it, read by ``get``) would meet: 1 / N of each victory
    of N enemy AFVs for an AFV, 1 / the units named for a unit one names (issue 41: the duel's
    German wins by knocking out one T-34, so each T-34's loss is the whole game)."""
    share = 0.0
    for v in table.victory:
        if v.side == side or v.kind != "eliminate":
            continue
        if v.units:
            share += 1.0 / len(v.units) if unit.get("id") in v.units else 0.0
        elif unit.get("category") == "afv":
            share += 1.0 / max(1, v.count)
    return share


def dangers(table: Table, side: str) -> dict[str, float]:
    """What each enemy this side knows threatens where this side's vehicles stand now (RD-18):
    the sum over them of its own shot's risk to each (P(removed) plus a share of
    P(immobilized), the threat map's figure as it stands) times that vehicle's worth (an AFV
    2). A shot that removes it takes that threat away too: the enemy about to fire at a
    vehicle goes before an equal target that cannot (issue 41: a lone Panzer shot at a Shocked
    T-34 five hexes away, the one beside it then shot it)."""
    t = tuning().targets
    out: dict[str, float] = {}
    for u in table.units():
        if u["side"] != side or not u.get("is_vehicle") or u.get("status", "active") != "active":
            continue
        stake = t.afv if u.get("category") == "afv" else t.other
        for threat in table.threat_here(u["id"]).threats:
            out[threat.firer] = out.get(threat.firer, 0.0) + removal_risk(threat) * stake
    return out


@dataclass(frozen=True)
class Shot:
    """One legal shot and its value to the firer's side; ``odds`` as the side may be shown
    them (``Table.odds``)."""

    value: float
    action: Fire
    odds: Any
    danger: float = 0.0
    """The part of ``value`` that is the threat the target poses (:func:`dangers`)."""


def shots(table: Table, side: str, legal: list[Action]) -> list[Shot]:
    """Each legal shot with its value, the best first: P(knock out) x (the target's worth and a
    share, ``[targets] danger``, of the threat it poses to this side's vehicles: :func:`dangers`),
    plus a little of its To Hit (``[targets] hit``); a "?" by its To Hit x ``concealed_hit`` (what a
    hit does is unknown, RD-11) and where it stands. Ties go by the firer, then the target's
    hex, never its id: which "?" is which is secret (RD-11); but a "?" its side has seen to be
    a Gun (:func:`~.danger.seen_guns`) by its To Hit x that Gun's worth (any hit by AT fire
    eliminates a Gun, 002)."""
    t = tuning().targets
    out = []
    danger: dict[str, float] | None = None
    guns = seen_guns(table, side) if any(isinstance(a, Fire) for a in legal) else {}
    for a in legal:
        if not isinstance(a, Fire):
            continue
        if danger is None:
            danger = dangers(table, side)
        try:
            odds = table.odds(a.unit, a.target, a.ammo)
        except IllegalAction:
            continue
        threat = 0.0
        gun = guns.get(table.where(a.target)) if odds.p_kill is None else None
        if gun is not None:  # a Gun it has seen: a hit eliminates it (002)
            value = odds.p_hit * gun_worth(table, side, gun) + t.hit * odds.p_hit
        elif odds.p_kill is None:  # a "?": a hit reveals it (HX-9); where it stands counts
            value = odds.p_hit * t.concealed_hit * hold_factor(table, side, a.target)
        else:
            threat = odds.p_kill * t.danger * danger.get(a.target, 0.0)
            value = odds.p_kill * worth(table, side, a.target) + t.hit * odds.p_hit + threat
        out.append(Shot(value, a, odds, threat))
    out.sort(
        key=lambda s: (-s.value, s.action.unit, table.where(s.action.target), repr(s.action.ammo))
    )
    return out
