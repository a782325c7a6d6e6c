"""The play screen's part for a seat on a server (``hexfire join``; docs/online.md), and the luck
report beside any game's result: a part of :class:`game.ui.play.screen.PlayScene`. What the
server pushes (the other side's actions, its answer to this seat's) is read from the seat's new
view and shown as a local action's events are; the connection's state is said in the bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.engine.actions import Action
from game.engine.events import Event
from game.net.remote import RemoteSession
from game.session import Session, Table
from game.ui.map.view import MapView

NET_EVENT = pygame.event.custom_type()
"""Posted from the connection's thread when a seat on a server hears from it."""


class OnlinePart:
    """A seat on a server's news, and the luck report (their state is set up by the screen)."""

    map: MapView
    session: Session
    remote: RemoteSession | None
    _remote_at: tuple[int, int]
    _luck: list[str] | None

    if TYPE_CHECKING:  # the screen's and its log pane's

        @property
        def table(self) -> Table: ...

        def rebuild_log(self) -> None: ...

        def after_change(self) -> None: ...

        def _shown(self, events: list[Event], action: Action | None) -> None: ...

    def remote_changed(self) -> None:
        """A seat on a server: a message came (its action answered, the other seat's action
        pushed, the connection dropped or came back). The new events go to the log and the
        map as a local action's do, then what comes next."""
        remote = self.remote
        if remote is None:
            return
        state = self.map.state
        status = remote.status
        if status != "connected":
            state.message = {
                "reconnecting": "Connection lost: reconnecting to the server...",
                "taken over": "This seat was opened in another window: it plays there now",
                "closed": "The server closed this game",
            }.get(status, status)
            return
        table = self.table
        version, logged = self._remote_at
        if table.version == version:
            return
        count = table.event_count()
        self._remote_at = (table.version, count)
        if count < logged:  # taken back (an undo): the log anew
            self.rebuild_log()
            self.after_change()
            return
        self._shown(table.events()[logged:], None)

    def luck_lines(self) -> list[str]:
        """The luck report beside the result (each side's dice against the exact odds of its
        shots): the server's for a game on a server, worked out from the save for a game
        here (kept once made)."""
        if self._luck is None:
            from game.files.luck import SideLuck, luck_of_save

            try:
                end = self.remote.end if self.remote is not None else None
                if end is not None:
                    self._luck = [SideLuck(**d).line() for d in end.luck.values()]
                elif self.remote is None:
                    self._luck = [s.line() for s in luck_of_save(self.session.saved)]
                else:
                    return []
            except Exception as e:  # a report that cannot be made: say why, keep the result
                self._luck = [f"(no luck report: {type(e).__name__})"]
        return self._luck
