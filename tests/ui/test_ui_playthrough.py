"""Every shipped scenario played to its end through posted mouse and key events only (a driver
that picks legal actions and clicks them), then its autosave replayed: the same final state."""

from __future__ import annotations

import random

import pygame
import pytest
from ui_driver import clear_overlays, perform, random_gesture

from game.files.replay import replay
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import shipped_scenarios
from game.ui.overlays.scenes import EndScene
from game.ui.play.screen import PlayScene
from game.ui.screens import window

LIMIT = 3000


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


QUICK = ("tutorial-duel", "hedgerow-chart")
"""The small scenarios, played in the default run; the large ones (each 15-75 s) are marked
``playthrough``: CI runs them (``python3 -m pytest -m playthrough``)."""


@pytest.mark.parametrize(
    "path",
    [
        p
        if p.stem in QUICK or p.stem.startswith("lesson-")
        else pytest.param(p, marks=pytest.mark.playthrough)
        for p in shipped_scenarios()
    ],
    ids=lambda p: p.stem,
)
def test_each_shipped_scenario_played_to_the_end_by_events(path, tmp_path):
    app = window((1280, 800), tmp_path / "saves", headless=True)
    try:
        sc = load_scenario(path)
        session = new_game(sc, 11, app.save_dir / "game.json")
        play = PlayScene(session, sc.title)
        app.push(play)
        app.pump([])
        rng = random.Random(11)
        for _ in range(LIMIT):
            clear_overlays(app, play)
            if isinstance(app.scene, EndScene):
                break
            game = play.session.game
            action = random_gesture(app, play, rng)
            before = game.actions_applied
            perform(app, play, action)
            # the action, and any phase with nothing to do after it (HX-15)
            assert play.session.game.actions_applied >= before + 1, (action, play.map.state.message)
        assert play.session.game.over and isinstance(app.scene, EndScene)
        saved = read_save(session.path)
        assert replay(saved).state_hash() == play.session.game.state_hash()
    finally:
        pygame.display.quit()
