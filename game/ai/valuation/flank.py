"""Level 3: where a vehicle waits while another of its side holds a hold hex (RD-13) and an
enemy vehicle must come to it (issue 41, ninth session, the duel: the Panzer drove out in its
turn 4 to 1-3 hexes of the T-34 in F6 and shot it, after the T-34s' shots at its front had done
nothing). The enemy's last hexes before the hold (within ``[move] flank_reach`` of it, nearer
the enemy than it, seeing it) are where it will stop to shoot; a hex that sees them within
``[move] flank_range`` hexes from their flank (more than 60 degrees off the line from each to
the hold, where the enemy faces) is worth ``[move] flank_watch`` x the share of them it sees so:
a shot there hits the side or rear, not the front."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from game.board.hexes import Hex, label
from game.engine.table import Table

from ..tuning import tuning


def _xy(h: Hex) -> tuple[float, float]:
    return (math.sqrt(3.0) * (h.q + h.r / 2.0), 1.5 * h.r)


def _angle(at: Hex, a: Hex, b: Hex) -> float:
    """The angle at ``at`` between the lines to ``a`` and ``b``, in degrees."""
    x0, y0 = _xy(at)
    xa, ya = _xy(a)
    xb, yb = _xy(b)
    ua, va, ub, vb = xa - x0, ya - y0, xb - x0, yb - y0
    na, nb = math.hypot(ua, va), math.hypot(ub, vb)
    if not na or not nb:
        return 0.0
    c = max(-1.0, min(1.0, (ua * ub + va * vb) / (na * nb)))
    return math.degrees(math.acos(c))


def flank_value(table: Table, side: str, unit_id: str) -> Callable[[str], float]:
    """The worth of each hex to ``unit_id`` as a flank watch (module doc); 0 everywhere unless
    another unit of ``side`` stands in a hex its side must hold and an enemy vehicle (or "?")
    is on the map."""
    t = tuning().move

    def none(hx: str) -> float:
        return 0.0

    if t.flank_watch <= 0.0:
        return none
    units = table.units()
    board = table.board
    holds = {h for v in table.victory if v.side == side and v.kind == "hold" for h in v.hexes}
    held = [
        board.parse(u["hex"])
        for u in units
        if u["side"] == side and u["id"] != unit_id and u.get("hex") in holds
    ]
    enemies = [
        board.parse(u["hex"])
        for u in units
        if u["side"] != side
        and u.get("hex")
        and u["hex"] != "off"
        and (u.get("is_vehicle") or u.get("concealed"))
    ]
    if not held or not enemies:
        return none
    ways: list[tuple[Hex, Hex]] = []  # (the enemy's last hex, the hold it shoots at)
    for h in held:
        sees_h = np.asarray(table.viewshed(label(h))[0], dtype=bool)
        near_enemy = min(h.distance(e) for e in enemies)
        for a in board.hexes:
            d = a.distance(h)
            if (
                0 < d <= t.flank_reach
                and sees_h[board.index(a)]
                and min(a.distance(e) for e in enemies) < near_enemy
            ):
                ways.append((a, h))
    if not ways:
        return none
    memo: dict[str, float] = {}

    def value(hx: str) -> float:
        got = memo.get(hx)
        if got is None:
            x = board.parse(hx)
            clear = np.asarray(table.viewshed(hx)[0], dtype=bool)
            seen = sum(
                1
                for a, h in ways
                if a != x
                and a.distance(x) <= t.flank_range
                and clear[board.index(a)]
                and _angle(a, h, x) > 60.0
            )
            got = memo[hx] = t.flank_watch * seen / len(ways)
        return got

    return value
