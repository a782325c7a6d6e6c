"""What the careful player reads of the ground and the enemy, from its side's table alone: where
each side comes from and is going (its way in, its flanks), which hexes the enemies it knows of
(a "?" too) can see, cover, and what an enemy is worth to it (RD-13's points)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from game.board.hexes import FLAT, Hex, from_offset, to_offset
from game.engine.play.concealment import HIDING_TERRAIN
from game.engine.table import Table
from game.engine.view import UnitView

UNKNOWN_NEAR, UNKNOWN_MID, UNKNOWN_FAR = 0.15, 0.08, 0.03
"""The careful player's prior that a "?" with a clear LOS to a hex knocks out a vehicle there
(within 6 hexes, within 12, beyond): a "?" may be a hidden Gun (RD-11), or only Infantry.
Together the "?" count at most ``UNKNOWN_MOST``."""
UNKNOWN_MOST = 0.35


def xy(h: Hex) -> tuple[float, float]:
    """The hex's centre on the flat-top layout (x right, y down), in hex radii."""
    return FLAT.to_pixel_unit(h)


def centre(board, hexes: Iterable[str]) -> tuple[float, float] | None:
    """The mean centre of ``hexes`` (None: no hex)."""
    pts = [xy(board.parse(h)) for h in hexes]
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def nearest_hex(board, point: tuple[float, float]) -> Hex:
    """The hex of the map nearest ``point`` (clamped to the map)."""
    q = point[0] / 1.5
    col = max(0, min(board.columns - 1, round(q)))
    y0 = xy(from_offset(col, 0))[1]
    row = max(0, min(board.rows - 1, round((point[1] - y0) / math.sqrt(3.0))))
    return from_offset(col, row)


def enemies(table: Table, side: str) -> list[UnitView]:
    """The enemy units its side sees (a "?" by its alias, where it stands)."""
    return [u for u in table.units() if u["side"] != side]


def goal_hexes(table: Table, side: str, unit: UnitView) -> list[Hex]:
    """Where ``unit`` is going, by its side's victory conditions (RD-13): the hexes to hold,
    else the nearest hex of each edge to leave by (Infantry too), else the enemies it sees,
    else where the enemy came from (the scenario file's hexes of the enemy's units)."""
    board = table.board
    goals = [board.parse(h) for v in table.victory if v.side == side for h in v.hexes]
    here = board.parse(unit["hex"])
    col, row = to_offset(here)
    for v in table.victory:
        if v.side != side or not v.edge or not v.counts(unit):
            continue
        c, r = {
            "west": (0, row),
            "east": (board.columns - 1, row),
            "north": (col, 0),
            "south": (col, board.rows - 1),
        }[v.edge]
        goals.append(from_offset(c, r))
    if goals:
        return goals
    foes = [board.parse(u["hex"]) for u in enemies(table, side)]
    return foes or [board.parse(u["hex"]) for u in table.units() if u["side"] != side]


def axis(table: Table, side: str) -> tuple[float, float]:
    """The unit vector of the side's way in: from where its own units stand now to where the
    enemy stands (or its goals); (1, 0) when they coincide."""
    board = table.board
    mine = [u["hex"] for u in table.units() if u["side"] == side]
    foes = [u["hex"] for u in enemies(table, side)]
    a, b = centre(board, mine), centre(board, foes)
    if a is None or b is None:
        return (1.0, 0.0)
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    return (dx / n, dy / n) if n > 1e-9 else (1.0, 0.0)


def left_of(direction: tuple[float, float]) -> tuple[float, float]:
    """The unit vector to the left of a driver heading along ``direction`` (y points down)."""
    return (direction[1], -direction[0])


def waypoint(table: Table, side: str, goal: Hex, lean: int, here: Hex) -> Hex:
    """Where a vehicle heads for a flank: ``goal`` shifted across the side's way in, to its
    left (``lean`` -1) or right (+1), by half the way still to go (at least 3 hexes); ``goal``
    itself for no lean or once the vehicle stands within 3 hexes of the waypoint."""
    if lean == 0:
        return goal
    board = table.board
    left = left_of(axis(table, side))
    d = max(3.0, 0.5 * here.distance(goal))
    gx, gy = xy(goal)
    side_x, side_y = -lean * left[0], -lean * left[1]  # lean +1: to the right
    point = nearest_hex(board, (gx + side_x * d * 1.5, gy + side_y * d * 1.5))
    if here.distance(point) <= 3:
        return goal
    return point


def eyes(table: Table, side: str) -> list[tuple[Hex, object, bool]]:
    """Each enemy its side sees: (its hex, what it sees: the clear-LOS array, whether it is a
    "?")."""
    board = table.board
    return [
        (board.parse(u["hex"]), table.viewshed(u["hex"])[0], u.get("type") == "?")
        for u in enemies(table, side)
    ]


def seen_by(board, watchers: list, h: Hex) -> int:
    """How many of ``watchers`` (:func:`eyes`) have a clear LOS to ``h``."""
    i = board.index(h)
    return sum(1 for where, clear, _ in watchers if where != h and clear[i])


def unknown_risk(board, watchers: list, h: Hex) -> float:
    """The chance a "?" with a clear LOS to ``h`` knocks out a vehicle there (the careful
    player's prior: each "?" may be a hidden Gun, RD-11)."""
    i = board.index(h)
    alive = 1.0
    for where, clear, unknown in watchers:
        if not unknown or where == h or not clear[i]:
            continue
        d = where.distance(h)
        alive *= 1.0 - (UNKNOWN_NEAR if d <= 6 else UNKNOWN_MID if d <= 12 else UNKNOWN_FAR)
    return min(UNKNOWN_MOST, 1.0 - alive)


def covered(board, h: Hex) -> bool:
    """Woods or a building: cover, where a unit out of the enemy's sight may stay concealed."""
    return board.terrain_at(h).key in HIDING_TERRAIN


def worth(table: Table, side: str, unit_id: str) -> float:
    """What knocking out an enemy is worth to ``side``: an AFV 2, anything else 1 (RD-13's
    points), doubled when a victory condition of its names it (a "?" that may be it, half of
    that) or it stands on a hex either side must hold."""
    entry = table.unit(unit_id)
    value = 2.0 if entry is not None and entry.get("category") == "afv" else 1.0
    for v in table.victory:
        if v.side == side and unit_id in v.units:
            value *= 2.0
        elif v.side == side and v.units and entry is not None and entry.get("type") == "?":
            value *= 1.5
        if entry is not None and entry["hex"] in v.hexes:
            value *= 2.0
    return value


def facing_towards(here: Hex, there: tuple[float, float]) -> int:
    """The hexside direction (0-5) pointing nearest the point ``there``."""
    hx, hy = xy(here)
    angle = math.degrees(math.atan2(-(there[1] - hy), there[0] - hx)) % 360.0
    return min(range(6), key=lambda d: abs(((60.0 * d - 30.0) - angle + 180.0) % 360.0 - 180.0))
