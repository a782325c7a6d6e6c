"""A saved game as a timeline, for the replay viewer: the game after any number of actions,
found quickly from snapshots kept every ``every`` actions (a seek replays at most that many);
the events of each action; where each player turn begins; and, for a save that does not
verify, where it stops and why (the viewer opens it up to the last good action)."""

from __future__ import annotations

import copy
from collections.abc import Callable

from game.engine import Game
from game.engine.actions import action_from_json
from game.engine.events import Event

from .replay import ReplayError, apply_checked, migrate, shown_side
from .savegame import SavedGame

SNAPSHOT_EVERY = 100
MAX_SNAPSHOTS = 48
"""The most snapshots a timeline keeps, whatever the game's length: past it, every other one
is dropped and the spacing doubles (a 200,000-action save keeps 48 snapshots 6,400 actions
apart instead of 2,000 of them, some 8-12 MB each on the 200 x 200 map; a jump then replays at
most the spacing)."""


class Timeline:
    """Every state of a saved game, each action's events and the player turns' starts."""

    def __init__(
        self,
        saved: SavedGame,
        name: str = "<save>",
        every: int = SNAPSHOT_EVERY,
        max_snapshots: int = MAX_SNAPSHOTS,
        progress: Callable[[int, int], None] | None = None,
    ):
        """``progress(done, total)`` is told how far the replay has got (a long save takes
        seconds: the window shows it)."""
        parted = None if saved.current else migrate(saved, name)
        self.saved = saved
        self.every = every
        self.events: list[list[Event]] = []
        """The events of action i (0-based)."""
        self.turn_starts: list[tuple[int, int, str]] = []
        """(actions applied, game turn, phasing side) where each player turn's Rally begins."""
        self.error: str | None = None
        """Why the save stops verifying (the actions after it are not shown)."""
        game = Game(saved.scenario().setup, saved.seed)
        self._snapshots: list[Game] = [self._snapshot(game)]
        if progress is not None:  # the game is built: the actions next
            progress(0, len(saved.actions))
        for i, entry in enumerate(saved.actions):
            if parted is not None and i == parted.index:
                self.error = str(parted)
                break
            try:
                events = apply_checked(game, i, entry, name)
            except ReplayError as e:
                self.error = str(e)
                break
            self.events.append(events)
            if progress is not None and i % 25 == 0:
                progress(i + 1, len(saved.actions))
            for event in events:
                if event.kind == "phase" and event.data.get("phase") == "rally":
                    self.turn_starts.append((i + 1, event.data["turn"], event.data["side"]))
            if (i + 1) % self.every == 0:
                self._snapshots.append(self._snapshot(game))
                if len(self._snapshots) > max_snapshots:  # keep memory bounded
                    self._snapshots = self._snapshots[::2]
                    self.every *= 2
        self.length = len(self.events)
        """How many actions verified (the viewer's last position)."""
        self.only = shown_side(saved, game)
        """The one side the viewer may show (a game against the computer not over: the
        player's, RD-11), or None: both and each."""

    @staticmethod
    def _snapshot(game: Game) -> Game:
        history, game.state.history = game.state.history, []
        try:
            return copy.deepcopy(game)
        finally:
            game.state.history = history

    def game_at(self, n: int) -> Game:
        """A fresh game after the first ``n`` actions (0 .. length)."""
        n = max(0, min(n, self.length))
        k = min(n // self.every, len(self._snapshots) - 1)
        game = self._snapshot(self._snapshots[k])
        for entry in self.saved.actions[k * self.every : n]:
            game.apply(action_from_json(entry["action"]))
        return game
