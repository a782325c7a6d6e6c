"""The play screen's part for a seat on a server (``hexfire join``; docs/online.md), and the luck
report beside any game's result: a part of :class:`game.ui.play.screen.PlayScene`. What the
server pushes (the other side's actions, its answer to this seat's) is read from the seat's new
view and shown as a local action's events are; the connection's state is said in the bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui

from game.engine.actions import Action
from game.engine.events import Event
from game.net.client import NetError, Refusal
from game.net.remote import RemoteSession
from game.net.wire import DffOrder
from game.session import Session, Table
from game.ui.map.view import MapView
from game.ui.play.away import AwayDialog, away_words, short_words
from game.ui.scenes.stack import App

NET_EVENT = pygame.event.custom_type()
"""Posted from the connection's thread when a seat on a server hears from it."""

AWAY_WIDE = 1100
"""A window at least this wide says the standing order in words on the bar's button."""


class OnlinePart:
    """A seat on a server's news, and the luck report (their state is set up by the screen)."""

    map: MapView
    session: Session
    remote: RemoteSession | None
    _remote_at: tuple[int, int]
    _luck: list[str] | None
    away: AwayDialog | None = None
    app: App
    buttons: dict[str, pygame_gui.elements.UIButton]

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

    def online_buttons(self, ui, bar: pygame.Rect) -> dict:
        """A seat on a server: the button of its standing Defensive First Fire order (C6.17),
        applied by the server while this window is closed; its own side only sees it. It
        opens the "While you are away" dialog (:mod:`game.ui.play.away`)."""
        if self.remote is None:
            return {}
        width = self.away_width(bar)
        button = pygame_gui.elements.UIButton(
            pygame.Rect(bar.right - 210 - width, 6, width, bar.height - 12),
            self._away_text(bar.width),
            ui,
            tool_tip_text="Your standing order for your Defensive First Fire chances while "
            "your window is closed (C6.17): always ask me (the mover waits), pass, fire at a "
            "kill chance of at least N%, or at Case J1 or better. Click to choose; the server "
            "keeps it, your opponent never sees it",
        )
        return {"away": button}

    def away_width(self, bar: pygame.Rect) -> int:
        """The width of the Away button in the bar (0: none; the bar's words give it room)."""
        if self.remote is None:
            return 0
        return 210 if bar.width >= AWAY_WIDE else 120

    def _away_text(self, bar_width: int) -> str:
        order = self.remote.client.client.order if self.remote is not None else None
        if order is None:
            return ""
        if bar_width >= AWAY_WIDE:
            return f"Away: {away_words(order)}"
        return f"Away: {short_words(order)}"

    def open_away(self) -> None:
        """The "While you are away" dialog, on the order the server keeps (again: closed)."""
        if self.remote is None:
            return
        if self.away is not None and self.away.alive():
            self.away.kill()
            self.away = None
            return
        app = self.app
        self.away = AwayDialog(app.ui, app.size, self.remote.client.client.order)

    def away_event(self, event: pygame.event.Event) -> bool:
        """An event of the away dialog (True: taken): an order picked is sent to the server,
        its refusal or silence said in one line."""
        dialog = self.away
        if dialog is None:
            return False
        if not dialog.alive():
            self.away = None
            return False
        what = dialog.event(event)
        if what is None:
            return False
        if what == "close":
            dialog.kill()
            self.away = None
        elif isinstance(what, DffOrder):
            self.set_away_order(what)
        return True

    def set_away_order(self, wanted: DffOrder) -> None:
        """Send the standing order to the server; the bar's button and the dialog say it."""
        remote = self.remote
        if remote is None:
            return
        client = remote.client
        try:
            order = client.call(client.client.set_order, wanted)
        except (NetError, Refusal) as e:
            why = f"the order was not set: {e}"
            self.map.state.message = why
            if self.away is not None:
                self.away.say(why[:60])
            return
        button = self.buttons.get("away")
        if button is not None:
            button.set_text(self._away_text(self.app.size[0]))
        if self.away is not None:
            self.away.showing(order)
            self.away.say("set: the server keeps it")
        self.map.state.message = f"While you are away: {away_words(order)} (C6.17)"

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
