"""Movement (RD-10, HX-3): move, turn, stop or stay in Motion, leave the map; the MP a moving
vehicle spends in each enemy firer's continuous LOS (C6.15-.16). The counters it leaves behind
(C6.43, C6.5, C6.51) are :mod:`.counters`, the hatches (CE / BU) :mod:`.hatches`."""

from __future__ import annotations

from collections.abc import Iterable

from game.board.hexes import Hex, label
from game.board.terrain import Terrain
from game.engine.actions import EndMove, Move, Turn
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.setup import EXIT_ONLY, counts_as
from game.engine.state import GameState, Track, UnitState
from game.rules.words import facing_words

from . import Commit, concealment
from .counters import ca_changed, left_location
from .fire import offer_dff
from .sighting import seen_as_moved
from .victory import check_victory


def mover(state: GameState, uid: str) -> UnitState:
    """The phasing side's unit ``uid`` if it may move now (the first check of every Move and
    Turn); IllegalAction why not. Asked once a unit while the state is held still."""
    asked = state.asked
    if asked is None:
        return _mover(state, uid)
    got = asked.get(("mover", uid))
    if got is None:
        try:
            got = _mover(state, uid)
        except IllegalAction as refused:
            got = refused
        asked[("mover", uid)] = got
    if isinstance(got, IllegalAction):
        raise got.again()
    return got


def _mover(state: GameState, uid: str) -> UnitState:
    unit = state.own(uid, state.phasing)
    if state.moving_unit not in (None, unit.id):
        raise IllegalAction(
            "other_moving", f"{state.units[state.moving_unit].name} is moving: end its move first"
        )
    if unit.moved:
        raise IllegalAction("already_moved", f"{unit.name} has already moved this phase")
    if unit.fired_prep:
        raise IllegalAction(
            "fired_prep", f"{unit.name} fired in the Prep Fire Phase and may not move (RD-12)"
        )
    if unit.shock != "none":
        raise IllegalAction("shocked", f"{unit.name} is shocked and may not move (C7.42)")
    return unit


def edge_of(state: GameState, h: Hex) -> str:
    """The map edge the off-map hex ``h`` lies beyond (RD-13 exit)."""
    edge = state.board.edge_beyond(h)
    if edge is None:
        raise ValueError(f"{label(h)} is on the map")
    return edge


def exit_hex(state: GameState, unit: UnitState, facing: int | None = None) -> Hex | None:
    """The off-map hex ``unit`` would leave into (RD-13 exit): a vehicle's through its front
    hexside (``facing``: as if it faced so), Infantry's first one beyond an edge hexside;
    None when it cannot leave from where it stands."""
    if unit.type.is_vehicle:
        out = unit.hex.neighbor(unit.facing if facing is None else facing)
        return None if state.board.contains(out) else out
    offs = [n for n in unit.hex.neighbors() if not state.board.contains(n)]
    return offs[0] if offs else None


def exit_map(state: GameState, unit: UnitState) -> Commit:
    """A unit on the map edge leaves the map (RD-13 exit): a vehicle through its front
    hexside (1 MP, hexfire), infantry by any edge hexside (1 MF)."""
    if unit.type.category == "gun":
        raise IllegalAction("gun_cannot_move", f"{unit.name} is a Gun and cannot move")
    if unit.type.is_vehicle:
        if unit.immobilized:
            raise IllegalAction("immobilized", f"{unit.name} is immobilized and may not move (002)")
        out = exit_hex(state, unit)
        if out is None:
            raise IllegalAction("not_edge", f"{unit.name} must face off the map edge to exit")
        start = 0.0 if (unit.moving or unit.motion) else 1.0
        left = unit.type.mp - unit.mp_spent
    else:
        out = exit_hex(state, unit)
        if out is None:
            raise IllegalAction("not_edge", f"{unit.name} is not on the map edge")
        start, left = 0.0, unit.type.mf - unit.mp_spent
    if start + 1 > left:
        raise IllegalAction(
            "no_mp", f"{unit.name} has {left:g} MP left; exiting costs {start + 1:g}"
        )
    edge = edge_of(state, out)

    def commit() -> list[Event]:
        unit.mp_spent += start + 1
        seen = concealment.on_move(state, unit)  # the exit MP are spent in the edge hex (RD-11)
        unit.status = "exited"
        unit.moving = False
        unit.moved = True
        if state.moving_unit == unit.id:
            state.moving_unit = None
        key = f"{unit.side}:{edge}"
        state.exited[key] = state.exited.get(key, 0) + 1
        text = (
            f"{unit.name} ({unit.id}) leaves the map by the {edge} edge from {unit.label} (RD-13)"
        )
        rules: tuple[str, ...] = ("RD-13",)
        for v in state.setup.victory:  # a unit its side's exit victory does not count (HX-20)
            if v.side == unit.side and v.edge == edge and not counts_as(v.only, unit.type.category):
                text += f": only {EXIT_ONLY[str(v.only)]}s count for the exit victory (HX-20)"
                rules = ("RD-13", "HX-20")
                break
        events = [*seen, Event("exit", text, rules, data={"unit": unit.id, "edge": edge})]
        events.extend(check_victory(state))
        return events

    return seen_as_moved(state, unit, commit)


