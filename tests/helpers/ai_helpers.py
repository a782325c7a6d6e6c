"""Helpers for the computer's tests (tests/ai/): a decision's :class:`Situation` over a test's
game, as the player makes it, for one candidate to evaluate."""

from __future__ import annotations

import random

from engine_helpers import table_of

from game.ai.lookahead import STEADY
from game.ai.situation import Drive, Situation
from game.ai.tuning import Plan
from game.ai.valuation.maps import KeptMaps
from game.ai.valuation.objective import Objectives
from game.engine import Game


def situation(
    game: Game,
    side: str,
    level: int = 2,
    plan: Plan = STEADY,
    words: str = "",
    eager: bool = False,
    commit: bool = False,
    seed: int = 1,
) -> Situation:
    """``side``'s decision on ``game`` as it stands, at ``level``, its Movement Phase played by
    ``plan`` (its words ``words``)."""
    table = table_of(game, side)
    return Situation(
        table=table,
        legal=table.actions(),
        rng=random.Random(seed),
        side=side,
        level=level,
        seed=seed,
        maps=KeptMaps(side),
        objectives=Objectives(side),
        drive=Drive(commit=commit),
        planner=lambda _table: (plan, words),
        eager=eager,
    )
