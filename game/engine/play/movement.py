"""Movement (RD-10, HX-3): move, turn, stop or stay in Motion, leave the map; the MP a moving
vehicle spends in each enemy firer's continuous LOS (C6.15-.16), the counters it leaves behind
(C6.43, C6.5, C6.51); and the hatches (CE / BU)."""

from __future__ import annotations

from game.board.hexes import Hex, label, to_offset
from game.engine.actions import ButtonUp, CrewExposed, EndMove, Move, Turn
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, Track, UnitState
from game.rules import acquisition as acq_rules

from . import Commit, concealment
from .fire import offer_dff
from .shot import acq_gun
from .victory import check_victory


def mover(state: GameState, uid: str) -> UnitState:
    u = state.own(uid, state.phasing)
    if state.moving_unit not in (None, u.id):
        raise IllegalAction(
            "other_moving", f"{state.units[state.moving_unit].name} is moving: end its move first"
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


def edge_of(state: GameState, h: Hex) -> str:
    col, row = to_offset(h)
    if row < 0:
        return "north"
    if row >= state.board.rows:
        return "south"
    return "west" if col < 0 else "east"


def exit_map(state: GameState, u: UnitState) -> Commit:
    """A unit on the map edge leaves the map (RD-13 exit): a vehicle through its front
    hexside (1 MP, hexfire), infantry by any edge hexside (1 MF)."""
    if u.type.category == "gun":
        raise IllegalAction("gun_cannot_move", f"{u.name} is a Gun and cannot move")
    if u.type.is_vehicle:
        if u.immobilized:
            raise IllegalAction("immobilized", f"{u.name} is immobilized and may not move (002)")
        out = u.hex.neighbor(u.facing)
        if state.board.contains(out):
            raise IllegalAction("not_edge", f"{u.name} must face off the map edge to exit")
        start = 0.0 if (u.moving or u.motion) else 1.0
        left = u.type.mp - u.mp_spent
    else:
        offs = [n for n in u.hex.neighbors() if not state.board.contains(n)]
        if not offs:
            raise IllegalAction("not_edge", f"{u.name} is not on the map edge")
        out, start, left = offs[0], 0.0, u.type.mf - u.mp_spent
    if start + 1 > left:
        raise IllegalAction("no_mp", f"{u.name} has {left:g} MP left; exiting costs {start + 1:g}")
    edge = edge_of(state, out)

    def do() -> list[Event]:
        u.mp_spent += start + 1
        u.status = "exited"
        u.moving = False
        u.moved = True
        if state.moving_unit == u.id:
            state.moving_unit = None
        key = f"{u.side}:{edge}"
        state.exited[key] = state.exited.get(key, 0) + 1
        events = [
            Event(
                "exit",
                f"{u.name} ({u.id}) leaves the map by the {edge} edge from {u.label} (RD-13)",
                ("RD-13",),
                data={"unit": u.id, "edge": edge},
            )
        ]
        events.extend(check_victory(state))
        return events

    return do


def move(state: GameState, a: Move) -> Commit:
    u = mover(state, a.unit)
    if a.to.lower() == "off":
        return exit_map(state, u)
    if u.type.category == "gun":
        raise IllegalAction("gun_cannot_move", f"{u.name} is a Gun and cannot move")
    to = state.parse_hex(a.to)
    if to.distance(u.hex) != 1:
        raise IllegalAction("not_adjacent", f"{a.to} is not adjacent to {u.label}")
    terrain = state.board.terrain_at(to)
    climb = max(0, state.board.info(to).level - state.board.info(u.hex).level)
    start = 0.0
    if u.type.is_vehicle:
        if u.immobilized:
            raise IllegalAction("immobilized", f"{u.name} is immobilized and may not move (002)")
        if to != u.hex.neighbor(u.facing):
            raise IllegalAction(
                "not_ahead",
                f"a vehicle moves through its front hexside: {u.name} faces "
                f"{label(u.hex.neighbor(u.facing))}; turn first (RD-10)",
            )
        if not terrain.enterable_by_vehicle:
            raise IllegalAction("impassable", f"a vehicle cannot enter {terrain.name} (RD-10)")
        start = 0.0 if (u.moving or u.motion) else 1.0
        cost = terrain.mp + state.board.catalogue.climb_mp * climb
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
    for other in state.units_at(to):
        if other.side != u.side:
            raise IllegalAction("occupied", f"{a.to} holds an enemy unit")
        if u.type.is_vehicle and (other.type.is_vehicle or other.type.category == "gun"):
            raise IllegalAction(
                "stacking", f"{a.to} already holds a vehicle or Gun (one per hex, HX-4)"
            )

    def do() -> list[Event]:
        events: list[Event] = []
        frm = u.label
        if state.moving_unit is None:
            state.move_start = u.hex
        if start:
            spend(state, u, start)
        state.moving_unit = u.id
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
        events.extend(left_location(state, u))
        if u.type.is_vehicle:
            state.loc_mp = 0.0
            spend(state, u, cost)
        events.extend(concealment.on_move(state, u))
        events.extend(offer_dff(state, u))
        return events

    return do


def turn(state: GameState, a: Turn) -> Commit:
    u = mover(state, a.unit)
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
        events: list[Event] = []
        if state.moving_unit is None:
            state.move_start = u.hex
        if start:
            spend(state, u, start)
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
        events.extend(ca_changed(state, u))
        if u.type.is_vehicle:
            state.moving_unit = u.id
            u.moving = True
            u.mp_spent += start + 1
            state.loc_mp = 0.0  # C6.17 counts MP in the current Target Facing
            spend(state, u, 1.0)
            events.extend(offer_dff(state, u))
        else:
            u.moved = True
        return events

    return do


def end_move(state: GameState, a: EndMove) -> Commit:
    u = state.own(a.unit, state.phasing)
    if state.moving_unit != u.id:
        raise IllegalAction("not_moving", f"{u.name} is not moving")

    def do() -> list[Event]:
        events = []
        state.moving_unit = None
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
            spend(state, u, 1.0)
        if left > 0:
            u.mp_spent += left
            events.append(
                Event(
                    "leftover",
                    f"{u.name}'s {left:g} MP left over are spent in {u.label} (C6.16)",
                    ("C6.16",),
                )
            )
            spend(state, u, left)
        state.moving_unit = u.id  # Defensive First Fire may still answer the MP spent here
        events.extend(offer_dff(state, u))
        if not state.dff_pending:
            state.moving_unit = None
        return events

    return do


def spend(state: GameState, u: UnitState, mp: float) -> None:
    """The moving vehicle spends MP in its hex: C6.15 LOS tracking for every enemy firer."""
    state.loc_mp += mp
    start = state.move_start or u.hex
    for e in state.potential_firers(u):
        t = state.track.get((u.id, e.id))
        if t is None:  # C6.15: it began its move in this firer's LOS: exempt from J1/J2
            began_in_los = state.hex_sees(e.hex, start)
            t = state.track[(u.id, e.id)] = Track(0.0, exempt=began_in_los)
        if state.can_see(e, u):
            t.los_mp += mp
        else:
            t.los_mp = 0.0
            t.exempt = False


def left_location(state: GameState, u: UnitState) -> list[Event]:
    """The unit entered a new hex: its own counters and the enemy's counters on it."""
    events = []
    if u.acquisition and not acq_rules.on_gun_left_location(
        u.acquisition, acq_gun(state, u), retains_los=False
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
    for e in state.units.values():
        a = e.acquisition
        if a is None or a.target != u.id:
            continue
        if state.can_see(e, u):
            e.acquisition = acq_rules.on_target_moved_in_los(a, u.id, acq_rules.Location(u.label))
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


def ca_changed(state: GameState, u: UnitState) -> list[Event]:
    events = []
    if u.bore_sight and u.facing != u.setup_facing:
        events.append(
            Event("bore_sight", f"{u.name}'s VCA changed: Bore Sighting lost (C6.43)", ("C6.43",))
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


def hatch(state: GameState, a: ButtonUp | CrewExposed) -> Commit:
    u = state.own(a.unit, state.to_act)
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
