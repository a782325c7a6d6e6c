"""The game: ``Game.apply(action)`` is the one door that changes it (DESIGN.md).

It validates every action (raising :class:`IllegalAction` with a reason a player understands and
leaving the state untouched), calls the rules library for every roll and result, feeds it what
the board and the movement tracking know, and returns the events, each citing its rules.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from game.board.hexes import Hex, direction_to, label, to_offset
from game.board.los import los
from game.board.visibility import Visibility
from game.rules import acquisition as acq_rules
from game.rules.attack import Attack, AttackResult, Odds, odds, plan, resolve
from game.rules.dff import DffBudget, dff_budget
from game.rules.dice import Dice
from game.rules.drm import RuleError
from game.rules.facing import asl_aspect, chart_aspect, facing_offset
from game.rules.outcomes import recovery, shock_again
from game.rules.to_hit import Situation

from .actions import (
    ACTION_TYPES,
    Action,
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Pass,
    Turn,
)
from .catalogue import catalogue
from .events import Event
from .phases import DFF_ACTIONS, PHASES
from .setup import Setup
from .state import REMOVED, UnitState

BORE_SIGHT_RANGE = 16
"""C6.42: a Bore Sighted Location within the weapon's Normal Range, 16 hexes at most."""
CONCEALMENT_LOSS_RANGE = 16
"""RD-11: a concealed unit moving in the LOS of an enemy unit within 16 hexes loses it."""
COVERED_ARC_HALF = 30.0
"""HX-2: a Gun or a vehicle without a turret fires only into its Covered Arc, the 60-degree
wedge between the hexspines of its front hexside: at most 30 degrees either side of its facing.
A target exactly on a hexspine is inside (the boundary belongs to the arc)."""


