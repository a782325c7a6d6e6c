"""What a side may imagine the game to be (docs/ai.md "What a copy holds"): a copy of the game
holding only what that side may know that a playout could read. Made by the side's
:class:`~.table.Table` (``Table.imagined``), so the computer's search plays on copies without
ever holding the game itself.

A copy's determinization: the dice are new dice seeded from the side's own seed (never the
game's: their next rolls are not its to know); an enemy's Bore Sighted Location is cleared
(C6.42); an enemy "?" stays where it is (every side knows where a counter is, RD-11) but becomes
the prior of what it may be: a typical Gun of its side for the scenario's year
(:func:`prior_gun`), or, for as many "?" as the public facts say must be AFVs (an elimination
victory's count of enemy AFVs not seen, RD-13: the searching side's reading), a typical AFV
(:func:`prior_afv`), concealed, facing the nearest vehicle of the side; and which "?" is which
is dealt anew over their hexes (seeded)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from game.board.hexes import direction_to, facing_angle
from game.rules.dice import SEEDS, Dice

from .catalogue import UnitType, unit_types
from .game import Game
from .setup import Setup
from .state import UnitState


def prior_gun(setup: Setup, side: str) -> UnitType:
    """What a "?" of ``side`` is taken to be in a search (RD-11: what it is is secret): a
    typical Gun of its nationality fielded by the scenario's year, the middle one by caliber
    (the lighter of the two middle ones; a "?" may be only Infantry), else of the catalogue's
    Guns; chosen from the catalogue and the scenario alone."""
    return _middle(setup, side, "gun", lambda t: (t.caliber, t.key))


def prior_afv(setup: Setup, side: str) -> UnitType:
    """What a "?" of ``side`` that must be an AFV is taken to be in a search (RD-11, RD-13): a
    typical AFV of its nationality fielded by the scenario's year, the middle one by caliber
    and front armor (the lighter of the two middle ones), else of the catalogue's AFVs; chosen
    from the catalogue and the scenario alone (issue 41: the hedgerow's two hidden Panzers
    taken for 50 mm Guns let level 3's playouts drive off the west edge past them)."""
    return _middle(setup, side, "afv", lambda t: (t.caliber, t.af_hull_front or 0, t.key))


def _middle(setup: Setup, side: str, category: str, key: Callable[[UnitType], Any]) -> UnitType:
    """The middle one by ``key`` (the lighter of the two middle ones) of the catalogue's units of
    ``category`` of ``side``'s nationality fielded by the scenario's year, else of any
    nationality, else of the catalogue's."""
    pool = [t for t in unit_types().values() if t.category == category]
    dated = [
        t
        for t in pool
        if setup.year is None or t.available is None or int(t.available[:4]) <= setup.year
    ]
    ranked = sorted([t for t in dated if t.nationality == side] or dated or pool, key=key)
    return ranked[(len(ranked) - 1) // 2]


def determinize(
    game: Game,
    side: str,
    seed: int,
    hidden: frozenset[str] = frozenset(),
    tanks: int = 0,
    may_be: frozenset[str] = frozenset(),
) -> Game:
    """A copy of ``game`` holding only what ``side`` may know that a playout could read: new
    dice from ``seed``; no enemy Bore Sighted Location (C6.42); each enemy "?" of ``hidden``
    its prior, fresh, concealed, in its hex, facing the nearest vehicle of ``side`` (the
    search's own seeing; nothing of what it really is remains): ``tanks`` of those in the hexes
    ``may_be`` (drawn, seeded) a typical AFV (:func:`prior_afv`: the "?" the side's victory
    conditions say must be AFVs, RD-13), the others a typical Gun (:func:`prior_gun`)."""
    copy = game.copy()
    copy.dice = Dice(seed % (SEEDS.stop))
    units = copy.state.units
    for unit in units.values():
        if unit.side != side:
            unit.bore_sight = None
        elif unit.acquisition is not None and unit.acquisition.target in hidden:
            # the counter stays on the Location, on no unit (C6.51): the ids are dealt anew
            unit.acquisition = replace(unit.acquisition, target=None)
    ours = sorted(
        (u for u in units.values() if u.side == side and u.active),
        key=lambda u: (not u.type.is_vehicle, u.id),
    )
    # which "?" is which is secret too (RD-11): the ids of the "?" are dealt out afresh over
    # their hexes (seeded), so that no playout's end (a victory naming units) can tell them
    qids = sorted(hidden)
    hexes = sorted((units[q] for q in qids), key=lambda u: u.label)  # by what its side sees
    deal = random.Random(seed)
    deal.shuffle(hexes)
    could = sorted({u.label for u in hexes if u.label in may_be})
    afv_at = set(deal.sample(could, min(tanks, len(could)))) if tanks else set()
    for qid, was in zip(qids, hexes, strict=True):
        facing = 0
        if ours:
            near = min(ours, key=lambda u: (not u.type.is_vehicle, u.hex.distance(was.hex), u.id))
            angle = direction_to(was.hex, near.hex)
            facing = min(range(6), key=lambda d: abs((angle - facing_angle(d) + 180) % 360 - 180))
        units[qid] = UnitState(
            id=qid,
            type=(prior_afv if was.label in afv_at else prior_gun)(game.setup, was.side),
            side=was.side,
            hex=was.hex,
            facing=facing,
            turret=facing,
            concealed=True,
        )
    return copy
