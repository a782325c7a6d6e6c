"""The danger to the computer's own units (RD-18): the risk it reads from a threat map's figure,
the prior of what an enemy "?" may do (RD-11), and whether a shot would give away a concealment
worth keeping."""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from game.engine.catalogue import unit_types
from game.engine.play.threat import HexThreat, Threat
from game.engine.table import Table
from game.engine.view import UnitView

from ..tuning import tuning

_RISK = tuning().risk
IMMOBILIZED_WEIGHT = _RISK.immobilized
"""What an immobilization counts for against a knock-out (``[risk] immobilized``)."""


def removal_risk(t: HexThreat | Threat | None) -> float:
    """The risk the computer reads from a threat map's figure for a hex, or from one enemy's
    shot in it (RD-18): P(removed from play) plus ``IMMOBILIZED_WEIGHT`` of P(immobilized);
    0 for no figure (no threat)."""
    return 0.0 if t is None else t.p_kill + IMMOBILIZED_WEIGHT * t.p_immobilized


Prior = tuple[tuple[tuple[int, float], ...], float]
"""A "?" prior: its (range, chance) rows, the ranges rising, and its chance beyond the last."""


def unknown_chance(distance: int, prior: Prior | None = None) -> float:
    """The prior chance that a "?" ``distance`` hexes away with a clear LOS knocks out a
    vehicle (``[risk] unknown``, or the rows of ``prior``): what it is is secret (RD-11), a Gun
    or only Infantry."""
    rows, beyond = prior if prior is not None else (_RISK.unknown, _RISK.unknown_beyond)
    for reach, chance in rows:
        if distance <= reach:
            return chance
    return beyond


def soft(unit: UnitView | None) -> float:
    """How much more an enemy "?" may do to ``unit`` (a unit view) than to a tank: ``[risk]
    unknown_soft`` for an unarmored vehicle (any hit all but removes it, C7: issue 41, the Orel
    road's half-track), else 1."""
    if unit is not None and unit.get("is_vehicle") and unit.get("category") != "afv":
        return _RISK.unknown_soft
    return 1.0


_REGAINED = re.compile(r"^(?P<name>.+) in (?P<hex>\S+) is out of every enemy LOS")
"""The log line of a unit that regains its concealment (RD-11), read by both sides."""

_KEPT: WeakKeyDictionary[Table, dict[tuple[int, str], dict[str, str]]] = WeakKeyDictionary()
""":func:`seen_guns` of each table, by its events read and the side (a table looks at one game
whose log only grows)."""


def seen_guns(table: Table, side: str) -> dict[str, str]:
    """The enemy "?" that ``side`` has seen to be Guns, by hex, each the unit it is (RD-11): a
    Gun cannot move, so a "?" in the hex where ``side``'s log shows an enemy Gun regain its
    concealment (at the end of a player turn, out of every enemy LOS; the line names the unit
    and its hex, and both sides read it) is that Gun, while no later line shows it seen again
    or removed."""
    known = _KEPT.setdefault(table, {})
    key = (table.event_count(), side)
    kept = known.get(key)
    if kept is not None:
        return kept
    own = {u["id"] for u in table.units() if u["side"] == side}
    guns = {t.name for t in unit_types().values() if t.category == "gun"}
    where: dict[str, str] = {}
    for e in table.events():
        unit = e.data.get("unit") if e.data else None
        if e.kind != "concealment" or unit is None or unit in own:
            continue
        m = _REGAINED.match(e.text)
        if e.data.get("concealed") and m is not None and m["name"] in guns:
            where[unit] = m["hex"]
        else:
            where.pop(unit, None)
    gone = table.out_of_play()
    unknown = {u["hex"] for u in table.units() if u["side"] != side and u.get("type") == "?"}
    kept = {h: u for u, h in where.items() if u not in gone and h in unknown}
    known[key] = kept
    return kept


def afv_share(table: Table, side: str) -> float:
    """The share of the enemy "?" that must be AFVs, by the public facts alone (RD-13, RD-11):
    :func:`must_be_afvs` over the "?" not seen to be Guns, at most 1; 0 with none or no "?"."""
    need, unknown = must_be_afvs(table, side)
    return min(1.0, need / len(unknown)) if unknown else 0.0


def must_be_afvs(table: Table, side: str) -> tuple[int, tuple[str, ...]]:
    """How many enemy "?" must be AFVs, by the public facts alone (RD-13, RD-11), and the
    hexes of the "?" that may be: an elimination victory of ``side`` of N enemy AFVs (no units
    named) says the enemy fields N of them; those ``side`` sees in play, and every enemy unit
    it saw removed (HX-13, an AFV or not: the count is never too high), leave the rest among
    the "?" not seen to be Guns (:func:`seen_guns`); the largest over such conditions, at most
    the number of those "?"."""
    units = table.units()
    guns = seen_guns(table, side)  # a "?" seen to be a Gun is no AFV
    unknown = tuple(
        u["hex"]
        for u in units
        if u["side"] != side and u.get("type") == "?" and u["hex"] not in guns
    )
    if not unknown:
        return 0, unknown
    seen = sum(1 for u in units if u["side"] != side and u.get("category") == "afv")
    lost = sum(len(v) for s, v in table.losses().items() if s != side)
    need = max(
        (
            v.count - seen - lost
            for v in table.victory
            if v.side == side and v.kind == "eliminate" and not v.units
        ),
        default=0,
    )
    return min(len(unknown), max(0, need)), unknown


