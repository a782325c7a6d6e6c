"""The pass candidate: End Phase (Pass, at a Defensive First Fire chance), the decision when no
other candidate offers one. It always offers, at the lowest score; its words say why: what a
candidate above it that let its shot go left (``Situation.held``), else what the phase had
nothing of."""

from __future__ import annotations

from game.engine.actions import EndPhase, Pass

from ..decision import Decision, Option
from ..situation import Situation

FIRE_PHASES = ("prep_fire", "defensive_fire", "advancing_fire")
SETUP_PHASES = ("setup", "setup_attacker")
NOTHING = {
    "prep_fire": "no shot worth taking",
    "defensive_fire": "no shot worth taking",
    "advancing_fire": "no shot worth taking",
    "setup": "set-up done",
    "setup_attacker": "set-up done",
    "movement": "no move worth making",
}
"""The words of a phase in which no candidate offered anything."""


class PassCandidate:
    """End the phase, or let a Defensive First Fire chance go."""

    name = "pass"
    score = 0.0

    def evaluate(self, s: Situation) -> Option:
        table = s.table
        if table.dff_pending:
            return Option(self.score, Decision(Pass(), s.held or "no shot at the mover"))
        why = s.held or NOTHING.get(table.phase, "nothing to do in this phase")
        # a Movement Phase's decision carries its plan's words (level 3, Decision.plan)
        plan = s.plan()[1] if table.phase == "movement" else ""
        return Option(self.score, Decision(EndPhase(), why, plan))
