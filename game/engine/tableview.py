"""What a seat's table shows (docs/architecture.md "Seats and views"): one side's view of a game,
the units as it sees them (a "?" by its alias, RD-11), and the public facts of the game and the
scenario. :class:`~game.engine.table.Table` adds the questions the side may ask and its one way
to act.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from game.board import Board

from .actions import Action
from .catalogue import UnitType
from .errors import IllegalAction
from .events import Event
from .game import Game
from .knowledge import Knowledge, Tracking
from .play.movement import edge_of, exit_hex
from .play.victory import exited
from .setup import Victory, counts_as
from .sideview import Legal, hidden_aliases, unit_view
from .view import Seer, UnitView, View
from .vocabulary import REMOVED, PhaseName

Submit = Callable[[str | None, Action], list[Event]]


class TableView:
    """What ``side`` is shown of ``game`` now (``side`` None: everything, the replay viewer's
    view of both sides): its view, the units as it sees them, the public facts of the game and
    the scenario. :class:`~game.engine.table.Table` adds the questions it may ask and its way to
    act (``submit``: None for a table that only looks, the replay viewer's)."""

    def __init__(
        self,
        game: Game,
        side: str | None,
        version: int,
        seer: Seer | None = None,
        submit: Submit | None = None,
    ):
        self._game = game
        self.side = side
        self.version = version
        self._seer = seer or Seer()
        self._submit = submit
        self._view: View | None = None
        self._knows: Knowledge | None = None
        self._alias: dict[str, str] | None = None
        self._real: dict[str, str] | None = None
        self._units: list[UnitView] | None = None
        self._costs: dict[str, dict[str, float]] = {}
        self._all: list[Action] | None = None
        self._legal: Legal | None = None

    # --- the view ----------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """The side's view now (made once for this table's version)."""
        if self._view is None:
            self._view = self._game.side_view(self.side, self.version, self._seer, self._legal)
        return self._view

    def shown_legal(self) -> Legal:
        """The view's ``legal`` and ``placeable``, made once for this table's version (and
        handed to the view when it is made): HX-15 asked of them does not make the whole view
        (a server makes it only when it is sent: a phase that passes by itself is never shown,
        issue 43)."""
        if self._view is not None:
            return self._view.legal, self._view.placeable
        if self._legal is None:
            self._legal = self._game.shown_legal(self.side, self._aliases())
        return self._legal

    def _know(self) -> Knowledge:
        if self._knows is None:
            self._knows = self._game.knowledge(self.side)
        return self._knows

    def _aliases(self) -> dict[str, str]:
        if self._alias is None:
            self._alias = hidden_aliases(self._game.state, self.side)
            self._real = {a: uid for uid, a in self._alias.items()}
        return self._alias

    def real(self, unit_id: str) -> str:
        """The unit an id or a "?"'s alias names (the engine's id)."""
        self._aliases()
        assert self._real is not None
        return self._real.get(unit_id, unit_id)

    def shown_id(self, unit_id: str) -> str:
        """The id this side knows a unit by (a "?"'s alias, RD-11)."""
        return self._aliases().get(unit_id, unit_id)

    def _own(self, unit_id: str) -> str:
        """``unit_id`` when it is this side's unit (a question about a unit's moves or set-up
        is its owner's); IllegalAction otherwise."""
        real = self.real(unit_id)
        unit = self._game.state.units.get(real)
        if unit is None:
            raise IllegalAction("no_unit", f"no unit {unit_id}")
        if self.side is not None and unit.side != self.side:
            raise IllegalAction("not_own", f"{self.shown_name(unit_id)} is not a {self.side} unit")
        return real

    # --- the public facts of the game --------------------------------------------------------

    @property
    def board(self) -> Board:
        """The map (every side sees the whole map)."""
        return self._game.state.board

    # (each the same value the side's view holds, read without making the whole view: the
    # computer asks these at every decision of a search's playouts)

    @property
    def sides(self) -> tuple[str, str]:
        return tuple(self._game.state.setup.sides)  # type: ignore[return-value]

    @property
    def turns(self) -> int:
        return self._game.state.setup.turns

    @property
    def defender(self) -> str:
        """The scenario defender (it wins when time runs out, HX-11)."""
        return self._game.state.setup.defender

    @property
    def first(self) -> str:
        """The side that moves first each game turn (RD-12)."""
        return self._game.state.setup.first

    @property
    def turn(self) -> int:
        return self._game.state.turn

    @property
    def phase(self) -> PhaseName:
        return self._game.state.phase

    @property
    def phasing(self) -> str:
        return self._game.state.phasing

    @property
    def non_phasing(self) -> str:
        return self._game.state.non_phasing

    @property
    def to_act(self) -> str | None:
        """The side the game waits for (the defender during a Defensive First Fire chance);
        None once the game is over."""
        state = self._game.state
        return None if state.over else state.to_act

    @property
    def over(self) -> bool:
        return self._game.state.over

    @property
    def winner(self) -> str | None:
        return self._game.state.winner

    @property
    def end_reason(self) -> str:
        return self._game.state.end_reason

    @property
    def moving_unit(self) -> str | None:
        """The unit moving now, by the id this side knows it by."""
        moving = self._game.state.moving_unit
        return self.shown_id(moving) if moving else None

    @property
    def dff_pending(self) -> tuple[str, ...]:
        """The units of this side offered a Defensive First Fire chance now (C6.17); empty for
        the moving side, which is told nothing of who could fire (RD-11)."""
        state = self._game.state
        if state.dff_pending and state.moving_unit and self.side in (None, state.non_phasing):
            return tuple(state.dff_pending)
        return ()

    @property
    def waiting_for_dff(self) -> bool:
        """The defender is deciding on a Defensive First Fire chance (the mover waits)."""
        acting = self.to_act
        return self.phase == "movement" and acting is not None and acting != self.phasing

    def _read(self):
        if self._view is not None:
            return self._view.events
        return self._seer.events(self._game.state.history, self.side)

    def events(self) -> list[Event]:
        """The history as this side may read it."""
        return [e.event() for e in self._read()]

    def event_count(self) -> int:
        return len(self._read())

    # --- the units ---------------------------------------------------------------------------

    def units(self) -> list[UnitView]:
        """The units in play as this side sees them (a "?" by its alias)."""
        if self._units is None:
            if self._view is not None:
                self._units = list(self._view.units)
            else:  # as the view makes them (Game.side_view), without the rest of it
                alias = self._aliases()
                self._units = [unit_view(d, alias) for d in self._know().units()]
        return self._units

    def unit(self, unit_id: str | None) -> UnitView | None:
        if unit_id is None:
            return None
        return next((u for u in self.units() if u.id == unit_id), None)

    def name(self, unit_id: str) -> str:
        """The unit's name as this side may read it ("a concealed unit in E3" for a "?")."""
        return self._know().name(self.real(unit_id))

    shown_name = name

    def where(self, unit_id: str) -> str:
        """The hex a unit is (or was last) in (every side knows where each counter is)."""
        return self._know().where(self.real(unit_id))

    def losses(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self.view.losses.items()}

    def tracking(self) -> Tracking | None:
        t = self.view.tracking
        if t is None:
            return None
        rows = tuple((r.firer, r.mp, r.exempt, r.shot_mp, r.case) for r in t.rows)
        return Tracking(t.hex, t.moved, rows)

    def known_enemies(self) -> set[str]:
        """The enemy units in play this side knows (never a "?")."""
        return self._know().known_enemies()

    def out_of_play(self) -> set[str]:
        """The units out of play that this side saw leave: its own, however they went, and
        the enemy's removed (a removal is seen by both sides, HX-13) or gone off the map
        unconcealed."""
        return {
            u.id
            for u in self._game.state.units.values()
            if not u.active
            and (
                self.side is None
                or u.side == self.side
                or (u.status in REMOVED and u.status != "exited")
                or not u.concealed
            )
        }

    def gone_enemies(self) -> set[str]:
        """The enemy units out of play that this side saw leave (:meth:`out_of_play`: removed,
        or gone off the map unconcealed)."""
        units = self._game.state.units
        return {uid for uid in self.out_of_play() if units[uid].side != self.side}

    def went_off(self, unit_id: str, gone: Iterable[str] | None = None) -> str | None:
        """The map edge by which a unit this side saw leave play (:meth:`out_of_play`, or
        ``gone`` when the caller holds it) left the map (RD-13: an exit is seen by both sides,
        and the victory line counts it); None if it was removed, or is in play. The edge is
        the one it left by (:func:`~game.engine.play.movement.exit_hex`)."""
        state = self._game.state
        unit = state.units.get(self.real(unit_id))
        if unit is None or unit.status != "exited":
            return None
        if unit.id not in (self.out_of_play() if gone is None else gone):
            return None
        out = exit_hex(state, unit)
        return None if out is None else edge_of(state, out)

    def seen_exits(self, side: str, edge: str, only: str | None = None) -> int:
        """How many of ``side``'s units this side saw leave the map by ``edge`` (RD-13: an exit
        is seen by both sides); ``only``: its vehicles or AFVs alone. Its own: :meth:`exited`.
        One that left concealed is read as "a concealed unit leaves the map by the west edge"
        (RD-11): what it was stays its side's secret, so it is counted as one that may count,
        as a "?" in play is taken as one that may get there
        (:func:`~game.ai.valuation.reach.exit_open`); but when ``side`` has an exit victory by
        ``edge`` for ``only``, the line of it on this side's view says how many count so far
        (:func:`~.sideview.victory_line`), and the count is that one (issue 41, twelfth
        session: before, an exit made concealed was not counted at all)."""
        if side == self.side:
            return self.exited(edge, only)
        state = self._game.state
        shown = any(
            v.kind == "exit" and v.side == side and v.edge == edge and v.only == only
            for v in state.setup.victory
        )
        gone = self.out_of_play()
        count = 0
        for u in state.units.values():
            if u.side != side or u.status != "exited":
                continue
            out = exit_hex(state, u)
            if out is None or edge_of(state, out) != edge:
                continue
            if counts_as(only, u.type.category) or (not shown and u.id not in gone):
                count += 1  # one it knows counts, or a "?" that may
        return count

    def gone(self, unit_id: str) -> str | None:
        """How this side's unit left play ("exited", "eliminated", ...), None while in play."""
        unit = self._game.state.units[self._own(unit_id)]
        return None if unit.active else unit.status

    def unit_type(self, unit_id: str) -> UnitType:
        """The type of a unit this side sees (its own, or an enemy it knows: never a "?")."""
        real = self.real(unit_id)
        unit = self._game.state.units.get(real)
        k = self._know()
        if unit is None or k.hidden(unit) or k.unseen(unit):
            raise IllegalAction("unknown", f"{unit_id}: not a unit {self.side} knows")
        return unit.type

    def exited(self, edge: str, only: str | None = None) -> int:
        """How many of this side's units (``only``: its vehicles or AFVs) have left the map
        by ``edge`` (RD-13)."""
        if self.side is None:
            return 0
        return exited(self._game.state, self.side, edge, only)

    # --- the scenario's public facts -----------------------------------------------------------

    @property
    def victory(self) -> tuple[Victory, ...]:
        """The victory conditions (RD-13): every side reads them."""
        return tuple(self._game.state.setup.victory)

    def home_hexes(self) -> list[str]:
        """The hexes the scenario file sets this side's units up in (where its side came
        from: the file names them)."""
        return [u.hex for u in self._game.state.setup.units if u.side == self.side]

    @property
    def game_key(self) -> int:
        """An opaque key of the game this table looks at, the same for every table of it (the
        computer keeps a phase's plan by it)."""
        return id(self._game)
