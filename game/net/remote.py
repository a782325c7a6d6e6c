"""A seat on a server as the window sees it (``hexfire join LINK``; docs/online.md): a
:class:`RemoteSession` and its :class:`RemoteTable` answer what the play screen asks of a
session and a table, from the seat's view as the server sent it and, for its questions (the
odds of a hover, the fire and threat maps, the hexes a unit may enter, a route, a set-up
area), from the server, which answers them with that side's own table: the numbers are the
ones a local screen would show, and nothing the seat may not know ever reaches the window.

The connection runs in a thread of its own (:class:`ThreadedClient`, an asyncio loop): the
window's thread asks and waits for a question's answer (each answer kept for the view's
version), and is told when a message came (``on_change``: the window wakes up and reads the
new view)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from game.board import Board
from game.engine import IllegalAction
from game.engine.actions import Action
from game.engine.events import Event
from game.engine.view import View
from game.files.savegame import SavedGame, SaveError, parse_save

from .client import Client, Disconnected, Link, NetError, Refusal
from .remote_table import RemoteTable
from .wire import Commitment, End, Welcome

ANSWER_SECONDS = 20.0
"""The longest the window waits for an answer (a dropped connection answers sooner)."""


class ThreadedClient:
    """A :class:`Client` in a thread of its own, for a window that is not asynchronous.
    ``on_change`` is called (in that thread) after every message and status change."""

    def __init__(self, link: Link, on_change: Callable[[], None] | None = None):
        self.on_change = on_change
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, daemon=True, name="hexfire-net"
        )
        self._thread.start()
        self.client = Client(link, on_message=self._message)
        self.welcome: Welcome = self.call(self.client.connect, timeout=60)

    def _message(self, message: Any) -> None:
        del message
        if self.on_change is not None:
            self.on_change()

    def call(
        self, fn: Callable[..., Coroutine], *args: Any, timeout: float = ANSWER_SECONDS
    ) -> Any:
        """Run ``fn(*args)`` in the client's loop and wait for its result."""
        future = asyncio.run_coroutine_threadsafe(fn(*args), self._loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            raise Disconnected("no answer in time") from None

    @property
    def view(self) -> View:
        view = self.client.view
        assert view is not None
        return view

    def close(self) -> None:
        if self._loop.is_running():
            with contextlib.suppress(NetError, RuntimeError):
                self.call(self.client.close, timeout=5)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)


