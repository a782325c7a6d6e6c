"""A seat's table: everything one side may see and ask of a game, and its one way to act
(docs/architecture.md "Seats and views"). In the engine, so that the computer player (beside
the files, under the session) reads its side through one too.

The screen, the replay viewer's one-side view and the computer player hold a :class:`Table`,
never the game: its state is the side's :class:`~game.engine.view.View` (the units as the side
sees them, a "?" by an alias that tells nothing of what it is, RD-11), and its questions (the
odds of a shot, the fire map, the threat map, the hexes a unit may enter, a route, a set-up
area, what a hex sees) are asked with the side, so the answers are the same whether asked here
or of a server. A "?" is named by its alias ("?E3") in every question and action; the table
turns it back into the unit it stands for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from game.board import Board

from .actions import Action, Fire
from .catalogue import UnitType
from .errors import IllegalAction
from .events import Event
from .game import Game, _unit_view, hidden_aliases
from .imagine import determinize
from .knowledge import Knowledge, ShotOdds, Tracking
from .play.paths import Route
from .play.threat import HexThreat
from .setup import Victory
from .view import Seer, UnitView, View
from .vocabulary import REMOVED, PhaseName

Submit = Callable[[str | None, Action], list[Event]]


class Table:
    """What ``side`` may see and ask of ``game`` now (``side`` None: everything, the replay
    viewer's view of both sides); ``submit`` acts for the side (None: a table that only
    looks, the replay viewer's)."""

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

    # --- the view ----------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """The side's view now (made once for this table's version)."""
        if self._view is None:
            self._view = self._game.side_view(self.side, self.version, self._seer)
        return self._view

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
                self._units = [_unit_view(d, alias) for d in self._know().units()]
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

    def exited(self, edge: str) -> int:
        """How many of this side's units have left the map by ``edge`` (RD-13)."""
        return int(self._game.state.exited.get(f"{self.side}:{edge}", 0))

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

    # --- questions asked with the side --------------------------------------------------------

    def odds(self, firer_id: str, target_id: str, ammo: str | None = None) -> ShotOdds:
        """The odds of ``firer`` shooting at ``target`` as this side may be shown them
        (IllegalAction with the reason when the shot is not allowed)."""
        return self._know().odds(self._own(firer_id), self.real(target_id), ammo)

    def fire_map(self, firer_id: str, ammo: str | None = None) -> dict[str, tuple[float, str]]:
        return self._know().fire_map(self._own(firer_id), ammo)

    def threat_map(self, unit_id: str, within: Iterable[str] | None = None) -> dict[str, HexThreat]:
        return self._know().threat_map(self._own(unit_id), within)

    def threat_here(self, unit_id: str) -> HexThreat:
        return self._know().threat_here(self._own(unit_id))

    def attack_map(
        self, unit_id: str, within: Iterable[str] | None = None
    ) -> dict[str, tuple[tuple[str, float], ...]]:
        """For this side's vehicle: hex -> (enemy, P(removed)) of each enemy this side knows
        (never a "?") it could shoot from there (:meth:`Knowledge.attack_map`)."""
        return self._know().attack_map(self._own(unit_id), within)

    def threat_facings(self, unit_id: str) -> dict[int, HexThreat]:
        """For this side's vehicle: how likely it would be removed where it stands in each
        of the six facings (a turretless vehicle's Covered Arc turning with its hull), from
        the enemies this side knows (RD-18, RD-8)."""
        real = self._own(unit_id)
        copy = self._game.copy()
        mover = copy.state.units[real]
        out = {}
        for f in range(6):
            mover.facing = f
            if not mover.type.turret:
                mover.turret = f
            out[f] = copy.knowledge(self.side).threat_here(real)
        return out

    def viewshed(self, hex_label: str) -> tuple[Any, Any]:
        """What a hex sees (RD-9): the map alone decides it."""
        return self._game.viewshed(hex_label)

    def setup_area(self, side: str | None = None) -> list[str]:
        """Every hex where this side may set up a unit (HX-12)."""
        side = side or self.side
        if side is None or (self.side is not None and side != self.side):
            return []
        return self._game.setup_area(side)

    def setup_hexes(self, unit_id: str) -> list[str]:
        return self._game.setup_hexes(self._own(unit_id))

    def _acting(self) -> bool:
        return self.side is None or self.to_act == self.side

    def legal_actions(self) -> list[Action]:
        """The actions this side may take now (none when another side acts; the set-up's
        placements are asked hex by hex, :meth:`setup_hexes`)."""
        return self.view.legal_actions()

    def actions(self) -> list[Action]:
        """Every action this side may take now, the set-up's placements and bore sights
        included (the computer weighs them all), a "?" target by its alias in the aliases'
        order (as :meth:`legal_actions`); none when another side acts."""
        if self._all is None:
            if not self._acting() or self.over:
                self._all = []
            else:
                alias = self._aliases()
                acts = self._game.legal_actions()
                if alias:  # as the view lists them (Game.side_view: _in_alias_order)
                    shown = [self._shown(a, alias) for a in acts]
                    names = set(alias.values())
                    at = [i for i, a in enumerate(shown) if getattr(a, "target", "") in names]
                    ordered = sorted((shown[i] for i in at), key=lambda a: a.target)  # type: ignore[attr-defined]
                    for i, a in zip(at, ordered, strict=True):
                        shown[i] = a
                    acts = shown
                self._all = acts
        return list(self._all)

    @staticmethod
    def _shown(action: Action, alias: dict[str, str]) -> Action:
        if isinstance(action, Fire) and action.target in alias:
            return Fire(action.unit, alias[action.target], action.ammo, action.mp)
        return action

    def check(self, action: Action) -> str | None:
        """Why this side may not take ``action`` now (None: it may)."""
        if not self._acting():
            return f"{self.view.acting or 'nobody'} acts now, not {self.side}"
        return self._game.check(self._translate(action))

    def can_act(self) -> list[str]:
        """This side's units that can still move or fire this phase (their green dots)."""
        return self._game.can_act() if self._acting() else []

    def nothing_to_do(self) -> bool:
        return self._acting() and self._game.nothing_to_do()

    def placeable(self) -> list[str]:
        if self._view is not None:
            return list(self._view.placeable)
        return self._game.placeable() if self._acting() and not self.over else []

    def setup_choices(self) -> list[str]:
        return self._game.setup_choices() if self._acting() else []

    def move_costs(self, unit_id: str) -> dict[str, float]:
        """The hexes this side's ``unit_id`` may enter now, with their MP (RD-10)."""
        if not self._acting():
            return {}
        real = self._own(unit_id)
        costs = self._costs.get(real)
        if costs is None:
            costs = self._costs[real] = self._game.move_costs(real)
        return costs

    def route(self, unit_id: str, hex_label: str) -> Route | None:
        return self._game.route(self._own(unit_id), hex_label) if self._acting() else None

    def reachable(self, unit_id: str) -> dict[str, Route]:
        return self._game.reachable(self._own(unit_id)) if self._acting() else {}

    def exit_edge(self, unit_id: str, facing: int | None = None) -> str | None:
        return self._game.exit_edge(self._own(unit_id), facing)

    # --- acting ------------------------------------------------------------------------------

    def _translate(self, action: Action) -> Action:
        """An action naming a "?" by its alias, as the engine names it."""
        if isinstance(action, Fire) and action.target != self.real(action.target):
            return Fire(action.unit, self.real(action.target), action.ammo, action.mp)
        return action

    def engine_action(self, action: Action) -> Action:
        """``action`` as the engine names it (a "?" target by its id): for the session, which
        applies the computer's choice."""
        return self._translate(action)

    # --- imagining ---------------------------------------------------------------------------

    def imagined(self, seed: int) -> Snapshot:
        """A game this side may play on apart from this one (the computer's search): a copy
        holding only what it may know (:func:`~.imagine.determinize`: new dice from
        ``seed``, no enemy Bore Sighted Location, each enemy "?" a Gun of its side's prior,
        which "?" is which dealt anew), with a table for each side that acts on it."""
        if self.side is None:
            raise ValueError("only a side imagines")
        hidden = frozenset(self._aliases())
        return Snapshot(determinize(self._game, self.side, seed, hidden), play=True)

    def submit(self, action: Action) -> list[Event]:
        """Take ``action`` for this side (IllegalAction with the reason when it may not)."""
        if self._submit is None:
            raise IllegalAction("watching", "this table only looks: no action here")
        return self._submit(self.side, self._translate(action))


class Snapshot:
    """Tables over a game that is only looked at (the replay viewer's position, a test's
    game): each side's table, made anew when the game has changed. ``play``: each side's
    table acts on the game (a search's imagined copy, a test's game; refused unless that side
    is to act)."""

    def __init__(self, game: Game, play: bool = False):
        self._game = game
        self._seer = Seer()
        self._tables: dict[str | None, Table] = {}
        self._at = -1
        self._play = play

    def _apply(self, side: str | None, action: Action) -> list[Event]:
        game = self._game
        if game.over:
            raise IllegalAction("game_over", "the game is over")
        if side is not None and side != game.to_act:
            raise IllegalAction("not_your_turn", f"{game.to_act} acts now, not {side}")
        return game.apply(action)

    @property
    def game(self):  # -> Game (for the tests; the screen reads its tables)
        return self._game

    def refresh(self) -> None:
        """The game was changed other than by an action (a test's hand): read it afresh."""
        self._tables.clear()
        self._at = -1

    def step(self, action: Action) -> list[Event]:
        """Apply the next recorded action (the replay viewer steps through a save)."""
        return self._game.apply(action)

    def table(self, side: str | None) -> Table:
        at = self._game.actions_applied
        if at != self._at:
            self._tables.clear()
            self._at = at
        table = self._tables.get(side)
        if table is None:
            submit = self._apply if self._play else None
            table = self._tables[side] = Table(self._game, side, at, self._seer, submit)
        return table