def move(state: GameState, action: Move) -> Commit:
    unit = mover(state, action.unit)
    if action.to.lower() == "off":
        return exit_map(state, unit)
    if unit.type.category == "gun":
        raise IllegalAction("gun_cannot_move", f"{unit.name} is a Gun and cannot move")
    to = state.parse_hex(action.to)
    terrain, start, cost, climb = _step(state, unit, to, action.to)

    def commit() -> list[Event]:
        events: list[Event] = []
        frm = unit.label
        if state.moving_unit is None:  # a vehicle begins its move: nothing counted yet (C6.17)
            state.move_start = unit.hex
            state.loc_mp.clear()
        if start:  # the start MP, spent here (RD-11), counted as the other side sees them
            events.extend(concealment.on_move(state, unit))
            spend(state, unit, start)
            started = answer_start(state, unit, action.to, start)
            if started:  # Defensive First Fire may answer the start MP before it leaves (HX-5)
                return [started[0], *events, *started[1:]]
        state.moving_unit = unit.id
        unit.moving = True
        unit.hex = to
        unit.entered_new_hex = True
        unit.mp_spent += start + cost
        base = cost - (state.board.catalogue.climb_mp if unit.type.is_vehicle else 1) * climb
        along = (
            " along the road"
            if unit.type.is_vehicle and terrain.mp_from_other is not None and base == terrain.mp
            else ""
        )
        parts = ("start 1, " if start else "") + f"{terrain.name}{along} {base:g}"
        if climb:
            parts += f", up {climb} level{'s' if climb > 1 else ''} +{cost - base:g}"
        events.insert(
            0,
            Event(
                "move",
                f"{unit.name} ({unit.id}) moves {frm} -> {label(to)}: "
                f"{start + cost:g} {'MP' if unit.type.is_vehicle else 'MF'} ({parts}; RD-10)",
                ("RD-10",),
                data={"unit": unit.id, "from": frm, "to": label(to), "mp": start + cost},
            ),
        )
        events.extend(left_location(state, unit))
        seen = concealment.on_move(state, unit)
        if unit.type.is_vehicle or unit.concealed:  # a "?" may be fired at (RD-20)
            state.loc_mp.clear()  # a new Location: its MP and shots count from zero (C6.17)
            for key in [k for k in state.marks if k[1] == unit.id]:
                del state.marks[key]
            spend(state, unit, cost, entering=True)
        events.extend(seen)
        events.extend(offer_dff(state, unit))
        return events

    return seen_as_moved(state, unit, commit)


def answer_start(state: GameState, unit: UnitState, to: str, start: float) -> list[Event]:
    """HX-5: a vehicle that starts spends its start MP in the hex it stands in, so the enemy
    units that see it there may Defensive First Fire before it leaves (C6.17, RD-12): the
    window opens here and the hex ``to`` is entered when it closes (:func:`resume_start`).
    [] when no one may fire: it drives on at once."""
    state.moving_unit = unit.id
    unit.moving = True
    chance = offer_dff(state, unit)
    if not state.dff_pending:
        return []
    unit.mp_spent += start
    state.start_to = to
    text = f"{unit.name} ({unit.id}) starts in {unit.label} ({start:g} MP, RD-10)"
    return [Event("start", text, ("RD-10",), data={"unit": unit.id, "mp": start}), *chance]


def resume_start(state: GameState) -> list[Event]:
    """HX-5: the Defensive First Fire window a vehicle's start MP opened is over: it enters the
    hex it started for, if it still may (a shot may have stopped it, C7.42, 002)."""
    to, state.start_to = state.start_to, None
    unit = state.moving_target()
    if to is None or unit is None or not unit.moving or not unit.active or state.over:
        return []
    try:
        commit = move(state, Move(unit.id, to))
    except IllegalAction:
        return []
    return commit()


