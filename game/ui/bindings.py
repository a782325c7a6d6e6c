"""Bindings as data: every key and mouse binding is a row of ``data/bindings.toml``. The input
handling asks :func:`action_for` which action a key press means on a screen; the help screen
shows :func:`help_rows`; ``tools/docs/controls.py`` writes the README's controls table from the
same rows (a test holds the README to it)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

import pygame

SCREENS = ("play", "replay", "map", "edit")
"""Where a binding holds: the play screen, the replay viewer, the map on every screen, or the
scenario editor."""


@dataclass(frozen=True)
class Binding:
    """One row: the action on a screen, its keys, and how the help names it (the rows with no
    label share the label of the row before: "`,` and `.`" for both turns)."""

    screen: str
    action: str | None
    keys: tuple[str, ...]
    label: str | None
    help: str | None


@cache
def bindings() -> tuple[Binding, ...]:
    """The table, checked: a known screen, a help text with every label."""
    text = resources.files("game.ui").joinpath("data/bindings.toml").read_text(encoding="utf-8")
    rows = []
    for i, row in enumerate(tomllib.loads(text)["binding"]):
        b = Binding(
            row["screen"],
            row.get("action"),
            tuple(row.get("keys", ())),
            row.get("label"),
            row.get("help"),
        )
        if b.screen not in SCREENS or (b.label is None) != (b.help is None):
            raise ValueError(f"data/bindings.toml: binding[{i}]: bad screen or label/help")
        if b.action is None and (b.keys or b.label is None):
            raise ValueError(f"data/bindings.toml: binding[{i}]: keys without an action")
        rows.append(b)
    return tuple(rows)


def _matches(spec: str, event: pygame.event.Event) -> bool:
    """Whether a key press is the key ``spec`` names ("ctrl+z", "page up", "?")."""
    ctrl = bool(event.mod & pygame.KMOD_CTRL)
    wants_ctrl = spec.startswith("ctrl+")
    name = spec.removeprefix("ctrl+")
    if ctrl != wants_ctrl:
        return False
    if len(name) == 1 and not name.isalnum():  # punctuation: as typed, whatever the layout
        return getattr(event, "unicode", "") == name or event.key == _code(name)
    return event.key == _code(name)


@cache
def _code(name: str) -> int:
    return pygame.key.key_code(name)


def action_for(event: pygame.event.Event, screen: str) -> str | None:
    """The action a KEYDOWN means on ``screen`` ("play" or "replay"): that screen's own rows
    first, then the map's."""
    for where in (screen, "map"):
        for b in bindings():
            if b.screen == where and b.action and any(_matches(k, event) for k in b.keys):
                return b.action
    return None


def help_rows(screen: str | None = None) -> list[tuple[str, str]]:
    """(keys, what it does) for the help screen and the README, in the table's order; only
    ``screen``'s and the map's rows when a screen is given."""
    return [
        (b.label, b.help)
        for b in bindings()
        if b.label and b.help and (screen is None or b.screen in (screen, "map"))
    ]
