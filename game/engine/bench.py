"""``hexfire bench engine``: actions applied per second over a long random legal game on the
four-board map, against the same game with every LOS traced by the scalar reference."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace

from game.board.mapgen import bench_map
from game.board.visibility import _COMPUTED

from .actions import Action
from .game import Game
from .randomplay import policy, random_setup
from .setup import Setup

GOAL_ACTIONS_PER_S = 5_000
PASSES = 3
"""Timed passes over the recorded game; each step counts with its fastest time."""


def bench_engine(
    setup: Setup | None = None,
    seed: int = 1944,
    turns: int = 30,
    max_actions: int = 2500,
    passes: int = PASSES,
) -> dict:
    """Record a random legal game on ``setup`` (by default a random set-up of 32 units on the
    benchmark map; the command line passes the large shipped scenario); then time listing the
    legal actions before each of its actions and applying it, on a fresh game, each step's
    fastest of ``passes`` passes (the same work each pass: a shared machine's other work
    slows a step, never speeds one; on this project's 2-core machines a whole pass swung by
    up to half); and applying them to a game that traces LOS with the scalar reference (timed the
    same way); both must end in the same state."""
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
    t_legal, t_fast, fast = _fastest(lambda: Game(setup, seed), actions, passes, listing=True)
    _, t_slow, slow = _fastest(  # the reference timed the same way
        lambda: Game(setup, seed, scalar_los=True), actions, passes, listing=False
    )
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


def _fastest(
    make: Callable[[], Game], actions: list[Action], passes: int, listing: bool
) -> tuple[float, float, Game]:
    """(listing time, applying time, the last game) over ``passes`` fresh games of ``make``
    playing ``actions``, each step counted at its fastest pass; ``listing``: the legal
    actions are listed before each action (else not, and 0.0)."""
    n = len(actions)
    legal_best, apply_best = [float("inf")] * n, [float("inf")] * n
    game = make()
    for _ in range(passes):
        game = make()
        for i, a in enumerate(actions):
            t0 = time.perf_counter()
            if listing:
                game.legal_actions()
            t1 = time.perf_counter()
            game.apply(a)
            t2 = time.perf_counter()
            legal_best[i] = min(legal_best[i], t1 - t0)
            apply_best[i] = min(apply_best[i], t2 - t1)
    return (sum(legal_best) if listing else 0.0), sum(apply_best), game
