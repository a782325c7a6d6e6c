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
from game.engine.actions import Action, action_from_json
from game.engine.catalogue import UnitType, unit_types
from game.engine.events import Event
from game.engine.knowledge import ShotOdds, Tracking
from game.engine.play.paths import Route
from game.engine.play.threat import HexThreat, Threat
from game.engine.view import UnitView, View
from game.files.savegame import SavedGame, SaveError, parse_save

from .client import Client, Disconnected, Link, NetError, Refusal
from .wire import End, Welcome

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


def _shot(value: dict) -> ShotOdds:
    return RemoteShotOdds(value["report"], None, value.get("p"))


class RemoteShotOdds(ShotOdds):
    """The odds of a shot as the server answered them for this side: the report, and each
    outcome's probability (None at a "?": its kill chance is not this side's to know)."""

    __slots__ = ("p",)
    p: dict | None

    def __init__(self, report: dict, odds: None, p: dict | None):
        object.__setattr__(self, "report", report)
        object.__setattr__(self, "odds", odds)
        object.__setattr__(self, "p", p)

    @property
    def p_kill(self) -> float | None:
        if self.p is None:
            return None
        return float(self.p["burn"] + self.p["eliminated"])


def _threat(value: dict) -> HexThreat:
    threats = tuple(
        Threat(t["firer"], t["ammo"], float(t["p_kill"]), float(t["p_immobilized"]))
        for t in value["threats"]
    )
    return HexThreat(float(value["p_kill"]), float(value["p_immobilized"]), threats)


def _route(value: dict | None) -> Route | None:
    if value is None:
        return None
    steps = tuple(action_from_json(s) for s in value["steps"])
    return Route(value["unit"], steps, tuple(value["hexes"]), float(value["mp"]))  # type: ignore[arg-type]


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
        self._base = Board.from_map_table(client.welcome.map, month=client.welcome.month)
        self._board: tuple[str, Board] | None = None
        self._tables: dict[int, RemoteTable] = {}
        self._saved: SavedGame | None = None
        self.mine: list[dict] = []
        """This side's actions sent from this window ({"action": ...}: the set-up rings)."""
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
        self.mine.append({"action": action.to_json()})
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
        if self.mine:
            self.mine.pop()
        return None

    @property
    def saved_actions(self) -> list[dict]:
        return self.mine

    @property
    def saved(self) -> SavedGame:
        """The whole save, once the game is over (the server reveals it then)."""
        if self._saved is None:
            if self.end is None:
                raise SaveError("the whole game is downloadable once it is over")
            import json

            record = self.client.call(self.client.client.record)
            self._saved = parse_save(json.dumps(record.record), "the server's save")
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


