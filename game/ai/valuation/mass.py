"""Level 3 on the large maps: its vehicles close in together (issue 41, thirteenth session;
``[mass]`` in the tuning table).

On the four boards and the steppe the attacker's tanks win their kills at 1-2 hexes (Case L)
in the Advancing Fire Phase and lose as many on the way, one or two at a time, to the enemy's
Defensive First Fire, mostly from "?" in woods at 1-5 hexes (docs/ai.md, tenth session). An
enemy weapon fires once a phase at most unless it keeps its Multiple ROF (RD-4), and never
more often at one target in one Location than the MP it spent there (C6.17): a lone mover
draws every shot that sees it, while several movers in the same Movement Phase share them out,
and those that arrive shoot together in Advancing Fire (RD-12).

So, in each Movement Phase of the side that must close in (:func:`must_close`: the attacker),
the vehicles that can reach a firing hex (within ``[mass] shoot`` hexes of an enemy, a "?" too:
every side knows where a counter is, RD-11) this phase are counted (:func:`ready`); while fewer than
``[mass] together`` can, no vehicle ends its move in the LOS (RD-9) of an enemy within
``sight_far`` hexes, a hex to shoot from included (a lone charge waits for the others too): it
stops out of every enemy's sight or stays (:func:`held_back`). Once enough can, they go as
level 2's scorer drives them. (A first form let a vehicle stop in sight within ``shoot`` hexes:
no gain measured, docs/ai.md.)"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from game.engine.table import Table
from game.engine.view import UnitView

from ..tuning import tuning
from .reach import HEXES_PER_MP, loses_at_the_end


def must_close(table: Table, side: str) -> bool:
    """Whether ``side`` must close in to win (RD-13, HX-11): it loses if the game ends as
    things stand (:func:`~.reach.loses_at_the_end`: the scenario's attacker). The defender,
    which wins on time, is not held back even with an elimination victory to win: its enemy
    must come to it (issue 41, fourteenth session: held back too, the four boards' German won
    10 of 24 against level 2, main's play 15)."""
    return loses_at_the_end(table, side)


def _enemies(table: Table, side: str) -> list[str]:
    """The hexes of the enemy units in play as ``side`` sees them (a "?" too, RD-11)."""
    return [
        u["hex"]
        for u in table.units()
        if u["side"] != side
        and u.get("status", "active") == "active"
        and u.get("hex")
        and u["hex"] != "off"
    ]


def _fighter(u: UnitView, side: str) -> bool:
    """A vehicle of ``side`` in play that can shoot and move."""
    return (
        u["side"] == side
        and bool(u.get("is_vehicle"))
        and bool(u.get("has_gun"))
        and u.get("status", "active") == "active"
        and not u.get("immobilized")
        and bool(u.get("hex"))
        and u["hex"] != "off"
    )


class Front:
    """The enemy's front as ``side`` sees it: each hex's distance to the nearest enemy, and
    the hexes in an enemy's LOS (RD-9) within ``[mass] sight_far`` hexes."""

    def __init__(self, table: Table, side: str):
        t = tuning().mass
        board = table.board
        self.table, self.side = table, side
        self.nearest = np.full(board.size, np.iinfo(np.int32).max, dtype=np.int64)
        self.watched = np.zeros(board.size, dtype=bool)
        for hx in _enemies(table, side):
            d = board.distances(board.index(board.parse(hx)))
            np.minimum(self.nearest, d, out=self.nearest)
            seen = np.asarray(table.viewshed(hx)[0], dtype=bool)
            self.watched |= seen & (d <= t.sight_far)

    def at(self, hx: str) -> int:
        """Hexes from ``hx`` to the nearest enemy."""
        b = self.table.board
        return int(self.nearest[b.index(b.parse(hx))])

    def exposed(self, hx: str) -> bool:
        """Whether a vehicle that stops in ``hx`` is in an enemy's sight within ``[mass]
        sight_far`` hexes (the strict form: a lone charge to a firing hex waits too)."""
        b = self.table.board
        i = b.index(b.parse(hx))
        return bool(self.watched[i])


def ready(table: Table, side: str, front: Front) -> int:
    """The vehicles of ``side`` that stand within ``[mass] shoot`` hexes of an enemy, or can
    still move this phase and get there on their MP left (about a hex for
    ``[playout] mp_per_hex`` MP, RD-10)."""
    shoot = tuning().mass.shoot
    acting = set(table.can_act())
    moving = table.moving_unit
    count = 0
    for u in table.units():
        if not _fighter(u, side):
            continue
        gap = front.at(u["hex"]) - shoot  # hexes to a firing hex
        can_go = u["id"] in acting or u["id"] == moving
        reach = float(u.get("mp_left", 0.0)) * HEXES_PER_MP if can_go else 0.0
        count += gap <= reach
    return count


def held_back(table: Table, side: str, level: int) -> Callable[[str], bool] | None:
    """Level 3 on a map of more than ``[search] max_hexes`` hexes, in its Movement Phase, for a
    side that must close in: while fewer than ``[mass] together`` of its vehicles can reach a
    firing hex (:func:`ready`), whether stopping in a hex would leave a vehicle alone in an
    enemy's sight (:meth:`Front.exposed`): such a hex is not weighed (C6.17, RD-4, RD-9). None:
    no hex is held back (enough can go together, or the rule does not apply)."""
    if (
        level < 3
        or table.board.size <= tuning().search.max_hexes
        or table.phase != "movement"
        or table.phasing != side
        or not must_close(table, side)
    ):
        return None
    front = Front(table, side)
    if ready(table, side, front) >= tuning().mass.together:
        return None
    return front.exposed
