"""The victory conditions (RD-13): eliminate, exit (checked at once), hold and points (at game
end); with no condition met at the turn limit, the scenario defender wins (HX-11)."""

from __future__ import annotations

from game.board.hexes import Hex
from game.engine.events import Event
from game.engine.setup import counts_as
from game.engine.state import GameState

LOST = ("eliminated", "burning", "abandoned", "wreck")
"""Statuses that count as eliminated for victory (abandoned and burning count, RD-13)."""


def eliminated_afvs(state: GameState, by_side: str) -> int:
    """Enemy AFVs ``by_side`` has eliminated."""
    return sum(
        1
        for unit in state.units.values()
        if unit.side != by_side and unit.type.armored and unit.status in LOST
    )


def exited(state: GameState, side: str, edge: str, only: str | None = None) -> int:
    """How many of ``side``'s units have left the map by ``edge`` (RD-13 exit); with
    ``only``, its vehicles or AFVs alone (:func:`counts_as`), each read from the hex it left
    and its front hexside, the one a vehicle leaves by
    (:func:`~game.engine.play.movement.exit_map`)."""
    if only is None:
        return state.exited.get(f"{side}:{edge}", 0)
    return sum(
        1
        for unit in state.units.values()
        if unit.side == side
        and unit.status == "exited"
        and counts_as(only, unit.type.category)
        and state.board.edge_beyond(unit.hex.neighbor(unit.facing)) == edge
    )


def points(state: GameState, side: str) -> int:
    """RD-13 points: an enemy AFV eliminated 2, any other enemy unit 1."""
    return sum(
        (2 if unit.type.armored else 1)
        for unit in state.units.values()
        if unit.side != side and unit.status in LOST
    )


def check_victory(state: GameState) -> list[Event]:
    """The conditions won at once: eliminate and exit (RD-13)."""
    if state.over:
        return []
    for v in state.setup.victory:
        won = False
        if v.kind == "eliminate":
            if v.units:
                won = all(state.units[x].status in LOST for x in v.units)
            else:
                won = eliminated_afvs(state, v.side) >= v.count
        elif v.kind == "exit":
            won = v.edge is not None and exited(state, v.side, v.edge, v.only) >= v.count
        if won:
            rules = "RD-13, HX-20" if v.only else "RD-13"
            return finish(state, v.side, f"{v.describe()} ({rules})")
    return []


def game_end(state: GameState) -> list[Event]:
    """The last turn has ended: hold and points conditions, else the scenario defender
    (RD-13, HX-11)."""
    for v in state.setup.victory:
        if v.kind == "hold" and all(holds(state, v.side, state.board.parse(h)) for h in v.hexes):
            return finish(state, v.side, f"{v.describe()} (RD-13)")
        if v.kind == "points" and points(state, v.side) >= v.count:
            return finish(state, v.side, f"{v.describe()} (RD-13)")
    return finish(
        state,
        state.setup.defender,
        "the last turn ended with no other condition met: the scenario defender wins "
        "(RD-13, HX-11)",
    )


def holds(state: GameState, side: str, h: Hex) -> bool:
    """A unit of ``side`` in ``h`` and none of the enemy."""
    here = state.units_at(h)
    return any(u.side == side for u in here) and not any(u.side != side for u in here)


def finish(state: GameState, side: str, why: str) -> list[Event]:
    state.over = True
    state.winner = side
    state.end_reason = why
    state.dff_pending = ()
    return [
        Event(
            "game_over",
            f"Game over: {side} wins: {why}",
            ("RD-13",),
            data={"winner": side, "reason": why},
        )
    ]
