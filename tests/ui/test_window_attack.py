"""The window under attack: none of these may crash it, hang it or lose an action. A full
disk and Menu, a lesson step with an unwritable data folder, markup in a scenario's texts,
a typed path that is no folder nor file, a screenshot where the side to act has nothing to
do, and hostile flags and signals to the computer-against-itself commands."""

from __future__ import annotations

import os

import pygame
import pytest
from ui_driver import click_widget, key

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.play.screen import PlayScene
from game.ui.scenes.routes import Play, Push
from game.ui.start.screen import StartScene


def _duel(app, path=None):
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    return app.scene


# --- 1. a failed save: Menu / Ctrl+Q asks as closing does ---------------------------------


@pytest.mark.parametrize("how", ["menu", "ctrl+q"])
def test_menu_with_an_unsaved_action_asks_before_leaving(app, how, monkeypatch):
    """With the last save failed (a full disk), Menu or Ctrl+Q went to the start screen at
    once: Resume then went on from the last saved action, every action since lost. It asks,
    as closing does; Cancel stays, "Leave anyway" leaves; saved, it leaves at once."""
    import game.files.session as session_module
    from game.engine.actions import Place
    from game.files.savegame import SaveError

    play = _duel(app, app.save_dir / "duel.json")
    real_save = session_module.save

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device; the previous save is kept")

    monkeypatch.setattr(session_module, "save", full_disk)
    unit = next(u for u in play.map.units() if u["id"] in play.session.game.placeable())
    assert play.apply(Place(unit["id"], unit["hex"], (unit["facing"] + 1) % 6))
    assert play.session.save_error

    def ask() -> None:
        if how == "menu":
            click_widget(app, play.buttons["start_screen"])
        else:
            key(app, pygame.K_q, "q", mod=pygame.KMOD_LCTRL)

    ask()
    assert app.scene is play and play.dialogs.closing is not None, "it left without asking"
    assert "not saved" in play.dialogs.closing.confirmation_text.html_text
    click_widget(app, play.dialogs.closing.cancel_button)
    assert app.scene is play and play.dialogs.closing is None
    ask()
    click_widget(app, play.dialogs.closing.confirm_button)
    assert isinstance(app.scene, StartScene) and app.running
    monkeypatch.setattr(session_module, "save", real_save)
    play = _duel(app, app.save_dir / "duel2.json")
    ask()  # saved: at once
    assert isinstance(app.scene, StartScene)


# --- 2. a lesson step with a full or read-only data folder ---------------------------------


