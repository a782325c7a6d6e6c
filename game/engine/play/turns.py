"""The turn and its phases (RD-12): ending a phase runs the work the phase table names for it
(``Phase.on_end``); a player turn ends with concealment regained (RD-11) and, after the last
game turn, the victory check at game end (RD-13)."""

from __future__ import annotations

from collections.abc import Callable

from game.engine.actions import EndPhase
from game.engine.errors import IllegalAction
from game.engine.events import Event
from game.engine.phases import PHASES
from game.engine.state import GameState

from . import Commit, concealment
from .outcomes import recovery
from .victory import game_end


def end_phase(state: GameState, action: EndPhase) -> Commit:
    """End the phase: its ``on_end`` work in order, then the next phase begins."""
    if state.phase == "movement" and state.moving_unit:
        name = state.units[state.moving_unit].name
        raise IllegalAction("moving", f"{name} is moving: end its move first")

    def commit() -> list[Event]:
        events: list[Event] = []
        phase = PHASES[state.phase]
        for work in phase.on_end:
            events.extend(END_WORK[work](state))
        if state.over and phase.next is None:
            return events  # the game ended with the player turn
        state.phase = phase.next or "rally"
        if state.over:
            return events  # a recovery roll decided it (C7.42, RD-13)
        events.append(
            Event(
                "phase",
                f"Turn {state.turn}, {state.phasing}: {PHASES[state.phase].title} (RD-12)",
                ("RD-12",),
                data={"turn": state.turn, "side": state.phasing, "phase": state.phase},
            )
        )
        return events

    return commit


def clear_fire(state: GameState) -> list[Event]:
    """A new phase: every unit may fire again (RD-4 counts shots per phase)."""
    for unit in state.units.values():
        if unit.fired or unit.shots_this_phase or unit.fired_at_acquired:  # (most did not)
            unit.fired = False
            unit.shots_this_phase = 0
            unit.fired_at_acquired = False
    return []


def clear_tracking(state: GameState) -> list[Event]:
    """The Movement Phase ends: the C6.15 tracking and the C6.17 marks go."""
    state.track.clear()
    state.marks.clear()
    state.loc_mp.clear()
    return []


def start_player_turn(state: GameState) -> list[Event]:
    """A player turn begins: the phasing side's movement record is cleared; Motion carries
    over as "was in Motion" (Case J, C6.1)."""
    for unit in state.units.values():
        unit.first_fired = False
        if unit.side == state.phasing:
            unit.mp_spent = 0.0
            unit.entered_new_hex = False
            unit.was_motion = unit.motion
            unit.moved = False
            unit.fired_prep = False
    return []


def end_player_turn(state: GameState) -> list[Event]:
    """RD-12: the player turn ends (concealment regained, RD-11); after the second, the game
    turn; after the last game turn, the game (RD-13)."""
    events = concealment.regain(state)
    if state.player_turn == 0:
        state.player_turn = 1
    else:
        state.player_turn = 0
        state.turn += 1
        if state.turn > state.setup.turns:
            events.extend(game_end(state))
            return events
    for unit in state.units.values():
        unit.entered_new_hex = False
        unit.was_motion = unit.motion
    events.extend(start_player_turn(state))
    return events


END_WORK: dict[str, Callable[[GameState], list[Event]]] = {
    "recovery": recovery,
    "clear_fire": clear_fire,
    "clear_tracking": clear_tracking,
    "start_player_turn": start_player_turn,
    "end_player_turn": end_player_turn,
}
"""The work a phase table entry may name (``Phase.on_end``)."""
