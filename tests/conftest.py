"""Shared test fixtures: the screen's tests run headless, with their own data folder."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "disk")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """Preferences and saves in a folder of the test's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def app(tmp_path, data_dir):
    """A headless game window."""
    import pygame

    from game.ui.screens import window

    window = window((1280, 800), tmp_path / "saves", headless=True)
    yield window
    pygame.display.quit()
