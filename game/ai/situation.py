"""What one of the computer's decisions reads (a :class:`Situation`): its side's table at that
moment, the actions legal to it, the decision's seeded random source, who decides (side, level,
seed) and what it keeps from one decision to the next (its maps, its objective, the routes a
playout player drives). The candidate actions (game/ai/candidates/) evaluate it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from game.engine.actions import Action
from game.engine.table import Table

from .decision import mix
from .tuning import Plan
from .valuation.maps import KeptMaps
from .valuation.objective import Objectives


@dataclass
class Drive:
    """A playout player's routes (level 3's search, ``commit``): each vehicle drives the route
    it chose to its end while its steps stay legal, and a vehicle that chose to stay is not
    weighed again, in the Movement Phase ``key`` names."""

    commit: bool = False
    routes: dict[str, list[Action]] = field(default_factory=dict)
    stays: set[str] = field(default_factory=set)
    key: tuple | None = None

    def begin(self, table: Table) -> None:
        """A new Movement Phase: the routes of the last one are dropped."""
        key = (table.game_key, table.turn, table.phasing)
        if self.commit and self.key != key:
            self.key = key
            self.routes, self.stays = {}, set()


@dataclass
class Situation:
    """One decision of ``side``'s player at ``level``: its table, the actions legal to it, its
    seeded random source (ties), its kept maps and objective, its routes (a playout's), and
    the plan of the Movement Phase (``plan()``: level 3 searches for it at the phase's first
    decision that needs it, so it is asked for only when a candidate needs it).

    ``eager``: a playout's enemy takes each Defensive First Fire shot worth taking at once.
    ``weigh``: level 3 at a Defensive First Fire chance, the options (level 2's choice first)
    played out (:func:`game.ai.lookahead.weigh_chance`): the index of the one kept and its
    words.
    ``held``: why a candidate that had a shot let it go (the pass candidate's words)."""

    table: Table
    legal: list[Action]
    rng: random.Random
    side: str
    level: int
    seed: int
    maps: KeptMaps
    objectives: Objectives
    drive: Drive
    planner: Callable[[Table], tuple[Plan, str]]
    eager: bool = False
    weigh: Callable[[Table, list[Action]], tuple[int, str]] | None = None
    held: str = ""
    _plan: tuple[Plan, str] | None = field(default=None, init=False, repr=False)

    def plan(self) -> tuple[Plan, str]:
        """The plan this Movement Phase is played by and its words (``Decision.plan``)."""
        if self._plan is None:
            self._plan = self.planner(self.table)
        return self._plan

    def seeded(self, *parts: int) -> random.Random:
        """A random source seeded by the player's own seed and ``parts`` alone (the set-up's:
        the phase and the unit), whatever else the game holds."""
        return random.Random(mix(self.seed, *parts))

    def mine(self) -> dict:
        """This side's units as its table shows them, by id."""
        return {u["id"]: u for u in self.table.units() if u["side"] == self.side}
