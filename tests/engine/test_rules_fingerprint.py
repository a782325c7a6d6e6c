"""A change that alters play raises RULES_VERSION: what the rules make of a fixed corpus of
play (game/files/fingerprint.py) is recorded with the rules version it was made under
(tests/data/rules_fingerprint.json); today's must be the same under the same version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import game.rules.attack as attack
from game.engine.rules_version import RULES_VERSION
from game.files.fingerprint import fingerprint

FILE = Path(__file__).resolve().parent.parent / "data" / "rules_fingerprint.json"
RECORDED = json.loads(FILE.read_text())
HOW = (
    "a change that alters play raises RULES_VERSION (game/engine/rules_version.py, "
    "CHANGELOG.md), then records the fingerprint again: "
    "python3 tools/data/record_rules_fingerprint.py"
)


def test_the_fingerprint_is_recorded_under_todays_rules_version():
    assert RECORDED["rules_version"] == RULES_VERSION, (
        f"the rules' fingerprint was recorded under rules version {RECORDED['rules_version']}, "
        f"the engine plays version {RULES_VERSION}: python3 tools/data/record_rules_fingerprint.py"
    )


@pytest.mark.parametrize("name", sorted(RECORDED["digests"]))
def test_play_is_what_it_was_under_the_same_rules_version(name):
    now = fingerprint([name])
    assert now == {name: RECORDED["digests"][name]}, f"{name}: play changed. {HOW}"


def test_every_shipped_scenario_is_in_the_fingerprint():
    from game.files.shipped import shipped_scenarios

    assert {p.stem for p in shipped_scenarios()} | {"library"} == set(RECORDED["digests"])


def test_a_rule_changed_in_play_changes_the_fingerprint(monkeypatch):
    """A To Hit Number one lower (C6) changes both a game's digest and the library's."""
    to_hit_number = attack.to_hit_number

    def easier(*args, **kw):
        n, rule = to_hit_number(*args, **kw)
        return n + 1, rule

    attack._plan.cache_clear()
    monkeypatch.setattr(attack, "to_hit_number", easier)
    try:
        changed = fingerprint(["tutorial-duel", "library"])
    finally:
        attack._plan.cache_clear()
    for name, digest in changed.items():
        assert digest != RECORDED["digests"][name], name


def _tool(monkeypatch, tmp_path, recorded: dict, now: dict):
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "tools" / "data" / "record_rules_fingerprint.py"
    spec = importlib.util.spec_from_file_location("record_rules_fingerprint", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    file = tmp_path / "fingerprint.json"
    file.write_text(json.dumps(recorded))
    monkeypatch.setattr(tool, "FILE", file)
    monkeypatch.setattr(tool, "fingerprint", lambda: now)
    return tool, file


def test_the_tool_refuses_play_changed_under_the_same_rules_version(monkeypatch, tmp_path):
    same = {"rules_version": RULES_VERSION, "digests": {"duel": "a"}}
    tool, file = _tool(monkeypatch, tmp_path, same, {"duel": "b"})
    monkeypatch.setattr("sys.argv", ["record"])
    assert tool.main() == 1
    assert json.loads(file.read_text()) == same
    monkeypatch.setattr("sys.argv", ["record", "--not-play", "a new state field"])
    assert tool.main() == 0
    kept = json.loads(file.read_text())
    assert kept["digests"] == {"duel": "b"}
    assert kept["not_play"][0]["why"] == "a new state field"


def test_the_tool_records_the_digests_of_a_raised_rules_version(monkeypatch, tmp_path):
    older = {"rules_version": RULES_VERSION - 1, "digests": {"duel": "a"}}
    tool, file = _tool(monkeypatch, tmp_path, older, {"duel": "b"})
    monkeypatch.setattr("sys.argv", ["record"])
    assert tool.main() == 0
    recorded = json.loads(file.read_text())
    assert recorded == {"rules_version": RULES_VERSION, "digests": {"duel": "b"}}
