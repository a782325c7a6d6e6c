"""The row of buttons under the map, for the play screen and the replay viewer: spaced to fit
the bar (narrower in a small window, so that none runs under the side panel), each with its
tooltip, and a short label when the buttons are narrow."""

from __future__ import annotations

from collections.abc import Sequence

import pygame
import pygame_gui

SHORT_BELOW = 100
"""Buttons narrower than this (in pixels) show their short label, when they have one."""


def button_step(width: int, count: int, most: int) -> int:
    """The spacing of ``count`` buttons in a row ``width`` pixels wide: ``most`` when they fit,
    narrower in a small window."""
    return max(40, min(most, (width - 6) // count))


def button_row(
    ui: pygame_gui.UIManager,
    bar: pygame.Rect,
    specs: Sequence[tuple[str, str, str, str | None]],
    most: int,
    height: int,
) -> dict[str, pygame_gui.elements.UIButton]:
    """One button a spec ``(key, label, tooltip, short label or None)``, left to right along
    ``bar``; by key."""
    x, step = 6, button_step(bar.width, len(specs), most)
    buttons = {}
    for key, text, tip, short in specs:
        buttons[key] = pygame_gui.elements.UIButton(
            pygame.Rect(x, bar.top + 4, step - 4, height),
            short if short and step < SHORT_BELOW else text,
            ui,
            tool_tip_text=tip,
        )
        x += step
    return buttons
