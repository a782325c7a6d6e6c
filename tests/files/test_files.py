"""Scenario files, saved games and replays: every validation error kind, round trips, resume
after a crash, replay of the shipped saves, a save edited by hand detected."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.engine.actions import EndPhase
from game.engine.rules_version import RULES_VERSION
from game.files.replay import ReplayError, replay
from game.files.savegame import SaveError, parse_save, read_save, save
from game.files.scenario import ScenarioError, load_scenario, parse_scenario
from game.files.session import new_game, resume

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
SAVES = sorted((ROOT / "scenarios" / "saves").glob("*.json"))
DUEL = ROOT / "scenarios" / "tutorial-duel.toml"

GOOD = """id = "t"
title = "T"
briefing = "b"
date = "1944-06"
turns = 2

[rules]
to_kill = "asl"

[map]
columns = 4
rows = 3
hexes = [
  "o o o o",
  "o sb o o",
  "o o o o",
]

[sides.axis]
nationality = "german"
defender = true

[sides.allies]
nationality = "american"
moves_first = true

[[units]]
id = "a1"
type = "pak40"
side = "axis"
hex = "A1"
facing = 0

[[units]]
id = "b1"
type = "m4a1"
side = "allies"
hex = "D3"
facing = 3

[[victory]]
side = "axis"
kind = "eliminate"
count = 1
"""


def errors_of(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text, "s.toml")
    return e.value.errors


def test_the_good_scenario_is_valid():
    sc = parse_scenario(GOOD, "s.toml")
    assert sc.setup.defender == "axis" and sc.setup.first == "allies"
    assert len(sc.setup.units) == 2 and sc.setup.turns == 2


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_shipped_scenario_is_valid(path):
    sc = load_scenario(path)
    assert sc.title and sc.briefing and sc.setup.victory
    sides = {v.side for v in sc.setup.victory}
    assert sides == set(sc.setup.sides), "each side has a way to win"


def test_at_least_four_scenarios_of_each_kind():
    loaded = {p.stem: load_scenario(p) for p in SCENARIOS}
    assert len(loaded) >= 4
    assert any(s.setup.to_kill == "chart" for s in loaded.values())
    big = [s for s in loaded.values() if s.setup.board.columns == 66 and s.setup.board.rows == 20]
    assert big and len(big[0].setup.units) >= 30
    ambush = loaded["road-ambush"]
    assert any(u.concealed for u in ambush.setup.units)
    assert ambush.setup.board.catalogue.by_key("road").id in set(ambush.setup.board.terrain)


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("facing = 3\n", "facing = 7\n", "s.toml:39: units[1].facing: expected 0-5, got 7"),
        ('hex = "D3"', 'hex = "Z9"', "s.toml:38: units[1].hex: Z9 is off the map"),
        ('hex = "D3"', 'hex = "B2"', "units[1].hex: B2 is Stone Building: impassable to an AFV"),
        (
            'type = "m4a1"',
            'type = "tiger9"',
            "s.toml:36: units[1].type: unknown catalogue type 'tiger9'",
        ),
        ('id = "b1"', 'id = "a1"', "s.toml:35: units[1].id: duplicate unit id 'a1'"),
        (
            "count = 1\n",
            'count = 1\nunits = ["ghost"]\n',
            "victory[0].units: names unit 'ghost', which does not exist",
        ),
        ("turns = 2", 'turns = 2\nweather = "rain"', "s.toml:6: weather: unknown key"),
        ("turns = 2", 'turns = "two"', "s.toml:5: turns: expected an integer 1-99, got 'two'"),
        (
            'to_kill = "asl"',
            'to_kill = "dice"',
            's.toml:8: rules.to_kill: expected "asl" or "chart"',
        ),
        ('date = "1944-06"', 'date = "June 44"', "s.toml:4: date: expected YYYY-MM"),
        ('"o sb o o",', '"o sb o",', "s.toml:15: map.hexes[1]: expected 4 hexes, got 3"),
        (
            'side = "allies"\nhex',
            'side = "martians"\nhex',
            "units[1].side: expected one of axis, allies",
        ),
        ("defender = true\n", "", "one side must have defender = true"),
        ('kind = "eliminate"', 'kind = "surrender"', "victory[0].kind: expected one of"),
        (
            'hex = "D3"\nfacing = 3',
            'hex = "D3"\nfacing = 3\nsetup_area = { columns = "A-B" }',
            "units[1].setup_area: the unit's hex D3 is outside its area (columns A-B)",
        ),
    ],
)
def test_each_validation_error_says_file_line_field_and_why(old, new, expected):
    assert old in GOOD
    errs = errors_of(GOOD.replace(old, new, 1))
    assert any(expected in e for e in errs), errs


def test_validation_collects_every_error():
    text = GOOD.replace("facing = 3", "facing = 9").replace('type = "pak40"', 'type = "nope"')
    errs = errors_of(text)
    assert len(errs) == 2


def test_validate_command_exit_codes(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace("facing = 3", "facing = 7"))
    good = tmp_path / "good.toml"
    good.write_text(GOOD)
    run = [sys.executable, "-m", "game", "validate"]
    ok = subprocess.run([*run, str(good), *map(str, SCENARIOS)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    no = subprocess.run([*run, str(good), str(bad)], capture_output=True, text=True)
    assert no.returncode == 1
    assert f"{bad}:39: units[1].facing: expected 0-5, got 7" in no.stdout
    assert "Traceback" not in no.stdout + no.stderr
    broken = tmp_path / "broken.toml"
    broken.write_text("id = [\n")
    r = subprocess.run([*run, str(broken)], capture_output=True, text=True)
    assert r.returncode == 1 and "not valid TOML" in r.stdout and "Traceback" not in r.stderr


# --- saved games ------------------------------------------------------------------------


def _played(tmp_path, n=30):
    import random

    from game.engine.randomplay import policy

    sc = load_scenario(DUEL)
    path = tmp_path / "game.json"
    ag = new_game(sc, 11, path)
    rng = random.Random(11)
    for _ in range(n):
        if ag.game.over:
            break
        ag.apply(policy(ag.game, rng))
    return ag, path


def test_save_load_round_trip_reaches_the_same_state(tmp_path):
    ag, path = _played(tmp_path)
    again = resume(path)
    assert again.game.state_hash() == ag.game.state_hash()
    assert again.game.dice.draws == ag.game.dice.draws
    # and it goes on exactly as the original would
    if not ag.game.over:
        ag.apply(EndPhase())
        again.apply(EndPhase())
        assert again.game.state_hash() == ag.game.state_hash()
        assert read_save(path).actions == again.saved.actions


def test_autosave_after_every_action_is_readable_and_stable(tmp_path):
    ag, path = _played(tmp_path, n=5)
    d = json.loads(path.read_text())
    assert list(d) == [
        "format",
        "version",
        "game_version",
        "rules_version",
        "scenario",
        "seed",
        "actions",
    ]
    assert len(d["actions"]) == len(ag.saved.actions)
    assert all(set(a) == {"action", "draws", "hash"} for a in d["actions"])


def test_a_crash_mid_write_loses_nothing(tmp_path, monkeypatch):
    ag, path = _played(tmp_path, n=10)
    before = path.read_text()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SaveError, match="disk full; the previous save is kept"):
        save(ag.saved, path)
    assert path.read_text() == before  # the old save is whole
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no debris
    monkeypatch.undo()
    assert resume(path).game.state_hash() == ag.game.state_hash()


def test_resume_after_a_killed_process(tmp_path):
    script = f"""