def test_a_lesson_step_with_an_unwritable_data_folder_is_reported_and_play_goes_on(app, data_dir):
    """The lesson's progress could not be written (here prefs.json is a folder, so the
    atomic rename over it fails as a full or read-only folder does): the SaveError escaped
    and killed the window. The phase bar says so; the lesson goes on."""
    blocker = data_dir / "hexfire" / "prefs.json"
    blocker.mkdir(parents=True)
    (blocker / "x").write_text("")
    sc = load_scenario(scenarios_dir() / "lesson-1-move.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / "l1.json"), sc.title)
    app.push(play)
    app.pump([])
    card = play.lesson
    assert card is not None and card.step is not None and card.step.kind == "read"
    key(app, pygame.K_SPACE, " ")
    assert card.at == 1 and app.scene is play and app.running
    assert "lesson progress not saved" in play.map.state.message
    assert app.prefs.lessons[sc.lesson.id] == 1  # this session remembers


# --- 3. markup in a scenario's texts: escaped wherever pygame-gui reads markup -------------

MARKED = {  # every text a scenario names, as markup pygame-gui would act on
    "german": "<img src=g>",
    "russian": "<img src=r>",
    "ger-pz4-1": "<img src=u>",
    "rus-t34-1": "<b>t&amp;",
}


def _markup_scenario(tmp_path):
    """The duel with markup-like side names, unit ids, title and briefing (valid: a name
    may hold any printable character)."""
    text = (scenarios_dir() / "tutorial-duel.toml").read_text()
    for old, new in MARKED.items():
        text = text.replace(f'"{old}"', f'"{new}"').replace(f"[sides.{old}]", f'[sides."{new}"]')
    text = text.replace('nationality = "<img src=g>"', 'nationality = "german"')
    text = text.replace('nationality = "<img src=r>"', 'nationality = "russian"')
    text = text.replace("Tutorial: Duel at the Crossroads", "<img src=t> &amp; <font face=x>")
    text = text.replace("July 1943", "<img src=b> July 1943", 1)
    path = tmp_path / "<img src=f>.toml"
    path.write_text(text)
    sc = load_scenario(path)
    assert sc.setup.sides == ("<img src=g>", "<img src=r>") and sc.title.startswith("<img")
    return path, sc


def _markup_texts(app) -> list[str]:
    """The markup of every pygame-gui element that reads some (text boxes: the log, tooltips,
    dialogs)."""
    return [
        t
        for e in app.ui.get_sprite_group().sprites()
        if isinstance(t := getattr(e, "html_text", None), str)
    ]


def _escaped_everywhere(app) -> str:
    """Every markup shown (the log's lines as given to its box: an appended line is not kept
    in the box's ``html_text``), none with a tag from the file; joined."""
    texts = _markup_texts(app)
    texts += [line for scene in app.scenes for line in getattr(scene, "log", [])]
    for t in texts:
        low = t.lower()
        assert "<img" not in low and "<font face=x" not in low and "<b>t&amp;" not in t, t
    return "\n".join(texts)


def _play_some(app, play, rng, actions: int) -> str:
    """Random gestures (and the computer's turns) for up to ``actions`` actions or the end;
    every frame's markup checked; all of it, joined."""
    from ui_driver import clear_overlays, perform, random_gesture

    from game.ui.overlays.scenes import EndScene

    play.computer_pause = 0.0
    seen: list[str] = []
    for _ in range(actions):
        for _ in range(100):  # the computer's turn, an action a frame
            if not play.computer_acts() or not isinstance(app.scene, PlayScene):
                break
            app.pump([])
            seen.append(_escaped_everywhere(app))
        clear_overlays(app, play)
        seen.append(_escaped_everywhere(app))
        if isinstance(app.scene, EndScene) or play.session.game.over:
            break
        if play.computer_acts():
            continue
        perform(app, play, random_gesture(app, play, rng))
    seen.append(_escaped_everywhere(app))
    return "\n".join(seen)


def test_markup_in_a_scenarios_texts_is_shown_as_text_everywhere(app, tmp_path, monkeypatch):
    """A side named "<img src=x>" passed validation and went unescaped into the log's markup
    (the HX-15 line, the computer's line): pygame-gui loaded a file the player never named and
    the window died. Swept: the start screen (its tooltips), a game against the computer and a
    hotseat game played through the screens (the log, the End Phase question, the end
    screen), and the replay viewer: no crash, the texts shown escaped."""
    import random

    import game.ui.start.screen as start_module
    from game.ui.scenes.opening import watch_path

    path, sc = _markup_scenario(tmp_path)
    monkeypatch.setattr(start_module, "shipped_scenarios", lambda: [path])
    start = StartScene()
    app.push(start)
    app.pump([])
    for button in start.vs.values():  # its tooltip, drawn
        assert "&lt;Img Src=" in button.tool_tip_text
        pygame.event.post(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=button.rect.center, rel=(0, 0), buttons=(0, 0, 0)
            )
        )
        app.pump()
        app.frame(2.0)
        app.frame(0.1)
        _escaped_everywhere(app)
    rng = random.Random(5)
    click_widget(app, start.vs["<img src=g>"])
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    assert play.computer == "<img src=r>"
    shown = _play_some(app, play, rng, 60)
    assert "&lt;img src=r&gt;" in shown.lower()  # the computer's side, named in the log
    assert "passed by themselves" in shown
    if isinstance(app.scene, PlayScene):
        key(app, pygame.K_q, "q", mod=pygame.KMOD_LCTRL)
    if not isinstance(app.scene, StartScene):
        app.replace(StartScene())
    app.pump([])
    start = app.scene
    click_widget(app, start.play)  # two players at one screen
    play = next(s for s in app.scenes if isinstance(s, PlayScene))
    shown = _play_some(app, play, rng, 120)
    assert "&lt;img src=g&gt;" in shown.lower()
    assert "&lt;img src=u&gt;" in shown.lower()  # a unit's id, named in the log
    save = play.session.path
    app.replace(StartScene())
    watch_path(app, save)
    app.pump([])
    for _ in range(40):
        key(app, pygame.K_RIGHT)
    assert "&lt;img" in _escaped_everywhere(app).lower()


