"""Hostile files and flags: any byte string ends in a valid result or clear,
one-line errors with the right exit code, quickly; never a traceback, never a hang, never a
false "verified"; autosaves survive a full disk and SIGKILL."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest
from hostile_inputs import mutate_json, mutate_toml
from reliability import KILLER

from game.files.replay import replay
from game.files.savegame import SaveError, parse_save, read_save, save
from game.files.scenario import ScenarioError, load_scenario, parse_scenario
from game.files.shipped import scenarios_dir, shipped_saves, shipped_scenarios

ERROR_LINE = re.compile(r"^[^\n]+?(:\d+)?: [^\n]+$")
SHORT = 300


def _fuzz_scenarios(n: int, seed: int) -> None:
    rng = random.Random(seed)
    texts = [p.read_text() for p in shipped_scenarios()]
    for _ in range(n):
        text = rng.choice(texts)
        for _ in range(rng.choice((1, 1, 2, 3))):
            text = mutate_toml(text, rng)
        t0 = time.perf_counter()
        try:
            parse_scenario(text, "x.toml")
        except ScenarioError as e:
            assert e.errors and all(ERROR_LINE.match(line) for line in e.errors), e.errors
            assert all(line.startswith("x.toml") for line in e.errors)
        assert time.perf_counter() - t0 < 2.0


def _fuzz_saves(n: int, seed: int) -> None:
    rng = random.Random(seed)
    texts = [p.read_text() for p in shipped_saves()]
    for _ in range(n):
        text = mutate_json(rng.choice(texts), rng)
        try:
            replay(parse_save(text, "x.json"), name="x.json")
        except (SaveError, ScenarioError) as e:
            assert str(e).startswith("x.json")


def test_mutated_scenarios_end_in_a_scenario_or_clear_errors():
    _fuzz_scenarios(SHORT, 1)


def test_mutated_saves_end_in_a_game_or_a_clear_refusal():
    _fuzz_saves(SHORT // 2, 1)


@pytest.mark.long
def test_long_fuzz_scenarios_and_saves():
    _fuzz_scenarios(20_000, 7)
    _fuzz_saves(5_000, 7)


# --- saves ---------------------------------------------------------------------------------


def _tutorial_save() -> dict:
    return json.loads(next(p for p in shipped_saves() if "tutorial" in p.name).read_text())


def _cli(*argv, **kw):
    return subprocess.run(
        [sys.executable, "-m", "game", *argv], capture_output=True, text=True, **kw
    )


def test_a_save_whose_seed_was_edited_does_not_verify(tmp_path):
    d = _tutorial_save()
    d["seed"] += 1
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(d))
    r = _cli("replay", str(path), "--verify")
    assert r.returncode == 1 and "actions[" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda d: d.update(version=True), "version"),
        (lambda d: d.update(seed=-5), "seed"),
        (lambda d: d["actions"][0].update(hash=12), "hash"),
        (lambda d: d["actions"][0].update(draws=True), "draws"),
    ],
)
def test_strict_types_in_a_save(tmp_path, edit, words):
    d = _tutorial_save()
    edit(d)
    with pytest.raises(SaveError, match=words):
        parse_save(json.dumps(d), "x.json")


def test_a_5000_digit_number_and_deep_nesting_are_refused_cleanly(tmp_path):
    text = json.dumps(_tutorial_save()).replace('"seed": 1', '"seed": ' + "9" * 5000)
    with pytest.raises(SaveError, match="not a hexfire save"):
        parse_save(text, "x.json")
    deep = '{"format": "hexfire-save", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(SaveError, match="nested too deeply"):
        parse_save(deep, "x.json")


def test_verify_exit_codes_unreadable_2_not_verified_1(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("hello")
    assert _cli("replay", str(junk), "--verify").returncode == 2
    d = _tutorial_save()
    d["actions"][3]["draws"] += 1
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(d))
    assert _cli("replay", str(edited), "--verify").returncode == 1


# --- terminal output -----------------------------------------------------------------------


def test_names_from_files_are_printed_with_control_characters_escaped(tmp_path):
    text = (scenarios_dir() / "tutorial-duel.toml").read_text()
    text = re.sub(r'(?m)^title = ".*"$', lambda m: 'title = "Duel\\u001b[2J\\nfake.toml: ok"', text)
    path = tmp_path / "evil.toml"
    path.write_text(text)
    r = _cli("validate", str(path))
    # a title is a name: its control characters are refused, the refusal printed escaped
    assert r.returncode == 1, r.stdout + r.stderr
    assert "\x1b" not in r.stdout and "title: a control character (\\x1b)" in r.stdout
    assert len(r.stdout.strip().splitlines()) == 1


# --- odds flags ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--af", "99"], "--af: expected 0 to 26"),
        (["--af", "8", "--dff-mp", "nan"], "--dff-mp"),
        (["--af", "8", "--morale", "40"], "--morale: expected 2 to 12"),
        (["--af", "8", "--rof", "9"], "--rof"),
        (["--af", "8", "--hindrance", "7"], "--hindrance"),
    ],
)
def test_odds_flags_outside_the_rules_exit_2_with_the_allowed_range(flags, words):
    r = _cli("odds", "--gun", "50L", "--range", "5", *flags)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1


# --- autosave ------------------------------------------------------------------------------


def test_a_full_disk_keeps_the_previous_save_and_says_why(tmp_path, monkeypatch):
    from game.engine.randomplay import policy
    from game.files.session import new_game

    path = tmp_path / "g.json"
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 3, path)
    rng = random.Random(3)
    session.apply(policy(session.game, rng))
    before = path.read_text()

    def no_space(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    session.apply(policy(session.game, rng))
    assert session.save_error and "No space left" in session.save_error
    assert path.read_text() == before and not list(tmp_path.glob(".g.json.*.tmp"))
    monkeypatch.undo()
    session.apply(policy(session.game, rng))  # the disk is back: the whole game is saved
    assert session.save_error is None
    assert replay(read_save(path)).state_hash() == session.game.state_hash()


def test_stale_temporary_files_are_removed(tmp_path):
    from game.files.session import resume

    path = tmp_path / "g.json"
    save(read_save(next(p for p in shipped_saves() if "tutorial" in p.name)), path)
    stale = tmp_path / ".g.json.abc123.tmp"
    stale.write_text("half a file")
    resume(path)
    assert not stale.exists()


def test_sigkill_during_autosave_never_loses_the_game(tmp_path):
    """A game killed (SIGKILL) right after its n-th autosave, while it writes the next: the
    save is there, verifies, and holds at least those n actions. The kill points are fixed
    (after the 3rd, 17th, 35th and 55th autosave), so the check always runs."""
    for target in (3, 17, 35, 55):
        path = tmp_path / f"kill{target}.json"
        proc = subprocess.Popen(
            [sys.executable, "-c", KILLER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None
        saved_count = 0
        for line in proc.stdout:  # each line: the actions saved so far
            saved_count = int(line)
            if saved_count >= target:
                proc.send_signal(signal.SIGKILL)
                break
        proc.wait()
        assert saved_count >= target, "the game ended before the kill point"
        saved = read_save(path)
        replay(saved)  # loads and verifies
        assert len(saved.actions) >= target


def _error_lines(text: str) -> list[tuple[int | None, str]]:
    try:
        parse_scenario(text, "x.toml")
    except ScenarioError as e:
        out = []
        for line in e.errors:
            f = line.split(":")
            out.append((int(f[1]) if f[1].isdigit() else None, line))
        return out
    return []


BASE = (scenarios_dir() / "tutorial-duel.toml").read_text()


def _line(text: str, needle: str) -> int:
    return text.split("\n").index(needle) + 1


def test_errors_name_the_right_line_for_sides_dotted_keys_and_arrays_of_tables():
    text = BASE.replace("defender = true", 'defender = "yes"')
    lines = dict((line.split(": ")[1], n) for n, line in _error_lines(text))
    assert lines["sides.german.defender"] == _line(text, 'defender = "yes"')
    assert lines["sides"] == _line(text, "[sides.german]")
    dotted = BASE.replace('[rules]\nto_kill = "asl"', 'rules.to_kill = "dice"')
    ((n, _),) = _error_lines(dotted)
    assert n == _line(dotted, 'rules.to_kill = "dice"')


def test_a_table_header_inside_a_multi_line_string_does_not_shift_the_lines():
    text = BASE.replace('briefing = """', 'briefing = """\n[units]\n[[units]]', 1)
    text = text.replace("facing = 3", "facing = 9", 1)
    ((n, line),) = _error_lines(text)
    assert n == _line(text, "facing = 9"), line


def test_a_scenario_with_more_units_than_the_limit_is_one_clear_error(tmp_path):
    from game.files.scenario import MAX_UNITS

    text = (scenarios_dir() / "tutorial-duel.toml").read_text()
    unit = text[text.index("[[units]]") : text.index("[[units]]", text.index("[[units]]") + 1)]
    many = text.replace(unit, unit * (MAX_UNITS + 1), 1)
    path = tmp_path / "many.toml"
    path.write_text(many)
    r = _cli("validate", str(path))
    assert r.returncode == 1
    total = text.count("[[units]]") + MAX_UNITS  # the first unit now MAX_UNITS + 1 times
    assert f"units: {total:,} units: a scenario has at most {MAX_UNITS}" in r.stdout


@pytest.mark.parametrize(
    "old, new, field",
    [
        ('hex = "C4"', 'hex = "' + "A" * 100_000 + '"', "units[0].hex"),
        (
            'setup_area = { columns = "K-L" }',
            'setup_area = { columns = "' + "K" * 100_000 + '" }',
            "units[1].setup_area",
        ),
    ],
)
def test_a_100000_character_value_is_reported_on_its_own_line(old, new, field):
    text = BASE.replace(old, new, 1)
    lines = _error_lines(text)
    where = text.split("\n").index(new) + 1
    assert any(n == where and f": {field}" in line for n, line in lines), [
        (n, line[:80]) for n, line in lines
    ]
