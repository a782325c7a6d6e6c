"""The computer's decisions held to a record (issue 39): self-play games of every shipped
scenario at levels 1-3, each decision's action, words and plan hashed, compared with
``data/selfplay_golden.json``. A change of the computer's play must be meant: regenerate the
record with ``python3 tests/ai/test_ai_golden.py --write`` and say why in the commit."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from game.ai import ComputerPlayer
from game.engine import Game
from game.engine.table import Snapshot
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

RECORD = Path(__file__).resolve().parent / "data" / "selfplay_golden.json"
LARGE = ("bagration-4-boards", "steppe-200")
QUICK_SEARCH = ("tutorial-duel", 3, 2, 12)
"""The one level-3 game of the default run (a search costs a second or more a game: the others
are ``long``, as are the large maps' games)."""
RUNS = [
    *((level, level, 11) for level in (1, 2, 3)),
    (3, 2, 12),
    (2, 3, 13),
    (1, 3, 14),
]
"""(first side's level, second side's level, seed): the large maps play the first three."""


def decisions(name: str, first: int, second: int, seed: int) -> tuple[int, str, str]:
    """One self-play game (as ``game.ai.selfplay.play_game`` plays it): its length, the hash of
    its decisions (action, words, plan) and its final state hash."""
    setup = load_scenario(next(p for p in shipped_scenarios() if p.stem == name)).setup
    levels = dict(zip(setup.sides, (first, second), strict=True))
    game = Game(setup, seed)
    players = {
        s: ComputerPlayer(s, levels[s], seed=seed * 7 + i) for i, s in enumerate(setup.sides)
    }
    seats = Snapshot(game)
    made = []
    while not game.over and len(made) < 20_000:
        table = seats.table(game.to_act)
        decision = players[game.to_act].choose(table)
        action = table.engine_action(decision.action)
        game.apply(action)
        made.append([action.to_json(), decision.why, decision.plan])
    blob = json.dumps(made, sort_keys=True).encode()
    return len(made), hashlib.sha256(blob).hexdigest(), game.state_hash()


def cases() -> list[tuple[str, int, int, int]]:
    out = []
    for path in shipped_scenarios():
        runs = RUNS[:3] if path.stem in LARGE else RUNS
        out.extend((path.stem, *run) for run in runs)
    return out


def _param(case: tuple[str, int, int, int]):
    name, first, second, _ = case
    slow = name in LARGE or (3 in (first, second) and case != QUICK_SEARCH)
    return pytest.param(*case, marks=[pytest.mark.long] if slow else [])


@pytest.mark.parametrize(("name", "first", "second", "seed"), [_param(c) for c in cases()])
def test_issue39_the_computers_self_play_decisions_are_as_recorded(name, first, second, seed):
    """Each recorded game is played again decision for decision: a refactoring of game/ai
    leaves every action, its words and its plan as they were."""
    record = json.loads(RECORD.read_text())
    want = record[f"{name} {first}-{second} seed {seed}"]
    assert list(decisions(name, first, second, seed)) == want


def test_issue39_the_record_covers_every_shipped_scenario():
    record = json.loads(RECORD.read_text())
    assert set(record) == {f"{n} {a}-{b} seed {s}" for n, a, b, s in cases()}


if __name__ == "__main__":  # python3 tests/ai/test_ai_golden.py --write
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python3 tests/ai/test_ai_golden.py --write")
    found = {f"{n} {a}-{b} seed {s}": list(decisions(n, a, b, s)) for n, a, b, s in cases()}
    RECORD.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    print(f"{len(found)} games recorded in {RECORD}")
