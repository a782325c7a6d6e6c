"""The window under its second attack (issue 44): a SIGTERM while saves fail, a damaged
view centre in the preferences, a game open in another window named on the command line,
the replay viewer's Play on a long save, the computer's long decisions, and what random input
kept in memory. None of these may crash the window, stall it or lose an action."""

from __future__ import annotations

import json
import math

import pygame
import pytest
from ui_driver import click_widget

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.map.geometry import map_extent
from game.ui.play.screen import PlayScene
from game.ui.prefs import Prefs
from game.ui.scenes.opening import close_sessions, open_path


def _duel_save(app):
    app.save_dir.mkdir(parents=True, exist_ok=True)
    path = app.save_dir / "duel.json"
    new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path).close()
    return path


def _play(app) -> PlayScene:
    return next(s for s in app.scenes if isinstance(s, PlayScene))


# --- 3. a view centre of 1e308 in prefs.json ------------------------------------------------


@pytest.mark.parametrize(
    "center",
    ["[1e308, 1e308]", "[-1e308, 5]", "[1" + "0" * 400 + ", 0]", "[NaN, 0]", "[0, -Infinity]"],
    ids=["1e308", "-1e308", "a 401-digit integer", "NaN", "-Infinity"],
)
def test_a_huge_or_non_finite_view_centre_in_the_preferences_opens_the_game(app, data_dir, center):
    """A saved view centre of 1e308 crashed every Resume of that save (OverflowError drawing
    the map; a 401-digit integer crashed reading the preferences). Such a view is dropped
    when the file is read; the game opens, its map on screen."""
    path = _duel_save(app)
    data_dir.mkdir(parents=True, exist_ok=True)
    view = f'{{"zoom": 31, "center": {center}, "viewer": null, "selected": null}}'
    key = json.dumps(str(path.resolve()))
    (data_dir / "hexfire" / "prefs.json").parent.mkdir(parents=True, exist_ok=True)
    (data_dir / "hexfire" / "prefs.json").write_text(f'{{"views": {{{key}: {view}}}}}')
    app.prefs = Prefs.load()
    assert app.prefs.view_of(path) is None  # dropped when read
    open_path(app, path, in_place=True)
    app.pump([])
    _map_on_screen(_play(app))
    close_sessions(app)


def _map_on_screen(play: PlayScene) -> None:
    board = play.table.board
    x0, y0, x1, y1 = map_extent(board.columns, board.rows)
    x, y = play.map.camera.screen_to_world(*play.map.rect.center)
    assert math.isfinite(x) and math.isfinite(y)
    assert x0 <= x <= x1 and y0 <= y <= y1, (x, y)


def test_a_view_centre_off_the_map_is_brought_back_onto_it(app):
    """Whatever view a window kept (the preferences written by another version, a centre far
    off the map), Resume opens with the map's centre within the map, at one of the zooms."""
    path = _duel_save(app)
    app.prefs.views[str(path.resolve())] = {
        "zoom": 7,
        "center": [1e308, -1e308],
        "viewer": None,
        "selected": None,
    }
    open_path(app, path, in_place=True)
    app.pump([])
    play = _play(app)
    _map_on_screen(play)
    assert play.map.camera.zoom == 10  # the nearest zoom level
    close_sessions(app)


# --- found by the soak: the fire map of an enemy selected in the replay viewer ------------