def unknown_risk(
    table: Table, side: str, prior: Prior | None = None, scale: float = 1.0
) -> Callable[[str], float]:
    """The risk the enemy "?" may hold for a vehicle of ``side`` in a hex: each "?" with a clear
    LOS to the hex (the terrain, which every side knows) counts as a fair chance of a hidden
    Gun's shot, more at short range (:func:`unknown_chance`, by ``prior`` if given), and a "?"
    its side has seen to be a Gun (:func:`seen_guns`) by ``[risk] seen_gun``, times ``scale``
    for a vehicle softer than a tank (:func:`soft`), at most 1. Without ``prior``, any other
    "?" that must be an AFV by the victory conditions (:func:`afv_share`) counts by that share
    a hidden tank's shot (``[risk] unknown_afv``; issue 41: the duel's lone Panzer)."""
    shots = unknown_shots(table, side, prior, scale)
    memo: dict[str, float] = {}

    def risk(hx: str) -> float:
        hit = memo.get(hx)
        if hit is None:
            alive = 1.0
            for _, chance in shots(hx):
                alive *= 1.0 - chance
            hit = memo[hx] = 1.0 - alive
        return hit

    return risk


def unknown_shots(
    table: Table,
    side: str,
    prior: Prior | None = None,
    scale: float = 1.0,
    base: Prior | None = None,
) -> Callable[[str], tuple[tuple[str, float], ...]]:
    """Each enemy "?" that may fire at a vehicle of ``side`` in a hex, by its hex, with its
    chance of knocking it out there (:func:`unknown_risk`'s figures, one a "?", at most 1):
    a "?" is one firer, and a Gun fires once in a phase unless it keeps its Multiple ROF
    (RD-4, C6.17), so a route's risk counts its best shot, not one in every hex it sees.
    ``base``: the prior of a "?" in place of ``[risk] unknown``, the share that must be AFVs
    still counted as :func:`unknown_risk` counts it (level 3's way, ``[risk] way_unknown``)."""
    board = table.board
    guns = seen_guns(table, side)
    gun_prior = (_RISK.seen_gun, _RISK.seen_gun_beyond)
    rows = [
        (
            u["hex"],
            board.parse(u["hex"]),
            table.viewshed(u["hex"])[0],
            gun_prior if u["hex"] in guns else prior,
        )
        for u in table.units()
        if u["side"] != side and u.get("type") == "?"
    ]
    share = afv_share(table, side) if prior is None and rows else 0.0
    tank: Prior = (_RISK.unknown_afv, _RISK.unknown_afv_beyond)
    memo: dict[str, tuple[tuple[str, float], ...]] = {}

    def chance(d: int, shape: Prior | None) -> float:
        first = unknown_chance(d, base if shape is None and base is not None else shape)
        if not share or shape is gun_prior:  # a Gun it saw is that Gun, no AFV
            return first
        return (1.0 - share) * first + share * unknown_chance(d, tank)

    def shots(hx: str) -> tuple[tuple[str, float], ...]:
        hit = memo.get(hx)
        if hit is None:
            here = board.parse(hx)
            i = board.index(here)
            hit = memo[hx] = tuple(
                (name, min(1.0, scale * chance(d, shape)))
                for name, where, clear, shape in rows
                if clear[i] and (d := where.distance(here)) > 0
            )
        return hit

    return shots


def hidden(table: Table, unit_id: str) -> bool:
    """Whether this side's vehicle is concealed (a shot or a move in sight reveals it; a Gun,
    which cannot move, is there to fire)."""
    return any(
        u["id"] == unit_id and u.get("concealed") and u.get("is_vehicle") for u in table.units()
    )


def hides(table: Table, unit_id: str, target: str) -> bool:
    """Whether a shot of ``unit_id`` at ``target`` would give away a concealment worth keeping
    (RD-11): the firer is a concealed vehicle and the target is no danger to it (its shot where
    the firer stands, RD-18, under ``[fire] duel_risk``): in a duel the first shot counts more
    than staying unseen (Case K is only +2)."""
    if not hidden(table, unit_id):
        return False
    here = table.threat_here(unit_id)
    duel = tuning().fire.duel_risk
    return sum(removal_risk(t) for t in here.threats if t.firer == target) < duel


def spent_firers(table: Table, side: str) -> frozenset[str]:
    """The enemies that may fire no more in ``side``'s Movement Phase under way: each took
    its Defensive First Fire shot and kept no Multiple ROF (RD-4; it may not fire again this
    phase, nor in the Defensive Fire Phase that follows, HX-8). An ASL attacker draws that
    fire with one vehicle and drives the others on under fewer guns; none outside it."""
    if table.phasing != side or table.phase != "movement":
        return frozenset()
    return frozenset(u["id"] for u in table.units() if u["side"] != side and u.get("fired"))


def live_risk(t: HexThreat | None, spent: frozenset[str]) -> float:
    """:func:`removal_risk` of a threat map's figure, the shots of the ``spent`` firers left
    out (:func:`spent_firers`)."""
    if t is None or not spent or not any(s.firer in spent for s in t.threats):
        return removal_risk(t)
    alive = immobile = 1.0
    for s in t.threats:
        if s.firer not in spent:
            alive *= 1.0 - s.p_kill
            immobile *= 1.0 - s.p_immobilized
    return (1.0 - alive) + IMMOBILIZED_WEIGHT * (1.0 - immobile)
