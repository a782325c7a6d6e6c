"""``hexfire bench engine``: actions applied per second over a long random legal game on the
four-board map, against the same game with every LOS traced by the scalar reference."""

from __future__ import annotations

import random
import time
from dataclasses import replace

from game.board.mapgen import bench_map
from game.board.visibility import _COMPUTED

from .actions import Action
from .game import Game
from .randomplay import policy, random_setup
from .setup import Setup

GOAL_ACTIONS_PER_S = 5_000


def bench_engine(
    setup: Setup | None = None, seed: int = 1944, turns: int = 30, max_actions: int = 2500
) -> dict:
    """Record a random legal game on ``setup`` (by default a random set-up of 32 units on the
    benchmark map; the command line passes the large shipped scenario), the policy's
    legal_actions time measured apart; then time applying its actions to a fresh game, and to a
    game that traces LOS with the scalar reference; both must end in the same state."""
    if setup is None:
        setup = random_setup(bench_map(seed), seed, per_side=16, turns=turns)
    setup = replace(setup, turns=max(setup.turns, turns), victory=())  # a long game
    game = Game(setup, seed)
    rng = random.Random(seed)
    actions: list[Action] = []
    t_legal = 0.0
    while not game.over and len(actions) < max_actions:
        t0 = time.perf_counter()
        a = policy(game, rng)
        t_legal += time.perf_counter() - t0
        game.apply(a)
        actions.append(a)

    _COMPUTED.clear()
    t0 = time.perf_counter()
    fast = Game(setup, seed)
    setup_s = time.perf_counter() - t0  # the map's all-pairs LOS, once per game
    t0 = time.perf_counter()
    for a in actions:
        fast.apply(a)
    t_fast = time.perf_counter() - t0

    slow = Game(setup, seed, scalar_los=True)
    t0 = time.perf_counter()
    for a in actions:
        slow.apply(a)
    t_slow = time.perf_counter() - t0
    if slow.state_hash() != fast.state_hash():
        raise AssertionError("the scalar-LOS game ended in another state")
    wrecks = sum(1 for e in fast.history if e.kind == "wreck")
    fires = sum(1 for e in fast.history if e.kind == "fire")
    return {
        "map": f"{setup.title}: {setup.board.columns} x {setup.board.rows}, "
        f"{len(setup.units)} units, {setup.turns} turns",
        "actions": len(actions),
        "fires": fires,
        "wrecks": wrecks,
        "game_setup_s": round(setup_s, 3),
        "actions_per_s": round(len(actions) / t_fast),
        "actions_per_s_scalar_los": round(len(actions) / t_slow),
        "speedup_vs_scalar_los": round(t_slow / t_fast, 1),
        "legal_actions_per_s": round(len(actions) / t_legal),
        "same_final_state": True,
        "goals": {"actions_per_s": f">= {GOAL_ACTIONS_PER_S}"},
    }
