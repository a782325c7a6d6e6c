"""Target Facing (RD-8): which aspect of a vehicle or Gun the firer sees."""

from __future__ import annotations

from functools import lru_cache

from game.board.hexes import Hex, direction_to, facing_angle

from .drm import RuleError
from .vocabulary import Aspect


def facing_offset(target: Hex, facing: int, firer: Hex) -> float:
    """|t| in degrees (0-180): the angle between the unit's facing (hull or turret) and the
    direction from the target to the firer (RD-8).

    >>> target = Hex(0, 0)
    >>> facing_offset(target, 0, target.neighbor(0)), facing_offset(target, 0, target.neighbor(3))
    (0.0, 180.0)
    """
    if target == firer:
        return 0.0
    return _offset(firer.q - target.q, firer.r - target.r, facing)


@lru_cache(maxsize=1 << 16)
def _offset(dq: int, dr: int, facing: int) -> float:
    """:func:`facing_offset` of a firer ``(dq, dr)`` from the target: the angle depends on
    the displacement alone (asked for every shot a list, a threat map, an odds panel weighs)."""
    t = abs(direction_to(Hex(0, 0), Hex(dq, dr)) - facing_angle(facing)) % 360.0
    return round(min(t, 360.0 - t), 9)


def asl_aspect(t: float) -> Aspect:
    """RD-8, ``asl``: front when |t| <= 60, side when <= 120, rear beyond; a firer exactly on a
    boundary gets the aspect better for the target.

    >>> [asl_aspect(t) for t in (60, 60.1, 120, 120.1)]
    ['front', 'side', 'side', 'rear']
    """
    if t <= 60:
        return "front"
    if t <= 120:
        return "side"
    return "rear"


def chart_aspect(t: float, die: int | None = None) -> str:
    """RD-8, ``chart``: front when |t| < 90, rear when > 90; exactly 90: a die, 1-3 front.

    >>> chart_aspect(89.9), chart_aspect(90, die=3), chart_aspect(90, die=4)
    ('front', 'front', 'rear')
    """
    if t < 90:
        return "front"
    if t > 90:
        return "rear"
    if die is None:
        raise RuleError("RD-8", "a firer exactly on the 90-degree line needs a die roll")
    return "front" if die <= 3 else "rear"
