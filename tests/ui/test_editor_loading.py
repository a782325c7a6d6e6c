"""The editor opened from the start screen is built behind a loading screen (issue 44): its
document read, its map drawn and checked off the window's thread, which keeps drawing frames
(it built it all on the window's thread: 1.4 s on the four-board map at load 3, once 10.5 s
without a frame in the 20-minute soak)."""

from __future__ import annotations

import threading
import time

from game.ui.edit.screen import EditScene
from game.ui.edit.sketch import Sketch
from game.ui.scenes.loading import LoadingScene
from game.ui.scenes.routes import Edit, Push, Start
from game.ui.start.screen import StartScene

HELD_S = 3.0
"""How long the map's drawing waits for the test (the window's thread must not)."""


def _start(app) -> StartScene:
    app.go(Push(Start()))
    app.pump()
    start = app.scene
    assert isinstance(start, StartScene)
    return start


def test_the_window_draws_frames_while_the_editor_loads(app, monkeypatch):
    drawing, done = threading.Event(), threading.Event()
    on_window: list[bool] = []
    real = Sketch.__init__

    def held(self, doc) -> None:  # the map drawn slowly, until the test lets it go
        if not done.is_set():
            on_window.append(threading.current_thread() is threading.main_thread())
            drawing.set()
            done.wait(HELD_S)
        real(self, doc)

    monkeypatch.setattr(Sketch, "__init__", held)
    start = _start(app)
    t0 = time.perf_counter()
    start.pressed(start.edit_button)  # "Edit this scenario": a copy of the chosen one
    assert time.perf_counter() - t0 < HELD_S / 2  # the window's thread did not wait
    assert drawing.wait(HELD_S) and on_window == [False]
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    drawn = []
    real_draw = loading.draw
    monkeypatch.setattr(loading, "draw", lambda surface: (drawn.append(1), real_draw(surface)))
    for _ in range(5):  # the window's loop goes on: frames while the map is drawn
        app.frame(0.016)
    assert len(drawn) == 5 and not done.is_set()
    done.set()
    app.pump()
    editor = app.scene
    assert isinstance(editor, EditScene) and app.scenes[-2] is start
    assert editor.path == app.scenario_dir / start.scenarios[start.chosen][0].name
    assert editor.unsaved and editor.sketch.board.columns > 0  # the copy, drawn


def test_a_file_that_cannot_be_edited_says_why_over_the_start_screen(app):
    """The editor's refusal of a file (not TOML) comes back from the loading screen as before:
    the start screen, and a dialog that says why."""
    start = _start(app)
    broken = app.scenario_dir / "broken.toml"
    broken.parent.mkdir(parents=True, exist_ok=True)
    broken.write_text("title = = 1\n", encoding="utf-8")
    start.open_editor(Edit(broken))
    app.pump()
    assert app.scene is start
    titles = [str(w.window_display_title) for w in app.ui.get_window_stack().stack]
    assert "Cannot edit this scenario" in titles
