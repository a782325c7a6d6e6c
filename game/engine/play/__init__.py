"""The rule systems in play, one module each, as functions over :class:`GameState`.

Each action handler has one shape: ``handler(state, action) -> Commit``. It checks the action
(raising :class:`IllegalAction` with the player-readable reason, changing nothing) and returns
the closure that changes the state and returns the events (validate, then commit)."""

from __future__ import annotations

from collections.abc import Callable

from game.engine.events import Event

Commit = Callable[[], list[Event]]
"""The change an accepted action makes; returns its events."""

__all__ = ["Commit"]