# --- 4. a typed path that is no folder nor regular file, and Enter -------------------------


def _type_and_enter(app, dialog, text: str) -> None:
    """Type ``text`` into the dialog's path line (as pasted) and press Enter there."""
    line = dialog.file_path_text_line
    click_widget(app, line)  # the caret in the path line
    line.set_text(text)
    key(app, pygame.K_RETURN, "\r")
    app.pump()


@pytest.mark.parametrize("where", ["load", "save", "start"])
def test_a_typed_path_that_is_no_folder_nor_file_is_a_one_line_message(app, tmp_path, where):
    """In the Load, Ctrl+O and Ctrl+S dialogs, /dev/null, a FIFO or "a-save.json/x" typed and
    Enter raised NotADirectoryError out of the window. A one-line message says why; the dialog
    stays open on the folder it showed."""
    folder = app.save_dir
    os.mkfifo(folder / "pipe")
    (folder / "a-save.json").write_text("{}")
    if where == "start":
        start = StartScene()
        app.push(start)
        app.pump([])
        click_widget(app, start.load)
        owner = start
    else:
        play = _duel(app, folder / "duel.json")
        k = pygame.K_o if where == "load" else pygame.K_s
        key(app, k, chr(k), mod=pygame.KMOD_LCTRL)
        owner = play.dialogs
    for typed in ("/dev/null", str(folder / "pipe"), str(folder / "a-save.json" / "x")):
        dialog = owner.file_dialog
        assert dialog is not None and dialog.alive(), typed
        _type_and_enter(app, dialog, typed)
        assert app.running and dialog.alive()
        assert dialog.current_directory_path == str(folder.resolve())
        message = dialog.message
        assert message is not None and message.alive(), typed
        text = message.text_block.html_text
        assert "not a folder" in text and len(text.splitlines()) == 1, text
        click_widget(app, message.dismiss_button)
    assert not list(folder.glob("*/x")) and (folder / "a-save.json").read_text() == "{}"


# --- 5. a screenshot where the side to act has nothing to do ------------------------------


def _run(args, **kw):
    import subprocess
    import sys

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk"}
    return subprocess.run(
        [sys.executable, "-m", "game", *args], capture_output=True, text=True, env=env, **kw
    )


def test_a_screenshot_where_the_side_to_act_has_nothing_to_do(tmp_path):
    """Lesson 1's map without its lesson: the German (to set up first) has nothing to do, so
    its phase passes by itself and a handover was pushed over the play screen: --screenshot
    ended in an AssertionError traceback. The Russian takes the seat (no handover in a
    screenshot); a finished game (its result screen over the map) renders too."""
    from game.files.shipped import shipped_saves

    text = (scenarios_dir() / "lesson-1-move.toml").read_text()
    text = text[: text.index("\n[lesson]")].replace('"lesson-1-move"', '"idle-german"')
    scenario = tmp_path / "idle.toml"
    scenario.write_text(text)
    finished = next(p for p in shipped_saves() if p.stem == "tutorial-duel-played")
    for source in (scenario, finished):
        out = tmp_path / f"{source.stem}.png"
        r = _run(["play", str(source), "--screenshot", str(out)], timeout=120)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert out.stat().st_size > 1000


