"""A playing session: a game with its save, written after every action (atomically, through
:func:`.savegame.save`), and resuming a save where it stood (replayed with every check)."""

from __future__ import annotations

from pathlib import Path

from game.engine import Game
from game.engine.actions import Action
from game.engine.events import Event

from .replay import replay
from .savegame import SavedGame, SaveError, read_save, remove_stale_temporaries, save
from .scenario import Scenario


class Autosave:
    """A game with its save: every action applied through it is saved at once."""

    def __init__(
        self, game: Game, saved: SavedGame, path: str | Path | None, write_now: bool = True
    ):
        self.game = game
        self.saved = saved
        self.save_error: str | None = None
        self.path = Path(path) if path else None
        if self.path:
            remove_stale_temporaries(self.path)
        if self.path and write_now:
            save(self.saved, self.path)

    def apply(self, action: Action) -> list[Event]:
        """Apply through :meth:`Game.apply`, record it with its check, write the save. A save
        that cannot be written (a full disk, a read-only folder) keeps the previous file and
        says why in :attr:`save_error`; the next action tries again with the whole game."""
        events = self.game.apply(action)
        self.saved.record(action, self.game)
        self.save_error = None
        if self.path:
            try:
                save(self.saved, self.path)
            except SaveError as e:
                self.save_error = str(e)
        return events

    def undo(self) -> str | None:
        """Take back the last action if it was the acting side's own, drew no die, and the
        other side learned nothing from it and was asked nothing since (RD-19: no unit lost its
        concealment, no Defensive First Fire chance was offered); the game is rebuilt by
        replaying to the action before, and the save rewritten. Returns why not, or None when
        undone."""
        actions = self.saved.actions
        if not actions:
            return "nothing to undo"
        before_draws = actions[-2]["draws"] if len(actions) > 1 else 0
        if actions[-1]["draws"] != before_draws:
            return "a die was rolled: no undo across a die roll"
        previous = replay(self.saved, to=len(actions) - 1, verify=False)
        if previous.to_act != self.game.to_act:
            return f"{previous.to_act} took that action and {self.game.to_act} acts now"
        why = revealed(self.game.history[len(previous.history) :])
        if why:
            return why
        self.game = previous
        del actions[-1]
        if self.path:
            save(self.saved, self.path)
        return None

    def save_as(self, path: str | Path) -> None:
        """Write a copy of the save to ``path`` (the autosave goes on where it was)."""
        save(self.saved, path)


def revealed(events: list[Event]) -> str | None:
    """RD-19: why an action's events may not be taken back because the other side learned
    something from them or was asked something (None: nothing)."""
    for e in events:
        if e.kind == "concealment" and e.data.get("concealed") is False:
            return "a unit lost its concealment: the other side has seen it (RD-19)"
        if e.kind == "dff_chance":
            return "the other side was offered Defensive First Fire (RD-19)"
    return None


def new_game(scenario: Scenario, seed: int, path: str | Path | None = None) -> Autosave:
    return Autosave(Game(scenario.setup, seed), SavedGame.new(scenario, seed), path)


def resume(path: str | Path) -> Autosave:
    """Load a save and bring the game to where it stood (every check verified)."""
    saved = read_save(path)
    game = replay(saved, name=str(path))
    return Autosave(game, saved, path, write_now=False)