import random, os
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.engine.randomplay import policy
ag = new_game(load_scenario({str(DUEL)!r}), 5, {str(tmp_path / "k.json")!r})
rng = random.Random(5)
for i in range(25):
    ag.apply(policy(ag.game, rng))
os._exit(9)  # killed: no clean-up, no flush of anything else
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert r.returncode == 9
    g = resume(tmp_path / "k.json").game
    assert g.actions_applied == 25


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda t: "hello", "not a hexfire save"),
        (lambda t: json.dumps({"format": "other"}), "not a hexfire save"),
        (lambda t: t[: len(t) // 2], "truncated"),
        (lambda t: t.replace('"version": 4', '"version": 5'), "newer hexfire"),
        (
            lambda t: t.replace(
                f'"rules_version": {RULES_VERSION}', f'"rules_version": {RULES_VERSION + 1}'
            ),
            "newer rules",
        ),
        (
            lambda t: t.replace("Duel at the Crossroads", "Duel at the Bridge"),
            "does not match its SHA-256",
        ),
        (
            lambda t: t.replace('"type": "end_phase"', '"type": "teleport"', 1),
            "unknown action type",
        ),
    ],
)
def test_loading_refuses_a_bad_save_with_a_clear_message(tmp_path, mutate, words):
    ag, path = _played(tmp_path)
    with pytest.raises(SaveError, match=words):
        parse_save(mutate(path.read_text()), "x.json")


