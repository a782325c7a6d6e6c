"""Set-up choices of the scenario defender: Bore Sighting (C6.41-.43). Concealment at set-up is
in :mod:`.concealment` (RD-11)."""

from __future__ import annotations

import numpy as np

from game.board.hexes import Hex, label
from game.engine.actions import BoreSight, Place
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.setup import SetupArea
from game.engine.state import GameState, UnitState
from game.rules.words import facing_words

from . import Commit

BORE_SIGHT_RANGE = 16
"""C6.42: a Bore Sighted Location within the weapon's Normal Range, 16 hexes at most."""


def bore_sight_hexes(state: GameState, unit: UnitState) -> list[str]:
    """C6.42: hexes in the weapon's LOS within 16 hexes, outside its own hex (in board order)."""
    board = state.board
    i = board.index(unit.hex)
    d = board.distances(i)
    near = np.flatnonzero((d > 0) & (d <= BORE_SIGHT_RANGE))
    return [label(board.hex_at(int(j))) for j in near[state.viewshed(i)[0][near]]]


def bore_sight(state: GameState, action: BoreSight) -> Commit:
    """The scenario defender Bore Sights one Location for a Gun or a vehicle's main armament:
    outside its hex, in its LOS, within 16 hexes (C6.41-.42)."""
    unit = _bore_sighter(state, action.unit)
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


def _bore_sighter(state: GameState, uid: str) -> UnitState:
    """The unit checks of :func:`bore_sight`: the defender's Gun or vehicle gun, not yet Bore
    Sighted (C6.41-.42)."""
    unit = state.own(uid, state.setup.defender)
    if not unit.type.gun:
        raise IllegalAction(
            "no_bore_sight",
            f"{unit.name}: only a Gun or a vehicle's main armament may Bore Sight (C6.41)",
        )
    if unit.bore_sight is not None:
        raise IllegalAction(
            "no_bore_sight", f"{unit.name} has already Bore Sighted {unit.bore_sight} (C6.42)"
        )
    return unit


def bore_sights(state: GameState, unit: UnitState) -> list[BoreSight]:
    """Every Bore Sighting :func:`bore_sight` accepts for ``unit`` now: its unit checks once,
    then :func:`bore_sight_hexes` (its hex checks, over the viewshed at once)."""
    try:
        _bore_sighter(state, unit.id)
    except IllegalAction:
        return []
    return [BoreSight(unit.id, spot) for spot in bore_sight_hexes(state, unit)]


def place(state: GameState, action: Place) -> Commit:
    """Set-up (HX-12): a side places one of its units in the unit's set-up area, facing any
    hexside; one vehicle or Gun a hex (HX-4), never in an enemy's hex, a vehicle only where it
    may drive. The scenario's hex is where it starts; a Bore Sighted Location chosen from the
    old hex is dropped (C6.42: it is chosen from the set-up Location)."""
    unit, area = _placer(state, action.unit)
    spot = state.parse_hex(action.hex)
    if not 0 <= action.facing <= 5:
        raise IllegalAction("bad_facing", f"a facing is a hexside 0-5, not {action.facing}")
    problem = _spot_problem(state, unit, area, spot, action.hex)
    if problem is not None:
        raise problem

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
                f"{unit.name} ({unit.id}) sets up in {label(spot)}, facing "
                f"{facing_words(action.facing)} (HX-12)",
                ("HX-12",),
                data={"unit": unit.id, "hex": label(spot), "facing": action.facing},
            ),
        )
        return private(state, unit, events)

    return commit


def _placer(state: GameState, uid: str) -> tuple[UnitState, SetupArea]:
    """The unit checks of :func:`place`: the side to act's unit, with a set-up area (HX-12)."""
    unit = state.own(uid, state.to_act)
    area = state.areas.get(unit.id)
    if area is None:
        raise IllegalAction("fixed", f"the scenario fixes {unit.name}'s hex ({unit.label})")
    return unit, area


def _spot_problem(
    state: GameState, unit: UnitState, area: SetupArea, spot: Hex, name: str
) -> IllegalAction | None:
    """The hex checks of :func:`place` (None: ``unit`` may set up in ``spot``): inside its
    area, where a vehicle may drive (RD-10; the hexes :func:`setup_hexes` lists), then
    :func:`_stacking_problem`."""
    if not area.contains(spot):
        return IllegalAction(
            "outside_area", f"{name} is outside {unit.name}'s set-up area ({area.describe()})"
        )
    if unit.type.category != "infantry" and not state.board.terrain_at(spot).enterable_by_vehicle:
        return IllegalAction(
            "impassable",
            f"a vehicle or Gun cannot set up in {state.board.terrain_at(spot).name} (RD-10)",
        )
    return _stacking_problem(state, unit, spot, name)


def _stacking_problem(
    state: GameState, unit: UnitState, spot: Hex, name: str
) -> IllegalAction | None:
    """Not an enemy's hex; one vehicle or Gun a hex (HX-4)."""
    for other in state.units_at(spot):
        if other.id == unit.id:
            continue
        if other.side != unit.side:
            return IllegalAction("occupied", f"{name} holds an enemy unit")
        heavy = ("afv", "vehicle", "gun")
        if unit.type.category in heavy and other.type.category in heavy:
            return IllegalAction(
                "stacking", f"{name} already holds a vehicle or Gun (one per hex, HX-4)"
            )
    return None


def placements(state: GameState, unit: UnitState) -> list[Place]:
    """Every placement :func:`place` accepts for ``unit`` now, in the candidates' order
    (:func:`game.engine.legal.iter_candidates`): each hex of its area where it may stand
    (:func:`setup_hexes`: the area and terrain checks of :func:`_spot_problem`) with its
    facing, then its own hex with every other facing. Asked once a unit instead of once a
    placement (a set-up's thousands of them were a fifth of listing legal actions)."""
    try:
        _, area = _placer(state, unit.id)
    except IllegalAction:
        return []
    here = label(unit.hex)
    uid, facing = unit.id, unit.facing
    occupied = state.units_at  # an empty hex needs no stacking check
    out = [
        Place(uid, spot, facing)
        for spot, h in _spots(state, unit)
        if spot != here and (not occupied(h) or _stacking_problem(state, unit, h, spot) is None)
    ]
    if _spot_problem(state, unit, area, unit.hex, here) is None:
        out.extend(Place(uid, here, f) for f in range(6) if f != facing)
    return out


def private(state: GameState, unit: UnitState, events: list[Event]) -> list[Event]:
    """A side's set-up choices are its own (C6.42: a Bore Sighted Location is recorded in
    secret; HX-12): the other side reads none of these events."""
    other = state.setup.other(unit.side)
    return [e.hidden_from(other) for e in events]


def setup_hexes(state: GameState, unit: UnitState) -> list[str]:
    """The hexes of ``unit``'s set-up area on the map where it may stand (a vehicle or Gun
    only where a vehicle may drive, RD-10; HX-12); empty when its hex is fixed."""
    return [spot for spot, _ in _spots(state, unit)]


def _spots(state: GameState, unit: UnitState) -> tuple[tuple[str, Hex], ...]:
    """:func:`setup_hexes` with each hex, made once an area (and kind of unit) a game."""
    area = state.areas.get(unit.id)
    if area is None:
        return ()
    heavy = unit.type.category != "infantry"
    key = (area, heavy)
    known = state.spots.get(key)
    if known is None:
        known = state.spots[key] = tuple(_area_hexes(state, area, heavy))
    return known


def _area_hexes(state: GameState, area: SetupArea, heavy: bool) -> list[tuple[str, Hex]]:
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
                out.append((label(h), h))
    return out
