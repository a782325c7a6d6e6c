"""``hexfire bench engine``: actions applied per second over a long random legal game on the
four-board map, against the same game with every LOS traced by the scalar reference."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import replace

from game.board.mapgen import bench_map
from game.board.scalar import ScalarSight
from game.board.visibility import _COMPUTED

from .actions import Action
from .game import Game
from .randomplay import policy, random_setup
from .setup import Setup
from .view import Seer

GOAL_ACTIONS_PER_S = 5_000
GOAL_VIEW_MS = 1.0
GOAL_VIEW_JSON_MS = 2.0
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
        lambda: scalar_game(setup, seed), actions, passes, listing=False
    )
    if slow.state_hash() != fast.state_hash():
        raise AssertionError("the scalar-LOS game ended in another state")
    views = bench_views(setup, seed, actions)
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
        **views,
        "goals": {
            "actions_per_s": f">= {GOAL_ACTIONS_PER_S}",
            "view_ms_median": f"<= {GOAL_VIEW_MS}",
            "view_json_ms_median": f"<= {GOAL_VIEW_JSON_MS}",
        },
    }


def scalar_game(setup: Setup, seed: int) -> Game:
    """The game of ``setup`` and ``seed`` with every LOS question traced by the scalar
    reference (:class:`ScalarSight`): the simple reference the figures are measured against."""
    game = Game(setup, seed)
    game.state.visibility = ScalarSight(game.state.board)
    return game


def bench_views(setup: Setup, seed: int, actions: list[Action]) -> dict:
    """A side's view (docs/architecture.md "Seats and views") made and serialised after every
    action of the recorded game, for the side to act: the median and 95th percentile, against
    the same view made from scratch (every event of the history read again, no :class:`Seer`
    kept) and serialised by the standard library's ``json`` (the simple references)."""
    game = Game(setup, seed)
    seer = Seer()
    made, made_ref, dumped, dumped_ref = [], [], [], []
    size = 0
    for i, a in enumerate(actions):
        side = None if game.over else game.to_act
        t0 = time.perf_counter()
        view = game.side_view(side, i, seer)
        t1 = time.perf_counter()
        text = view.to_json()
        t2 = time.perf_counter()
        game.side_view(side, i)  # the reference: the whole history read again
        t3 = time.perf_counter()
        json.dumps(view.model_dump(mode="json"))
        t4 = time.perf_counter()
        made.append(t1 - t0)
        dumped.append(t2 - t1)
        made_ref.append(t3 - t2)
        dumped_ref.append(t4 - t3)
        size = max(size, len(text))
        game.apply(a)

    def ms(xs: list[float], q: float = 0.5) -> float:
        return round(1000 * sorted(xs)[int(q * (len(xs) - 1))], 3)

    return {
        "view_ms_median": ms(made),
        "view_ms_p95": ms(made, 0.95),
        "view_ms_median_from_scratch": ms(made_ref),
        "view_json_ms_median": ms(dumped),
        "view_json_ms_p95": ms(dumped, 0.95),
        "view_json_ms_median_stdlib": ms(dumped_ref),
        "view_json_bytes_max": size,
        "view_speedup_vs_from_scratch": round(sum(made_ref) / sum(made), 1),
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
