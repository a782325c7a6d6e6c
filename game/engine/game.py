"""The game: ``Game.apply(action)`` is the one door that changes it (docs/architecture.md).

:class:`Game` checks an action against the phase table and hands it to its handler (a table
from action type to the function in ``play/`` that checks it and returns the change); an
illegal action raises :class:`IllegalAction` with a reason a player understands and leaves the
state untouched. The rest are questions: the legal actions, the odds of a shot, what one side
may see, the state hash. The state itself is :class:`GameState`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.board import Board
from game.rules.dff import DffBudget
from game.rules.dice import Dice
from game.rules.odds import Odds

from . import sideview
from .actions import (
    ACTION_TYPES,
    Action,
    ButtonUp,
    CrewExposed,
    EndPhase,
    Fire,
    Move,
    Pass,
    Place,
    Turn,
)
from .errors import IllegalAction
from .events import Event
from .knowledge import Knowledge
from .legal import iter_candidates, legal
from .phases import DFF_ACTIONS, PHASES
from .play import Commit, concealment, fire, hatches, movement, setup, turns
from .play.paths import Route, cheapest_route, reachable
from .play.shot import dff_budget_for, preview_fire
from .play.threat import HexThreat
from .setup import Setup
from .state import GameState, UnitState
from .view import Seer, View
from .vocabulary import PhaseName

HANDLERS: dict[str, Callable[[GameState, Any], Commit]] = {
    "place": setup.place,
    "bore_sight": setup.bore_sight,
    "conceal": concealment.conceal,
    "move": movement.move,
    "turn": movement.turn,
    "end_move": movement.end_move,
    "button_up": hatches.hatch,
    "crew_exposed": hatches.hatch,
    "fire": fire.fire,
    "pass": fire.pass_dff,
    "end_phase": turns.end_phase,
}
"""Action type -> the handler that checks it and returns its commit (one per registered type,
checked at import by :func:`check_registry`)."""


class Game:
    """A game in progress. Build it from a :class:`Setup` and a seed."""

    def __init__(self, setup: Setup, seed: int, dice: Dice | None = None):
        self.state = GameState.start(setup, seed, dice)
        self.actions_applied = 0

    def copy(self) -> Game:
        """A game to play on apart from this one (a search, the viewer's snapshots): the same
        state hash, and every action applied to it leaves this one as it was
        (:meth:`GameState.copy`)."""
        new = Game.__new__(Game)
        new.state = self.state.copy()
        new.actions_applied = self.actions_applied
        return new

    def __deepcopy__(self, memo: dict) -> Game:
        return self.copy()

    # --- the one door -------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Validate and apply one action; IllegalAction leaves the state untouched."""
        commit = self._validate(action)
        if self.state.occupancy is not None:  # a change inside GameState.held_still
            raise RuntimeError("an action applied while the state is held still")
        events = commit()
        if self.state.start_to is not None and not self.state.dff_pending:
            events.extend(movement.resume_start(self.state))  # HX-5: it leaves its hex now
        self.actions_applied += 1
        self.state.history.extend(events)
        return events

    def check(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or None if :meth:`apply` would accept it."""
        try:
            self._validate(action)
        except IllegalAction as e:
            return e.reason
        return None

    def _allowed(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action`` (the reason is never spelt out)."""
        try:
            self._validate(action)
        except IllegalAction:
            return False
        return True

    def _validate(self, action: Action) -> Commit:
        """Check the action against the phase table; its handler checks the rules."""
        s = self.state
        if s.over:
            raise IllegalAction("game_over", f"the game is over: {s.end_reason}")
        allowed = DFF_ACTIONS if s.dff_pending else PHASES[s.phase].actions
        if action.type not in allowed:
            if s.dff_pending:
                raise IllegalAction(
                    "dff_pending",
                    f"{s.non_phasing} may Defensive First Fire at the moving unit: "
                    "fire or pass first (C6.17)",
                )
            raise IllegalAction(
                "wrong_phase",
                f"no {action.type.replace('_', ' ')} in the {PHASES[s.phase].title}",
            )
        return HANDLERS[action.type](s, action)

    # --- questions ----------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action :meth:`apply` would accept now."""
        if self.state.over:
            return []
        with self.state.held_still():  # only checks run: no commit changes it
            return legal(self.state, self._allowed)

    def can_act(self) -> list[str]:
        """The units of the side to act that can still move (Movement Phase: a move or a turn
        in its hex, not a unit whose move is done: a vehicle whose front hex it may not enter
        must turn first, RD-10) or fire (a fire phase), in the order of :meth:`legal_actions`:
        each unit's candidates tried until one is legal (listing every legal action after each
        action cost the screen a frame)."""
        s = self.state
        by_phase: dict[str, tuple[type[Action], ...]] = {
            "movement": (Move, Turn),
            "prep_fire": (Fire,),
            "defensive_fire": (Fire,),
            "advancing_fire": (Fire,),
        }
        kinds = by_phase.get(s.phase)
        if s.over or s.dff_pending or kinds is None:
            return []
        out: list[str] = []
        with s.held_still():
            for action in iter_candidates(s):
                unit = getattr(action, "unit", None)
                if not isinstance(action, kinds) or unit is None or unit in out:
                    continue
                if isinstance(action, (Move, Turn)) and s.units[unit].moved:
                    continue
                if isinstance(action, Turn) and not s.units[unit].type.is_vehicle:
                    continue  # a Gun may pivot, but its move is no move (RD-10)
                if self._allowed(action):
                    out.append(unit)
        return out

    def nothing_to_do(self) -> bool:
        """HX-15: the side to act can do nothing in this phase but end it (no unit to place,
        no set-up choice, no move, turn or stop, no shot; a change of hatches alone does not
        count). Asked of the acting side's own units and of what it may see (a "?" is a
        target), so the answer tells neither side a secret; the first legal candidate ends the
        search."""
        s = self.state
        if s.over or s.dff_pending:
            return False
        idle = (EndPhase, ButtonUp, CrewExposed, Pass)
        return not any(
            not isinstance(action, idle) and self._allowed(action) for action in iter_candidates(s)
        )

    def preview_fire(self, firer: str, target: str, ammo: str | None = None) -> Odds:
        """The exact odds of ``firer`` shooting at ``target`` now, built exactly as the shot
        would be (the odds panel); IllegalAction with the reason when the shot is not allowed.
        No die is drawn and nothing changes."""
        return preview_fire(self.state, firer, target, ammo)

    def shot_odds(self, action: Fire) -> Odds:
        """The exact odds of the shot ``action`` would take now, as it would be resolved (its
        ammunition, its Defensive First Fire claim of MP, C6.17): the luck report's figures."""
        return preview_fire(self.state, action.unit, action.target, action.ammo, action.mp)

    def dff_budget_for(self, firer: UnitState, target: UnitState) -> DffBudget:
        """C6.17: the Defensive First Fire ``firer`` has left at ``target`` in its Location."""
        return dff_budget_for(self.state, firer, target)

    def knowledge(self, side: str | None) -> Knowledge:
        """What ``side`` may know now (``None``: everything): the units as it sees them, the
        events as it may read them, the odds, fire map and threat map as it may be shown them
        (:class:`Knowledge`, the one door for hidden information)."""
        return Knowledge(self.state, side)

    def side_view(
        self,
        side: str | None,
        version: int = 0,
        seer: Seer | None = None,
        legal: sideview.Legal | None = None,
    ) -> View:
        """Everything ``side`` may know now as one immutable value (:class:`View`, its JSON form
        what a remote window receives); ``version`` grows with every change of the game;
        ``seer`` keeps each side's readable events from one view to the next, and its view
        version: it grows with every change of what this side is shown (never with a change it
        may not see); ``legal``: :meth:`shown_legal`'s now, if made. Built by
        :func:`sideview.side_view`."""
        return sideview.side_view(
            self.state, side, version, seer, self._allowed, self.placeable, legal
        )

    def shown_legal(self, side: str | None, alias: dict[str, str]) -> sideview.Legal:
        """``side``'s view's ``legal`` and ``placeable`` without the rest of the view
        (:func:`sideview.shown_legal`; ``alias``: :func:`sideview.hidden_aliases`')."""
        return sideview.shown_legal(self.state, side, alias, self._allowed, self.placeable)

    def view(self, side: str | None) -> list[dict]:
        """The units as ``side`` may see them (:meth:`Knowledge.units`)."""
        return self.knowledge(side).units()

    def threat_map(self, unit_id: str, side: str) -> dict[str, HexThreat]:
        """For ``unit_id``: hex -> how likely it would be removed there (RD-18), from what
        ``side`` may know (:meth:`Knowledge.threat_map`)."""
        return self.knowledge(side).threat_map(unit_id)

    def viewshed(self, hex_label: str) -> tuple[Any, Any]:
        """What ``hex_label`` sees (RD-9): (clear, Case R hindrance), each indexed by board
        index (:meth:`Board.index`)."""
        board = self.state.board
        return self.state.viewshed(board.index(board.parse(hex_label)))

    def setup_hexes(self, unit_id: str) -> list[str]:
        """The hexes of the unit's set-up area (HX-12), for the screen to highlight."""
        return setup.setup_hexes(self.state, self.state.unit(unit_id))

    def placeable(self) -> list[str]:
        """The units the side to act may place now (HX-12: its units with a set-up area, in
        its set-up phase), without trying every hex of every area (:meth:`legal_actions` does:
        thousands of placements on a big map)."""
        state = self.state
        if state.over or state.phase not in ("setup", "setup_attacker") or state.dff_pending:
            return []
        return [
            u.id
            for u in state.units.values()
            if u.active and u.side == state.to_act and u.id in state.areas
        ]

    def setup_choices(self) -> list[str]:
        """The units of the side to act with a set-up choice open (HX-12: a placement, C6.42:
        a Bore Sighting, RD-11: concealment), in unit order: the placeable ones, and the others'
        candidates before the placements tried until one is legal (listing every placement
        took 1.2-1.8 s on the 200-unit set-up of the 200 x 200 map)."""
        state = self.state
        if state.over or state.phase not in ("setup", "setup_attacker") or state.dff_pending:
            return []
        found = dict.fromkeys(self.placeable())
        for action in iter_candidates(state):
            if isinstance(action, Place):
                break  # the placements come last: the placeable units are in already
            unit = getattr(action, "unit", None)
            if unit is not None and unit not in found and self._allowed(action):
                found[unit] = None
        return [u for u in state.units if u in found]

    def setup_area(self, side: str) -> list[str]:
        """Every hex where ``side`` may set up one of its units (the union of their set-up
        areas, HX-12), for the screen to show before a unit is picked."""
        seen: set[tuple] = set()
        out: dict[str, None] = {}
        for unit in self.state.units.values():
            area = self.state.areas.get(unit.id)
            kind = (area, unit.type.category != "infantry")
            if unit.side != side or area is None or kind in seen:
                continue
            seen.add(kind)
            out.update(dict.fromkeys(setup.setup_hexes(self.state, unit)))
        return list(out)

    def move_costs(self, unit_id: str) -> dict[str, float]:
        """The hexes ``unit_id`` may enter now (from :meth:`legal_actions`) and what each costs
        in MP / MF, start MP included (RD-10): the screen shows these."""
        unit = self.state.unit(unit_id)
        out: dict[str, float] = {}
        for action in self.legal_actions():
            if isinstance(action, Move) and action.unit == unit_id and action.to != "off":
                start, cost = movement.entry_cost(
                    self.state, unit, self.state.board.parse(action.to)
                )
                out[action.to] = start + cost
        return out

    def exit_edge(self, unit_id: str, facing: int | None = None) -> str | None:
        """The map edge ``unit_id`` would leave by with ``Move(unit_id, "off")`` (RD-13: a
        vehicle through its front hexside, Infantry by its first edge hexside), or None
        when it stands where it cannot leave. ``facing``: a vehicle as if it faced so."""
        out = movement.exit_hex(self.state, self.state.unit(unit_id), facing)
        return None if out is None else movement.edge_of(self.state, out)

    def route(self, unit_id: str, hex_label: str) -> Route | None:
        """The cheapest moves and turns that bring the moving side's vehicle (or the moves
        that bring its Infantry) to ``hex_label`` in this Movement Phase (RD-10, HX-3), or
        None; a plan, each step to be applied through :meth:`apply` (the screen's path moves)."""
        return cheapest_route(self.state, unit_id, hex_label)

    def reachable(self, unit_id: str) -> dict[str, Route]:
        """Every hex the moving side's vehicle can reach this phase, with its cheapest route
        (the computer player weighs them all)."""
        return reachable(self.state, unit_id)

    def state_hash(self) -> str:
        """SHA-256 of the canonical state (:meth:`GameState.hash`), for replays."""
        return self.state.hash()

    # --- the state, read-only (tests and the screen read these) -----------------------------

    @property
    def setup(self) -> Setup:
        return self.state.setup

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def units(self) -> dict[str, UnitState]:
        return self.state.units

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def phase(self) -> PhaseName:
        return self.state.phase

    @property
    def phasing(self) -> str:
        return self.state.phasing

    @property
    def non_phasing(self) -> str:
        return self.state.non_phasing

    @property
    def to_act(self) -> str:
        return self.state.to_act

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> str | None:
        return self.state.winner

    @property
    def end_reason(self) -> str:
        return self.state.end_reason

    @property
    def moving_unit(self) -> str | None:
        return self.state.moving_unit

    @property
    def dff_pending(self) -> tuple[str, ...]:
        return self.state.dff_pending

    @property
    def history(self) -> list[Event]:
        return self.state.history

    @property
    def dice(self) -> Dice:
        return self.state.dice

    @dice.setter
    def dice(self, dice: Dice) -> None:
        """Tests script the dice (:class:`FixedDice`); the game itself never replaces them."""
        self.state.dice = dice


def check_registry() -> None:
    """The action registry, the handlers and the phase table name the same action types, so
    every action the engine accepts can be saved, loaded and replayed (one registry)."""
    registered = set(ACTION_TYPES)
    handled = set(HANDLERS)
    in_phases = set().union(*(p.actions for p in PHASES.values())) | DFF_ACTIONS
    if registered != handled or registered != in_phases:
        raise RuntimeError(
            "action registry out of step: registered "
            f"{sorted(registered)}, handled {sorted(handled)}, in phases {sorted(in_phases)}"
        )


check_registry()
