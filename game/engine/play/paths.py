"""The cheapest way for a vehicle to reach a hex in this Movement Phase, for the screen's path
moves: Dijkstra over (hex, facing), a step being a move through the front hexside or a turn of
one hexside (HX-3), each at its RD-10 cost (the start MP once, a road's 1/2 only from a road, +2
a level up). It is a plan, no more: each step is then applied through ``Game.apply``, which
checks it, and the screen stops at every Defensive First Fire chance (C6.17). It reads the
terrain and where units stand, which every side knows (RD-11 hides what a "?" is, not where)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from game.board.hexes import Hex, label

from ..actions import Move, Turn
from ..errors import IllegalAction
from ..state import GameState, UnitState
from .movement import mover

MAX_NODES = 20_000
"""The most (hex, facing) states a search opens (a vehicle's MP bound it far below this)."""


@dataclass(frozen=True)
class Route:
    """A planned move: its steps (moves and turns), the hexes entered in order, the MP."""

    unit: str
    steps: tuple[Move | Turn, ...]
    hexes: tuple[str, ...]
    mp: float


def _search(state: GameState, unit_id: str, goal: Hex | None, fresh: bool = False):
    """Dijkstra from the unit's hex and facing: (best (MP, steps) per (hex, facing), back
    pointers, the goal node reached or None). Without a goal, every node in reach. ``fresh``:
    any side's vehicle as in a Movement Phase of its own to come (its whole MP, the start MP
    paid: :func:`next_reach`), not the moving side's now."""
    unit = state.units[unit_id] if fresh else mover(state, unit_id)
    board = state.board
    budget = unit.type.mp - (0.0 if fresh else unit.mp_spent)
    start_mp = 1.0 if fresh else (0.0 if (unit.moving or unit.motion) else 1.0)
    blocked_cache: dict[Hex, bool] = {}

    def blocked(h: Hex) -> bool:
        hit = blocked_cache.get(h)
        if hit is None:
            hit = (
                not board.contains(h)
                or not board.terrain_at(h).enterable_by_vehicle
                or any(
                    o.side != unit.side or o.type.is_vehicle or o.type.category == "gun"
                    for o in state.units_at(h)
                    if o.id != unit.id
                )
            )
            blocked_cache[h] = hit
        return hit

    Node = tuple[Hex, int]
    first: Node = (unit.hex, unit.facing)
    best: dict[Node, tuple[float, int]] = {first: (0.0, 0)}
    back: dict[Node, tuple[Node, Move | Turn]] = {}
    queue: list[tuple[float, int, int, Node]] = [(0.0, 0, 0, first)]
    tie = 0
    while queue and len(best) < MAX_NODES:
        cost, steps, _, node = heapq.heappop(queue)
        if best.get(node, (cost, steps)) < (cost, steps):
            continue
        here, facing = node
        if goal is not None and here == goal:
            return best, back, node
        start = start_mp if steps == 0 else 0.0
        nexts: list[tuple[Node, float, Move | Turn]] = []
        ahead = here.neighbor(facing)
        if not blocked(ahead):
            climb = max(0, board.level_at(ahead) - board.level_at(here))
            mp = board.terrain_at(ahead).vehicle_mp(board.terrain_at(here))
            mp += board.catalogue.climb_mp * climb
            nexts.append(((ahead, facing), start + mp, Move(unit_id, label(ahead))))
        for turn in (1, 5):
            f = (facing + turn) % 6
            nexts.append(((here, f), start + 1.0, Turn(unit_id, f)))
        for nxt, step_mp, action in nexts:
            total = cost + step_mp
            if total > budget + 1e-9:
                continue
            key = (total, steps + 1)
            if nxt not in best or key < best[nxt]:
                best[nxt] = key
                back[nxt] = (node, action)
                tie += 1
                heapq.heappush(queue, (total, steps + 1, tie, nxt))
    return best, back, None


def _may_move(state: GameState, unit_id: str) -> UnitState | None:
    """The moving side's unit ``unit_id`` if it may move now (its Movement Phase, no
    Defensive First Fire chance pending), else None."""
    if state.phase != "movement" or state.over or state.dff_pending:
        return None
    try:
        return mover(state, unit_id)
    except IllegalAction:
        return None


def _movable(state: GameState, unit_id: str) -> bool:
    unit = _may_move(state, unit_id)
    return unit is not None and unit.type.is_vehicle and not unit.immobilized


def cheapest_route(state: GameState, unit_id: str, goal: str) -> Route | None:
    """The cheapest route of the moving side's vehicle or Infantry ``unit_id`` to ``goal``
    within its MP or MF left (fewest steps among equals), or None: not a unit that may move
    now, the goal off the map, or out of reach."""
    foot = _on_foot(state, unit_id)
    if not foot and not _movable(state, unit_id):
        return None
    try:
        target = state.parse_hex(goal)
    except (IllegalAction, ValueError):
        return None
    if target == state.units[unit_id].hex:
        return None
    best, back, node = (_search_foot if foot else _search)(state, unit_id, target)
    return None if node is None else _route(unit_id, node, back, best[node][0])


def _on_foot(state: GameState, unit_id: str) -> bool:
    """Whether ``unit_id`` is the moving side's Infantry, free to move now."""
    unit = _may_move(state, unit_id)
    return unit is not None and unit.type.category == "infantry"


def _search_foot(state: GameState, unit_id: str, goal: Hex):
    """:func:`_search` for Infantry: hex to hex, each hex's MF and a level climbed (RD-10), no
    facing, never into an enemy's hex; the nodes keep facing 0 (one per hex)."""
    unit = mover(state, unit_id)
    board = state.board
    budget = unit.type.mf - unit.mp_spent
    first = (unit.hex, 0)
    best: dict[tuple[Hex, int], tuple[float, int]] = {first: (0.0, 0)}
    back: dict[tuple[Hex, int], tuple[tuple[Hex, int], Move | Turn]] = {}
    queue: list[tuple[float, int, int, tuple[Hex, int]]] = [(0.0, 0, 0, first)]
    tie = 0
    while queue:
        cost, steps, _, node = heapq.heappop(queue)
        if best.get(node, (cost, steps)) < (cost, steps):
            continue
        here = node[0]
        if here == goal:
            return best, back, node
        for ahead in here.neighbors():
            if not board.contains(ahead) or any(o.side != unit.side for o in state.units_at(ahead)):
                continue
            climb = max(0, board.level_at(ahead) - board.level_at(here))
            total = cost + board.terrain_at(ahead).mf + climb
            nxt = (ahead, 0)
            if total > budget + 1e-9 or (nxt in best and best[nxt] <= (total, steps + 1)):
                continue
            best[nxt] = (total, steps + 1)
            back[nxt] = (node, Move(unit_id, label(ahead)))
            tie += 1
            heapq.heappush(queue, (total, steps + 1, tie, nxt))
    return best, back, None


def reachable(state: GameState, unit_id: str) -> dict[str, Route]:
    """Every hex the moving side's vehicle can reach this phase -> its cheapest route (the
    computer player weighs them all); empty when it may not move."""
    if not _movable(state, unit_id):
        return {}
    best, back, _ = _search(state, unit_id, None)
    home = state.units[unit_id].hex
    by_hex: dict[Hex, tuple[tuple[float, int], tuple[Hex, int]]] = {}
    for node, key in best.items():
        h = node[0]
        if h != home and (h not in by_hex or key < by_hex[h][0]):
            by_hex[h] = (key, node)
    return {label(h): _route(unit_id, node, back, key[0]) for h, (key, node) in by_hex.items()}


def next_reach(state: GameState, unit_id: str) -> set[Hex]:
    """The hexes a vehicle of either side could stand in at the end of a Movement Phase of its
    own, its first to come (its whole MP, RD-10; where the units stand now, HX-4), its own hex
    included; only its own hex for a unit that cannot move (a Gun, an immobilized vehicle).
    What the computer reads for the enemy's next move (the threat ahead, RD-18)."""
    unit = state.units[unit_id]
    if not unit.type.is_vehicle or unit.immobilized or not unit.active:
        return {unit.hex}
    best, _, _ = _search(state, unit_id, None, fresh=True)
    return {node[0] for node in best}


def _route(unit_id: str, node: tuple[Hex, int], back: dict, cost: float) -> Route:
    steps: list[Move | Turn] = []
    while node in back:
        node, action = back[node]
        steps.append(action)
    steps.reverse()
    hexes = tuple(a.to for a in steps if isinstance(a, Move))
    return Route(unit_id, tuple(steps), hexes, cost)
