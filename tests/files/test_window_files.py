"""The files around the window never lose a game or hang it (the files-layer part of "the
window never loses a game"): control characters refused where they make no sense, a lone
surrogate in a save refused before any autosave could fail on it, no FIFO or device ever
opened, a hostile prefs.json means the defaults, autosave names reserved atomically, an
unusable saves folder a one-line error."""

import json
import os
import subprocess
import sys
import threading

import pytest

from game.files.savegame import SaveError, parse_save, read_save
from game.files.scenario import ScenarioError, parse_scenario
from game.files.shipped import scenarios_dir, shipped_saves

BASE = (scenarios_dir() / "tutorial-duel.toml").read_text()


def _errors(text: str) -> list[str]:
    try:
        parse_scenario(text, "x.toml")
    except ScenarioError as e:
        return e.errors
    return []


@pytest.mark.parametrize(
    "old, new, field",
    [
        ('title = "', 'title = "\\u0000', "title"),
        ('id = "ger-pz4-1"', 'id = "ger\\u0000pz4-1"', "units[0].id"),
        ("[sides.german]", '[sides."ger\\u001bman"]', "sides"),
    ],
)
def test_control_characters_in_a_name_or_an_id_are_refused_where_they_stand(old, new, field):
    assert old in BASE
    errors = _errors(BASE.replace(old, new, 1))
    hit = [e for e in errors if "control character" in e]
    assert hit and field in hit[0] and hit[0].split(":")[1].isdigit(), errors
    assert all("\x00" not in e and "\x1b" not in e for e in errors)  # shown escaped


def test_a_briefing_keeps_its_newlines():
    assert "briefing" in BASE and not _errors(BASE)


def test_a_save_with_a_lone_surrogate_is_refused_not_autosaved_into_a_crash():
    d = json.loads(shipped_saves()[0].read_text())
    d["scenario"]["text"] = d["scenario"]["text"].replace("title", "\ud800title", 1)
    text = json.dumps(d)  # json writes the lone surrogate as \\ud800
    with pytest.raises(SaveError) as e:
        parse_save(text, "s.json")
    assert "lone surrogate" in str(e.value) and e.value.unreadable


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_a_fifo_never_hangs_a_command(tmp_path, command):
    fifo = tmp_path / ("x.toml" if command == "validate" else "x.json")
    os.mkfifo(fifo)
    r = subprocess.run(
        [sys.executable, "-m", "game", command, str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode in (1, 2)
    assert "not a regular file" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


def test_read_save_refuses_a_device_without_reading_it():
    with pytest.raises(SaveError, match="not a regular file"):
        read_save("/dev/zero")


def _prefs(tmp_path, capsys):
    from game.ui.prefs import Prefs

    prefs = Prefs.load(tmp_path)
    return prefs, capsys.readouterr().err


def test_a_hostile_prefs_json_means_the_defaults_and_one_line(tmp_path, capsys):
    from game.ui.prefs import Prefs

    (tmp_path / "prefs.json").write_text("[" * 200_000)
    prefs, err = _prefs(tmp_path, capsys)
    assert prefs == Prefs() and len(err.strip().splitlines()) == 1 and "ignored" in err
    (tmp_path / "prefs.json").unlink()
    os.symlink("/dev/zero", tmp_path / "prefs.json")
    prefs, err = _prefs(tmp_path, capsys)
    assert prefs == Prefs() and "not a regular file" in err
    (tmp_path / "prefs.json").unlink()
    os.mkfifo(tmp_path / "prefs.json")
    done = threading.Event()
    result = {}

    def load():
        result["prefs"] = Prefs.load(tmp_path)
        done.set()

    threading.Thread(target=load, daemon=True).start()
    assert done.wait(10), "a FIFO prefs.json hangs the start"
    assert result["prefs"] == Prefs()


def test_two_windows_started_in_the_same_second_get_two_autosaves(tmp_path):
    from game.ui.prefs import autosave_path, newest_save

    a = autosave_path(tmp_path, "steppe-200")
    b = autosave_path(tmp_path, "steppe-200")
    assert a != b and a.exists() and b.exists()  # reserved at once, before any game is built
    assert newest_save(tmp_path) is None  # a reserved, unwritten name is not offered to Resume


def test_an_unusable_saves_folder_is_a_one_line_error(tmp_path):
    from game.ui.prefs import saves_dir

    blocker = tmp_path / "saves"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(SaveError, match="cannot use it as the saves folder"):
        saves_dir(blocker)
    r = subprocess.run(
        [sys.executable, "-m", "game", "play", "tutorial-duel", "--save-dir", str(blocker)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk"},
    )
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "saves folder" in r.stderr


def test_a_file_name_with_markup_is_shown_as_text(app):
    """pygame-gui reads tooltips as HTML: a save named "<b>x&y" is shown as those characters
    (its '<b>' is not bold, its '&' not an entity)."""
    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.scenes.routes import Push, Start

    app.save_dir.mkdir(parents=True, exist_ok=True)
    path = app.save_dir / "<b>x&y.json"
    new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path).close()
    app.go(Push(Start()))
    assert app.scene.newest == path
    assert "&lt;b&gt;x&amp;y, saved" in app.scene.resume.tool_tip_text


def test_closing_with_an_unsaved_action_asks_first(app, monkeypatch):
    """Every action autosaves, so the window closes at once; but when the last save failed (a
    full disk), closing asks first, with the reason, and "Close anyway" closes."""
    import pygame
    from ui_driver import click_widget

    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.scenes.routes import Play, Push

    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, None)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scene
    session.save_error = "No space left on device"
    app.handle(pygame.event.Event(pygame.QUIT))
    assert app.running and play.dialogs.closing is not None
    click_widget(app, play.dialogs.closing.confirm_button)
    assert not app.running
    session.save_error = None
    app.running = True
    app.handle(pygame.event.Event(pygame.QUIT))
    assert not app.running  # saved: it closes at once


def test_the_replay_viewer_opens_with_an_unusable_data_folder(tmp_path, monkeypatch):
    """hexfire watch writes no save: a data folder that cannot be used (a file in its place)
    does not stop it (the play window says why instead)."""
    import pygame

    from game.ui.main import watch_window

    blocked = tmp_path / "data"
    blocked.write_text("a file where the data folder would be")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocked))
    app = watch_window((960, 640))
    try:
        assert app.save_dir.is_dir() and not str(app.save_dir).startswith(str(blocked))
    finally:
        pygame.display.quit()


