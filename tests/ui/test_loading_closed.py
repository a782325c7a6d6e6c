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
    built, go_on = [], threading.Event()
    real = opening.new_game

    def slow(*args, **kwargs):
        assert go_on.wait(10)
        session = real(*args, **kwargs)
        built.append(session)
        return session

    monkeypatch.setattr(opening, "new_game", slow)
    opening.start_scenario(app, load_scenario(scenarios_dir() / "tutorial-duel.toml"), seed=1)
    loading = app.scene
    assert isinstance(loading, LoadingScene)
    app.close_all()
    go_on.set()
    assert loading.worker is not None
    loading.worker.join(30)
    (session,) = built
    assert session.lock is None and not lock_path(session.path).exists()  # given back
    assert loading.result is None and loading.error is None
