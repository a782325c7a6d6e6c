"""A save keeps level 3's kept plan with the routes its playouts' player drives (issue 41,
docs/ai.md "Playing the plan kept"): a game saved in the middle of such a Movement Phase reads
back (.ci/run on the seventh session's merges: every save of a game against level 3 that kept
another plan than level 2's was refused, "computer.plan.script: unknown key"), and a script
that is not one says where and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.engine.actions import EndPhase, Move
from game.files.savegame import SaveError, parse_save, read_save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir


def _saved(tmp_path: Path, script: dict) -> str:
    """A hedgerow game against level 3 (one action played), its computer record holding a plan
    with ``script``."""
    path = tmp_path / "vs.json"
    auto = new_game(
        load_scenario(scenarios_dir() / "hedgerow-chart.toml"),
        5,
        path,
        computer={"side": "german", "level": 3},
    )
    try:
        auto.apply(EndPhase())
    finally:
        auto.close()
    raw = json.loads(path.read_text())
    raw["computer"]["plan"] = {"turn": 1, "side": "american", "name": "push", "script": script}
    return json.dumps(raw)


def test_issue41_a_save_keeps_the_kept_plans_script(tmp_path):
    route = [Move("us-sherman-1", "B5").to_json(), EndPhase().to_json()]
    script = {"seed": 2**63 + 5, "routes": {"us-sherman-1": route}, "stays": ["us-jeep-1"]}
    saved = parse_save(_saved(tmp_path, script), "vs.json")
    assert saved.computer is not None
    assert saved.computer["plan"]["script"] == script  # as resume_plan takes it up


@pytest.mark.parametrize(
    ("script", "where"),
    [
        ({"seed": 1, "routes": {"u": [{"type": "fly"}]}, "stays": []}, "u[0]"),
        ({"seed": -1, "routes": {}, "stays": []}, "computer.plan.script.seed"),
        ({"seed": 1, "routes": {}, "stays": [], "extra": 1}, "computer.plan.script.extra"),
    ],
)
def test_issue41_a_script_that_is_not_one_says_where(tmp_path, script, where):
    with pytest.raises(SaveError) as e:
        parse_save(_saved(tmp_path, script), "vs.json")
    assert where in str(e.value) and "Traceback" not in str(e.value)


def test_issue41_the_save_read_from_its_file(tmp_path):
    path = tmp_path / "again.json"
    path.write_text(_saved(tmp_path, {"seed": 3, "routes": {}, "stays": []}))
    computer = read_save(path).computer
    assert computer is not None and computer["plan"]["script"]["seed"] == 3