def test_resume_of_a_game_open_in_another_window_offers_a_copy(app):
    """Two windows: the newest save is being played by another process (its lock names a
    live pid). Resume does not take it over: it asks, and "Open a copy" plays on in a new
    autosave while the other window's file stays as it was."""
    import subprocess
    import sys

    from ui_driver import click_widget

    from game.files.lock import lock_path
    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.play.screen import PlayScene
    from game.ui.scenes.routes import Push, Start

    app.save_dir.mkdir(parents=True, exist_ok=True)
    path = app.save_dir / "duel.json"
    new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path).close()
    before = path.read_bytes()
    hold = (  # the other window: it holds the game's lock
        "import sys, time; from pathlib import Path; from game.files.lock import acquire_lock; "
        "acquire_lock(Path(sys.argv[1])); print('open', flush=True); time.sleep(60)"
    )
    other = subprocess.Popen(
        [sys.executable, "-c", hold, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        app.go(Push(Start()))
        click_widget(app, app.scene.resume)
        assert isinstance(app.scene, type(app.scenes[0])) and app.questions, "it asks first"
        dialog = next(iter(app.questions))
        click_widget(app, dialog.confirm_button)
        play = next(s for s in app.scenes if isinstance(s, PlayScene))  # under its handover
        assert play.session.path != path
        assert path.read_bytes() == before and lock_path(path).read_text() == f"{other.pid}\n"
    finally:
        other.kill()
        other.wait()


def test_save_as_into_a_folder_that_cannot_hold_it_says_why(app, tmp_path):
    """Save as into a place no file can be written (here a file where the folder would be):
    the phase bar says why, the window goes on (the SaveError escaped the dialog)."""

    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.scenes.routes import Play, Push

    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, None)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scene
    play.dialogs.open_file("save")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    from ui_driver import pick_file

    pick_file(app, play.dialogs.file_dialog, blocked / "copy.json")
    assert (
        "cannot save" in play.map.state.message
        and "previous save is kept" in play.map.state.message
    )


def _duel_at_the_screen(app, tmp_path):
    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.scenes.routes import Play, Push

    path = app.save_dir / "duel.json"
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    return app.scene


def test_the_file_dialogs_list_only_folders_and_hexfire_files_and_a_fifo_is_neither(app, tmp_path):
    """Lock files (.json.lock) and temporary files were listed; a FIFO was listed as a folder,
    and choosing it raised NotADirectoryError out of the window."""
    import pygame

    play = _duel_at_the_screen(app, tmp_path)
    folder = app.save_dir
    (folder / "notes.txt").write_text("x")
    (folder / "sub").mkdir()
    os.mkfifo(folder / "pipe")
    play.dialogs.open_file("load")
    dialog = play.dialogs.file_dialog
    names = [name for name, _ in dialog.current_file_list]
    assert "sub" in names and "duel.json" in names
    assert not any(n.endswith((".lock", ".txt", ".tmp")) or n == "pipe" for n in names)
    dialog._change_directory_path(folder / "pipe")  # a typed path to the FIFO: nothing
    app.pump([])
    assert dialog.alive() and dialog.current_directory_path == str(folder)
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, unicode="", mod=0)
    app.pump([key])


