"""Time and distance as the computer reckons them: the Movement Phases a side has left
(RD-12), how far a map edge is, and whether a unit can get there in time (RD-13 exits)."""

from __future__ import annotations

from game.board.hexes import to_offset
from game.engine.table import Table

from ..tuning import tuning

HEXES_PER_MP = 1 / tuning().playout.mp_per_hex
"""About how far a unit gets on its MP (or MF): a hex for 1.5 of them (RD-10: open ground 1,
a turn, a road, the odd obstacle)."""


def phases_left(table: Table, side: str, now: int = 0) -> int:
    """The Movement Phases ``side`` has left after this player turn (RD-12), and ``now``
    (1) to count this turn's own if it is still to come."""
    after = table.turns - table.turn
    if table.phasing == side:
        return after + now
    return after + (0 if table.first == side else 1)  # still to come this turn


def to_edge(board, here, edge: str) -> int:
    """Hexes from ``here`` to the map edge ``edge``."""
    col, row = to_offset(here)
    return {
        "west": col,
        "east": board.columns - 1 - col,
        "north": row,
        "south": board.rows - 1 - row,
    }[edge]


def in_time(board, here, edge: str, reach: float) -> float:
    """1 if a unit in ``here`` can reach the map edge ``edge`` (and leave by it) within
    ``reach`` hexes, falling to 0 a hex beyond."""
    return min(1.0, max(0.0, reach - to_edge(board, here, edge) + 1.0)) if reach > 0 else 0.0


def exit_open(table: Table, side: str, v, left: int | None = None) -> bool:
    """Whether ``side``'s exit victory ``v`` may still be met (RD-13): the units already off the
    map by its edge (``left``, for the enemy's: those this side saw leave by it; else its own
    count) and those of its units in play that count for it (not immobilized; an enemy "?" may
    be one, and may be anywhere on its way: RD-11) that could get there in time, reach its
    count: at best a hex a MP or MF (RD-10: open ground 1)
    in each Movement Phase to come, and in its own under way the MP or MF a unit has left (none
    once its move is done). If not, a unit that leaves by that edge scores nothing (RD-13) and
    is out of play for good, while the side's other victory may yet need it (issue 41: the
    Orel road's column drove its last two vehicles off the map, two of the three it needed,
    and left the named Gun that would have won the game untouched)."""
    if v.kind != "exit" or not v.edge:
        return False
    could = table.exited(v.edge, v.only) if left is None else left
    board = table.board
    mine = table.phasing == side
    now = mine and table.phase == "movement"
    later = phases_left(table, side, 1 if mine and table.phase in ("rally", "prep_fire") else 0)
    for u in table.units():
        if could >= v.count:
            break
        if u["side"] != side or u.get("immobilized") or not v.counts(u):
            continue
        if u.get("type") == "?":  # what it is and what it has left are its side's secrets
            could += 1
            continue
        kind = table.unit_type(u["id"])
        full = max(kind.mp, kind.mf)
        reach = later * full
        if now and not (u.get("moved") and table.moving_unit != u["id"]):
            reach += max(0.0, full - float(u.get("mp_spent") or 0.0))
        if to_edge(board, board.parse(u["hex"]), v.edge) + 1 <= reach:  # and 1 to leave
            could += 1
    return could >= v.count


def wins_on_time(table: Table, side: str) -> bool:
    """Whether ``side`` wins if time runs out as things stand, so it may wait (HX-11): it is the
    scenario defender and no hold condition of the enemy's is met now, as its side sees the
    units (RD-13: each hex of the hold holds an enemy unit, a "?" too, and none of its own).
    An enemy holding its hexes wins on time instead: then the defender must act, once it has
    ``[objective] retake_phases`` Movement Phases left or fewer (a hold counts when the last
    turn ends: before then it keeps its patience, issue 41: a lone Panzer that drove out at
    the first T-34 on the crossroads met the other two in the open). The side that must act
    wins on time too once it keeps a hold of its own (:func:`holds_kept`): its vehicles wait
    as the defender's would (issue 41: on the four boards the Russian's squads held EE9 and
    JJ12 from turn 2, and its tanks drove into the German's Guns in turn 5 and lost)."""
    if side != table.defender:
        return bool(holds_kept(table, side))
    if phases_left(table, side, 1) > tuning().objective.retake_phases:
        return True
    return not any(v.side != side for v in holds_met(table))


