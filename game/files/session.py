"""A playing session: a game with its save, written after every action (atomically, through
:func:`.savegame.save`), and resuming a save where it stood (replayed with every check)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from pathlib import Path

from game.engine import Game
from game.engine.actions import Action, action_from_json
from game.engine.events import Event
from game.engine.undo import why_not_undo

from .lesson import Lesson
from .lock import SaveLock, acquire_lock
from .replay import replay
from .savegame import SavedGame, SaveError, read_save, remove_stale_temporaries, save
from .scenario import Scenario, ScenarioError

UNDO_COPIES = 8
"""How many of the last actions an undo takes back from a copy of the game kept before each
(:meth:`Game.copy`, some 0.1 ms and 20 KiB on the four-board map); beyond them it replays the
save (0.5-1 s there under load). A server keeps none (``undo_copies=0``): 500 games' copies
cost its processes 0.27 ms of CPU by action (1.73 -> 2.0 ms, issue 43's bench), and its games
are small and seldom taken back."""


class Autosave:
    """A game with its save: every action applied through it is saved at once. The save is
    locked while it is played (:func:`.lock.acquire_lock`); :meth:`close` releases it."""

    def __init__(
        self,
        game: Game,
        saved: SavedGame,
        path: str | Path | None,
        write_now: bool = True,
        undo_copies: int = UNDO_COPIES,
    ):
        self.game = game
        self.saved = saved
        self.lesson: Lesson | None = lesson_of(saved)
        """The scenario's steps for a newcomer, when it is a lesson."""
        self.save_error: str | None = None
        self.before: deque[tuple[int, Game]] = deque(maxlen=undo_copies)
        """The game as it stood after its first n actions, for the last few actions that may be
        taken back (RD-19): (n, a copy), the newest last."""
        self.path = Path(path) if path else None
        self.lock: SaveLock | None = None
        if self.path:
            self.lock = acquire_lock(self.path)
            remove_stale_temporaries(self.path)
        if self.path and write_now:
            try:
                save(self.saved, self.path)
            except SaveError:
                self.close()  # never played here: its lock goes
                raise

    def close(self) -> None:
        """Release the save's lock (the window closes, or another game is opened)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def _write(self) -> None:
        """Write the whole save; a failure (a full disk, a read-only folder) keeps the previous
        file, says why in :attr:`save_error`, and the next change tries again."""
        self.save_error = None
        if self.path:
            try:
                save(self.saved, self.path)
            except SaveError as e:
                self.save_error = str(e)

    def retry(self) -> bool:
        """After a failed save, try writing it again (the window is closing: the disk may
        have room now); True when the save holds every action."""
        if self.save_error is not None and self.path is not None:
            self._write()
        return self.save_error is None

    def apply(self, action: Action) -> list[Event]:
        """Apply through :meth:`Game.apply`, record it with its check, write the save. A save
        that cannot be written (a full disk, a read-only folder) keeps the previous file and
        says why in :attr:`save_error`; the next action tries again with the whole game. A copy
        of the game before an action that may be taken back is kept for :meth:`undo`."""
        keep = self.before.maxlen and type(action).undo.never is None
        before = self.game.copy() if keep else None
        events = self.game.apply(action)
        if before is not None:
            self.before.append((len(self.saved.actions), before))
        self.saved.record(action, self.game)
        self._write()
        return events

    def undo(self) -> str | None:
        """Take back the last action if it was the acting side's own, drew no die, and the
        other side learned nothing from it and was asked nothing since (RD-19: no unit lost its
        concealment, no Defensive First Fire chance was offered); the game goes back to the copy
        kept before it (:attr:`before`), or else is rebuilt by replaying to the action before,
        and the save is rewritten. Returns why not, or None when undone."""
        actions = self.saved.actions
        if not actions:
            return "nothing to undo"
        before_draws = actions[-2]["draws"] if len(actions) > 1 else 0
        last = action_from_json(actions[-1]["action"])
        rolled = actions[-1]["draws"] != before_draws
        now = self.game.to_act
        why = why_not_undo(last, rolled, acted_by=now, acting_now=now, events=[])
        if why:  # its type's own refusal, or a die: known before the game is rebuilt
            return why
        previous = self._before_last(len(actions) - 1)
        why = why_not_undo(
            last,
            rolled,
            acted_by=previous.to_act,
            acting_now=now,
            events=self.game.history[len(previous.history) :],
        )
        if why:
            return why
        self.game = previous
        del actions[-1]
        if self.before and self.before[-1][0] == len(actions):
            self.before.pop()  # it is the game now: never restored twice
        self._write()  # the same "keep playing, say it, retry" as an action
        return None

    def _before_last(self, n: int) -> Game:
        """The game after its first ``n`` actions: the copy kept (:meth:`undo` only reads it
        until it takes it), or the save replayed."""
        while self.before and self.before[-1][0] > n:
            self.before.pop()  # later than n: never wanted again
        if self.before and self.before[-1][0] == n:
            return self.before[-1][1]
        return replay(self.saved, to=n, verify=False)

    def save_as(self, path: str | Path) -> None:
        """Write a copy of the save to ``path`` (the autosave goes on where it was)."""
        save(self.saved, path)


def lesson_of(saved: SavedGame) -> Lesson | None:
    """The lesson of a saved game's scenario (None when it is none): the scenario is read
    again only when its text has a ``[lesson]`` table."""
    if not re.search(r"^\s*\[lesson\]", saved.scenario_text, re.MULTILINE):
        return None
    try:
        return saved.scenario().lesson
    except ScenarioError:
        return None


def new_game(
    scenario: Scenario,
    seed: int,
    path: str | Path | None = None,
    computer: dict | None = None,
) -> Autosave:
    """A new game of ``scenario``, autosaved at ``path``; ``computer``: the side the computer
    plays and its level (``{"side": "german", "level": 2}``), saved with the game."""
    saved = SavedGame.new(scenario, seed)
    if computer is not None:
        if computer.get("side") not in scenario.setup.sides:
            raise SaveError(
                f"--ai {computer.get('side')}: expected one of {', '.join(scenario.setup.sides)}"
            )
        saved.computer = dict(computer)
    return Autosave(Game(scenario.setup, seed), saved, path)


def resume(
    path: str | Path,
    continue_in: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Autosave:
    """Load a save and bring the game to where it stood (every check verified). It is played
    on in place (Resume) or, with ``continue_in``, in a new autosave there, the loaded file
    left as it was (Load: a checkpoint is never overwritten). ``progress(done, total)`` is told
    how far the replay has got."""
    saved = read_save(path)
    total = len(saved.actions)

    def step(i: int, action: dict, events: list) -> None:
        if progress is not None and i % 25 == 0:
            progress(i + 1, total)

    game = replay(saved, name=str(path), on_events=step)
    if continue_in is not None:
        return Autosave(game, saved, continue_in, write_now=True)
    return Autosave(game, saved, path, write_now=False)
