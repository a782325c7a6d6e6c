"""Random clicks and keys (seeded) never crash the screen and never change the game except
through legal actions: the autosave, replayed, is the game on the screen."""

from __future__ import annotations

import random

import pygame
import pytest
from ui_driver import post

from game.files.replay import replay
from game.files.savegame import read_save
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.play.screen import PlayScene
from game.ui.screens import window

KEYS = [
    pygame.K_e,
    pygame.K_x,
    pygame.K_m,
    pygame.K_b,
    pygame.K_r,
    pygame.K_u,
    pygame.K_g,
    pygame.K_l,
    pygame.K_v,
    pygame.K_t,
    pygame.K_f,
    pygame.K_o,
    pygame.K_k,
    pygame.K_h,
    pygame.K_TAB,
    pygame.K_ESCAPE,
    pygame.K_SPACE,
    pygame.K_RETURN,
    pygame.K_COMMA,
    pygame.K_PERIOD,
    pygame.K_1,
    pygame.K_2,
    pygame.K_LEFT,
    pygame.K_RIGHT,
    pygame.K_UP,
    pygame.K_DOWN,
    pygame.K_PLUS,
    pygame.K_MINUS,
    pygame.K_F1,
    pygame.K_n,
    pygame.K_PAGEUP,
]


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def monkey(events: int, seed: int, tmp_path) -> int:
    """Post ``events`` random events; the number of actions they made the game apply."""
    app = window((1280, 800), tmp_path / "saves", headless=True)
    try:
        sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
        session = new_game(sc, seed, app.save_dir / "monkey.json")
        app.push(PlayScene(session, sc.title))
        rng = random.Random(seed)
        w, h = app.size
        for _ in range(events):
            kind = rng.random()
            pos = (rng.randrange(w), rng.randrange(h))
            if kind < 0.45:
                button = rng.choice((1, 1, 1, 3))
                post(
                    pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
                    pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
                    pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button),
                )
            elif kind < 0.6:
                post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0)))
            elif kind < 0.65:
                post(
                    pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False)
                )
            else:
                k = rng.choice(KEYS)
                name = pygame.key.name(k)
                post(
                    pygame.event.Event(
                        pygame.KEYDOWN,
                        key=k,
                        mod=0,
                        scancode=0,
                        unicode=name if len(name) == 1 else "",
                    )
                )
            app.pump()
            if not app.running:
                break
        saved = read_save(session.path)
        assert replay(saved).state_hash() == session.game.state_hash()
        return len(saved.actions)
    finally:
        pygame.display.quit()


def test_random_clicks_and_keys_never_crash_or_cheat(tmp_path):
    assert monkey(1500, 4, tmp_path) > 5  # the monkey played, it did not only knock


@pytest.mark.long
def test_random_clicks_and_keys_long(tmp_path):
    for seed in range(5):
        monkey(10_000, seed, tmp_path / str(seed))
