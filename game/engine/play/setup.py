"""Set-up choices of the scenario defender: Bore Sighting (C6.41-.43). Concealment at set-up is
in :mod:`.concealment` (RD-11)."""

from __future__ import annotations

import numpy as np

from game.board.hexes import label
from game.board.scalar import ScalarSight
from game.engine.actions import BoreSight, Place
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.setup import SetupArea
from game.engine.state import GameState, UnitState

from . import Commit

BORE_SIGHT_RANGE = 16
"""C6.42: a Bore Sighted Location within the weapon's Normal Range, 16 hexes at most."""


def bore_sight_hexes(state: GameState, unit: UnitState) -> list[str]:
    """C6.42: hexes in the weapon's LOS within 16 hexes, outside its own hex (in board order)."""
    board = state.board
    i = board.index(unit.hex)
    d = board.distances(i)
    near = np.flatnonzero((d > 0) & (d <= BORE_SIGHT_RANGE))
    if isinstance(state.visibility, ScalarSight):  # the benchmark's reference: each traced
        seen = [j for j in near if state.visibility.sees(i, int(j))]
    else:
        seen = list(near[state.viewshed(i)[0][near]])
    return [label(board.hex_at(int(j))) for j in seen]


def bore_sight(state: GameState, action: BoreSight) -> Commit:
    """The scenario defender Bore Sights one Location for a Gun or a vehicle's main armament:
    outside its hex, in its LOS, within 16 hexes (C6.41-.42)."""
    unit = state.own(action.unit, state.setup.defender)
    if not unit.type.gun:
        raise IllegalAction(
            "no_bore_sight",
            f"{unit.name}: only a Gun or a vehicle's main armament may Bore Sight (C6.41)",
        )
    if unit.bore_sight is not None:
        raise IllegalAction(
            "no_bore_sight", f"{unit.name} has already Bore Sighted {unit.bore_sight} (C6.42)"
        )
    spot = state.parse_hex(action.hex)
    if spot == unit.hex:
        raise IllegalAction(
            "no_bore_sight",
            "the Bore Sighted Location must be outside the weapon's own hex (C6.42)",
        )
    if unit.hex.distance(spot) > BORE_SIGHT_RANGE:
        raise IllegalAction("no_bore_sight", f"{action.hex} is beyond 16 hexes (C6.42)")
    if not state.hex_sees(unit.hex, spot):
        raise IllegalAction("no_bore_sight", f"{action.hex} is not in {unit.name}'s LOS (C6.42)")

    def commit() -> list[Event]:
        unit.bore_sight = label(spot)
        return private(
            state,
            unit,
            [
                Event(
                    "bore_sight",
                    f"{unit.name} ({unit.id}) Bore Sights {label(spot)} (C6.42)",
                    ("C6.42",),
                    data={"unit": unit.id, "hex": label(spot)},
                )
            ],
        )

    return commit


def place(state: GameState, action: Place) -> Commit:
    """Set-up (HX-12): a side places one of its units in the unit's set-up area, facing any
    hexside; one vehicle or Gun a hex (HX-4), never in an enemy's hex, a vehicle only where it
    may drive. The scenario's hex is where it starts; a Bore Sighted Location chosen from the
    old hex is dropped (C6.42: it is chosen from the set-up Location)."""
    unit = state.own(action.unit, state.to_act)
    area = state.areas.get(unit.id)
    if area is None:
        raise IllegalAction("fixed", f"the scenario fixes {unit.name}'s hex ({unit.label})")
    spot = state.parse_hex(action.hex)
    if not 0 <= action.facing <= 5:
        raise IllegalAction("bad_facing", f"a facing is a hexside 0-5, not {action.facing}")
    if not area.contains(spot):
        raise IllegalAction(
            "outside_area", f"{action.hex} is outside {unit.name}'s set-up area ({area.describe()})"
        )
    if unit.type.category != "infantry" and not state.board.terrain_at(spot).enterable_by_vehicle:
        raise IllegalAction(
            "impassable",
            f"a vehicle or Gun cannot set up in {state.board.terrain_at(spot).name} (RD-10)",
        )
    for other in state.units_at(spot):
        if other.id == unit.id:
            continue
        if other.side != unit.side:
            raise IllegalAction("occupied", f"{action.hex} holds an enemy unit")
        heavy = ("afv", "vehicle", "gun")
        if unit.type.category in heavy and other.type.category in heavy:
            raise IllegalAction(
                "stacking", f"{action.hex} already holds a vehicle or Gun (one per hex, HX-4)"
            )

    def commit() -> list[Event]:
        events: list[Event] = []
        unit.hex = spot
        unit.facing = action.facing
        unit.turret = action.facing
        if unit.bore_sight is not None:
            events.append(
                Event(
                    "bore_sight",
                    f"{unit.name} moved at set-up: its Bore Sighting of {unit.bore_sight} is "
                    "dropped (C6.42)",
                    ("C6.42",),
                    data={"unit": unit.id, "hex": None},
                )
            )
            unit.bore_sight = None
        events.insert(
            0,
            Event(
                "place",
                f"{unit.name} ({unit.id}) sets up in {label(spot)}, facing {action.facing} (HX-12)",
                ("HX-12",),
                data={"unit": unit.id, "hex": label(spot), "facing": action.facing},
            ),
        )
        return private(state, unit, events)

    return commit


def private(state: GameState, unit: UnitState, events: list[Event]) -> list[Event]:
    """A side's set-up choices are its own (C6.42: a Bore Sighted Location is recorded in
    secret; HX-12): the other side reads none of these events."""
    other = state.setup.other(unit.side)
    return [e.hidden_from(other) for e in events]


def setup_hexes(state: GameState, unit: UnitState) -> list[str]:
    """The hexes of ``unit``'s set-up area on the map where it may stand (a vehicle or Gun
    only where a vehicle may drive, RD-10; HX-12); empty when its hex is fixed."""
    area = state.areas.get(unit.id)
    if area is None:
        return []
    heavy = unit.type.category != "infantry"
    key = (area, heavy)
    known = state.spots.get(key)
    if known is None:
        known = state.spots[key] = tuple(_area_hexes(state, area, heavy))
    return list(known)


def _area_hexes(state: GameState, area: SetupArea, heavy: bool) -> list[str]:
    """:func:`setup_hexes` of ``area`` for a vehicle or Gun (``heavy``) or Infantry."""
    board = state.board
    c0, c1 = area.columns or (0, board.columns - 1)
    r0, r1 = area.rows or (0, board.rows - 1)
    c1, r1 = min(c1, board.columns - 1), min(r1, board.rows - 1)
    out = []
    for row in range(r0, r1 + 1):  # board order, the area's rectangle only
        for col in range(c0, c1 + 1):
            h = board.hex_at(row * board.columns + col)
            if not (heavy and not board.terrain_at(h).enterable_by_vehicle):
                out.append(label(h))
    return out
