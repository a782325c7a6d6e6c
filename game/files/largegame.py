"""The 200 x 200 scenario validated, loaded and played to the end in a process of its own, for
``hexfire bench los``'s ``large_peak_mib``: the most memory a game on the largest map takes.

    python -m game.files.largegame [SEED]

prints one JSON object: the game's figures and the process's peak resident memory.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time

from .bench import record
from .replay import replay
from .scenario import load_scenario
from .shipped import scenarios_dir

SCENARIO = "steppe-200"


def play(seed: int = 1) -> dict:
    """Validate and load the scenario, play a random legal game to its end with every
    viewshed it asks for, then replay it from its save and check the hash."""
    t0 = time.perf_counter()
    sc = load_scenario(scenarios_dir() / f"{SCENARIO}.toml")
    saved = record(sc, seed, 20_000)
    game = replay(saved)
    if game.state_hash() != saved.actions[-1]["hash"]:
        raise RuntimeError("the 200 x 200 game did not replay to the same hash")
    return {
        "large_game_actions": len(saved.actions),
        "large_game_over": game.over,
        "large_game_s": round(time.perf_counter() - t0, 2),
        "large_peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def measure(seed: int = 1) -> dict:
    """:func:`play` in a fresh process (its peak memory is the game's alone)."""
    out = subprocess.run(
        [sys.executable, "-m", "game.files.largegame", str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


if __name__ == "__main__":
    print(json.dumps(play(int(sys.argv[1]) if len(sys.argv) > 1 else 1)))
