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

NET_EVENT = pygame.event.custom_type()
"""Posted from the connection's thread when a seat on a server hears from it."""

AWAY_ORDERS = (
    DffOrder(policy="ask"),
    DffOrder(policy="pass"),
    DffOrder(policy="kill", percent=25),
    DffOrder(policy="kill", percent=50),
    DffOrder(policy="kill", percent=75),
    DffOrder(policy="case_j1"),
)
"""The standing Defensive First Fire orders the play screen's button cycles through (the
command line's ``--away`` takes any kill percentage)."""


def away_words(order: DffOrder) -> str:
    """An order as the button says it."""
    if order.policy == "kill":
        return f"fire at {order.percent}%+ kill"
    return {"ask": "ask me", "pass": "pass", "case_j1": "fire at J1+"}[order.policy]


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

    def online_buttons(self, ui, bar: pygame.Rect) -> dict:
        """A seat on a server: the button of its standing Defensive First Fire order (C6.17),
        applied by the server while this window is closed; its own side only sees it."""
        if self.remote is None:
            return {}
        order = self.remote.client.client.order
        button = pygame_gui.elements.UIButton(
            pygame.Rect(bar.right - 420, 6, 210, bar.height - 12),
            f"Away: {away_words(order)}",
            ui,
            tool_tip_text="Your standing order for your Defensive First Fire chances while "
            "your window is closed (C6.17): ask me (the mover waits), pass, fire at a kill "
            "chance of at least N%, or at Case J1 or better. Click for the next; the server "
            "keeps it, your opponent never sees it",
        )
        return {"away": button}

    def next_away_order(self, button) -> None:
        """The next standing order, sent to the server (its refusal or silence: one line)."""
        remote = self.remote
        if remote is None:
            return
        client = remote.client
        now = client.client.order
        at = next((i for i, o in enumerate(AWAY_ORDERS) if o == now), -1)
        wanted = AWAY_ORDERS[(at + 1) % len(AWAY_ORDERS)]
        try:
            order = client.call(client.client.set_order, wanted)
        except (NetError, Refusal) as e:
            self.map.state.message = f"the order was not set: {e}"
            return
        button.set_text(f"Away: {away_words(order)}")
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
