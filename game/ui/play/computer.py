"""The computer's turn on the play screen (a part of :class:`game.ui.play.screen.PlayScene`):
an action at a time, each shown for a moment; its decision made on a thread of its own, as a
file opens behind the loading screen (:mod:`game.ui.scenes.loading`), so the window keeps
answering while it thinks (level 3 froze it for up to 3 s); the decision is taken on the
window's thread, and only if the game is still where it was decided."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

from game.engine.actions import Action
from game.engine.events import Event
from game.session import ComputerChoice, Session
from game.ui.map.view import MapView
from game.ui.panel.log import note_html

THINKING_FRAME_RATE = 15
"""Frames a second while the computer thinks: enough for the window to answer, and each frame
is time its thread does not have (one interpreter lock)."""


class Thought:
    """One decision of the computer in the making, on its own thread."""

    def __init__(self, session: Session) -> None:
        self.version = session.version
        self.choice: ComputerChoice | None = None
        self.error: Exception | None = None
        self.done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(session,), name="hexfire-computer", daemon=True
        )
        self._thread.start()

    def _run(self, session: Session) -> None:
        try:
            self.choice = session.computer_decide()
        except Exception as e:  # taken on the window's thread: raised there if still due
            self.error = e
        finally:
            self.done.set()


class ComputerTurn:
    """The computer's part of the play screen (its state is set up by the screen)."""

    map: MapView
    session: Session
    computer: str | None
    computer_pause: float
    _computer_at: float
    over_pending: bool
    log: list[str]

    if TYPE_CHECKING:  # the screen's and its log pane's

        @property
        def viewer(self) -> str | None: ...

        def _computer_dff(self) -> bool: ...

        def _append_log(self, lines: list[str]) -> None: ...

        def _shown(self, events: list[Event], action: Action | None) -> None: ...

    thought: Thought | None = None
    """The computer's decision being made, while it thinks."""

    def computer_acts(self) -> bool:
        """Whether the computer is the one to act now (its phase, or its Defensive First Fire
        chance during the human's move)."""
        return self.computer is not None and not self.over_pending and self.session.computer_acts()

    def animating(self) -> bool:
        """The computer's turn needs frames with no event (the window otherwise sleeps until
        the mouse moves: its turn stalled)."""
        return self.computer_acts()

    def frame_rate(self) -> int:
        return THINKING_FRAME_RATE if self.thought is not None else 60

    def wait_done(self, timeout: float = 120.0) -> bool:
        """Tests (:meth:`App.pump`): wait for the computer's decision; False when none is being
        made."""
        thought = self.thought
        if thought is None:
            return False
        thought.done.wait(timeout)
        return True

    def update(self, dt: float) -> None:
        """The computer's turn, an action at a time: each shown for a moment (the log, the
        dice, the banner), a "thinking" line while it decides, Space to hurry it."""
        del dt
        thought = self.thought
        if thought is None:
            if self.computer_acts() and time.monotonic() >= self._computer_at:
                if not self._computer_dff():  # its DFF chance: no line (RD-11)
                    name = (self.computer or "").title()
                    self.map.state.message = f"The computer ({name}) is thinking..."
                self.thought = Thought(self.session)
            return
        if not thought.done.is_set():
            return
        self.thought = None
        if thought.error is not None:
            if self.session.version != thought.version:
                return  # the game changed under it (an undo): it decides again
            raise thought.error
        assert thought.choice is not None
        self._take(thought.choice)

    def _take(self, choice: ComputerChoice) -> None:
        """The decision taken and shown (none when the game changed since: decided again)."""
        quiet = self._computer_dff()
        move = self.session.computer_take(choice, self.viewer)
        if move is None:
            return
        if move.note is not None:
            self.log.append(note_html(move.note))
            self._append_log(self.log[-1:])
        self._shown(move.events, move.action)
        if not self.map.state.message and not quiet:
            self.map.state.message = move.note or f"{move.side.title()} (computer) plays"
        self._computer_at = time.monotonic() + self.computer_pause