def holds_met(table: Table) -> list:
    """The hold conditions met as the table's side sees the units (RD-13: each of their hexes
    holds a unit of the condition's side, a "?" too, and none of the other's)."""
    where: dict[str, set[str]] = {}
    for u in table.units():
        if u.get("status", "active") == "active":
            where.setdefault(u["hex"], set()).add(u["side"])
    return [
        v
        for v in table.victory
        if v.kind == "hold" and v.hexes and all(where.get(h) == {v.side} for h in v.hexes)
    ]


def holds_kept(table: Table, side: str) -> list:
    """The hold conditions of ``side`` it keeps to the end as its table sees the units: each
    of their hexes holds an Infantry unit of ``side`` (AT fire cannot harm it, 002, and no
    unit enters an enemy's hex, RD-13), so the hold counts when the last turn ends whatever
    the enemy's tanks do; only the enemy's other victories can still beat it."""
    where: dict[str, set[str]] = {}
    for u in table.units():
        if u.get("status", "active") == "active":
            key = "infantry" if u.get("category") == "infantry" else "other"
            where.setdefault(u["hex"], set()).add(f"{u['side']}:{key}")
    return [
        v
        for v in table.victory
        if v.side == side
        and v.kind == "hold"
        and v.hexes
        and all(f"{side}:infantry" in where.get(h, ()) for h in v.hexes)
        and not any(x.split(":")[0] != side for h in v.hexes for x in where.get(h, ()))
    ]


def last_chance(table: Table, side: str) -> bool:
    """Whether this is ``side``'s last player turn (no Movement Phase of its own follows,
    RD-12) and ``side`` loses when the game ends as things stand (RD-13, HX-11): an enemy
    hold condition is met, or ``side`` is not the scenario defender, which wins on time, and
    no hold condition of its own is met. Then being knocked out costs it nothing it has not
    lost already."""
    if table.phasing != side or phases_left(table, side) > 0:
        return False
    return loses_at_the_end(table, side)


def strike_left(table: Table, side: str) -> bool:
    """Whether, in its own player turn, ``side`` has only its elimination victory left to win
    by (RD-13): it had an exit victory, none may still be met (:func:`exit_open`), units an
    elimination victory of its names are still in play, and it loses when the game ends as
    things stand (HX-11). Standing still then loses for sure, as in its last player turn
    (:func:`last_chance`), so its vehicles close with the named units and risk counts as it
    does there (issue 41: the Orel road's column, two vehicles lost and its exit gone, stood
    out of the named Guns' sight for two turns and lost on time)."""
    if table.phasing != side:
        return False
    own = [v for v in table.victory if v.side == side]
    if any(
        v.kind not in ("exit", "eliminate") or (v.kind == "eliminate" and not v.units) for v in own
    ):
        return False  # another way to win (a hold, a count of AFVs) may still be open
    exits = [v for v in own if v.kind == "exit"]
    if not exits or any(exit_open(table, side, v) for v in exits):
        return False
    gone = table.out_of_play()
    named = any(x not in gone for v in own if v.kind == "eliminate" for x in v.units)
    return named and loses_at_the_end(table, side)


def loses_at_the_end(table: Table, side: str) -> bool:
    """Whether ``side`` loses if the game ends as things stand (RD-13, HX-11): an enemy hold
    condition is met, or ``side`` is not the scenario defender, which wins on time, and no
    hold condition of its own is met."""
    met = holds_met(table)
    if any(v.side != side for v in met):
        return True
    return side != table.defender and not any(v.side == side for v in met)