class IllegalAction(Exception):
    """An action the rules or the phase do not allow; the state is untouched."""

    def __init__(self, code: str, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass
class _Track:
    """C6.15: MP a moving vehicle has spent in one enemy unit's continuous LOS."""

    los_mp: float = 0.0
    exempt: bool = False


class Game:
    """A game in progress. Build it from a :class:`Setup` and a seed."""

    def __init__(self, setup: Setup, seed: int, dice: Dice | None = None, scalar_los: bool = False):
        self.setup = setup
        self.seed = seed
        self.board = setup.board.copy()
        self.scalar_los = scalar_los
        """The benchmark's simple reference: every LOS traced by the scalar reference."""
        self.visibility = Visibility(self.board) if scalar_los else Visibility.of(self.board)
        self.dice = dice if dice is not None else Dice(seed)
        self.turn = 1
        self.player_turn = 0
        self.phase = "setup"
        self.over = False
        self.winner: str | None = None
        self.end_reason = ""
        self.moving_unit: str | None = None
        self.move_start: Hex | None = None
        """Where the moving unit began its move (C6.15)."""
        self.dff_pending: tuple[str, ...] = ()
        self.loc_mp = 0.0
        self.track: dict[tuple[str, str], _Track] = {}
        self.marks: dict[tuple[str, str, str, int], tuple[float, ...]] = {}
        self.exited: dict[str, int] = {}
        """Units that left the map, by "side:edge" (RD-13 exit conditions)."""
        self.actions_applied = 0
        self.history: list[Event] = []
        self._explain = True
        types = catalogue()
        self.letters: dict[str, str] = {}
        """Each Gun's Acquired-counter ID letter (C6.58), per side in set-up order."""
        self.units: dict[str, UnitState] = {}
        for us in setup.units:
            h = self.board.parse(us.hex)
            self.units[us.id] = UnitState(
                id=us.id,
                type=types[us.type],
                side=us.side,
                hex=h,
                facing=us.facing,
                turret=us.turret if us.turret is not None else us.facing,
                concealed=us.concealed,
                ce=us.ce,
                setup_hex=h,
                setup_facing=us.facing,
            )
            if types[us.type].gun:
                n = sum(1 for k in self.letters if self.units[k].side == us.side)
                self.letters[us.id] = chr(ord("A") + n % 26)

    # --- who and where ------------------------------------------------------------------

    @property
    def phasing(self) -> str:
        return self.setup.first if self.player_turn == 0 else self.setup.other(self.setup.first)

    @property
    def non_phasing(self) -> str:
        return self.setup.other(self.phasing)

    @property
    def to_act(self) -> str:
        """The side whose decision the game waits for."""
        if self.dff_pending:
            return self.non_phasing
        actor = PHASES[self.phase].actor
        if actor == "scenario_defender":
            return self.setup.defender
        return self.phasing if actor == "phasing" else self.non_phasing

    def unit(self, uid: str) -> UnitState:
        u = self.units.get(uid)
        if u is None:
            raise IllegalAction("no_unit", f"there is no unit {uid!r}")
        return u

    def units_at(self, h: Hex) -> list[UnitState]:
        return [u for u in self.units.values() if u.active and u.hex == h]

    def _index(self, u: UnitState) -> int:
        return self.board.index(u.hex)

    def can_see(self, a: UnitState, b: UnitState) -> bool:
        """RD-9: the LOS from a's hex to b's hex is clear."""
        return self.hex_sees(a.hex, b.hex)

    def hex_sees(self, a: Hex, b: Hex) -> bool:
        if self.scalar_los:
            return los(self.board, a, b).clear
        assert self.visibility.clear is not None
        return bool(self.visibility.clear[self.board.index(a), self.board.index(b)])

    def hindrance(self, a: UnitState, b: UnitState) -> int:
        """Case R: the hindrance DRM along a clear LOS (C6.9, RD-9)."""
        if self.scalar_los:
            return los(self.board, a.hex, b.hex).hindrance
        assert self.visibility.hindrance is not None
        return int(self.visibility.hindrance[self._index(a), self._index(b)])

    # --- the one door -------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Validate and apply one action; IllegalAction leaves the state untouched."""
        do = self._validate(action)
        events = do()
        self.actions_applied += 1
        self.history.extend(events)
        return events

    def check(self, action: Action, explain: bool = True) -> str | None:
        """Why ``action`` is illegal now, or None if :meth:`apply` would accept it.
        ``explain=False`` skips the costly part of a reason (the scalar LOS thread)."""
        self._explain = explain
        try:
            self._validate(action)
        except IllegalAction as e:
            return e.reason
        finally:
            self._explain = True
        return None

    def _validate(self, action: Action) -> Callable[[], list[Event]]:
        """Check the action against the phase table and the rules; return the change to make."""
        if self.over:
            raise IllegalAction("game_over", f"the game is over: {self.end_reason}")
        allowed = DFF_ACTIONS if self.dff_pending else PHASES[self.phase].actions
        if action.type not in allowed:
            if self.dff_pending:
                raise IllegalAction(
                    "dff_pending",
                    f"{self.non_phasing} may Defensive First Fire at the moving unit: "
                    "fire or pass first (C6.17)",
                )
            raise IllegalAction(
                "wrong_phase",
                f"no {action.type.replace('_', ' ')} in the {PHASES[self.phase].title}",
            )
        return self._handlers()[action.type](action)

    HANDLERS: dict[str, str] = {
        "bore_sight": "_bore_sight",
        "conceal": "_conceal",
        "move": "_move",
        "turn": "_turn",
        "end_move": "_end_move",
        "button_up": "_hatch",
        "crew_exposed": "_hatch",
        "fire": "_fire",
        "pass": "_pass",
        "end_phase": "_end_phase",
    }
    """Action type -> the method that checks it and returns its commit."""

    def _handlers(self) -> dict[str, Callable[[Action], Callable[[], list[Event]]]]:
        return {kind: getattr(self, name) for kind, name in self.HANDLERS.items()}

    def legal_actions(self) -> list[Action]:
        """Every action :meth:`apply` would accept now."""
        if self.over:
            return []
        return [a for a in self._candidates() if self.check(a, explain=False) is None]

    def _candidates(self) -> list[Action]:
        if self.dff_pending:
            target = self.moving_target()
            cands: list[Action] = [Pass()]
            if target:
                for fid in self.dff_pending:
                    cands.extend(
                        Fire(fid, target.id, am) for am in self._ammo_choices(self.units[fid])
                    )
            return cands
        cands = [EndPhase()]
        side = self.to_act
        mine = [u for u in self.units.values() if u.active and u.side == side]
        if self.phase == "setup":
            cands.extend(Conceal(u.id) for u in mine)
            for u in mine:
                if u.type.gun:
                    for t in self._bore_sight_hexes(u):
                        cands.append(BoreSight(u.id, t))
        elif self.phase == "movement":
            for u in mine:
                if self.moving_unit not in (None, u.id):
                    continue
                ahead = u.hex.neighbor(u.facing)
                if u.type.is_vehicle and self.board.contains(ahead):
                    cands.append(Move(u.id, label(ahead)))
                if any(not self.board.contains(n) for n in u.hex.neighbors()):
                    cands.append(Move(u.id, "off"))
                else:
                    cands.extend(
                        Move(u.id, label(n)) for n in u.hex.neighbors() if self.board.contains(n)
                    )
                cands.extend(Turn(u.id, (u.facing + d) % 6) for d in (1, -1))
                cands.extend([EndMove(u.id, False), EndMove(u.id, True)])
                cands.extend([ButtonUp(u.id), CrewExposed(u.id)])
        elif self.phase in ("prep_fire", "defensive_fire", "advancing_fire"):
            enemies = [u for u in self.units.values() if u.active and u.side != side]
            for u in mine:
                if u.type.has_at_weapon:
                    for t in enemies:
                        cands.extend(Fire(u.id, t.id, am) for am in self._ammo_choices(u))
                cands.extend([ButtonUp(u.id), CrewExposed(u.id)])
        return cands

    def _ammo_choices(self, u: UnitState) -> list[str | None]:
        return list(u.type.ammo) if u.type.gun else [None]

    def _bore_sight_hexes(self, u: UnitState) -> list[str]:
        """C6.42: hexes in the weapon's LOS within 16 hexes, outside its own hex."""
        out = []
        for j in range(self.board.size):
            h = self.board.hex_at(j)
            if h != u.hex and u.hex.distance(h) <= BORE_SIGHT_RANGE and self.hex_sees(u.hex, h):
                out.append(label(h))
        return out

    # --- set up -------------------------------------------------------------------------

    def _bore_sight(self, a: BoreSight) -> Callable[[], list[Event]]:
        u = self._own(a.unit, self.setup.defender)
        if not u.type.gun:
            raise IllegalAction(
                "no_bore_sight",
                f"{u.name}: only a Gun or a vehicle's main armament may Bore Sight (C6.41)",
            )
        if u.bore_sight is not None:
            raise IllegalAction(
                "no_bore_sight", f"{u.name} has already Bore Sighted {u.bore_sight} (C6.42)"
            )
        t = self._hex(a.hex)
        if t == u.hex:
            raise IllegalAction(
                "no_bore_sight",
                "the Bore Sighted Location must be outside the weapon's own hex (C6.42)",
            )
        if u.hex.distance(t) > BORE_SIGHT_RANGE:
            raise IllegalAction("no_bore_sight", f"{a.hex} is beyond 16 hexes (C6.42)")
        if not self.hex_sees(u.hex, t):
            raise IllegalAction("no_bore_sight", f"{a.hex} is not in {u.name}'s LOS (C6.42)")

        def do() -> list[Event]:
            u.bore_sight = label(t)
            return [
                Event(
                    "bore_sight",
                    f"{u.name} ({u.id}) Bore Sights {label(t)} (C6.42)",
                    ("C6.42",),
                    data={"unit": u.id, "hex": label(t)},
                )
            ]

        return do

    def _conceal(self, a: Conceal) -> Callable[[], list[Event]]:
        """Set-up: the scenario defender conceals a unit in woods or a building out of every
        enemy unit's LOS (RD-11; the same test as regaining concealment)."""
        u = self._own(a.unit, self.setup.defender)
        if u.concealed:
            raise IllegalAction("already_concealed", f"{u.name} is already concealed")
        if not self._may_hide(u):
            raise IllegalAction(
                "cannot_conceal",
                f"{u.name} may set up concealed only in woods or a building out of every "
                "enemy unit's LOS (RD-11)",
            )

        def do() -> list[Event]:
            u.concealed = True
            return [
                Event("concealment", f"{u.name} ({u.id}) sets up concealed (RD-11)", ("RD-11",))
            ]

        return do

    def _may_hide(self, u: UnitState) -> bool:
        """RD-11: in woods or a building, out of every enemy unit's LOS."""
        if self.board.terrain_at(u.hex).key not in ("woods", "wooden_building", "stone_building"):
            return False
        return not any(
            e.active and e.side != u.side and self.can_see(e, u) for e in self.units.values()
        )

    # --- movement -----------------------------------------------------------------------

    def _mover(self, uid: str) -> UnitState:
        u = self._own(uid, self.phasing)
        if self.moving_unit not in (None, u.id):
            raise IllegalAction(
                "other_moving", f"{self.units[self.moving_unit].name} is moving: end its move first"
            )
        if u.moved:
            raise IllegalAction("already_moved", f"{u.name} has already moved this phase")
        if u.fired_prep:
            raise IllegalAction(
                "fired_prep", f"{u.name} fired in the Prep Fire Phase and may not move (RD-12)"
            )
        if u.shock != "none":
            raise IllegalAction("shocked", f"{u.name} is shocked and may not move (C7.42)")
        return u

    def _edge_of(self, h: Hex) -> str:
        col, row = to_offset(h)
        if row < 0:
            return "north"
        if row >= self.board.rows:
            return "south"
        return "west" if col < 0 else "east"

    def _exit(self, u: UnitState) -> Callable[[], list[Event]]:
        """A unit on the map edge leaves the map (RD-13 exit): a vehicle through its front
        hexside (1 MP, hexfire), infantry by any edge hexside (1 MF)."""
        if u.type.category == "gun":
            raise IllegalAction("gun_cannot_move", f"{u.name} is a Gun and cannot move")
        if u.type.is_vehicle:
            if u.immobilized:
                raise IllegalAction(
                    "immobilized", f"{u.name} is immobilized and may not move (002)"
                )
            out = u.hex.neighbor(u.facing)
            if self.board.contains(out):
                raise IllegalAction("not_edge", f"{u.name} must face off the map edge to exit")
            start = 0.0 if (u.moving or u.motion) else 1.0
            left = u.type.mp - u.mp_spent
        else:
            offs = [n for n in u.hex.neighbors() if not self.board.contains(n)]
            if not offs:
                raise IllegalAction("not_edge", f"{u.name} is not on the map edge")
            out, start, left = offs[0], 0.0, u.type.mf - u.mp_spent
        if start + 1 > left:
            raise IllegalAction(
                "no_mp", f"{u.name} has {left:g} MP left; exiting costs {start + 1:g}"
            )
        edge = self._edge_of(out)

        def do() -> list[Event]:
            u.mp_spent += start + 1
            u.status = "exited"
            u.moving = False
            u.moved = True
            if self.moving_unit == u.id:
                self.moving_unit = None
            key = f"{u.side}:{edge}"
            self.exited[key] = self.exited.get(key, 0) + 1
            events = [
                Event(
                    "exit",
                    f"{u.name} ({u.id}) leaves the map by the {edge} edge from {u.label} (RD-13)",
                    ("RD-13",),
                    data={"unit": u.id, "edge": edge},
                )
            ]
            events.extend(self._check_victory())
            return events

        return do

    def _move(self, a: Move) -> Callable[[], list[Event]]:
        u = self._mover(a.unit)
        if a.to.lower() == "off":
            return self._exit(u)
        if u.type.category == "gun":
            raise IllegalAction("gun_cannot_move", f"{u.name} is a Gun and cannot move")
        to = self._hex(a.to)
        if to.distance(u.hex) != 1:
            raise IllegalAction("not_adjacent", f"{a.to} is not adjacent to {u.label}")
        terrain = self.board.terrain_at(to)
        climb = max(0, self.board.info(to).level - self.board.info(u.hex).level)
        start = 0.0
        if u.type.is_vehicle:
            if u.immobilized:
                raise IllegalAction(
                    "immobilized", f"{u.name} is immobilized and may not move (002)"
                )
            if to != u.hex.neighbor(u.facing):
                raise IllegalAction(
                    "not_ahead",
                    f"a vehicle moves through its front hexside: {u.name} faces "
                    f"{label(u.hex.neighbor(u.facing))}; turn first (RD-10)",
                )
            if not terrain.enterable_by_vehicle:
                raise IllegalAction("impassable", f"a vehicle cannot enter {terrain.name} (RD-10)")
            start = 0.0 if (u.moving or u.motion) else 1.0
            cost = terrain.mp + self.board.catalogue.climb_mp * climb
            left = u.type.mp - u.mp_spent
        else:
            cost = terrain.mf + climb
            left = u.type.mf - u.mp_spent
        if start + cost > left:
            unit_word = "MP" if u.type.is_vehicle else "MF"
            raise IllegalAction(
                "no_mp",
                f"{u.name} has {left:g} {unit_word} left; {a.to} costs {start + cost:g} (RD-10)",
            )
        for other in self.units_at(to):
            if other.side != u.side:
                raise IllegalAction("occupied", f"{a.to} holds an enemy unit")
            if u.type.is_vehicle and (other.type.is_vehicle or other.type.category == "gun"):
                raise IllegalAction(
                    "stacking", f"{a.to} already holds a vehicle or Gun (one per hex, HX-4)"
                )

        def do() -> list[Event]:
            events = []
            frm = u.label
            if self.moving_unit is None:
                self.move_start = u.hex
            if start:
                events.extend(self._spend(u, start, "start"))
            self.moving_unit = u.id
            u.moving = True
            u.hex = to
            u.entered_new_hex = True
            u.mp_spent += start + cost
            base = terrain.mp if u.type.is_vehicle else terrain.mf
            parts = ("start 1, " if start else "") + f"{terrain.name} {base:g}"
            if climb:
                parts += f", up {climb} level{'s' if climb > 1 else ''} +{cost - base:g}"
            events.insert(
                0,
                Event(
                    "move",
                    f"{u.name} ({u.id}) moves {frm} -> {label(to)}: "
                    f"{start + cost:g} {'MP' if u.type.is_vehicle else 'MF'} ({parts}; RD-10)",
                    ("RD-10",),
                    data={"unit": u.id, "from": frm, "to": label(to)},
                ),
            )
            events.extend(self._left_location(u))
            if u.type.is_vehicle:
                self.loc_mp = 0.0
                events.extend(self._spend(u, cost, "enter"))
            events.extend(self._concealment_check(u))
            events.extend(self._offer_dff(u))
            return events

        return do

    def _turn(self, a: Turn) -> Callable[[], list[Event]]:
        u = self._mover(a.unit)
        if not 0 <= a.facing <= 5 or (a.facing - u.facing) % 6 not in (1, 5):
            raise IllegalAction(
                "bad_facing",
                f"turn one hexside at a time: {u.name} faces {u.facing}, so 0-5 next to it",
            )
        start = 0.0
        if u.type.is_vehicle:
            if u.immobilized:
                raise IllegalAction(
                    "immobilized", f"{u.name} is immobilized and may not change facing (002)"
                )
            start = 0.0 if (u.moving or u.motion) else 1.0
            if start + 1 > u.type.mp - u.mp_spent:
                raise IllegalAction("no_mp", f"{u.name} has no MP left to turn (RD-10)")
        elif u.type.category != "gun":
            raise IllegalAction("no_facing", "infantry have no facing")

        def do() -> list[Event]:
            events = []
            if self.moving_unit is None:
                self.move_start = u.hex
            if start:
                events.extend(self._spend(u, start, "start"))
            old = u.facing
            u.facing = a.facing
            if not u.type.turret:
                u.turret = a.facing
            events.insert(
                0,
                Event(
                    "turn",
                    f"{u.name} ({u.id}) turns from hexside {old} to {a.facing}"
                    + (" (1 MP, RD-10)" if u.type.is_vehicle else ""),
                    ("RD-10",),
                    data={"unit": u.id, "facing": a.facing},
                ),
            )
            events.extend(self._ca_changed(u))
            if u.type.is_vehicle:
                self.moving_unit = u.id
                u.moving = True
                u.mp_spent += start + 1
                self.loc_mp = 0.0  # C6.17 counts MP in the current Target Facing
                events.extend(self._spend(u, 1.0, "turn"))
                events.extend(self._offer_dff(u))
            else:
                u.moved = True
            return events

        return do

    def _end_move(self, a: EndMove) -> Callable[[], list[Event]]:
        u = self._own(a.unit, self.phasing)
        if self.moving_unit != u.id:
            raise IllegalAction("not_moving", f"{u.name} is not moving")

        def do() -> list[Event]:
            events = []
            self.moving_unit = None
            u.moving = False
            u.moved = True
            if not u.type.is_vehicle:
                return [Event("end_move", f"{u.name} ({u.id}) ends its move in {u.label}")]
            left = u.type.mp - u.mp_spent
            motion = a.motion
            why = ""
            if not motion and left < 1:
                motion, why = True, " (no MP left to stop)"
            if motion:
                u.motion = True
                u.was_motion = True
                events.append(
                    Event(
                        "end_move",
                        f"{u.name} ({u.id}) ends its move in Motion in {u.label}{why} (C6.1)",
                        ("C6.1",),
                    )
                )
            else:
                u.motion = False
                u.mp_spent += 1
                left -= 1
                events.append(
                    Event(
                        "end_move",
                        f"{u.name} ({u.id}) stops in {u.label} (1 MP, RD-10)",
                        ("RD-10",),
                    )
                )
                events.extend(self._spend(u, 1.0, "stop"))
            if left > 0:
                u.mp_spent += left
                events.append(
                    Event(
                        "leftover",
                        f"{u.name}'s {left:g} MP left over are spent in {u.label} (C6.16)",
                        ("C6.16",),
                    )
                )
                events.extend(self._spend(u, left, "leftover"))
            self.moving_unit = u.id  # Defensive First Fire may still answer the MP spent here
            events.extend(self._offer_dff(u))
            if not self.dff_pending:
                self.moving_unit = None
            return events

        return do

    def moving_target(self) -> UnitState | None:
        return self.units.get(self.moving_unit) if self.moving_unit else None

    def _spend(self, u: UnitState, mp: float, why: str) -> list[Event]:
        """The moving vehicle spends MP in its hex: C6.15 LOS tracking for every enemy firer."""
        del why
        self.loc_mp += mp
        start = self.move_start or u.hex
        for e in self._potential_firers(u):
            t = self.track.get((u.id, e.id))
            if t is None:  # C6.15: it began its move in this firer's LOS: exempt from J1/J2
                began_in_los = self.hex_sees(e.hex, start)
                t = self.track[(u.id, e.id)] = _Track(0.0, exempt=began_in_los)
            if self.can_see(e, u):
                t.los_mp += mp
            else:
                t.los_mp = 0.0
                t.exempt = False
        return []

    def _potential_firers(self, target: UnitState) -> list[UnitState]:
        return [
            e
            for e in self.units.values()
            if e.active and e.side != target.side and e.type.has_at_weapon
        ]

    def _left_location(self, u: UnitState) -> list[Event]:
        """The unit entered a new hex: its own counters and the enemy's counters on it."""
        events = []
        if u.acquisition and not acq_rules.on_gun_left_location(
            u.acquisition, self._acq_gun(u), retains_los=False
        ):
            u.acquisition = None
            events.append(
                Event(
                    "acquisition",
                    f"{u.name} left its Location: its Acquired counter is lost (C6.5)",
                    ("C6.5",),
                )
            )
        if u.bore_sight:
            events.append(
                Event(
                    "bore_sight",
                    f"{u.name} left its set-up Location: Bore Sighting lost (C6.43)",
                    ("C6.43",),
                )
            )
            u.bore_sight = None
        for e in self.units.values():
            a = e.acquisition
            if a is None or a.target != u.id:
                continue
            if self.can_see(e, u):
                e.acquisition = acq_rules.on_target_moved_in_los(
                    a, u.id, acq_rules.Location(u.label)
                )
            else:
                e.acquisition = acq_rules.on_target_left_los(a, a.location)
                events.append(
                    Event(
                        "acquisition",
                        f"{u.name} left {e.name}'s LOS: the Acquired counter stays in "
                        f"{a.location} (C6.51)",
                        ("C6.51",),
                    )
                )
        return events

    def _ca_changed(self, u: UnitState) -> list[Event]:
        events = []
        if u.bore_sight and u.facing != u.setup_facing:
            events.append(
                Event(
                    "bore_sight", f"{u.name}'s VCA changed: Bore Sighting lost (C6.43)", ("C6.43",)
                )
            )
            u.bore_sight = None
        if u.acquisition and not acq_rules.on_ca_changed(u.acquisition, u.fired_at_acquired):
            u.acquisition = None
            events.append(
                Event(
                    "acquisition",
                    f"{u.name} changed its CA without firing at its acquired target: "
                    "counter lost (C6.5)",
                    ("C6.5",),
                )
            )
        return events

    def _concealment_check(self, u: UnitState) -> list[Event]:
        """RD-11: a concealed unit moving in the LOS of an enemy unit within 16 hexes loses it."""
        if not u.concealed:
            return []
        for e in self.units.values():
            if (
                e.active
                and e.side != u.side
                and e.hex.distance(u.hex) <= CONCEALMENT_LOSS_RANGE
                and self.can_see(e, u)
            ):
                u.concealed = False
                return [
                    Event(
                        "concealment",
                        f"{u.name} moves in {e.name}'s view and loses concealment (RD-11)",
                        ("RD-11",),
                    )
                ]
        return []

    # --- Defensive First Fire -----------------------------------------------------------

    def dff_budget_for(self, firer: UnitState, target: UnitState) -> DffBudget:
        t = self.track.get((target.id, firer.id), _Track())
        marks = self.marks.get((firer.id, target.id, target.label, target.facing), ())
        return dff_budget(self.loc_mp, t.los_mp, marks, t.exempt)

    def _offer_dff(self, u: UnitState) -> list[Event]:
        if not u.type.is_vehicle or not u.active:
            self.dff_pending = ()
            return []
        able = []
        for e in self._potential_firers(u):
            if self._fire_problem(e, u, None, dff=True) is None:
                able.append(e.id)
        self.dff_pending = tuple(sorted(able))
        if not able:
            return []
        names = ", ".join(self.units[i].name for i in self.dff_pending)
        return [
            Event(
                "dff_chance",
                f"{self.non_phasing} may Defensive First Fire at {u.name} in {u.label} "
                f"({names}) or pass (C6.17)",
                ("C6.17",),
                data={"firers": list(self.dff_pending)},
            )
        ]

    def _pass(self, a: Pass) -> Callable[[], list[Event]]:
        del a

        def do() -> list[Event]:
            self.dff_pending = ()
            target = self.moving_target()
            if target and not target.moving:
                self.moving_unit = None  # its move had ended; the leftover MP are answered
            return [Event("pass", f"{self.non_phasing} passes")]

        return do

    # --- fire ---------------------------------------------------------------------------

    def _fire_problem(
        self,
        f: UnitState,
        t: UnitState,
        ammo: str | None,
        dff: bool = False,
        explain: bool = False,
    ) -> str | None:
        """Why ``f`` may not fire at ``t`` now (None: it may). Cheap checks first."""
        if not f.active:
            return f"{f.name} is no longer in play"
        if f.shock != "none":
            return f"{f.name} is shocked and may not fire (C7.42)"
        if not f.type.has_at_weapon:
            return f"{f.name} has no AT weapon (002)"
        if f.fired:
            return f"{f.name} has fired this phase"
        if self.phase == "defensive_fire" and f.first_fired:
            return (
                f"{f.name} Defensive First Fired this player turn "
                "and does not fire again in the Defensive Fire Phase (HX-8)"
            )
        if self.phase == "advancing_fire" and f.shots_this_phase:
            return f"{f.name} has fired this phase (no Multiple ROF in the AFPh, RD-4)"
        if not t.active or t.side == f.side:
            return f"{t.name} is not an enemy unit in play"
        if t.type.category == "infantry":
            return "AT fire has no effect on Infantry (002)"
        if not self.can_see(f, t):
            if not explain:
                return "no LOS (RD-9)"
            why = los(self.board, f.hex, t.hex)  # the scalar thread says which hex and why
            return f"no LOS from {f.label} to {t.label}: {why.reason} (RD-9)"
        if (not f.type.turret and f.type.gun) and facing_offset(
            f.hex, f.facing, t.hex
        ) > COVERED_ARC_HALF:
            return (
                f"{t.name} is outside {f.name}'s Covered Arc (the 60-degree wedge of its front "
                "hexside, HX-2): turn first"
            )
        if dff and not self.dff_budget_for(f, t).can_fire:
            return f"no Defensive First Fire left at {t.name} in {t.label} (C6.17)"
        if f.type.gun and ammo is not None and ammo not in f.type.ammo:
            return f"{f.name} carries {', '.join(f.type.ammo)}, not {ammo}"
        if f.type.sw and ammo is not None:
            return f"{f.name}'s {f.type.sw} fires its own ammunition"
        try:
            plan(self._attack(f, t, ammo, dff=dff, chart_die=1))
        except RuleError as e:
            return str(e)
        return None

    def _fire(self, a: Fire) -> Callable[[], list[Event]]:
        f = self.unit(a.unit)
        t = self.unit(a.target)
        dff = bool(self.dff_pending)
        if dff:
            if a.unit not in self.dff_pending:
                raise IllegalAction(
                    "not_dff_firer", f"{f.name} has no Defensive First Fire chance now"
                )
            if self.moving_unit != t.id:
                raise IllegalAction(
                    "dff_target", "Defensive First Fire is at the moving unit (C6.17)"
                )
        elif f.side != self.to_act:
            raise IllegalAction("not_your_unit", f"{f.name} is not {self.to_act}'s to fire now")
        ammo = a.ammo if a.ammo is not None else (f.type.ammo[0] if f.type.gun else None)
        problem = self._fire_problem(f, t, ammo, dff=dff, explain=self._explain)
        if problem:
            raise IllegalAction("cannot_fire", problem)
        if a.mp is not None:
            if not dff:
                raise IllegalAction("no_claim", "only Defensive First Fire claims MP (C6.17)")
            if self._dff_shot(f, t, a.mp) is None:
                b = self.dff_budget_for(f, t)
                lo, hi = b.options[0].mark, b.options[-1].mark
                raise IllegalAction(
                    "bad_claim", f"the shot may claim {lo:g} to {hi:g} MP of {t.label} (C6.17)"
                )

        def do() -> list[Event]:
            return self._resolve_fire(f, t, ammo, dff, a.mp)

        return do

    def _aspects(self, f: UnitState, t: UnitState) -> tuple[str, str, float]:
        hull = facing_offset(t.hex, t.facing, f.hex)
        turret = facing_offset(t.hex, t.turret, f.hex)
        return asl_aspect(hull), asl_aspect(turret), hull

    def _dff_shot(self, f: UnitState, t: UnitState, claim: float | None):
        """The Defensive First Fire shot ``f`` takes at ``t``: claiming ``claim`` MP of the
        Location, or by default the fewest that give the smallest Case J DRM (C6.17)."""
        b = self.dff_budget_for(f, t)
        return b.best if claim is None else b.option_at(claim)

    def _attack(
        self,
        f: UnitState,
        t: UnitState,
        ammo: str | None,
        dff: bool,
        chart_die: int | None,
        claim: float | None = None,
    ) -> Attack:
        firer = "sw" if f.type.sw else ("gun" if f.type.category == "gun" else "afv")
        hull_aspect, turret_aspect, hull_t = self._aspects(f, t)
        target_kind = {"afv": "afv", "vehicle": "vehicle", "gun": "gun"}.get(
            t.type.category, "infantry"
        )
        armor = None
        if self.setup.to_kill == "chart" and t.type.armored:
            side = chart_aspect(hull_t, chart_die)
            armor = t.type.chart_front if side == "front" else t.type.chart_rear
        dff_mp, exempt = None, False
        if dff:
            shot = self._dff_shot(f, t, claim)
            if shot is not None:
                dff_mp, exempt = shot.mp_in_los, self.track.get((t.id, f.id), _Track()).exempt
        acquired = 0
        if f.acquisition is not None:
            drm, _ = acq_rules.applies(f.acquisition, self._acq_gun(f), self._acq_shot(t))
            acquired = -drm.value if drm else 0
        bore = f.bore_sight is not None and f.bore_sight == t.label and firer != "sw"
        sit = Situation(
            moving=t.entered_new_hex and not t.moving,
            motion=t.motion,
            was_motion=t.was_motion and not t.motion,
            non_stopped=t.moving,
            dff_mp=dff_mp,
            dff_exempt=exempt,
            concealed=t.concealed,
            acquired=acquired if firer != "sw" else 0,
            bore_sighted=bore,
            size=t.type.size,
            tem=int(self.board.terrain_at(t.hex).tem),
            hindrance=self.hindrance(f, t),
            firer_non_stopped=f.moving or f.motion,
        )
        sw = f.type.sw
        return Attack(
            rules=self.setup.to_kill,
            firer=firer,
            gun=f.type.gun,
            weapon=sw,
            nationality=f.type.nationality,
            ammo=ammo if not sw else None,
            range=f.hex.distance(t.hex),
            aspect=hull_aspect,
            turret_aspect=turret_aspect if t.type.turret else None,
            target=target_kind,
            af_hull=t.type.af("hull", hull_aspect),
            af_turret=t.type.af("turret", turret_aspect if t.type.turret else hull_aspect),
            worst_af=t.type.worst_af,
            open_topped=t.type.open_topped,
            ce=t.ce,
            immobilized=t.immobilized,
            red_cs=t.type.red_cs,
            morale=t.type.morale,
            atfp=f.type.atfp,
            armor=armor,
            rof=0 if sw else f.type.rof,
            phase_allows_rof=self.phase != "advancing_fire",
            situation=sit,
        )

    def _acq_gun(self, f: UnitState) -> acq_rules.Gun:
        letter = self.letters.get(f.id, "A")
        return acq_rules.Gun(f.id, letter, f.type.caliber, lat_weapon=bool(f.type.sw))

    def _acq_shot(self, t: UnitState, hit: bool = False) -> acq_rules.Shot:
        return acq_rules.Shot(
            t.id,
            acq_rules.Location(t.label),
            concealed=t.concealed,
            concealment_lost=hit and t.concealed,
        )

    def _resolve_fire(
        self, f: UnitState, t: UnitState, ammo: str | None, dff: bool, claim: float | None = None
    ) -> list[Event]:
        events: list[Event] = []
        die = None
        _, _, hull_t = self._aspects(f, t)
        if self.setup.to_kill == "chart" and t.type.armored and abs(hull_t - 90.0) < 1e-9:
            die = self.dice.die()
            side = chart_aspect(hull_t, die)
            events.append(
                Event(
                    "facing",
                    f"{f.name} is exactly on {t.name}'s 90-degree line: dr {die}: {side} (RD-8)",
                    ("RD-8",),
                    (die,),
                )
            )
        attack = self._attack(f, t, ammo, dff=dff, chart_die=die, claim=claim)
        p = plan(attack)
        mark = None
        if dff:
            shot = self._dff_shot(f, t, claim)
            mark = shot.mark if shot else self.loc_mp
        result = resolve(attack, self.dice)
        events.append(self._fire_event(f, t, attack, p, result))
        # the firer
        if f.concealed:
            f.concealed = False
            events.append(
                Event("concealment", f"{f.name} fired and loses concealment (RD-11)", ("RD-11",))
            )
        if f.type.turret:
            f.turret = _nearest_direction(f.hex, t.hex)
        f.shots_this_phase += 1
        f.fired = not result.rof_kept or self.phase == "advancing_fire"
        if result.rof_kept and not f.fired:
            events.append(
                Event(
                    "rof",
                    f"{f.name} keeps its Multiple ROF (colored die {result.th_dr.colored} "
                    f"<= ROF {attack.rof}; RD-4)",
                    ("RD-4",),
                )
            )
        if self.phase == "prep_fire":
            f.fired_prep = True
        if dff:
            f.first_fired = True
            key = (f.id, t.id, t.label, t.facing)
            self.marks[key] = (*self.marks.get(key, ()), float(mark or 0))
        if f.type.gun:
            before = f.acquisition
            f.acquisition, _ = acq_rules.after_shot(
                f.acquisition, self._acq_gun(f), self._acq_shot(t, result.hit)
            )
            f.fired_at_acquired = f.acquisition is not None and f.acquisition.target == t.id
            if f.acquisition and f.acquisition != before:
                events.append(
                    Event(
                        "acquisition",
                        f"{f.name} places {f.acquisition.label} on {t.name} (C6.5)",
                        ("C6.5",),
                    )
                )
        if result.hit and t.concealed:
            t.concealed = False
        events.extend(self._apply_outcome(t, result.outcome))
        events.extend(self._check_victory())
        if dff and not self.over:
            mover = self.moving_target()
            if mover is not None and mover.active and (mover.moving or self.dff_pending):
                events.extend(self._offer_dff(mover))
                if not self.dff_pending and not mover.moving:
                    self.moving_unit = None
            else:
                self.dff_pending = ()
        return events

    def _fire_event(
        self, f: UnitState, t: UnitState, attack: Attack, p, result: AttackResult
    ) -> Event:
        what = attack.weapon or f"{attack.ammo}"
        drms = ", ".join(f"{d.value:+d} Case {d.case} ({d.rule})" for d in p.drms) or "no DRM"
        rng = f"{attack.range} hex{'es' if attack.range != 1 else ''}"
        head = f"{f.name} fires {what} at {t.name} ({rng}): {drms}; "
        rules = tuple(
            dict.fromkeys(
                [p.to_hit_rule, *(d.rule for d in p.drms), *(s.rule for s in result.steps)]
            )
        )
        dice: list[int] = []
        for s in result.steps:
            dice.extend(s.dice)
        return Event(
            "fire",
            head
            + "; ".join(str(s) for s in result.steps)
            + f" => {result.outcome.replace('_', ' ')}",
            rules,
            tuple(dice),
            data={
                "firer": f.id,
                "target": t.id,
                "outcome": result.outcome,
                "hit": result.hit,
                "location": result.location,
            },
        )

    def _apply_outcome(self, t: UnitState, outcome: str) -> list[Event]:
        events = []
        if outcome in ("burn", "eliminated", "abandoned"):
            t.status = {"burn": "burning", "eliminated": "eliminated", "abandoned": "abandoned"}[
                outcome
            ]
            if t.type.is_vehicle:
                events.extend(self._add_wreck(t))
            events.append(
                Event(
                    "removed",
                    f"{t.name} ({t.id}) is {t.status} and removed from play",
                    ("C7.6" if outcome == "burn" else "002",),
                )
            )
            self._halt(t)
        elif outcome == "immobilized":
            t.immobilized = True
            self._halt(t)
        elif outcome == "shock":
            t.shock, _ = shock_again(t.shock)
            t.ce = False
            self._halt(t)
            events.append(
                Event(
                    "shock",
                    f"{t.name} is shocked: no move, no fire; buttons up (C7.42)",
                    ("C7.42",),
                )
            )
            if t.acquisition:
                t.acquisition = acq_rules.on_crew_lost(t.acquisition)
        if t.status in REMOVED and self.moving_unit == t.id:
            self.moving_unit = None
            self.dff_pending = ()
        return events

    def _halt(self, t: UnitState) -> None:
        if t.moving:
            t.moving = False
            t.moved = True
            t.motion = False

    def _add_wreck(self, t: UnitState) -> list[Event]:
        self.board.add_wreck(t.hex)
        if not self.scalar_los:
            self.visibility.update([self.board.index(t.hex)])
        return [Event("wreck", f"a wreck in {t.label} hinders LOS +1 (RD-9)", ("RD-9",))]

    # --- what a player sees -------------------------------------------------------------

    def preview_fire(self, firer: str, target: str, ammo: str | None = None) -> Odds:
        """The exact odds of ``firer`` shooting at ``target`` now, built exactly as the shot
        would be (the odds panel); IllegalAction with the reason when the shot is not allowed.
        No die is drawn and nothing changes."""
        f, t = self.unit(firer), self.unit(target)
        dff = bool(self.dff_pending) and firer in self.dff_pending and self.moving_unit == target
        am = ammo if ammo is not None else (f.type.ammo[0] if f.type.gun else None)
        problem = self._fire_problem(f, t, am, dff=dff, explain=True)
        if problem:
            raise IllegalAction("cannot_fire", problem)
        hull_t = self._aspects(f, t)[2]
        die = None
        if self.setup.to_kill == "chart" and t.type.armored and abs(hull_t - 90.0) < 1e-9:
            die = 1  # RD-8: a die decides; the preview shows the front, the better for the target
        return odds(self._attack(f, t, am, dff=dff, chart_die=die))

    def view(self, side: str) -> list[dict]:
        """The units as ``side`` may see them: an enemy concealed unit is a "?" in its hex
        (RD-11), with no type, facing or state shown."""
        out = []
        for k in sorted(self.units):
            u = self.units[k]
            if not u.active:
                continue
            if u.side != side and u.concealed:
                out.append(
                    {"id": u.id, "side": u.side, "hex": u.label, "concealed": True, "type": "?"}
                )
            else:
                d = u.to_json()
                d["name"] = u.name
                out.append(d)
        return out

    # --- hatches ------------------------------------------------------------------------

    def _hatch(self, a: ButtonUp | CrewExposed) -> Callable[[], list[Event]]:
        u = self._own(a.unit, self.to_act)
        if not u.type.armored:
            raise IllegalAction("no_hatch", f"{u.name} is not an AFV")
        want_ce = isinstance(a, CrewExposed)
        if want_ce and u.shock != "none":
            raise IllegalAction("shocked", f"{u.name} is shocked and stays buttoned up (C7.42)")
        if u.ce == want_ce:
            raise IllegalAction("no_change", f"{u.name} is already {'CE' if want_ce else 'BU'}")

        def do() -> list[Event]:
            u.ce = want_ce
            return [Event("hatch", f"{u.name} ({u.id}) is now {'CE' if want_ce else 'BU'}")]

        return do

    # --- phases -------------------------------------------------------------------------

    def _end_phase(self, a: EndPhase) -> Callable[[], list[Event]]:
        del a
        if self.phase == "movement" and self.moving_unit:
            raise IllegalAction(
                "moving", f"{self.units[self.moving_unit].name} is moving: end its move first"
            )

        def do() -> list[Event]:
            events: list[Event] = []
            if self.phase == "rally":
                events.extend(self._recovery())
            nxt = PHASES[self.phase].next
            for u in self.units.values():
                u.fired = False
                u.shots_this_phase = 0
                u.fired_at_acquired = False
            if self.phase == "movement":
                self.track.clear()
                self.marks.clear()
                self.loc_mp = 0.0
            if nxt == "end":
                events.extend(self._end_player_turn())
                if self.over:
                    return events
                nxt = "rally"
            elif self.phase == "setup":
                events.extend(self._start_player_turn())
            self.phase = nxt
            if not self.over:
                events.append(
                    Event(
                        "phase",
                        f"Turn {self.turn}, {self.phasing}: {PHASES[self.phase].title} (RD-12)",
                        ("RD-12",),
                        data={"turn": self.turn, "side": self.phasing, "phase": self.phase},
                    )
                )
            return events

        return do

    def _recovery(self) -> list[Event]:
        """C7.42: the phasing side's shocked AFVs roll for recuperation at the end of its RPh."""
        events = []
        for u in self.units.values():
            if u.active and u.side == self.phasing and u.shock in ("shock", "uk"):
                d = self.dice.die()
                new, rule = recovery(u.shock, d)
                old = u.shock
                if new == "wreck":
                    u.status = "wreck"
                    u.shock = "none"
                    events.append(
                        Event(
                            "recovery",
                            f"{u.name} ({old.upper()}) recovery dr {d}: a wreck (C7.42)",
                            (rule,),
                            (d,),
                        )
                    )
                    events.extend(self._add_wreck(u))
                else:
                    u.shock = new
                    what = "recovers" if new == "none" else "is Unconfirmed Kill (UK)"
                    events.append(
                        Event(
                            "recovery",
                            f"{u.name} ({old.upper()}) recovery dr {d}: {what} (C7.42)",
                            (rule,),
                            (d,),
                        )
                    )
        events.extend(self._check_victory())
        return events

    def _start_player_turn(self) -> list[Event]:
        for u in self.units.values():
            u.first_fired = False
            if u.side == self.phasing:
                u.mp_spent = 0.0
                u.entered_new_hex = False
                u.was_motion = u.motion
                u.moved = False
                u.fired_prep = False
        return []

    def _end_player_turn(self) -> list[Event]:
        events = self._regain_concealment()
        if self.player_turn == 0:
            self.player_turn = 1
        else:
            self.player_turn = 0
            self.turn += 1
            if self.turn > self.setup.turns:
                events.extend(self._game_end())
                return events
        for u in self.units.values():
            u.entered_new_hex = False
            u.was_motion = u.motion
        events.extend(self._start_player_turn())
        return events

    def _regain_concealment(self) -> list[Event]:
        """RD-11: at the end of each player turn a unit in woods or a building out of every
        enemy unit's LOS regains concealment."""
        events = []
        for u in self.units.values():
            if not u.active or u.concealed or not self._may_hide(u):
                continue
            u.concealed = True
            events.append(
                Event(
                    "concealment",
                    f"{u.name} in {u.label} is out of every enemy LOS: concealed again (RD-11)",
                    ("RD-11",),
                )
            )
        return events

    # --- victory (RD-13) ----------------------------------------------------------------

    def eliminated_afvs(self, by_side: str) -> int:
        return sum(
            1
            for u in self.units.values()
            if u.side != by_side
            and u.type.armored
            and u.status in ("eliminated", "burning", "abandoned", "wreck")
        )

    def points(self, side: str) -> int:
        return sum(
            (2 if u.type.armored else 1)
            for u in self.units.values()
            if u.side != side and u.status in ("eliminated", "burning", "abandoned", "wreck")
        )

    def _check_victory(self) -> list[Event]:
        if self.over:
            return []
        for v in self.setup.victory:
            won = False
            if v.kind == "eliminate":
                if v.units:
                    won = all(
                        self.units[x].status in ("eliminated", "burning", "abandoned", "wreck")
                        for x in v.units
                    )
                else:
                    won = self.eliminated_afvs(v.side) >= v.count
            elif v.kind == "exit":
                won = self.exited.get(f"{v.side}:{v.edge}", 0) >= v.count
            if won:
                return self._finish(v.side, f"{v.describe()} (RD-13)")
        return []

    def _game_end(self) -> list[Event]:
        for v in self.setup.victory:
            if v.kind == "hold" and all(self._holds(v.side, self.board.parse(h)) for h in v.hexes):
                return self._finish(v.side, f"{v.describe()} (RD-13)")
            if v.kind == "points" and self.points(v.side) >= v.count:
                return self._finish(v.side, f"{v.describe()} (RD-13)")
        return self._finish(
            self.setup.defender,
            "the last turn ended with no other condition met: the scenario defender wins "
            "(RD-13, HX-11)",
        )

    def _holds(self, side: str, h: Hex) -> bool:
        here = self.units_at(h)
        return any(u.side == side for u in here) and not any(u.side != side for u in here)

    def _finish(self, side: str, why: str) -> list[Event]:
        self.over = True
        self.winner = side
        self.end_reason = why
        self.dff_pending = ()
        return [
            Event("game_over", f"Game over: {side} wins: {why}", ("RD-13",), data={"winner": side})
        ]

    # --- helpers ------------------------------------------------------------------------

    def _own(self, uid: str, side: str) -> UnitState:
        u = self.unit(uid)
        if not u.active:
            raise IllegalAction("not_in_play", f"{u.name} ({uid}) is no longer in play")
        if u.side != side:
            raise IllegalAction("not_your_unit", f"{u.name} belongs to {u.side}; {side} acts now")
        return u

    def _hex(self, text: str) -> Hex:
        try:
            return self.board.parse(text)
        except ValueError as e:
            raise IllegalAction("bad_hex", str(e)) from None

    # --- hashing ------------------------------------------------------------------------

    def state_json(self) -> dict:
        """The whole state as plain JSON values (canonical order)."""
        return {
            "turn": self.turn,
            "player_turn": self.player_turn,
            "phase": self.phase,
            "over": self.over,
            "winner": self.winner,
            "moving_unit": self.moving_unit,
            "dff_pending": list(self.dff_pending),
            "loc_mp": self.loc_mp,
            "track": sorted([k[0], k[1], t.los_mp, t.exempt] for k, t in self.track.items()),
            "marks": sorted([*k, list(v)] for k, v in self.marks.items()),
            "exited": self.exited,
            "draws": self.dice.draws,
            "wrecks": [int(x) for x in self.board.wrecks],
            "smoke": [bool(x) for x in self.board.smoke],
            "units": [self.units[k].to_json() for k in sorted(self.units)],
        }

    def state_key(self) -> tuple:
        """The canonical encoding of the game's state apart from its units (each unit has its
        own, :meth:`UnitState.key`): a tuple of plain values (ints, strings, bools, floats,
        None) in a fixed order; markers as (index, count) of the hexes that have them."""
        wrecks = self.board.wrecks
        return (
            self.turn,
            self.player_turn,
            self.phase,
            self.over,
            self.winner,
            self.moving_unit,
            self.dff_pending,
            self.loc_mp,
            self.move_start.q if self.move_start else None,
            self.move_start.r if self.move_start else None,
            tuple(sorted((k[0], k[1], t.los_mp, t.exempt) for k, t in self.track.items())),
            tuple(sorted((*k, v) for k, v in self.marks.items())),
            tuple(sorted(self.exited.items())),
            self.dice.draws,
            tuple((int(i), int(wrecks[i])) for i in wrecks.nonzero()[0]),
            tuple(int(i) for i in self.board.smoke.nonzero()[0]),
        )

    def _units_key(self) -> str:
        return "|".join(self.units[k].key_text() for k in sorted(self.units))

    def state_hash(self) -> str:
        """SHA-256 of the canonical state encoding (``repr`` of :meth:`state_key`; Python's
        repr of these plain values is exact and stable), for replays."""
        blob = repr(self.state_key()) + "#" + self._units_key()
        return hashlib.sha256(blob.encode()).hexdigest()


def _nearest_direction(a: Hex, b: Hex) -> int:
    """RD-7: the hexside a turret turns to, to face from ``a`` toward ``b``."""
    angle = direction_to(a, b)
    return min(range(6), key=lambda d: abs(((angle - (60 * d - 30)) + 180) % 360 - 180))


def check_registry() -> None:
    """The action registry, the handlers and the phase table name the same action types, so
    every action the engine accepts can be saved, loaded and replayed (one registry)."""
    registered = set(ACTION_TYPES)
    handled = set(Game.HANDLERS)
    in_phases = set().union(*(p.actions for p in PHASES.values())) | DFF_ACTIONS
    missing = [m for m in Game.HANDLERS.values() if not callable(getattr(Game, m, None))]
    if registered != handled or registered != in_phases or missing:
        raise RuntimeError(
            "action registry out of step: registered "
            f"{sorted(registered)}, handled {sorted(handled)}, in phases {sorted(in_phases)}, "
            f"missing handlers {missing}"
        )


check_registry()
