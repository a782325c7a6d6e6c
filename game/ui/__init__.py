"""The screen (pygame-ce, pygame-gui): the only layer that imports pygame. It turns clicks and
keys into the engine's actions through ``Game.apply`` and draws the engine's state, views,
legal actions, odds and events; it holds no rules of its own."""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
