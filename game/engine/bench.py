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
PASSES = 3
"""Timed passes over the recorded game; the figures are the fastest pass's."""


def bench_engine(
    setup: Setup | None = None,
    seed: int = 1944,
    turns: int = 30,
    max_actions: int = 2500,
    passes: int = PASSES,
) -> dict:
    """Record a random legal game on ``setup`` (by default a random set-up of 32 units on the
    benchmark map; the command line passes the large shipped scenario); then time listing the
    legal actions before each of its actions and applying it, on a fresh game, the best of
    ``passes`` passes (a shared machine's other work slows a pass, never speeds one); and
    applying them to a game that traces LOS with the scalar reference; both must end in the
    same state."""
    if setup is None:
        setup = random_setup(bench_map(seed), seed, per_side=16, turns=turns)
    setup = replace(setup, turns=max(setup.turns, turns), victory=())  # a long game
    game = Game(setup, seed)
    rng = random.Random(seed)
    actions: list[Action] = []
    while not game.over and len(actions) < max_actions:
        a = policy(game, rng)
        game.apply(a)
        actions.append(a)

    _COMPUTED.clear()
    t0 = time.perf_counter()
    fast = Game(setup, seed)
    setup_s = time.perf_counter() - t0  # the map's all-pairs LOS, once per game
    t_legal = t_fast = float("inf")
    for _ in range(passes):
        fast = Game(setup, seed)
        legal = applied = 0.0
        for a in actions:
            t0 = time.perf_counter()
            fast.legal_actions()
            t1 = time.perf_counter()
            fast.apply(a)
            applied += time.perf_counter() - t1
            legal += t1 - t0
        t_legal, t_fast = min(t_legal, legal), min(t_fast, applied)

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
