"""``hexfire bench replay``: load, replay and verify a 2,000-action saved game."""

from __future__ import annotations

import random
import re
import tempfile
import time
from pathlib import Path

from game.board.visibility import _COMPUTED
from game.engine import Game
from game.engine.randomplay import policy

from .replay import replay
from .savegame import SavedGame, read_save, save
from .scenario import Scenario, load_scenario, parse_scenario
from .shipped import scenarios_dir

GOAL_ACTIONS_PER_S = 5_000
LARGE = scenarios_dir() / "bagration-4-boards.toml"


def record(scenario: Scenario, seed: int, actions: int, fire_p: float = 0.8) -> SavedGame:
    """A saved game of up to ``actions`` random legal actions."""
    saved = SavedGame.new(scenario, seed)
    game = Game(scenario.setup, seed)
    rng = random.Random(seed)
    while len(saved.actions) < actions and not game.over:
        a = policy(game, rng, fire_p)
        game.apply(a)
        saved.record(a, game)
    return saved


def long_version(scenario: Scenario) -> Scenario:
    """The same battle with 60 turns and victory thresholds no side reaches, so that one game
    lasts 2,000 actions (the text changes, so its SHA-256 is its own)."""
    text = re.sub(r"(?m)^turns = \d+$", "turns = 60", scenario.text)
    text = re.sub(r"(?m)^count = \d+$", "count = 99", text)
    return parse_scenario(text, scenario.path)


def bench_replay(scenario: Scenario | None = None, target: int = 2000) -> dict:
    """Record a long game on the large scenario, save it, then time loading, replaying and
    verifying it (the same path as ``hexfire replay --verify``): first as a fresh process does
    (the map's all-pairs LOS computed as the game is rebuilt), then with the map's LOS already
    known; and a bare replay of the same actions with no checks, for reference."""
    long = long_version(scenario or load_scenario(LARGE))
    saved = record(long, 7, target, fire_p=0.3)  # fewer shots: the forces last 2,000 actions
    mix: dict[str, int] = {}
    for entry in saved.actions:
        kind = entry["action"]["type"]
        mix[kind] = mix.get(kind, 0) + 1
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.json"
        save(saved, path)
        size = path.stat().st_size
        t0 = time.perf_counter()
        loaded = read_save(path)
        t_load = time.perf_counter() - t0
    _COMPUTED.clear()  # a fresh process: the map's LOS is computed when the game is rebuilt
    t0 = time.perf_counter()
    replay(loaded)
    t_cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    replay(loaded)
    t_verify = time.perf_counter() - t0
    t0 = time.perf_counter()
    replay(loaded, verify=False)
    t_plain = time.perf_counter() - t0
    n = len(saved.actions)
    return {
        "actions": n,
        "save_kib": round(size / 1024, 1),
        "load_s": round(t_load, 3),
        "replay_verify_s": round(t_cold, 3),
        "actions_per_s": round(n / (t_load + t_cold)),
        "actions_per_s_map_los_known": round(n / (t_load + t_verify)),
        "actions_per_s_unverified": round(n / t_plain),
        "verify_overhead": round(t_verify / t_plain, 2),
        "mix": mix,
        "goals": {"actions_per_s": f">= {GOAL_ACTIONS_PER_S}"},
    }
