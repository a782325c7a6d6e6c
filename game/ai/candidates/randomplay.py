"""Level 0's one candidate: a random legal action (``game.engine.randomplay.pick``, a shot at
``[random] fire``), the baseline the other levels are measured against."""

from __future__ import annotations

from game.engine.randomplay import pick

from ..decision import Decision, Option
from ..situation import Situation
from ..tuning import tuning


class RandomCandidate:
    """Any legal action, drawn by the decision's seeded random source."""

    name = "random"
    score = 1.0

    def evaluate(self, s: Situation) -> Option:
        action = pick(s.legal, s.rng, fire_p=tuning().random.fire)
        return Option(self.score, Decision(action, "a random legal action (level 0)"))
