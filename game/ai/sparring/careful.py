"""The careful player (issue 41): a scripted sparring partner for the computer, played the way
a careful ASL player plays, from its side's table alone (the same door the computer reads
through: its view, its questions, the actions legal to it; never the game). It sets up its
concealed Guns facing the way in, stays in cover, works round a flank for side and rear shots,
ends its moves in Motion when the enemy sees it, and holds a Defensive First Fire shot at
Limited or Restricted Aim (Case J2 / J1) unless the mover may leave its LOS. Its plan
(:mod:`.plans`: ``hold``, ``flank-left``, ``flank-right``, ``rush``) makes it a repeatable
opponent; its seed breaks ties, so the same seed and plan play the same game."""

from __future__ import annotations

import random

from game.engine.actions import EndPhase, Pass
from game.engine.table import Table

from ..decision import Decision, mix, text
from .fire import dff_shot, phase_shot
from .move import Moves, move_action
from .plans import DEFAULT, Plan, plan_named
from .setup import setup_action

FIRE_PHASES = ("prep_fire", "defensive_fire", "advancing_fire")
SETUP_PHASES = ("setup", "setup_attacker")


class CarefulPlayer:
    """``side`` played carefully by ``plan`` (a name of :data:`~.plans.PLANS`), its ties broken
    by ``seed``. ``choose(table)`` is its decision, as :class:`~game.ai.ComputerPlayer`'s."""

    def __init__(self, side: str, plan: str = DEFAULT, seed: int = 0):
        self.side = side
        self.plan: Plan = plan_named(plan)
        self.seed = seed
        self.moves = Moves()
        self.done: set[str] = set()
        """What its set-up has decided (a unit placed, concealed, a weapon bore sighted)."""

    @property
    def level(self) -> str:
        """Its name in the bench's tables (``careful:PLAN``)."""
        return f"careful:{self.plan.name}"

    def acts(self, table: Table) -> bool:
        return not table.over and table.to_act == self.side

    def _rng(self, table: Table, *salt: int) -> random.Random:
        """The decision's random source: its seed and what its side may know (the turn, the
        phase, the events it may read), never the other side's secrets."""
        return random.Random(
            mix(self.seed, table.turn, text(table.phase), table.event_count(), *salt)
        )

    def choose(self, table: Table) -> Decision:
        """The action to take now (its side must be the one to act)."""
        if table.side != self.side:
            raise ValueError(f"{self.side} reads its own table, not {table.side}'s")
        if not self.acts(table):
            raise ValueError(f"{self.side} is not to act")
        legal = table.actions()
        if table.dff_pending:
            shot, why = dff_shot(table, self.side, legal)
            if shot is not None:
                return Decision(shot.action, _shot_words(shot))
            return Decision(Pass(), why)
        phase = table.phase
        if phase in SETUP_PHASES:
            found = setup_action(
                table,
                self.side,
                self.plan,
                legal,
                lambda uid: random.Random(mix(self.seed, text(phase), text(uid))),
                self.done,
            )
            if found is not None:
                return Decision(*found)
            return Decision(EndPhase(), "set-up done")
        if phase in FIRE_PHASES:
            shot = phase_shot(table, self.side, legal, self.plan.hold)
            if shot is not None:
                return Decision(shot.action, _shot_words(shot))
            return Decision(EndPhase(), "no shot worth taking")
        if phase == "movement":
            found = move_action(table, self.side, self.plan, legal, self.moves, self._rng(table))
            if found is not None:
                return Decision(*found)
            return Decision(EndPhase(), f"no move worth making ({self.plan.name})")
        return Decision(EndPhase(), "nothing to do in this phase")


def _shot_words(shot) -> str:
    if shot.odds.p_kill is None:
        return f"fires at a concealed unit: {100 * shot.odds.p_hit:.0f}% to hit"
    return (
        f"fires: {100 * shot.odds.p_hit:.0f}% to hit, {100 * shot.odds.p_kill:.0f}% to knock it out"
    )
