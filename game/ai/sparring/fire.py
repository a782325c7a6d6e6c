"""The careful player's shots: in a fire phase the best shot worth its cost (a Prep Fire shot
stops the firer moving, RD-12, and a shot from concealment gives the firer away, RD-11, so
those must be good); at a Defensive First Fire chance (C6.17) it holds a shot at Limited or
Restricted Aim (Case J2 / J1) while the mover has MP left to spend in its sight, unless the
mover's next step may take it out of the firer's LOS, or the shot is already a likely kill."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.engine.actions import Action, Fire
from game.engine.errors import IllegalAction
from game.engine.table import Table
from game.engine.view import UnitView

from .ground import worth

LEAST = 0.05
"""A shot worth less (P(kill) x the target's worth) is not taken."""
PREP_LEAST = 0.6
"""A Prep Fire shot (the firer may not move after it, RD-12) must be worth this much, unless
the firer cannot move anyway (a Gun) or stays where it is by its plan."""
HIDDEN_LEAST = 0.5
"""A concealed firer gives itself away (RD-11) only for a shot worth this much, or at an
enemy that is a danger to it."""
DANGER = 0.1
"""An enemy whose own shot would remove the firer this often is a danger: shoot it first."""
WAIT_MP = 2.0
"""A J2 / J1 shot at a mover with at least this many MP left is held (C6.17)."""
SURE_KILL = 0.5
"""... unless it already knocks the mover out this often."""


@dataclass(frozen=True)
class Shot:
    value: float
    action: Fire
    odds: Any
    """The odds as its side is shown them (``Table.odds``)."""


def shots(table: Table, side: str, legal: list[Action]) -> list[Shot]:
    """Each legal shot, the best first: P(kill) x the target's worth plus a twentieth of its
    To Hit; at a "?" (no To Kill shown, RD-11) its To Hit x a quarter. Ties go by the firer
    and the target's hex, never a "?"'s alias."""
    out = []
    for a in legal:
        if not isinstance(a, Fire):
            continue
        try:
            odds = table.odds(a.unit, a.target, a.ammo)
        except IllegalAction:
            continue
        if odds.p_kill is None:
            value = 0.25 * odds.p_hit
        else:
            value = odds.p_kill * worth(table, side, a.target) + 0.05 * odds.p_hit
        out.append(Shot(value, a, odds))
    out.sort(
        key=lambda s: (-s.value, s.action.unit, table.where(s.action.target), s.action.ammo or "")
    )
    return out


def _danger(table: Table, firer: str, target: str) -> bool:
    """Whether ``target``'s shot at ``firer`` where it stands would remove it often (RD-18)."""
    here = table.threat_here(firer)
    return sum(t.p_kill for t in here.threats if t.firer == target) >= DANGER


def phase_shot(table: Table, side: str, legal: list[Action], hold: bool) -> Shot | None:
    """The fire phase's shot, or None (End Phase): the best one worth taking; in Prep Fire a
    vehicle that could still move fires only a good shot (unless its plan holds it where it
    is); a concealed firer only a good one, or at a danger to it."""
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    for shot in shots(table, side, legal):
        if shot.value < LEAST:
            break
        firer = mine.get(shot.action.unit)
        if firer is None:
            continue
        moves_yet = table.phase == "prep_fire" and firer.get("is_vehicle") and not hold
        if moves_yet and shot.value < PREP_LEAST:
            continue
        hidden = firer.get("concealed") and shot.value < HIDDEN_LEAST
        if hidden and not _danger(table, firer["id"], shot.action.target):
            continue
        return shot
    return None


def may_leave(table: Table, firer_hex: str, mover: UnitView) -> bool:
    """Whether the mover's next step may take it out of the LOS of ``firer_hex`` (RD-9): the
    hex ahead of it (entered through its front hexside, HX-3) is off the map or out of that
    LOS; a "?", whose facing is secret (RD-11), by any hex next to it."""
    board = table.board
    here = board.parse(mover["hex"])
    clear = table.viewshed(firer_hex)[0]
    if mover.get("type") == "?":
        ahead = here.neighbors()
    else:
        ahead = [here.neighbor(int(mover.get("facing", 0)))]
    for h in ahead:
        if not board.contains(h):
            return True
        if board.terrain_at(h).enterable_by_vehicle and not clear[board.index(h)]:
            return True
    return False


def dff_shot(table: Table, side: str, legal: list[Action]) -> tuple[Shot | None, str]:
    """At a Defensive First Fire chance: the shot to take now, or None and why it waits."""
    found = [s for s in shots(table, side, legal) if s.value >= LEAST]
    if not found:
        return None, "no shot worth taking at the mover"
    mover = table.unit(table.moving_unit)
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    for shot in found:
        firer = mine.get(shot.action.unit)
        if firer is None:
            continue
        sure = shot.odds.p_kill is not None and shot.odds.p_kill >= SURE_KILL
        report = str(shot.odds.report)
        limited = "C6.12" in report or "C6.11" in report
        left = float(mover.get("mp_left", 0.0)) if mover is not None else 0.0
        leaves = mover is not None and may_leave(table, firer["hex"], mover)
        if limited and left >= WAIT_MP and not sure and not leaves:
            continue  # it will be easier to hit after more MP in sight (C6.17)
        if firer.get("concealed") and shot.value < HIDDEN_LEAST and not sure and not leaves:
            continue  # stays hidden for a better shot (RD-11)
        return shot, ""
    return None, "waits: the mover will be easier to hit (C6.17)"