def test_a_save_edited_by_hand_is_caught_at_the_action_where_it_diverges(tmp_path):
    ag, path = _played(tmp_path, n=90)
    d = json.loads(path.read_text())
    i = next(k for k, a in enumerate(d["actions"]) if a["action"]["type"] in ("move", "place"))
    d["actions"][i]["hash"] = "0" * 64
    with pytest.raises(ReplayError) as e:
        replay(parse_save(json.dumps(d)))
    assert e.value.index == i and "state hash" in e.value.what


def test_an_edited_action_is_caught(tmp_path):
    ag, path = _played(tmp_path, n=90)
    d = json.loads(path.read_text())
    i = next(k for k, a in enumerate(d["actions"]) if a["action"]["type"] in ("move", "place"))
    field = "to" if d["actions"][i]["action"]["type"] == "move" else "hex"
    d["actions"][i]["action"][field] = "A1" if d["actions"][i]["action"][field] != "A1" else "A2"
    with pytest.raises(ReplayError) as e:
        replay(parse_save(json.dumps(d)))
    assert e.value.index == i


# --- replays ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", SAVES, ids=lambda p: p.name)
def test_the_shipped_saves_replay_and_verify_to_the_end(path):
    saved = read_save(path)
    game = replay(saved, name=str(path))
    assert game.over and game.winner