class RemoteSession:
    """The seat's game as a session: its one table (:class:`RemoteTable`), who acts, its
    undo; the server does the rest (the other seat, the computer, the phases that pass by
    themselves, HX-15)."""

    lesson = None
    computer = None
    computer_side = None
    path = None

    def __init__(self, client: ThreadedClient):
        self.client = client
        self.side: str = client.welcome.side
        self.title = client.welcome.title
        self.published: Commitment = client.welcome.commitment
        """The seed's commitment and the scenario's SHA-256 shown when the seat joined (the
        whole save at the end is checked against them)."""
        self._base = Board.from_map_table(client.welcome.map, month=client.welcome.month)
        self._board: tuple[str, Board] | None = None
        self._tables: dict[int, RemoteTable] = {}
        self._saved: SavedGame | None = None
        self.save_error: str | None = None

    # --- the state -----------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self.client.view.version

    @property
    def status(self) -> str:
        return self.client.client.status

    @property
    def end(self) -> End | None:
        return self.client.client.end

    @property
    def sides(self) -> tuple[str, str]:
        return self.client.view.sides

    @property
    def humans(self) -> list[str]:
        return [self.side]

    @property
    def acting(self) -> str | None:
        return self.client.view.acting

    def board(self) -> Board:
        """The map with its wrecks and smoke as the server last said (both sides see them)."""
        markers = self.client.client.markers
        key = repr(sorted(markers.get("wrecks", {}).items())) + repr(markers.get("smoke", []))
        if self._board is None or self._board[0] != key:
            board = self._base.copy()
            for hx, n in markers.get("wrecks", {}).items():
                for _ in range(int(n)):
                    board.add_wreck(board.parse(hx))
            for hx in markers.get("smoke", []):
                board.set_smoke(board.parse(hx))
            self._board = (key, board)
        return self._board[1]

    def table(self, side: str | None = None) -> RemoteTable:
        """This seat's table now (whatever side is asked for: the window holds one seat)."""
        del side
        view = self.client.view
        table = self._tables.get(view.version)
        if table is None or table.view is not view:
            self._tables = {view.version: RemoteTable(self, view)}
            table = self._tables[view.version]
        return table

    def view(self, side: str | None = None) -> View:
        del side
        return self.client.view

    # --- who acts ------------------------------------------------------------------------

    def settle(self, timeout: float = ANSWER_SECONDS) -> None:
        """Wait until the server has done what it does by itself (its view is the latest)."""
        client = self.client.client
        self.client.call(client.until, lambda: client.ready, timeout, timeout=timeout + 1)

    def computer_acts(self) -> bool:
        return False

    def next_step(self, viewer: str | None, strict: bool = False) -> Any:
        """What comes next for this seat: the end, its Defensive First Fire prompt, its turn,
        or the other seat's ("remote": the window waits for the server)."""
        from game.session import Step

        del viewer, strict
        view = self.client.view
        if view.over:
            return Step("over")
        if view.dff is not None:
            return Step("dff", self.side)
        if view.acting == self.side and self.client.client.ready:
            return Step("act", self.side)
        return Step("remote", view.acting)

    def pass_idle_phases(self) -> tuple[list[str], int]:
        """The server passes them (HX-15): nothing for the window to do."""
        return [], self.table().event_count()

    # --- acting ----------------------------------------------------------------------------

    def act(self, action: Action) -> list[Event]:
        """Send ``action`` (chosen from the latest view) and wait for the server's answer: the
        events it added to this side's log (IllegalAction with the server's reason)."""
        before = self.client.view
        try:
            view = self.client.call(self.client.client.act, action.to_json(), before.version)
        except Refusal as e:
            raise IllegalAction(e.code, e.reason) from None
        except NetError as e:
            raise IllegalAction("offline", f"not sent: {e} (reconnecting)") from None
        shown = before.events
        return [e.event() for e in view.events[len(shown) :]]

    def undo(self, side: str | None) -> str | None:
        del side
        try:
            self.client.call(self.client.client.undo)
        except Refusal as e:
            return e.reason
        except NetError as e:
            return f"not sent: {e}"
        return None

    @property
    def saved(self) -> SavedGame:
        """The whole save, once the game is over (the server reveals it then)."""
        if self._saved is None:
            if self.end is None:
                raise SaveError("the whole game is downloadable once it is over")
            import json

            record = self.client.call(self.client.client.record)
            saved = parse_save(json.dumps(record.record), "the server's save")
            why = honest_problem(self.published, self.end, saved)
            if why:
                raise SaveError(f"the server's save is not the game it committed to: {why}")
            self._saved = saved
        return self._saved

    def save_as(self, path: Any) -> None:
        from game.files.savegame import save

        save(self.saved, path)

    def close(self) -> None:
        self.client.close()

    # --- questions -------------------------------------------------------------------------

    def ask(self, question: str, *args: Any) -> Any:
        """The server's answer from this side's table (IllegalAction with its reason)."""
        try:
            return self.client.call(self.client.client.ask, question, *args)
        except Refusal as e:
            raise IllegalAction(e.code, e.reason) from None
        except NetError as e:
            raise IllegalAction("offline", str(e)) from None


def honest_problem(published: Commitment, end: End, saved: SavedGame) -> str | None:
    """Why the whole save a server sent at a game's end is not the game it committed to when
    the seat joined (None: it is): the commitment and the scenario's SHA-256 shown then (the
    welcome's) must be the save's and the end message's, the revealed seed and salt must hash
    to that commitment, and the save's hash chain must reach the head the end message gave.
    (Every die is checked by ``hexfire replay --verify SAVE``; docs/online.md.)"""
    from game.files.honest import check_published, check_save

    if end.commitment != published:
        return "the end names another commitment than the one published"
    if saved.seed != end.seed or (saved.commitment or {}).get("salt") != end.salt:
        return "the save's seed and salt are not the ones revealed"
    why = check_published(
        published.sha256, published.scenario_sha256, saved.commitment, saved.scenario_sha256
    )
    if why:
        return why
    _, why = check_save(
        saved.seed, saved.scenario_sha256, saved.actions, saved.commitment, saved.chain
    )
    if why:
        return why
    if saved.chain != end.chain:
        return "the save's hash chain does not end where the end message said"
    return None
