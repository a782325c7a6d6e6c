"""``hexfire bench ai``'s speed figures (docs/ai.md): the top level's decision and player-turn
times on the four-board map, two self-play games at once as issue 41's goals ask, and the
engine figures a search lives on."""

from __future__ import annotations

import copy
import statistics
import time

TOP = 3
"""The top level (docs/ai.md: level 3, the search over the player turn)."""


SPEED_GAMES = 2
"""Self-play games played at once for the speed figures: issue 41's goals hold "with two games
sharing the machine's 2 cores" (a player's laptop with a browser running)."""


def _self_play_times(seed: int) -> tuple[list[float], list[float], list]:
    """One top-level self-play game on the four-board map (seats seeded ``seed``, ``seed`` + 1):
    each decision's seconds, each whole player turn's, and the actions played."""
    from game.ai import ComputerPlayer
    from game.engine import Game
    from game.engine.table import Snapshot
    from game.files.bench import LARGE as FOUR_BOARDS
    from game.files.scenario import load_scenario

    setup = load_scenario(FOUR_BOARDS).setup
    game = Game(setup, 3)
    seats = Snapshot(game)
    players = {s: ComputerPlayer(s, TOP, seed=seed + i) for i, s in enumerate(setup.sides)}
    times: list[float] = []
    turns: dict[tuple[int, str], float] = {}
    actions = []
    while not game.over and len(times) < 20_000:
        key = (game.turn, game.phasing)
        t = time.perf_counter()
        table = seats.table(game.to_act)
        action = table.engine_action(players[game.to_act].choose(table).action)
        spent = time.perf_counter() - t
        times.append(spent)
        turns[key] = turns.get(key, 0.0) + spent
        game.apply(action)
        actions.append(action)
    return times, list(turns.values()), actions


def speed_figures() -> dict:
    """On the four-board map: the top level's decision time per action (median, 95th
    percentile) and its longest whole player turn, over :data:`SPEED_GAMES` self-play games
    played at once (one process each, sharing the cores); then the engine's actions applied
    and legal-action lists per second (a random legal game) and the cost of copying the first
    game at its end, as a search copies it (measured alone)."""
    from concurrent.futures import ProcessPoolExecutor

    from game.engine import Game
    from game.engine.bench import bench_engine
    from game.files.bench import LARGE as FOUR_BOARDS
    from game.files.scenario import load_scenario

    with ProcessPoolExecutor(SPEED_GAMES) as pool:
        played = list(pool.map(_self_play_times, [3 + 2 * k for k in range(SPEED_GAMES)]))
    times = sorted(t for decisions, _, _ in played for t in decisions)
    turns = [t for _, player_turns, _ in played for t in player_turns]
    setup = load_scenario(FOUR_BOARDS).setup
    engine = bench_engine(setup)
    game = Game(setup, 3)
    for action in played[0][2]:  # a game as a search copies it: the first one at its end
        game.apply(action)
    t = time.perf_counter()
    n = 50
    for _ in range(n):
        copy.deepcopy(game)
    copy_ms = (time.perf_counter() - t) / n * 1000
    return {
        "map": engine["map"],
        "games_at_once": SPEED_GAMES,
        "decisions": len(times),
        "decision_median_s": round(statistics.median(times), 4),
        "decision_p95_s": round(times[int(0.95 * (len(times) - 1))], 4),
        "player_turn_max_s": round(max(turns), 2),
        "actions_per_s": engine["actions_per_s"],
        "legal_actions_per_s": engine["legal_actions_per_s"],
        "copy_ms": round(copy_ms, 2),
    }
