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


def _best(fn, repeats: int) -> float:
    """The fastest of ``repeats`` runs of ``fn``, in milliseconds."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best * 1000


def bench_files(repeats: int = 20) -> dict:
    """Reading and validating every shipped scenario and saved game, and a 2,000-action save:
    the milliseconds of the fastest run, beside the bare parse (``tomllib`` / ``json``) of the
    same text measured in the same run, for reference."""
    import json
    import tomllib

    from .savegame import parse_save
    from .shipped import shipped_saves, shipped_scenarios

    texts = [(str(p), p.read_text(encoding="utf-8")) for p in shipped_scenarios()]
    saves = [(str(p), p.read_text(encoding="utf-8")) for p in shipped_saves()]
    long = long_version(load_scenario(LARGE))
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "long.json"
        save(record(long, 7, 2000, fire_p=0.3), path)
        long_text = path.read_text(encoding="utf-8")
    scen = _best(lambda: [parse_scenario(t, n) for n, t in texts], repeats)
    scen_ref = _best(lambda: [tomllib.loads(t) for _, t in texts], repeats)
    sav = _best(lambda: [parse_save(t, n) for n, t in saves], repeats)
    sav_ref = _best(lambda: [json.loads(t) for _, t in saves], repeats)
    big = _best(lambda: parse_save(long_text, "long.json"), max(3, repeats // 4))
    big_ref = _best(lambda: json.loads(long_text), max(3, repeats // 4))
    return {
        "scenarios": len(texts),
        "scenarios_validate_ms": round(scen, 2),
        "scenarios_toml_parse_ms": round(scen_ref, 2),
        "scenarios_ratio_to_parse": round(scen / scen_ref, 2),
        "saves": len(saves),
        "saves_validate_ms": round(sav, 2),
        "saves_json_parse_ms": round(sav_ref, 2),
        "save_2000_actions_validate_ms": round(big, 2),
        "save_2000_actions_json_parse_ms": round(big_ref, 2),
        "save_2000_ratio_to_parse": round(big / big_ref, 2),
    }


def limit_save(path: Path, actions: int = 200_000) -> None:
    """A legal save of ``actions`` actions: the tutorial's German set-up, one counter placed
    back and forth between two hexes of its area (each placement recorded and checked)."""
    from game.engine.actions import Place

    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    game = Game(sc.setup, 7)
    saved = SavedGame.new(sc, 7)
    unit = game.placeable()[0]
    a, b = game.setup_hexes(unit)[:2]
    facing = game.units[unit].facing
    for i in range(actions):
        action = Place(unit, a if i % 2 == 0 else b, facing)
        game.apply(action)
        saved.record(action, game)
    save(saved, path)
