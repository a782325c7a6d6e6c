"""One seat's table on a server (:class:`RemoteTable`, the window's ``hexfire join``): what a
local :class:`~game.engine.table.Table` answers, from the seat's view and from the server's
answers to its questions (asked with that side's own table on the server), each kept for the
view's version; the answers' JSON made back into the engine's values."""

from __future__ import annotations

from typing import Any, Protocol

from game.board import Board
from game.engine import IllegalAction
from game.engine.actions import Action, action_from_json
from game.engine.catalogue import UnitType, unit_types
from game.engine.events import Event
from game.engine.knowledge import ShotOdds, Tracking
from game.engine.play.paths import Route
from game.engine.play.threat import HexThreat, Threat
from game.engine.view import UnitView, View


class Seat(Protocol):
    """What a remote table asks of its seat (:class:`~.remote.RemoteSession`)."""

    def ask(self, question: str, *args: Any) -> Any: ...

    def board(self) -> Board: ...

    def act(self, action: Action) -> list[Event]: ...


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


class RemoteTable:
    """One seat's table on a server: what :class:`~game.engine.table.Table` answers, from the
    view the server sent (the units, the phase, the log, the legal actions, the Defensive First
    Fire chance, the movement tracking) and from the server's answers to its questions, each
    kept for this view's version."""

    def __init__(self, session: Seat, view: View):
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

    def exited(self, edge: str, only: str | None = None) -> int:
        return int(self._ask("exited", edge, only))

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
