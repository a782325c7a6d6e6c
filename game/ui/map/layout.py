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
    rather_clear: list[tuple[float, float]] | None = None,
) -> pygame.Rect:
    """A box of ``size`` in the first corner of ``area`` (in ``order``: "top left", "top
    right", "bottom left", "bottom right"; ``inset`` pixels in) with none of the points
    ``keep_clear`` within ``margin`` of it, and the fewest of ``rather_clear``; when every
    corner has some, the one with the fewest (the first of equals)."""
    w, h = size
    at = {
        "top left": (area.left + inset, area.top + inset),
        "top right": (area.right - w - inset, area.top + inset),
        "bottom left": (area.left + inset, area.bottom - h - inset),
        "bottom right": (area.right - w - inset, area.bottom - h - inset),
    }
    boxes = [pygame.Rect(*at[name], w, h) for name in order]

    def covered(box: pygame.Rect) -> tuple[int, int]:
        near = box.inflate(margin, margin)
        return (
            sum(1 for p in keep_clear if near.collidepoint(p)),
            sum(1 for p in rather_clear or [] if near.collidepoint(p)),
        )

    return min(boxes, key=covered)  # min keeps the first of equals


def counter_box(center: tuple[float, float], zoom: float) -> pygame.Rect:
    """The square a counter of ``zoom`` covers around its hex's centre (its name included)."""
    size = int(zoom * 1.15)
    return pygame.Rect(int(center[0] - size / 2), int(center[1] - size / 2), size, size)


def clear_spot(
    area: pygame.Rect,
    size: tuple[int, int],
    centres: list[tuple[float, float]],
    avoid: list[pygame.Rect],
) -> pygame.Rect:
    """A box of ``size`` centred on the first of ``centres`` (kept inside ``area``) that
    covers the fewest of the ``avoid`` boxes (counters and their names): a label by a line of
    fire or an LOS thread sits beside the counters, not over them (issue 38)."""
    best: pygame.Rect | None = None
    best_covered = len(avoid) + 1
    for centre in centres:
        box = pygame.Rect(0, 0, *size)
        box.center = (int(centre[0]), int(centre[1]))
        if box.width <= area.width and box.height <= area.height:
            box.clamp_ip(area)
        covered = sum(1 for a in avoid if box.colliderect(a))
        if covered < best_covered:
            best, best_covered = box, covered
            if covered == 0:
                break
    assert best is not None, "clear_spot needs at least one centre"
    return best


def along(
    a: tuple[float, float], b: tuple[float, float], zoom: float, size: tuple[int, int]
) -> list[tuple[float, float]]:
    """Centres for a label of ``size`` by the line from ``a`` to ``b``: its middle first, then
    beside the line (its edge half a hex and more away, on either side), then nearer each end."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    nx, ny = -dy / length, dx / length  # the normal: beside the line
    if ny > 0:
        nx, ny = -nx, -ny  # "beside" tries above the line first
    half = abs(nx) * size[0] / 2 + abs(ny) * size[1] / 2  # the label's reach along the normal
    out = []
    for t in (0.5, 0.35, 0.65, 0.2, 0.8, 0.0, 1.0):
        mx, my = a[0] + dx * t, a[1] + dy * t
        out.append((mx, my))
        for k in (0.7, 1.4, 2.1):
            for sign in (1, -1):
                off = sign * (k * zoom + half)
                out.append((mx + nx * off, my + ny * off))
    return out
