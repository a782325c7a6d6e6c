"""Hostile inputs at scale, counted (``python3 tests/helpers/reliability.py [--json]``; a test
harness, not part of the installed game). Mutated scenarios and saves
go through what ``hexfire validate`` and ``hexfire replay --verify`` do; every outcome other
than a valid result or a clear refusal is counted as a traceback, a hang (over 2 s) or a wrong
exit code. Games are killed mid-autosave (SIGKILL) and their files checked; random legal games
on every shipped scenario are saved and replayed. Every figure but the counts of inputs and
games must be 0."""

from __future__ import annotations

import contextlib
import io
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hostile_inputs import mutate_json, mutate_toml

from game.engine.randomplay import policy
from game.files.replay import replay
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import shipped_saves, shipped_scenarios

HANG_S = 2.0
KILLER = """
import random, sys
from game.engine.randomplay import policy
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
session = new_game(load_scenario(scenarios_dir() / "hedgerow-chart.toml"), 5, sys.argv[1])
rng = random.Random(5)
while not session.game.over:
    session.apply(policy(session.game, rng))
    print(len(session.saved.actions), flush=True)
"""


def _run_cli(argv: list[str]) -> tuple[int | None, bool, float]:
    """(exit code, traceback?, seconds) of ``hexfire argv`` run in this process."""
    from game.cli import main

    t0 = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as e:
        code = int(e.code or 0)
    except Exception:  # a traceback: what this benchmark counts
        return None, True, time.perf_counter() - t0
    return code, False, time.perf_counter() - t0


def bench_reliability(
    scenarios: int = 2000, saves: int = 500, kills: int = 6, seed: int = 1
) -> dict:
    rng = random.Random(seed)
    figures: dict[str, int] = {
        "inputs_tried": 0,
        "tracebacks": 0,
        "hangs": 0,
        "wrong_exit_codes": 0,
        "saves_lost": 0,
        "games_replayed": 0,
    }
    toml_texts = [p.read_text() for p in shipped_scenarios()]
    json_texts = [p.read_text() for p in shipped_saves()]
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        for i in range(scenarios):
            text = rng.choice(toml_texts)
            for _ in range(rng.choice((1, 1, 2, 3))):
                text = mutate_toml(text, rng)
            path = folder / f"s{i % 50}.toml"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            code, crashed, seconds = _run_cli(["validate", str(path)])
            figures["inputs_tried"] += 1
            figures["tracebacks"] += crashed
            figures["hangs"] += seconds > HANG_S
            figures["wrong_exit_codes"] += code not in (0, 1, None)
        for i in range(saves):
            path = folder / f"g{i % 50}.json"
            path.write_text(
                mutate_json(rng.choice(json_texts), rng), encoding="utf-8", errors="surrogatepass"
            )
            code, crashed, seconds = _run_cli(["replay", str(path), "--verify"])
            figures["inputs_tried"] += 1
            figures["tracebacks"] += crashed
            figures["hangs"] += seconds > HANG_S
            figures["wrong_exit_codes"] += code not in (0, 1, 2, None)
        for k in range(kills):
            path = folder / f"kill{k}.json"
            proc = subprocess.Popen(
                [sys.executable, "-c", KILLER, str(path)], stdout=subprocess.PIPE, text=True
            )
            time.sleep(0.8 + rng.random())
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate()
            done = [int(x) for x in out.split()] or [0]
            try:
                saved = read_save(path)
                replay(saved)
                figures["saves_lost"] += len(saved.actions) < done[-1] - 1
            except Exception:
                figures["saves_lost"] += done[-1] > 0
        for p in shipped_scenarios():
            session = new_game(load_scenario(p), seed, folder / f"{p.stem}.json")
            prng = random.Random(seed)
            for _ in range(400):
                if session.game.over:
                    break
                session.apply(policy(session.game, prng))
            again = replay(read_save(folder / f"{p.stem}.json"))
            figures["games_replayed"] += 1
            figures["wrong_exit_codes"] += again.state_hash() != session.game.state_hash()
    goals = {k: "0" for k in figures if k not in ("inputs_tried", "games_replayed")}
    return {**figures, "goals": goals}


if __name__ == "__main__":
    import json

    result = bench_reliability()
    title = "hostile files, killed autosaves, replayed games (every figure but the counts: 0)"
    if "--window" in sys.argv[1:]:  # hexfire bench reliability's window cases too (40 s)
        from game.ui.bench.opening import bench_reliability_window

        window = bench_reliability_window()
        goals = {**result.pop("goals"), **window.pop("goals")}
        result.update(window)
        result["goals"] = goals
        title += "; the window: long saves opened, memory, set-up clicks"
    if "--json" in sys.argv[1:]:
        print(json.dumps(result, indent=2))
    else:
        print(title)
        goals = result.get("goals", {})
        for key, value in result.items():
            if key != "goals":
                goal = f"   (goal {goals[key]})" if key in goals else ""
                print(f"  {key:<22} {value}{goal}")
