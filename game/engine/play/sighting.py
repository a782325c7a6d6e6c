"""What the other side reads of a concealed unit's move (RD-11): its moves by hex, its exit by
edge, nothing else."""

from __future__ import annotations

from game.engine.events import Event
from game.engine.state import GameState, UnitState

from . import Commit

ABOUT_THE_MOVER = (
    "move",
    "start",
    "turn",
    "end_move",
    "leftover",
    "hatch",
    "exit",
    "bore_sight",
    "acquisition",
)


def seen_as_moved(state: GameState, unit: UnitState, commit: Commit) -> Commit:
    """``commit``, its events as the other side may read them (:func:`as_seen`)."""

    def seen() -> list[Event]:
        return as_seen(state, unit, commit())

    return seen


def as_seen(state: GameState, unit: UnitState, events: list[Event]) -> list[Event]:
    """RD-11: while a unit stays concealed, the other side reads its move as "a concealed unit
    moves D1 -> E2" (and its exit by the edge it took), nothing else of what it did: its type,
    facing, stops, hatches and counters stay unknown."""
    if not unit.concealed:
        return events
    other = state.setup.other(unit.side)
    out = []
    for e in events:
        if e.kind not in ABOUT_THE_MOVER:
            out.append(e)
            continue
        seen = None
        if e.kind == "move":
            frm, to = e.data["from"], e.data["to"]
            seen = Event("move", f"a concealed unit moves {frm} -> {to} (RD-11)", ("RD-11",))
        elif e.kind == "exit":
            edge = e.data["edge"]
            seen = Event("exit", f"a concealed unit leaves the map by the {edge} edge (RD-13)")
        out.append(e.hidden_from(other, seen))
    return out