def test_replay_command_log_json_verify_and_to(tmp_path):
    path = SAVES[0]
    run = [sys.executable, "-m", "game", "replay", str(path)]
    r = subprocess.run(run, capture_output=True, text=True)
    assert r.returncode == 0 and "Game over" in r.stdout
    r = subprocess.run([*run, "--json", "--to", "5"], capture_output=True, text=True)
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert lines and all(x["index"] < 5 for x in lines) and {"kind", "text"} <= set(lines[0])
    r = subprocess.run([*run, "--verify"], capture_output=True, text=True)
    assert r.returncode == 0 and "verified" in r.stdout
    bad = tmp_path / "bad.json"
    d = json.loads(path.read_text())
    d["actions"][3]["draws"] += 1
    bad.write_text(json.dumps(d))
    r = subprocess.run(
        [sys.executable, "-m", "game", "replay", str(bad), "--verify"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1 and "actions[3]" in r.stderr and "Traceback" not in r.stderr


def test_date_season_out_of_season_grain_does_not_hinder():
    summer = GOOD.replace('"o o o o",\n  "o sb', '"o gr gr o",\n  "o sb', 1)
    winter = summer.replace('date = "1944-06"', 'date = "1944-12"')
    from game.board.los import los

    for text, hindrance in ((summer, 2), (winter, 0)):  # B1 and C1 lie on the line
        board = parse_scenario(text, "s.toml").setup.board
        r = los(board, board.parse("A1"), board.parse("D1"))
        assert r.clear and r.hindrance == hindrance


def test_date_weapons_availability():
    early = GOOD.replace('date = "1944-06"', 'date = "1942-01"')
    errs = errors_of(early)
    assert any("M4A1 Sherman is not available before 1942-09" in e for e in errs)
    assert not any("PaK 40" in e for e in errs)  # in service since 1941-11


@pytest.mark.parametrize("seed", [2, 9, 31])
def test_replay_of_any_game_reaches_the_same_hash_after_every_action(tmp_path, seed):
    import random

    from game.engine.randomplay import policy

    sc = load_scenario(ROOT / "scenarios" / "road-ambush.toml")
    ag = new_game(sc, seed, tmp_path / "g.json")
    rng = random.Random(seed)
    hashes = []
    for _ in range(120):
        if ag.game.over:
            break
        ag.apply(policy(ag.game, rng))
        hashes.append(ag.game.state_hash())
    seen = []
    replay(read_save(tmp_path / "g.json"), on_events=lambda i, a, e: seen.append(i))
    assert seen == list(range(len(hashes)))
    assert [a["hash"] for a in read_save(tmp_path / "g.json").actions] == hashes


@pytest.mark.parametrize(
    "key, expected",
    [
        ("id", "id: expected a name of at most 64 characters"),
        ("title", "title: expected a title of at most 200 characters"),
        ("hex", 'units[0].hex: expected a hex label like "W6"'),
        ("type", "units[0].type: expected a catalogue type"),
    ],
)
def test_a_100000_character_value_is_one_short_line_at_its_own_line(key, expected):
    """The schema's limits (docs/scenario-format.md): the error names the value's own line and
    repeats at most 60 characters of it."""
    import re

    text = re.sub(rf'(?m)^{key} = "[^"]*"', f'{key} = "{"A" * 100_000}"', GOOD, count=1)
    line = text[: text.index("A" * 1000)].count("\n") + 1
    errs = errors_of(text)
    assert len(errs) == 1 and expected in errs[0] and len(errs[0]) < 200, errs
    assert errs[0].startswith(f"s.toml:{line}: ")


def test_types_are_strict_a_string_is_not_a_number_nor_true_an_integer():
    errs = errors_of(
        GOOD.replace("facing = 3", 'facing = "3"').replace("turns = 2", "turns = true")
    )
    assert any("units[1].facing: expected 0-5, got '3'" in e for e in errs), errs
    assert any("turns: expected an integer 1-99, got True" in e for e in errs), errs


def test_a_schema_error_and_a_set_up_error_are_reported_in_one_round():
    """A unit with a bad facing and two units in one hex: both, in one round."""
    text = GOOD.replace("facing = 0", "facing = 9").replace(
        "[[victory]]",
        '[[units]]\nid = "c1"\ntype = "m4a1"\nside = "allies"\nhex = "D3"\n\n[[victory]]',
        1,
    )
    errs = errors_of(text)
    assert any("units[0].facing: expected 0-5" in e for e in errs), errs
    assert any("units[2].hex: D3 already holds b1" in e for e in errs), errs


def test_the_log_speaks_words_not_identifiers():
    """Outcomes and counts as a player reads them: "no effect", "1 hex", "1 enemy AFV"."""
    from game.engine.setup import Victory
    from game.rules.words import outcome_words, plural

    assert outcome_words("no_effect") == "no effect" and outcome_words("possible_shock") == (
        "possible Shock"
    )
    assert plural(1, "hex") == "1 hex" and plural(2, "hex") == "2 hexes"
    assert Victory("axis", "eliminate", 1).describe() == "axis: eliminate 1 enemy AFV"


def test_a_bad_action_past_the_first_chunk_is_located_by_its_index_in_the_whole_save(tmp_path):
    """The actions are validated a chunk at a time (the window's thread is not held): an error
    still names its index in the whole list."""
    import json

    from game.files.savegame import CHUNK
    from game.files.shipped import scenarios_dir

    d = json.loads((scenarios_dir() / "saves" / "road-ambush-played.json").read_text())
    entries = d["actions"]
    d["actions"] = [dict(entries[i % len(entries)]) for i in range(CHUNK + 400)]
    d["actions"][CHUNK + 345]["draws"] = "x"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    with pytest.raises(SaveError, match=rf"actions\[{CHUNK + 345}\]\.draws: expected a count"):
        read_save(path)
