"""A game is never lost to another window or a full disk (the session part): the save being
played is locked (a second window is refused, a killed window's lock taken over), a loaded
checkpoint is played on in a new autosave and never overwritten, and an undo whose save fails
keeps the game and says why."""

import json
import subprocess
import sys

import pytest

from game.engine.actions import EndPhase
from game.files import session as session_module
from game.files.lock import SaveLocked, lock_path
from game.files.savegame import SaveError, read_save
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import scenarios_dir

HOLD = """
import sys, time
from game.files.session import resume
s = resume(sys.argv[1])
print("open", flush=True)
time.sleep(30)
"""


def _played(tmp_path, n=3):
    s = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 4, tmp_path / "g.json")
    for _ in range(n):
        s.apply(EndPhase())
    return s


def test_a_game_open_in_another_window_is_refused_with_a_clear_reason(tmp_path):
    s = _played(tmp_path)
    path = s.path
    s.close()
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        with pytest.raises(SaveLocked, match="open in another window"):
            resume(path)
    finally:
        other.kill()
        other.wait()
    # that window was killed: its stale lock is taken over, the game resumes
    again = resume(path)
    assert again.game.state_hash() == s.game.state_hash()
    again.close()
    assert not lock_path(path).exists()


def test_a_loaded_checkpoint_is_played_on_in_a_new_autosave_and_never_overwritten(tmp_path):
    s = _played(tmp_path)
    checkpoint = tmp_path / "checkpoint.json"
    s.save_as(checkpoint)
    s.close()
    before = checkpoint.read_text()
    loaded = resume(checkpoint, continue_in=tmp_path / "continued.json")
    loaded.apply(EndPhase())
    assert checkpoint.read_text() == before
    assert (
        len(read_save(tmp_path / "continued.json").actions)
        == len(json.loads(before)["actions"]) + 1
    )


def test_rd19_an_undo_whose_save_fails_keeps_the_game_and_says_why(tmp_path, monkeypatch):
    s = _played(tmp_path)
    n = len(s.saved.actions)

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device; the previous save is kept")

    monkeypatch.setattr(session_module, "save", full_disk)
    assert s.undo() is None  # undone in the game: the window goes on
    assert len(s.saved.actions) == n - 1 and "No space left" in (s.save_error or "")
    monkeypatch.undo()
    s.apply(EndPhase())  # the next action writes the whole game again
    assert s.save_error is None and len(read_save(s.path).actions) == n


def test_the_start_screens_load_plays_a_copy_and_resume_plays_in_place(tmp_path, data_dir):
    from game.ui.scenes.opening import open_path
    from game.ui.screens import window

    s = _played(tmp_path)
    s.close()
    app = window((1280, 800), tmp_path / "saves", headless=True)
    assert open_path(app, s.path) is None  # Load
    app.pump([])  # the game is replayed off the window's thread: its screen after
    loaded = app.scenes[0].session  # the play screen (a handover may stand over it)
    assert loaded.path != s.path and loaded.path.parent == app.save_dir
    assert open_path(app, s.path, in_place=True) is None  # Resume
    app.pump([])
    resumed = app.scenes[0].session
    assert resumed.path == s.path and loaded.autosave.lock is None  # the first game's lock released


def test_hx15_a_phase_passed_by_itself_is_named_by_its_player_turn():
    """Found in a newcomer's trial: the HX-15 line named the Russian player turn's Defensive
    Fire Phase "German Defensive Fire Phase" while the phase bar and the log's phase line said
    Russian: one phase, two names. It is named as the bar names it, with the side to act."""
    from engine_helpers import make_setup, to_phase

    from game.engine import Game, UnitSetup
    from game.engine.actions import EndPhase
    from game.files.savegame import SavedGame
    from game.files.session import Autosave
    from game.session import Session

    rows = ["o o o o o", "w w w w w", "w w w w w", "o o o o o"]  # no LOS through the woods
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A1", facing=0),
        UnitSetup("rus-t-1", "t34m43", "russian", "A4", facing=0),
    ]
    game = Game(make_setup(units, rows=rows), 1)
    to_phase(game, "movement", "russian")
    saved = SavedGame.new(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1)
    session = Session.of(Autosave(game, saved, None))
    session.table("russian").submit(EndPhase())
    assert (game.phase, game.phasing, game.to_act) == ("defensive_fire", "russian", "german")
    passed, _ = session.pass_idle_phases()
    assert passed[0] == "Russian Defensive Fire Phase (German to act)"
    lines = [e.text for e in session.table("german").events() if e.kind == "phase"]
    assert any(text.endswith("russian: Defensive Fire Phase (RD-12)") for text in lines), lines