def _step(
    state: GameState, unit: UnitState, to: Hex, name: str
) -> tuple[Terrain, float, float, int]:
    """The hex checks of :func:`move` for ``unit`` (which may move, not a Gun) entering
    ``to`` (named ``name``): adjacent, a vehicle through its front hexside into terrain it may
    enter (RD-10), the MP or MF it has left, no enemy there, one vehicle or Gun a hex (HX-4).
    (the terrain, start MP, cost, levels climbed); IllegalAction why not."""
    if to.distance(unit.hex) != 1:
        raise IllegalAction("not_adjacent", f"{name} is not adjacent to {unit.label}")
    board = state.board
    terrain = board.terrain_at(to)
    climb = max(0, board.level_at(to) - board.level_at(unit.hex))
    vehicle = unit.type.is_vehicle
    if vehicle:
        if unit.immobilized:
            raise IllegalAction("immobilized", f"{unit.name} is immobilized and may not move (002)")
        ahead = unit.hex.neighbor(unit.facing)
        if to != ahead:
            edge = board.edge_beyond(ahead)
            faces = label(ahead) if edge is None else f"off the map ({edge} edge)"
            raise IllegalAction(
                "not_ahead",
                f"a vehicle moves through its front hexside: {unit.name} faces {faces}; "
                "turn first (RD-10)",
            )
        if not terrain.enterable_by_vehicle:
            raise IllegalAction("impassable", f"a vehicle cannot enter {terrain.name} (RD-10)")
        left = unit.type.mp - unit.mp_spent
    else:
        left = unit.type.mf - unit.mp_spent
    start, cost = _entry(state, unit, terrain, climb)
    if start + cost > left:
        word = "MP" if vehicle else "MF"
        raise IllegalAction(
            "no_mp", f"{unit.name} has {left:g} {word} left; {name} costs {start + cost:g} (RD-10)"
        )
    for other in state.units_at(to):
        if other.side != unit.side:
            raise IllegalAction("occupied", f"{name} holds an enemy unit")
        if vehicle and (other.type.is_vehicle or other.type.category == "gun"):
            raise IllegalAction(
                "stacking", f"{name} already holds a vehicle or Gun (one per hex, HX-4)"
            )
    return terrain, start, cost, climb


def steps(state: GameState, unit: UnitState, into: Iterable[Hex]) -> list[Move]:
    """The Moves :func:`move` accepts now for ``unit`` (not a Gun) into the hexes ``into``:
    its first check (:func:`mover`) once, then :func:`_step` each hex."""
    try:
        mover(state, unit.id)
    except IllegalAction:
        return []
    out = []
    for h in into:
        name = label(h)
        try:
            _step(state, unit, h, name)
        except IllegalAction:
            continue
        out.append(Move(unit.id, name))
    return out


def entry_cost(state: GameState, unit: UnitState, to: Hex) -> tuple[float, float]:
    """(start MP, MP or MF to enter ``to``) for ``unit`` (RD-10): a vehicle pays 1 to start
    from stopped, the terrain's MP (a road 1/2 only from a road hex) and +2 a level up;
    infantry the terrain's MF +1 a level."""
    board = state.board
    climb = max(0, board.level_at(to) - board.level_at(unit.hex))
    return _entry(state, unit, board.terrain_at(to), climb)


def _entry(state: GameState, unit: UnitState, terrain: Terrain, climb: int) -> tuple[float, float]:
    """:func:`entry_cost` of a hex of ``terrain`` ``climb`` levels up."""
    if unit.type.is_vehicle:
        start = 0.0 if (unit.moving or unit.motion) else 1.0
        mp = terrain.vehicle_mp(state.board.terrain_at(unit.hex))
        return start, mp + state.board.catalogue.climb_mp * climb
    return 0.0, terrain.mf + climb