class RemoteTable:
    """One seat's table on a server: what :class:`~game.engine.table.Table` answers, from the
    view the server sent (the units, the phase, the log, the legal actions, the Defensive First
    Fire chance, the movement tracking) and from the server's answers to its questions, each
    kept for this view's version."""

    def __init__(self, session: RemoteSession, view: View):
        self._session = session
        self.view = view
        self.side = view.side
        self.version = view.version
        self._memo: dict[tuple, Any] = {}
        self._units = {u.id: u for u in view.units}

    def _ask(self, question: str, *args: Any) -> Any:
        key = (question, *args)
        if key not in self._memo:
            try:
                self._memo[key] = ("ok", self._session.ask(question, *args))
            except IllegalAction as e:
                if e.code == "offline":
                    raise
                self._memo[key] = ("no", e)
        kind, value = self._memo[key]
        if kind == "no":
            raise value.again()
        return value

    # --- the view's facts ----------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self._session.board()

    @property
    def sides(self) -> tuple[str, str]:
        return self.view.sides

    @property
    def turns(self) -> int:
        return self.view.turns

    @property
    def defender(self) -> str:
        return self.view.defender

    @property
    def first(self) -> str:
        return self.view.first

    @property
    def turn(self) -> int:
        return self.view.turn

    @property
    def phase(self):
        return self.view.phase

    @property
    def phasing(self) -> str:
        return self.view.phasing

    @property
    def non_phasing(self) -> str:
        return self.view.non_phasing

    @property
    def to_act(self) -> str | None:
        return self.view.acting

    @property
    def over(self) -> bool:
        return self.view.over

    @property
    def winner(self) -> str | None:
        return self.view.winner

    @property
    def end_reason(self) -> str:
        return self.view.end_reason

    @property
    def moving_unit(self) -> str | None:
        return self.view.moving_unit

    @property
    def dff_pending(self) -> tuple[str, ...]:
        return self.view.dff.firers if self.view.dff is not None else ()

    @property
    def waiting_for_dff(self) -> bool:
        acting = self.view.acting
        return self.view.phase == "movement" and acting is not None and acting != self.phasing

    @property
    def victory(self) -> tuple[str, ...]:
        return self.view.victory

    @property
    def game_key(self) -> int:
        return id(self._session)

    def events(self) -> list[Event]:
        return [e.event() for e in self.view.events]

    def event_count(self) -> int:
        return len(self.view.events)

    def units(self) -> list[UnitView]:
        return list(self.view.units)

    def unit(self, unit_id: str | None) -> UnitView | None:
        return self._units.get(unit_id) if unit_id is not None else None

    def real(self, unit_id: str) -> str:
        return unit_id  # the window knows a "?" by its alias only

    def shown_id(self, unit_id: str) -> str:
        return unit_id

    def name(self, unit_id: str) -> str:
        unit = self._units.get(unit_id)
        if unit is not None:
            return f"a concealed unit in {unit.hex}" if unit.unknown else unit.name
        return self._ask("name", unit_id)

    shown_name = name

    def where(self, unit_id: str) -> str:
        unit = self._units.get(unit_id)
        return unit.hex if unit is not None else self._ask("where", unit_id)

    def losses(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self.view.losses.items()}

    def tracking(self) -> Tracking | None:
        t = self.view.tracking
        if t is None:
            return None
        rows = tuple((r.firer, r.mp, r.exempt, r.shot_mp, r.case) for r in t.rows)
        return Tracking(t.hex, t.moved, rows)

    def known_enemies(self) -> set[str]:
        return {u.id for u in self.view.units if u.side != self.side and not u.unknown}

    def out_of_play(self) -> set[str]:
        return set(self._ask("out_of_play"))

    def gone(self, unit_id: str) -> str | None:
        return self._ask("gone", unit_id)

    def unit_type(self, unit_id: str) -> UnitType:
        unit = self._units.get(unit_id)
        if unit is None or unit.unknown:
            raise IllegalAction("unknown", f"{unit_id}: not a unit {self.side} knows")
        return unit_types()[unit.type]

    def exited(self, edge: str) -> int:
        return int(self._ask("exited", edge))

    def home_hexes(self) -> list[str]:
        return list(self._ask("home_hexes"))

    # --- questions -----------------------------------------------------------------------

    def odds(self, firer_id: str, target_id: str, ammo: str | None = None) -> ShotOdds:
        return _shot(self._ask("odds", firer_id, target_id, ammo))

    def fire_map(self, firer_id: str, ammo: str | None = None) -> dict[str, tuple[float, str]]:
        return {
            h: (float(p), str(w)) for h, (p, w) in self._ask("fire_map", firer_id, ammo).items()
        }

    def threat_map(self, unit_id: str, within=None) -> dict[str, HexThreat]:
        found = {h: _threat(v) for h, v in self._ask("threat_map", unit_id).items()}
        return found if within is None else {h: v for h, v in found.items() if h in set(within)}

    def threat_here(self, unit_id: str) -> HexThreat:
        return _threat(self._ask("threat_here", unit_id))

    def threat_facings(self, unit_id: str) -> dict[int, HexThreat]:
        return {int(f): _threat(v) for f, v in self._ask("threat_facings", unit_id).items()}

    def attack_map(self, unit_id: str, within=None) -> dict[str, tuple[tuple[str, float], ...]]:
        found = {
            h: tuple((str(e), float(p)) for e, p in v)
            for h, v in self._ask("attack_map", unit_id).items()
        }
        return found if within is None else {h: v for h, v in found.items() if h in set(within)}

    def viewshed(self, hex_label: str) -> tuple[Any, Any]:
        import numpy as np

        clear, hindrance = self._ask("viewshed", hex_label)
        return np.asarray(clear, dtype=bool), np.asarray(hindrance, dtype=np.int8)

    def setup_area(self, side: str | None = None) -> list[str]:
        if side is not None and side != self.side:
            return []
        return list(self._ask("setup_area"))

    def setup_hexes(self, unit_id: str) -> list[str]:
        return list(self._ask("setup_hexes", unit_id))

    def _acting(self) -> bool:
        return self.view.acting == self.side

    def legal_actions(self) -> list[Action]:
        return self.view.legal_actions()

    def actions(self) -> list[Action]:
        return self.view.legal_actions()

    def check(self, action: Action) -> str | None:
        if not self._acting():
            return f"{self.view.acting or 'nobody'} acts now, not {self.side}"
        if action.to_json() in self.view.legal:
            return None
        return self._ask("check", action.to_json())

    def can_act(self) -> list[str]:
        return list(self._ask("can_act")) if self._acting() else []

    def nothing_to_do(self) -> bool:
        return False  # the server passes such phases by itself (HX-15)

    def placeable(self) -> list[str]:
        return list(self.view.placeable)

    def setup_choices(self) -> list[str]:
        return list(self._ask("setup_choices")) if self._acting() else []

    def move_costs(self, unit_id: str) -> dict[str, float]:
        if not self._acting():
            return {}
        return {h: float(c) for h, c in self._ask("move_costs", unit_id).items()}

    def route(self, unit_id: str, hex_label: str) -> Route | None:
        return _route(self._ask("route", unit_id, hex_label)) if self._acting() else None

    def reachable(self, unit_id: str) -> dict[str, Route]:
        if not self._acting():
            return {}
        found = self._ask("reachable", unit_id)
        return {h: r for h, v in found.items() if (r := _route(v)) is not None}

    def exit_edge(self, unit_id: str, facing: int | None = None) -> str | None:
        return self._ask("exit_edge", unit_id, facing)

    def engine_action(self, action: Action) -> Action:
        return action

    def submit(self, action: Action) -> list[Event]:
        return self._session.act(action)
