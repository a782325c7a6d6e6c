"""A loading screen taken off before its work finished (issue 44, item 7): the work stops at
its next step and what it made is let go; a game built meanwhile is closed, its lock given
back. A 200 x 200 game built for a screen that had closed held some 300 MiB on a thread that
nothing waited for (``hexfire bench soak``)."""

from __future__ import annotations

import threading

from game.files.lock import lock_path
from game.files.scenario import load_scenario
from game.files.shipped import scenarios_dir
from game.ui.scenes import opening
from game.ui.scenes.loading import LoadingScene
from game.ui.scenes.routes import Cancelled, Opening, Push, Start


def test_the_work_of_a_closed_loading_screen_stops_at_its_next_step(app):
    started, go_on = threading.Event(), threading.Event()
    steps: list[int] = []
    stopped: list[BaseException] = []

    def work(progress):
        progress.now("Replaying the game, every roll checked")
        started.set()
        assert go_on.wait(10)
        try:
            for i in range(1000):
                progress.step(i, 1000)
                steps.append(i)
        except Cancelled as e:
            stopped.append(e)
            raise
        return Push(Start())

    app.go(Push(Opening("A long game", work)))
    loading = app.scene
    assert isinstance(loading, LoadingScene) and started.wait(10)
    app.close_all()  # (the window went to another screen)
    go_on.set()
    assert loading.worker is not None
    loading.worker.join(10)
    assert not loading.worker.is_alive()
    assert stopped and not steps and loading.result is None


def test_a_game_built_for_a_closed_loading_screen_is_closed(app, monkeypatch):
    loading, built = _closed_while_building(app, monkeypatch)
    (session,) = built
    assert session.lock is None and not lock_path(session.path).exists()  # given back
    assert loading.result is None and loading.error is None


def _slowed(monkeypatch, go_on: threading.Event) -> list:
    built: list = []
    real = opening.new_game

    def slow(*args, **kwargs):
        assert go_on.wait(10)
        session = real(*args, **kwargs)
        built.append(session)
        return session

    monkeypatch.setattr(opening, "new_game", slow)
    return built


def _closed_while_building(app, monkeypatch) -> tuple[LoadingScene, list]:
    """A new duel whose loading screen is closed while its game is being built; the work
    then finishes: (the closed loading screen, the sessions it built)."""
    go_on = threading.Event()
    built = _slowed(monkeypatch, go_on)
    opening.start_scenario(app, load_scenario(scenarios_dir() / "tutorial-duel.toml"), seed=1)
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    app.close_all()
    go_on.set()
    assert loading.worker is not None
    loading.worker.join(30)
    return loading, built


def test_a_new_game_whose_loading_screen_closed_leaves_no_autosave(app, monkeypatch):
    """A game never shown is no game to resume: its autosave (written when it was built) goes
    with it, or the start screen's Resume offers a game nobody played."""
    loading, built = _closed_while_building(app, monkeypatch)
    assert built and not built[0].path.exists()
    assert list(app.save_dir.glob("*")) == []


def test_a_new_game_built_before_its_loading_screen_closed_is_let_go(app, monkeypatch):
    """The work had finished and the screen closed before the window took its result: the
    game it built is closed (its lock given back) and its autosave removed."""
    go_on = threading.Event()
    go_on.set()
    built = _slowed(monkeypatch, go_on)
    opening.start_scenario(app, load_scenario(scenarios_dir() / "tutorial-duel.toml"), seed=1)
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    assert loading.finished.wait(30)  # done, not yet taken (no frame since)
    app.close_all()
    (session,) = built
    assert session.lock is None and not lock_path(session.path).exists()
    assert list(app.save_dir.glob("*")) == []


def test_a_loaded_copy_whose_loading_screen_closed_leaves_no_file(app, tmp_path):
    """Load plays a save on in a new autosave: a copy never shown is removed with its screen;
    the loaded file stays."""
    from game.files.session import new_game

    source = tmp_path / "game.json"
    new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, source).close()
    opening.open_path(app, source, in_place=False)
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    assert loading.finished.wait(30)
    app.close_all()
    assert source.exists() and list(app.save_dir.glob("*")) == []
