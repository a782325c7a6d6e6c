"""The enemy's way in: the hexes the enemy must cross to reach what its victory needs, from the
victory conditions every side reads (RD-13). The set-up candidates place Guns to see it and Bore
Sight on it (C6.42)."""

from __future__ import annotations

from game.board.hexes import from_offset, to_offset
from game.board.hexes import line as hex_line
from game.engine.table import Table
from game.engine.view import UnitView


def _ends(table: Table, side: str, start, ours: list) -> list:
    """Where an enemy vehicle at ``start`` is going: the hexes its side must hold, the nearest
    hex of each edge it must leave by, else ``side``'s units (``ours``)."""
    board = table.board
    ends = [
        board.parse(h)
        for v in table.victory
        if v.side != side and v.kind == "hold"
        for h in v.hexes
    ]
    col, row = to_offset(start)
    for v in table.victory:
        if v.side == side or v.kind != "exit" or not v.edge:
            continue
        c, r = {
            "west": (0, row),
            "east": (board.columns - 1, row),
            "north": (col, 0),
            "south": (col, board.rows - 1),
        }[v.edge]
        ends.append(from_offset(c, r))
    return ends or ours


def enemy_way(table: Table, side: str, seen: list[UnitView]) -> list:
    """The hexes the enemy of ``side`` must cross: the straight line from each of its vehicles
    to the nearest hex of what its victory needs (a hex to hold, the edge to leave by, else
    ``side``'s units), in order, each once."""
    board = table.board
    ours = [board.parse(u["hex"]) for u in seen if u["side"] == side]
    way: dict = {}
    for u in seen:
        if u["side"] == side or not u.get("is_vehicle"):
            continue
        start = board.parse(u["hex"])
        ends = _ends(table, side, start, ours)
        if ends:
            end = min(ends, key=lambda h: (start.distance(h), h))
            way.update(dict.fromkeys(h for h in hex_line(start, end) if board.contains(h)))
    return list(way)
