"""A save says which rules version it was recorded under (game.engine.rules_version); one
recorded under earlier rules is not lost: it opens and replays under today's rules as far as
its actions stay legal and draw the same dice, and says where the two part."""

import json
import subprocess
import sys
from pathlib import Path

from game.engine.rules_version import RULES_VERSION
from game.files.replay import ReplayError, replay
from game.files.savegame import read_save, save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir, shipped_saves
from game.files.timeline import Timeline

DATA = Path(__file__).resolve().parents[1] / "data"
PARTS = DATA / "road-ambush-rules1.json"
"""road-ambush recorded under rules version 1: its action 46 is an Advancing Fire shot by a
unit that Prep Fired, which RD-12 now refuses."""
AGREES = DATA / "tutorial-duel-rules1.json"
"""tutorial-duel recorded under rules version 1: every action stays legal today."""


def _hexfire(*args):
    return subprocess.run([sys.executable, "-m", "game", *args], capture_output=True, text=True)


def test_a_new_save_records_todays_rules_version(tmp_path):
    session = new_game(
        load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, tmp_path / "s.json"
    )
    d = json.loads((tmp_path / "s.json").read_text())
    assert d["rules_version"] == RULES_VERSION == session.saved.rules_version


def test_the_shipped_saves_are_recorded_under_todays_rules():
    for path in shipped_saves():
        assert read_save(path).rules_version == RULES_VERSION, path


def test_an_earlier_rules_save_that_agrees_verifies_under_todays_rules():
    assert read_save(AGREES).rules_version == 1
    r = _hexfire("replay", str(AGREES), "--verify")
    assert r.returncode == 0, r.stderr
    assert "recorded under version 1" in r.stdout


def test_an_earlier_rules_save_says_where_it_parts_from_todays_rules():
    r = _hexfire("replay", str(PARTS), "--verify")
    assert r.returncode == 1
    line = r.stderr.strip()
    assert "actions[46]" in line and "rules version 1" in line and "RD-12" in line
    assert len(line.splitlines()) == 1
    try:
        replay(read_save(PARTS))
    except ReplayError as e:
        assert e.index == 46
    else:
        raise AssertionError("the replay did not part")


def test_the_viewer_opens_an_earlier_rules_save_up_to_where_it_parts():
    timeline = Timeline(read_save(PARTS), str(PARTS))
    assert timeline.length == 46
    assert timeline.error is not None and "actions[46]" in timeline.error
    assert timeline.game_at(46).dice.draws == read_save(PARTS).actions[45]["draws"]


def test_an_earlier_rules_save_continued_is_written_under_todays_rules(tmp_path):
    saved = read_save(AGREES)
    game = replay(saved)
    save(saved, tmp_path / "again.json")
    again = read_save(tmp_path / "again.json")
    assert again.rules_version == RULES_VERSION
    assert replay(again).state_hash() == game.state_hash()


def test_the_viewers_snapshots_stay_bounded_and_every_position_is_still_exact():
    """However long the game, the timeline keeps at most ``max_snapshots`` (the spacing
    doubles), and every position it shows is the one the save recorded."""
    saved = read_save(PARTS)
    saved_checks = [a["hash"] for a in replay_checks(saved)]
    timeline = Timeline(read_save(PARTS), str(PARTS), every=5, max_snapshots=4)
    assert len(timeline._snapshots) <= 4 and timeline.every >= 10
    for n in (0, 1, 7, 19, 33, timeline.length):
        game = timeline.game_at(n)
        if n:
            assert game.state_hash() == saved_checks[n - 1]


def replay_checks(saved):
    """The save's checks as today's rules rebuild them (the save is of rules version 1)."""
    from game.files.replay import migrate

    migrate(saved)
    return saved.actions
