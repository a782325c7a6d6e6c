"""The hatches of an AFV: Button Up or Crew Exposed (CE / BU), in the phases the phase table
allows them; a concealed AFV's change is its own side's (RD-11)."""

from __future__ import annotations

from game.engine.actions import ButtonUp, CrewExposed
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.state import GameState

from . import Commit
from .sighting import seen_as_moved


def hatch(state: GameState, action: ButtonUp | CrewExposed) -> Commit:
    unit = state.own(action.unit, state.to_act)
    if not unit.type.armored:
        raise IllegalAction("no_hatch", f"{unit.name} is not an AFV")
    want_ce = isinstance(action, CrewExposed)
    if want_ce and unit.shock != "none":
        raise IllegalAction("shocked", f"{unit.name} is shocked and stays buttoned up (C7.42)")
    if unit.ce == want_ce:
        raise IllegalAction("no_change", f"{unit.name} is already {'CE' if want_ce else 'BU'}")

    def commit() -> list[Event]:
        unit.ce = want_ce
        return [
            Event(
                "hatch",
                f"{unit.name} ({unit.id}) is now {'CE' if want_ce else 'BU'}",
                data={"unit": unit.id},
            )
        ]

    return seen_as_moved(state, unit, commit)