def turn(state: GameState, action: Turn) -> Commit:
    unit = mover(state, action.unit)
    if not 0 <= action.facing <= 5 or (action.facing - unit.facing) % 6 not in (1, 5):
        raise IllegalAction(
            "bad_facing",
            f"turn one hexside at a time: {unit.name} faces {unit.facing}, so 0-5 next to it",
        )
    start = 0.0
    if unit.type.is_vehicle:
        if unit.immobilized:
            raise IllegalAction(
                "immobilized", f"{unit.name} is immobilized and may not change facing (002)"
            )
        start = 0.0 if (unit.moving or unit.motion) else 1.0
        if start + 1 > unit.type.mp - unit.mp_spent:
            raise IllegalAction("no_mp", f"{unit.name} has no MP left to turn (RD-10)")
    elif unit.type.category != "gun":
        raise IllegalAction("no_facing", "infantry have no facing")

    def commit() -> list[Event]:
        events: list[Event] = []
        if state.moving_unit is None:  # a vehicle begins its move: nothing counted yet (C6.17)
            state.move_start = unit.hex
            state.loc_mp.clear()
        seen = concealment.on_move(state, unit)  # a pivot is a move (RD-11)
        if start:  # spent in the old facing, counted once it is known whether it revealed it
            spend(state, unit, start)
        old = unit.facing
        unit.facing = action.facing
        if not unit.type.turret:
            unit.turret = action.facing
        events.insert(
            0,
            Event(
                "turn",
                f"{unit.name} ({unit.id}) turns from {facing_words(old)} to "
                f"{facing_words(action.facing)}"
                + (" (1 MP, RD-10)" if unit.type.is_vehicle else ""),
                ("RD-10",),
                data={"unit": unit.id, "facing": action.facing, "from": old},
            ),
        )
        events.extend(ca_changed(state, unit, old))
        events.extend(seen)
        if unit.type.is_vehicle:
            state.moving_unit = unit.id
            unit.moving = True
            unit.mp_spent += start + 1
            spend(state, unit, 1.0)  # C6.17: counted for the facing turned to
            if not unit.concealed:  # a "?"'s pivot is not seen: no chance after it (RD-20)
                events.extend(offer_dff(state, unit))
        else:
            unit.moved = True
        return events

    return seen_as_moved(state, unit, commit)


def end_move(state: GameState, action: EndMove) -> Commit:
    unit = state.own(action.unit, state.phasing)
    if state.moving_unit != unit.id:
        raise IllegalAction("not_moving", f"{unit.name} is not moving")
    if not action.motion and unit.motion and not unit.entered_new_hex:
        raise IllegalAction(
            "motion_stop", f"{unit.name} is in Motion: it stops only in a new hex (HX-16)"
        )

    def commit() -> list[Event]:
        events = []
        state.moving_unit = None
        unit.moving = False
        unit.moved = True
        if not unit.type.is_vehicle:
            return [Event("end_move", f"{unit.name} ({unit.id}) ends its move in {unit.label}")]
        left = unit.type.mp - unit.mp_spent
        motion = action.motion
        why = ""
        if not motion and left < 1:
            motion, why = True, " (no MP left to stop)"
        # it spends MP in its hex: a stop is a move (RD-11), seen before they are counted
        seen = concealment.on_move(state, unit) if not motion or left > 0 else []
        if motion:
            unit.motion = True
            unit.was_motion = True
            events.append(
                Event(
                    "end_move",
                    f"{unit.name} ({unit.id}) ends its move in Motion in {unit.label}{why} (C6.1)",
                    ("C6.1",),
                )
            )
        else:
            unit.motion = False
            unit.mp_spent += 1
            left -= 1
            events.append(
                Event(
                    "end_move",
                    f"{unit.name} ({unit.id}) stops in {unit.label} (1 MP, RD-10)",
                    ("RD-10",),
                )
            )
            spend(state, unit, 1.0)
        if left > 0:
            unit.mp_spent += left
            events.append(
                Event(
                    "leftover",
                    f"{unit.name}'s {left:g} MP left over are spent in {unit.label} (C6.16)",
                    ("C6.16",),
                )
            )
            spend(state, unit, left)
        events.extend(seen)
        state.moving_unit = unit.id  # Defensive First Fire may still answer the MP spent here
        if not unit.concealed:  # a "?"'s stop is not seen: no chance after it (RD-20)
            events.extend(offer_dff(state, unit))
        if not state.dff_pending:
            state.moving_unit = None
        return events

    return seen_as_moved(state, unit, commit)


def spend(state: GameState, unit: UnitState, mp: float, entering: bool = False) -> None:
    """The moving vehicle (or "?") spends MP in its hex: C6.15 LOS tracking for every enemy
    firer. ``entering``: the MP of the hex it entered. A "?" is counted as the other side sees
    it (RD-20): 1 MP for each hex it enters, nothing for its start, stop, pivots or terrain."""
    if unit.concealed:
        mp = 1.0 if entering else 0.0
    facing = state.target_facing(unit)
    state.loc_mp[facing] = state.loc_mp.get(facing, 0.0) + mp
    start = state.move_start or unit.hex
    index, sees = state.board.index, state.visibility.sees  # can_see, the mover's hex once
    here = index(unit.hex)
    for enemy in state.potential_firers(unit):
        t = state.track.get((unit.id, enemy.id))
        there = index(enemy.hex)
        if t is None:  # C6.15: it began its move in this firer's LOS: exempt from J1/J2
            began_in_los = sees(there, index(start))
            t = state.track[(unit.id, enemy.id)] = Track(0.0, exempt=began_in_los)
        if sees(there, here):
            t.los_mp += mp
        else:
            t.los_mp = 0.0
            t.exempt = False