def test_the_fire_map_with_an_enemy_selected_in_one_sides_view_of_a_replay(app):
    """The replay viewer, one side's view (Tab), an enemy unit selected and the fire map on
    (f): drawing it raised IllegalAction ("not a german unit") out of the window."""
    from game.files.savegame import read_save
    from game.files.shipped import shipped_saves
    from game.files.timeline import Timeline
    from game.ui.scenes.routes import Push, Watch

    save = next(p for p in shipped_saves() if p.stem == "tutorial-duel-played")
    timeline = Timeline(read_save(save), str(save))
    app.go(Push(Watch(timeline, "duel", at=timeline.length // 2)))
    scene = app.scene
    scene.command("side")  # the first side's view
    viewer = scene.viewer
    enemy = next(u for u in scene.map.units() if u["side"] != viewer and u.get("type") != "?")
    scene.map.state.selected = enemy["id"]
    scene.map.analysis.overlay = "fire"
    app.pump([])
    assert app.scene is scene


# --- 4. a save named on the command line, taken by another window meanwhile ----------------

HOLD = """
import sys, time
from pathlib import Path
from game.files.lock import acquire_lock
acquire_lock(Path(sys.argv[1]))
print("open", flush=True)
time.sleep(60)
"""


def test_a_save_from_the_command_line_locked_meanwhile_ends_with_its_reason(app):
    """The command line checks the lock before the window opens; a window that takes the
    game between that and the replay ends this one with the reason (the command prints it),
    not with a question over no screen (the window closed at once, exit 0)."""
    import os
    import subprocess
    import sys

    from game.files.lock import SaveLocked

    path = _duel_save(app)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    errors: list[Exception] = []
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        open_path(app, path, in_place=True, failed=errors.append, offer_copy=False)
        app.pump([])
    finally:
        other.kill()
        other.wait()
    assert len(errors) == 1 and isinstance(errors[0], SaveLocked) and not app.questions


# --- 1. SIGTERM while saves fail -----------------------------------------------------------


@pytest.fixture
def sigterm():
    """What installs the window's SIGTERM handler; the previous handler put back after."""
    import signal

    from game.ui.main import stop_on_sigterm

    previous = signal.getsignal(signal.SIGTERM)
    yield stop_on_sigterm
    signal.signal(signal.SIGTERM, previous)


def test_sigterm_while_saves_fail_asks_and_keeps_the_unsaved_actions(app, monkeypatch, sigterm):
    """SIGTERM closed the game at once while saves were failing (a full disk): the actions
    since the last good save were lost. It closes as closing the window does: the save is
    tried again; still failing, the question is asked and the window stays; a second SIGTERM
    while it is open closes anyway. With room on the disk again, SIGTERM saves and closes."""
    import os
    import signal

    import game.files.session as session_module
    from game.engine.actions import Place
    from game.files.savegame import SaveError, read_save
    from game.ui.scenes.routes import Play, Push

    path = app.save_dir / "duel.json"
    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scene
    assert isinstance(play, PlayScene)

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device; the previous save is kept")

    monkeypatch.setattr(session_module, "save", full_disk)
    unit = next(u for u in play.map.units() if u["id"] in play.session.game.placeable())
    for turn in (1, 2):  # two actions, neither saved
        assert play.apply(Place(unit["id"], unit["hex"], (unit["facing"] + turn) % 6))
    assert play.session.save_error
    sigterm(app)

    os.kill(os.getpid(), signal.SIGTERM)
    app.pump()
    assert app.running, "SIGTERM closed the window with 2 actions unsaved"
    assert play.dialogs.closing is not None
    assert "not saved" in play.dialogs.closing.confirmation_text.html_text
    click_widget(app, play.dialogs.closing.cancel_button)
    assert app.running and play.dialogs.closing is None

    monkeypatch.undo()  # room on the disk again
    os.kill(os.getpid(), signal.SIGTERM)
    app.pump()
    assert not app.running and play.session.save_error is None
    assert len(read_save(path).actions) == len(play.session.saved_actions) == 2


def test_a_second_sigterm_while_asking_closes_anyway(app, monkeypatch, sigterm):
    import os
    import signal

    import game.files.session as session_module
    from game.engine.actions import Place
    from game.files.savegame import SaveError
    from game.ui.scenes.routes import Play, Push

    session = new_game(
        load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, app.save_dir / "d.json"
    )
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scene

    def full_disk(saved, path):
        raise SaveError(f"{path}: cannot save: No space left on device")

    monkeypatch.setattr(session_module, "save", full_disk)
    unit = next(u for u in play.map.units() if u["id"] in play.session.game.placeable())
    assert play.apply(Place(unit["id"], unit["hex"], (unit["facing"] + 1) % 6))
    sigterm(app)
    os.kill(os.getpid(), signal.SIGTERM)
    app.pump()
    assert app.running and play.dialogs.closing is not None
    os.kill(os.getpid(), signal.SIGTERM)
    app.pump()
    assert not app.running


# --- 6. the replay viewer's Play on a long save ----------------------------------------------


def _calls_in_game(fn) -> int:
    """How many functions of the game's own code ``fn`` calls (pygame-gui's text layout,
    the same at any action, left out): the work a step does, counted, not timed."""
    import os
    import sys

    import game

    root = os.path.dirname(game.__file__)
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call" and frame.f_code.co_filename.startswith(root):
            count += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count


@pytest.fixture
def long_replay(app, tmp_path):
    """The replay viewer on a 6,000-action save (a set-up counter placed back and forth)."""
    from game.files.bench import limit_save
    from game.files.savegame import read_save
    from game.files.timeline import Timeline
    from game.ui.scenes.routes import Push, Watch

    path = tmp_path / "long.json"
    limit_save(path, 6_000)
    timeline = Timeline(read_save(path), str(path))
    app.go(Push(Watch(timeline, "long", at=0)))
    return app.scene


def test_a_replay_step_costs_the_same_at_any_action_of_a_long_save(app, long_replay):
    """Each step read every event up to the action shown to write the log: its cost grew
    with the action (80 ms a step at action 2,000 of a 20,000-action save, 117 ms at its
    end, far more on 200,000), and Play spiralled. A step (and its frame) at the end of the
    save does the same work as one near its start."""
    scene = long_replay

    def step_at(n: int) -> int:
        scene.seek(n)
        app.frame(0.016)

        def one() -> None:
            scene.seek(scene.at + 1)
            app.frame(0.016)

        return _calls_in_game(one)

    early, late = step_at(300), step_at(5_900)
    assert late <= 1.5 * early + 200, (early, late)


def test_play_never_catches_up_more_than_a_few_actions_in_one_frame(app, long_replay):
    """A frame that came late (the machine busy, a slow step) made Play step every action
    due since (3 s at 16 a second: 48 steps), which made the next frame later still (frames
    of 1.2, 4.3, 13.7 s). A frame steps a few at most and drops the rest."""
    from game.ui.replay.viewer import SPEEDS

    scene = long_replay
    scene.speed = len(SPEEDS) - 1
    scene.command("play")
    at = scene.at
    scene.update(3.0)
    first = scene.at - at
    assert 1 <= first <= 8, f"{first} actions stepped in one frame"
    for _ in range(3):  # the next frames: the one action due, not those left behind
        scene.update(0.0)
    assert scene.at - at == first + 1


# --- 6. the computer deciding for seconds --------------------------------------------------


def test_the_window_answers_while_the_computer_decides(app, monkeypatch):
    """Level 3's decision froze the window for up to 3 s (it was made in a frame). It is made
    on a thread of its own: frames are drawn and input handled while it thinks (here a
    decision held until the test lets it go), and the action is taken once decided."""
    import threading

    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    first = sc.setup.sides[0]  # the computer sets up first
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": first, "level": 3})
    play = PlayScene(session, sc.title)
    play.computer_pause = 0.0
    computer = play.session.computer
    assert computer is not None and play.computer_acts()
    thinking, release = threading.Event(), threading.Event()
    real = computer.choose

    def slow(table):
        thinking.set()
        release.wait(10)  # seconds of thought, until the test says
        return real(table)

    monkeypatch.setattr(computer, "choose", slow)
    app.push(play)
    actions = len(play.session.saved_actions)
    for _ in range(3):
        app.frame(0.016)  # each frame comes back while the computer thinks
    assert thinking.is_set() and not release.is_set()
    assert "is thinking" in play.map.state.message
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=(400, 300), rel=(1, 1), buttons=(0, 0, 0))
    )
    for event in pygame.event.get():
        app.handle(event)
    app.frame(0.016)
    assert play.map.state.mouse == (400, 300), "the window did not answer"
    assert len(play.session.saved_actions) == actions and play.thought is not None
    release.set()
    app.pump([])
    assert len(play.session.saved_actions) == actions + 1  # its action, taken once decided


def test_a_decision_made_for_a_game_that_changed_meanwhile_is_not_taken(app, monkeypatch):
    """The game changed while the computer thought (its last action taken back): what it
    decided for the game before is dropped and it decides again."""
    from game.session import ComputerChoice

    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    session = new_game(sc, 3, app.save_dir / "vs.json", {"side": sc.setup.sides[0], "level": 1})
    play = PlayScene(session, sc.title)
    app.push(play)
    choice = play.session.computer_decide()
    play.session._changed()  # as an undo does
    assert isinstance(choice, ComputerChoice)
    assert play.session.computer_take(choice, play.viewer) is None
    assert play.session.saved_actions == []


# --- 7. what a storm of input kept in memory ---------------------------------------------


def _shadow_bytes(app) -> int:
    kept = app.ui.get_theme().get_shadow_generator().short_term_rect_cache
    return sum(s.get_width() * s.get_height() * s.get_bytesize() for s in kept.values())


def test_a_storm_of_window_resizes_keeps_pygame_guis_shadows_bounded(app):
    """Each resize rebuilds the widgets at new sizes, and pygame-gui keeps a shadow picture
    for each size for 10 s of frames: a storm (events come faster than frames) piled them up,
    182 MB after 500 resizes (a 100,000-event storm grew the window by 590 MB). They stay
    within MAX_SHADOW_BYTES however many come between two frames."""
    import random

    from game.ui.scenes.routes import Play, Push
    from game.ui.scenes.stack import MAX_SHADOW_BYTES

    session = new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, None)
    app.go(Push(Play(session, "duel", viewer=session.game.to_act)))
    play = app.scene
    rng = random.Random(44)
    most = 0
    for _ in range(80):  # no frame in between: the storm comes faster
        w, h = rng.randrange(960, 1700), rng.randrange(640, 1100)
        app.handle(pygame.event.Event(pygame.VIDEORESIZE, w=w, h=h, size=(w, h)))
        most = max(most, _shadow_bytes(app))
    app.frame(0.016)
    assert most <= MAX_SHADOW_BYTES, f"{most / 2**20:.0f} MiB of shadows kept"
    assert app.scene is play and play.map.rect.right <= app.size[0]  # laid out at the last


def test_the_texts_kept_stay_within_their_memory_however_many_change(app):
    """The map's rendered texts were kept by their words, 4,096 of them whatever their size:
    sentences that keep changing (a refusal naming two hexes, a hovered unit's description)
    filled them with some 35 MiB in a soak, and long ones could hold far more. The least
    recently drawn go once they hold MAX_TEXT_BYTES; the ones drawn every frame stay."""
    from game.ui.map.render import MAX_TEXT_BYTES, Fonts

    fonts = Fonts()
    name = fonts.text("T-34/76", 18, (255, 255, 255))
    for i in range(3000):  # a new sentence each time, a counter's name drawn in between
        fonts.text(f"Cannot fire: no LOS from {i}A to {i}B (the hindrance adds {i})", 18, (0, 0, 0))
        assert fonts.text("T-34/76", 18, (255, 255, 255)) is name
    kept = fonts._texts.values()
    held = sum(s.get_width() * s.get_height() * s.get_bytesize() for s in kept)
    assert held <= MAX_TEXT_BYTES, f"{held / 2**20:.0f} MiB of texts kept"