# --- 6. balance and bench ai: hostile flags, and killed mid-run ----------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["balance", "lesson-3-shot", "--games", "0"],
        ["balance", "lesson-3-shot", "--games", "-5"],
        ["balance", "lesson-3-shot", "--games", "100000000000000000000"],
        ["balance", "lesson-3-shot", "--workers", "-1"],
        ["balance", "lesson-3-shot", "--workers", "0"],
        ["balance", "lesson-3-shot", "--workers", "1000000"],
        ["bench", "ai", "--workers", "-1"],
        ["bench", "ai", "--workers", "1000000"],
        ["validate", "--balance", "--games", "0", "lesson-3-shot"],
    ],
    ids=lambda a: " ".join(a),
)
def test_hostile_counts_are_a_one_line_error_with_exit_code_2(capsys, args):
    """0 or negative games ended in a ZeroDivisionError (validate --balance) or started no
    game; --workers -1 a ValueError traceback, a huge --workers tried to start that many
    processes. Each is one line and exit 2 (the limits are in --help)."""
    from game.cli import main

    code = main(args)
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "expected 1-" in err, err


def test_the_limits_are_in_the_help(capsys):
    from game.cli import main

    for args in (["balance", "--help"], ["bench", "--help"]):
        with pytest.raises(SystemExit):
            main(args)
        out = " ".join(capsys.readouterr().out.split())
        assert "1-64" in out and (args[0] == "bench" or "1-10000" in out)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux: /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL"])
def test_balance_killed_mid_run_leaves_no_worker_and_no_traceback(how):
    """SIGTERM killed the command and left its workers playing on (orphans); Ctrl+C printed a
    traceback from each worker; SIGKILL of the command left its workers for good. Now
    SIGTERM and Ctrl+C (to the process group, as a terminal sends it) stop every worker and
    end in one line; after SIGKILL the workers see their parent gone and exit."""
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk"}
    args = ["balance", "tutorial-duel", "--games", "40", "--workers", "2", "--level", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    workers: list[int] = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline and len(workers) < 2:
            workers = _children(proc.pid)
            time.sleep(0.1)
        assert len(workers) == 2, "the workers never started"
        time.sleep(1.0)  # mid-game
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)  # Ctrl+C: the whole foreground group
        else:
            os.kill(proc.pid, getattr(signal, how))
        _, err = proc.communicate(timeout=60)
        if how == "SIGKILL":
            assert proc.returncode == -signal.SIGKILL
        else:
            assert proc.returncode == 128 + getattr(signal, how), err
            assert "Traceback" not in err
            last = err.strip().splitlines()[-1]
            assert last.startswith("hexfire balance: stopped") and how in last, err
        deadline = time.time() + 15
        while time.time() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "a worker outlived the command"
    finally:
        for pid in [proc.pid, *workers]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.wait()


def test_ctrl_c_outside_the_workers_is_one_line_too(capsys, monkeypatch):
    """bench ai's speed figures run in the command itself: Ctrl+C there printed a traceback."""
    import game.cli.ai as cli_ai
    from game.cli import main

    def interrupted(workers, quiet=False, **_):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_ai, "bench_ai", interrupted)
    assert main(["bench", "ai", "--workers", "1"]) == 130
    assert capsys.readouterr().err.strip() == "hexfire bench: stopped (SIGINT)"


def test_save_as_never_replaces_a_device_or_a_fifo(app, tmp_path):
    """A save written over /dev/null (or a FIFO) would replace it with a file (the atomic
    rename): the dialog never answers with one, and the play screen refuses it if asked."""
    from ui_driver import pick_file

    play = _duel(app, app.save_dir / "duel.json")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    key(app, pygame.K_s, "s", mod=pygame.KMOD_LCTRL)
    dialog = play.dialogs.file_dialog
    assert not dialog.choosable(fifo) and not dialog.choosable(type(fifo)("/dev/null"))
    pick_file(app, dialog, fifo)
    assert "not a regular file" in play.map.state.message
    assert fifo.is_fifo() and os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