def test_enter_in_the_save_as_dialog_saves_the_name_typed(app, tmp_path):
    """Enter in the path line did nothing; it is the dialog's OK."""
    import pygame
    import pygame_gui

    play = _duel_at_the_screen(app, tmp_path)
    play.dialogs.open_file("save")
    dialog = play.dialogs.file_dialog
    target = app.save_dir / "checkpoint.json"
    dialog.file_path_text_line.set_text(str(target))
    finished = pygame.event.Event(
        pygame_gui.UI_TEXT_ENTRY_FINISHED,
        {"text": str(target), "ui_element": dialog.file_path_text_line},
    )
    app.pump([finished])
    app.pump()  # the dialog's answer, posted as its OK posts it
    assert target.is_file() and read_save(target).actions == []
    assert "saved a copy" in play.map.state.message
    assert play.dialogs.file_dialog is None


def test_the_start_screens_keys_wait_while_its_load_dialog_is_open(app):
    """Enter in the Load dialog started a new game of the highlighted scenario, and Up / Down
    closed the dialog: while it is open, its keys are its own."""
    import pygame

    from game.ui.start.screen import StartScene

    start = StartScene()
    app.push(start)
    app.pump([])
    start.open_dialog()
    chosen = start.chosen
    for k in (pygame.K_DOWN, pygame.K_UP, pygame.K_RETURN):
        app.pump([pygame.event.Event(pygame.KEYDOWN, key=k, unicode="", mod=0, scancode=0)])
    assert app.scene is start and start.file_dialog is not None and start.file_dialog.alive()
    assert start.chosen == chosen


def test_a_folder_that_cannot_be_written_never_closes_the_start_screen(app, tmp_path):
    """ "Play this scenario" with a full or read-only saves folder, and the Strict hotseat
    button with a read-only data folder, closed the window: each says why and goes on."""
    from ui_driver import click_widget

    from game.ui.start.screen import StartScene

    start = StartScene()
    app.push(start)
    app.pump([])
    import shutil

    saves = app.save_dir  # a file where each folder was: nothing can be written there
    shutil.rmtree(saves)
    saves.write_text("not a folder")
    data = tmp_path / "data" / "hexfire"
    if data.exists():
        shutil.rmtree(data)
    data.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("not a folder")
    click_widget(app, start.play)
    assert app.scene is start
    click_widget(app, start.strict)
    assert app.scene is start and app.prefs.strict_hotseat
    texts = [
        getattr(getattr(w, "text_block", None), "html_text", "")
        for w in app.ui.get_window_stack().stack
    ]
    assert any("cannot save" in t.lower() for t in texts)
    assert any("not a directory" in t.lower() or "file exists" in t.lower() for t in texts)


def test_a_scenario_with_a_very_long_file_name_can_be_played(tmp_path):
    """A 225-character scenario file name left no room for its autosave's name."""
    from game.ui.prefs import autosave_path

    path = autosave_path(tmp_path, "x" * 225)
    assert path.exists() and len(path.name) < 255


def test_undo_on_a_full_disk_keeps_playing_says_why_and_closing_asks(app, tmp_path, monkeypatch):
    """Undo on a full disk closed the window and lost the game: it is undone in the game, the
    phase bar says the save failed, and closing the window asks first."""
    import pygame
    from ui_driver import key

    import game.files.session as session_module
    from game.engine.actions import Place

    play = _duel_at_the_screen(app, tmp_path)
    unit = next(u for u in play.map.units() if u["id"] in play.session.game.placeable())
    assert play.apply(Place(unit["id"], unit["hex"], (unit["facing"] + 1) % 6))

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device; the previous save is kept")

    monkeypatch.setattr(session_module, "save", full_disk)
    key(app, pygame.K_u, "u")
    assert play.map.unit(unit["id"])["facing"] == unit["facing"]  # undone
    assert "No space left" in play.map.state.message
    app.handle(pygame.event.Event(pygame.QUIT))
    assert app.running and play.dialogs.closing is not None  # asked first


def test_sigterm_ends_the_window_and_releases_the_games_lock(tmp_path):
    """A window ended by SIGTERM (a desktop logging out, kill) left its lock behind."""
    import signal
    import time

    from game.files.lock import lock_path

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk"}
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    saves = tmp_path / "saves"
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "play", "tutorial-duel", "--save-dir", str(saves)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.time() + 60
        locks: list = []
        while time.time() < deadline and not locks:
            locks = list(saves.glob(".*.lock")) if saves.exists() else []
            time.sleep(0.1)
        assert locks, "the game never started"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        game = locks[0].parent / locks[0].name[1:].removesuffix(".lock")
        assert not lock_path(game).exists()
    finally:
        if proc.poll() is None:
            proc.kill()
