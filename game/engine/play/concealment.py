"""Concealment (RD-11): setting up concealed, losing it on the move, regaining it."""

from __future__ import annotations

from game.engine.actions import Conceal
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState, UnitState

from . import Commit

CONCEALMENT_LOSS_RANGE = 16
"""RD-11: a concealed unit moving in the LOS of an enemy unit within 16 hexes loses it."""
HIDING_TERRAIN = ("woods", "wooden_building", "stone_building")


def may_hide(state: GameState, unit: UnitState) -> bool:
    """RD-11: in woods or a building, out of every enemy unit's LOS."""
    if state.board.terrain_at(unit.hex).key not in HIDING_TERRAIN:
        return False
    return not any(
        e.active and e.side != unit.side and state.can_see(e, unit) for e in state.units.values()
    )


def conceal(state: GameState, action: Conceal) -> Commit:
    """Set-up: the scenario defender conceals a unit in woods or a building out of every
    enemy unit's LOS (RD-11; the same test as regaining concealment)."""
    unit = state.own(action.unit, state.setup.defender)
    if unit.concealed:
        raise IllegalAction("already_concealed", f"{unit.name} is already concealed")
    if not may_hide(state, unit):
        raise IllegalAction(
            "cannot_conceal",
            f"{unit.name} may set up concealed only in woods or a building out of every "
            "enemy unit's LOS (RD-11)",
        )

    def commit() -> list[Event]:
        unit.concealed = True
        return [
            Event(
                "concealment",
                f"{unit.name} ({unit.id}) sets up concealed (RD-11)",
                ("RD-11",),
                data={"unit": unit.id, "concealed": True},
            ).hidden_from(state.setup.other(unit.side))
        ]

    return commit


def on_move(state: GameState, unit: UnitState) -> list[Event]:
    """RD-11: a concealed unit moving in the LOS of an enemy unit within 16 hexes loses it."""
    if not unit.concealed:
        return []
    for e in state.units.values():
        if (
            e.active
            and e.side != unit.side
            and e.hex.distance(unit.hex) <= CONCEALMENT_LOSS_RANGE
            and state.can_see(e, unit)
        ):
            unit.concealed = False
            event = Event(
                "concealment",
                f"{unit.name} moves in {e.name}'s view and loses concealment (RD-11)",
                ("RD-11",),
                data={"unit": unit.id, "concealed": False, "seen_by": e.id},
            )
            if e.concealed:  # the unit that saw it stays a "?" to the mover's side
                event = event.hidden_from(
                    unit.side,
                    Event(
                        "concealment",
                        f"{unit.name} moves in the view of a concealed unit within 16 hexes "
                        "and loses concealment (RD-11)",
                        ("RD-11",),
                        data={"unit": unit.id, "concealed": False},
                    ),
                )
            return [event]
    return []


def regain(state: GameState) -> list[Event]:
    """RD-11: at the end of each player turn a unit in woods or a building out of every
    enemy unit's LOS regains concealment."""
    events = []
    for unit in state.units.values():
        if not unit.active or unit.concealed or not may_hide(state, unit):
            continue
        unit.concealed = True
        events.append(
            Event(
                "concealment",
                f"{unit.name} in {unit.label} is out of every enemy LOS: concealed again (RD-11)",
                ("RD-11",),
                data={"unit": unit.id, "concealed": True},
            )
        )
    return events
