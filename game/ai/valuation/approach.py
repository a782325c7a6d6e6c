"""The enemy's way in: the hexes the enemy must cross to reach what its victory needs, from the
victory conditions every side reads (RD-13), along the way a vehicle would drive there soonest
(RD-10's MP). The set-up candidates place Guns to see it and Bore Sight on it (C6.42)."""

from __future__ import annotations

import heapq

from game.board import Board
from game.board.hexes import Hex, from_offset
from game.board.hexes import line as hex_line
from game.engine.table import Table
from game.engine.view import UnitView

from ..tuning import tuning


def _ends(table: Table, side: str, start, ours: list, unit: UnitView | None = None) -> list:
    """Where an enemy vehicle at ``start`` is going: the hexes its side must hold, each hex of
    each edge it must leave by (if it would count there, HX-20), else ``side``'s units
    (``ours``)."""
    board = table.board
    ends = [
        board.parse(h)
        for v in table.victory
        if v.side != side and v.kind == "hold"
        for h in v.hexes
    ]
    for v in table.victory:
        if v.side == side or v.kind != "exit" or not v.edge:
            continue
        if unit is not None and not v.counts(unit):
            continue
        last_col, last_row = board.columns - 1, board.rows - 1
        if v.edge in ("west", "east"):
            col = 0 if v.edge == "west" else last_col
            ends.extend(from_offset(col, r) for r in range(board.rows))
        else:
            row = 0 if v.edge == "north" else last_row
            ends.extend(from_offset(c, row) for c in range(board.columns))
    return ends or ours


def soonest_way(board: Board, start: Hex, ends: set[Hex]) -> list[Hex]:
    """The hexes a vehicle at ``start`` drives through to reach the nearest of ``ends`` in the
    fewest MP (RD-10: each hex's cost from the one before, a road's 1/2 MP along it, a climb;
    a hexside turned 1 MP, HX-3, any facing at the start), ``start`` and the end included; []
    when none can be reached."""
    Node = tuple[Hex, int]
    best: dict[Node, float] = {}
    back: dict[Node, Node] = {}
    queue: list[tuple[float, int, Node]] = []
    tie = 0
    for f in range(6):
        best[(start, f)] = 0.0
        queue.append((0.0, f, (start, f)))
    heapq.heapify(queue)
    while queue:
        cost, _, node = heapq.heappop(queue)
        if cost > best.get(node, cost):
            continue
        here, facing = node
        if here in ends:
            out = [here]
            while node in back:
                node = back[node]
                if node[0] != out[-1]:
                    out.append(node[0])
            return out[::-1]
        ahead = here.neighbor(facing)
        steps: list[tuple[Node, float]] = [((here, (facing + t) % 6), 1.0) for t in (1, 5)]
        if board.contains(ahead) and board.terrain_at(ahead).enterable_by_vehicle:
            climb = max(0, board.level_at(ahead) - board.level_at(here))
            mp = board.terrain_at(ahead).vehicle_mp(board.terrain_at(here))
            steps.append(((ahead, facing), mp + board.catalogue.climb_mp * climb))
        for nxt, mp in steps:
            total = cost + mp
            if total < best.get(nxt, float("inf")) - 1e-9:
                best[nxt] = total
                back[nxt] = node
                tie += 1
                heapq.heappush(queue, (total, tie, nxt))
    return []


def enemy_way(table: Table, side: str, seen: list[UnitView]) -> list:
    """The hexes the enemy of ``side`` must cross: the way each of its vehicles would drive in
    the fewest MP to the nearest hex of what its victory needs (a hex to hold, the edge to
    leave by, else ``side``'s units: :func:`soonest_way`), in order, each once; on a map of
    more than ``[search] max_hexes`` hexes, the straight line to the nearest of them."""
    board = table.board
    ours = [board.parse(u["hex"]) for u in seen if u["side"] == side]
    small = board.size <= tuning().search.max_hexes
    way: dict = {}
    for u in seen:
        if u["side"] == side or not u.get("is_vehicle"):
            continue
        start = board.parse(u["hex"])
        ends = _ends(table, side, start, ours, u)
        if not ends:
            continue
        path = soonest_way(board, start, set(ends)) if small else []
        if not path:
            end = min(ends, key=lambda h: (start.distance(h), h))
            path = [h for h in hex_line(start, end) if board.contains(h)]
        way.update(dict.fromkeys(path))
    return list(way)
