"""Helpers for the computer's tests (tests/ai/): a decision's :class:`Situation` over a test's
game, as the player makes it, for one candidate to evaluate."""

from __future__ import annotations

import random

from engine_helpers import make_setup, table_of, to_phase

from game.ai.lookahead import STEADY
from game.ai.situation import Drive, Situation
from game.ai.tuning import Plan
from game.ai.valuation.maps import KeptMaps
from game.ai.valuation.objective import Objectives
from game.engine import Game, UnitSetup, Victory


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


def exit_duel(
    rows: list[str],
    german: UnitSetup,
    enemy: UnitSetup,
    exit_victory: bool = True,
    turns: int = 6,
    seed: int = 5,
) -> Game:
    """Issue 41's small positions: a German defender (which wins on time) against one enemy
    that wins by leaving by the west edge (RD-13), or, without ``exit_victory``, by knocking
    the German out; the game at the German Movement Phase of turn 1."""
    russian = (
        Victory("russian", "exit", count=1, edge="west")
        if exit_victory
        else Victory("russian", "eliminate", count=1)
    )
    setup = make_setup(
        [german, enemy],
        rows=rows,
        victory=[russian, Victory("german", "eliminate", count=1)],
        turns=turns,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, seed)
    to_phase(game, "movement", "german")
    return game
