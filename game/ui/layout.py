"""The map screens' layout (the play screen and the replay viewer share it): the phase bar on
top, the map, the button bar and the log under it, the side panel on the right."""

from __future__ import annotations

import pygame

BAR_H = 46
SIDE_W = 380
LOG_H = 150
BUTTONS_H = 38


LESSON_H = 132
"""The lesson card's strip over the map (a lesson's play screen)."""
LESSON_DONE_H = 40
"""The strip of a lesson done (one line: it kept 132 pixels of the map for the whole duel)."""


def screen_rects(size: tuple[int, int], lesson: bool | int = False) -> dict[str, pygame.Rect]:
    """The rectangles of a map screen in a window of ``size``; with ``lesson``, a strip for
    the lesson card between the phase bar and the map (the card never covers a hex): True,
    the card's full height, or the height in pixels."""
    w, h = size
    card = (LESSON_H if lesson is True else int(lesson)) if lesson else 0
    return {
        "bar": pygame.Rect(0, 0, w, BAR_H),
        "lesson": pygame.Rect(0, BAR_H, w - SIDE_W, card),
        "map": pygame.Rect(0, BAR_H + card, w - SIDE_W, h - BAR_H - LOG_H - BUTTONS_H - card),
        "buttons": pygame.Rect(0, h - LOG_H - BUTTONS_H, w - SIDE_W, BUTTONS_H),
        "log": pygame.Rect(0, h - LOG_H, w - SIDE_W, LOG_H),
        "side": pygame.Rect(w - SIDE_W, BAR_H, SIDE_W, h - BAR_H),
    }


def clear_corner(
    area: pygame.Rect,
    size: tuple[int, int],
    keep_clear: list[tuple[float, float]],
    margin: int,
    order: tuple[str, ...],
    inset: int,
) -> pygame.Rect:
    """A box of ``size`` in the first corner of ``area`` (in ``order``: "top left", "top
    right", "bottom left", "bottom right"; ``inset`` pixels in) with none of the points
    ``keep_clear`` within ``margin`` of it; the first corner when every one has some."""
    w, h = size
    at = {
        "top left": (area.left + inset, area.top + inset),
        "top right": (area.right - w - inset, area.top + inset),
        "bottom left": (area.left + inset, area.bottom - h - inset),
        "bottom right": (area.right - w - inset, area.bottom - h - inset),
    }
    boxes = [pygame.Rect(*at[name], w, h) for name in order]
    for box in boxes:
        near = box.inflate(margin, margin)
        if not any(near.collidepoint(p) for p in keep_clear):
            return box
    return boxes[0]
