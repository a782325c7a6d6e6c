"""A playing session: a game with its save, written after every action (atomically, through
:func:`.savegame.save`), and resuming a save where it stood (replayed with every check)."""

from __future__ import annotations

from pathlib import Path

from game.engine import Game
from game.engine.actions import Action
from game.engine.events import Event

from .replay import replay
from .savegame import SavedGame, read_save, save
from .scenario import Scenario


class Autosave:
    """A game with its save: every action applied through it is saved at once."""

    def __init__(
        self, game: Game, saved: SavedGame, path: str | Path | None, write_now: bool = True
    ):
        self.game = game
        self.saved = saved
        self.path = Path(path) if path else None
        if self.path and write_now:
            save(self.saved, self.path)

    def apply(self, action: Action) -> list[Event]:
        events = self.game.apply(action)
        self.saved.record(action, self.game)
        if self.path:
            save(self.saved, self.path)
        return events


def new_game(scenario: Scenario, seed: int, path: str | Path | None = None) -> Autosave:
    return Autosave(Game(scenario.setup, seed), SavedGame.new(scenario, seed), path)


def resume(path: str | Path) -> Autosave:
    """Load a save and bring the game to where it stood (every check verified)."""
    saved = read_save(path)
    game = replay(saved, name=str(path))
    return Autosave(game, saved, path, write_now=False)
