"""Set-up choices of the scenario defender: Bore Sighting (C6.41-.43). Concealment at set-up is
in :mod:`.concealment` (RD-11)."""

from __future__ import annotations

from game.board.hexes import label
from game.engine.actions import BoreSight
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, UnitState

from . import Commit

BORE_SIGHT_RANGE = 16
"""C6.42: a Bore Sighted Location within the weapon's Normal Range, 16 hexes at most."""


def bore_sight_hexes(state: GameState, unit: UnitState) -> list[str]:
    """C6.42: hexes in the weapon's LOS within 16 hexes, outside its own hex."""
    out = []
    for j in range(state.board.size):
        h = state.board.hex_at(j)
        if (
            h != unit.hex
            and unit.hex.distance(h) <= BORE_SIGHT_RANGE
            and state.hex_sees(unit.hex, h)
        ):
            out.append(label(h))
    return out


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
        return [
            Event(
                "bore_sight",
                f"{unit.name} ({unit.id}) Bore Sights {label(spot)} (C6.42)",
                ("C6.42",),
                data={"unit": unit.id, "hex": label(spot)},
            )
        ]

    return commit
