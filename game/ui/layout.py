"""The map screens' layout (the play screen and the replay viewer share it): the phase bar on
top, the map, the button bar and the log under it, the side panel on the right."""

from __future__ import annotations

import pygame

BAR_H = 46
SIDE_W = 380
LOG_H = 150
BUTTONS_H = 38


def screen_rects(size: tuple[int, int]) -> dict[str, pygame.Rect]:
    """The rectangles of a map screen in a window of ``size``."""
    w, h = size
    return {
        "bar": pygame.Rect(0, 0, w, BAR_H),
        "map": pygame.Rect(0, BAR_H, w - SIDE_W, h - BAR_H - LOG_H - BUTTONS_H),
        "buttons": pygame.Rect(0, h - LOG_H - BUTTONS_H, w - SIDE_W, BUTTONS_H),
        "log": pygame.Rect(0, h - LOG_H, w - SIDE_W, LOG_H),
        "side": pygame.Rect(w - SIDE_W, BAR_H, SIDE_W, h - BAR_H),
    }
