"""A seat's standing order for its Defensive First Fire chances while it is away (C6.17;
docs/online.md): so that a mover is not held up by an absent defender, the server takes the
chance for it by the order it left: pass, fire when the best shot's chance to kill is at least
N%, or fire when the best shot has Case J1 or better (C6.11: the vehicle spent more than one
MP in the firer's LOS). The shot is weighed from the defender's own table (its knowledge)."""

from __future__ import annotations

from game.engine import IllegalAction
from game.engine.actions import Fire
from game.engine.table import Table
from game.net.wire import DffOrder

J1_OR_BETTER = 3
"""The Case J DRM of J1 (+3, C6.11); J (+2, C6.1) is better for the firer, J2 (+4) worse."""


def case_j(report: dict) -> int | None:
    """The Case J DRM of a shot's odds report (None: not a Defensive First Fire shot)."""
    for d in report.get("to_hit", {}).get("drms", ()):
        if str(d.get("case", "")).startswith("J"):
            return int(d["value"])
    return None


def standing_fire(table: Table, order: DffOrder) -> Fire | None:
    """The shot ``order`` takes at the Defensive First Fire chance offered to ``table``'s side
    now, or None (pass). Among the firers offered and their ammunition, the shot with the best
    chance to kill (to hit, at a "?" whose kill chance the side cannot know) is weighed."""
    mover = table.moving_unit
    if order.policy in ("ask", "pass") or mover is None:
        return None
    best: tuple[float, Fire] | None = None
    for firer in table.dff_pending:
        unit = table.unit(firer)
        for ammo in unit.ammo if unit is not None and unit.ammo else (None,):
            try:
                shot = table.odds(firer, mover, ammo)
            except IllegalAction:
                continue
            p = shot.p_kill
            if order.policy == "kill":
                if p is None or 100 * p < order.percent:
                    continue
            else:  # case_j1
                j = case_j(shot.report)
                if j is None or j > J1_OR_BETTER:
                    continue
                p = p if p is not None else shot.p_hit
            if best is None or p > best[0]:
                best = (p, Fire(firer, mover, ammo))
    return best[1] if best is not None else None
