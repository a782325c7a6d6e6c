"""What a set-up hex is worth to one of the computer's units (HX-12), and the facing it takes
there: cover where it may set up concealed (RD-11), a vehicle's objective less its risk (the
threat map, RD-18), a Gun's view of the enemy's way in (C6.42), Infantry's nearness to it.
The set-up candidates place by it (``[set_up]`` in the tuning table)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

import numpy as np

from game.engine.play.concealment import HIDING_TERRAIN
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from ..tuning import tuning
from .danger import removal_risk, unknown_risk
from .exits import arc_values, unwatched, watchers, ways_out
from .hexes import Weighing

ARC = 30
"""A Gun's Covered Arc: the hexes within this many degrees of its facing (HX-2)."""


def options(table: Table, side: str, unit: UnitView, seen: list[UnitView]) -> list[str]:
    """The hexes of ``unit``'s set-up area (``Table.setup_hexes``, HX-12) it may set up in: no
    enemy there, and for a vehicle or Gun no other of its side (one a hex, HX-4)."""
    uid = unit["id"]
    heavy = unit.get("category") != "infantry"
    enemy_hexes = {u["hex"] for u in seen if u["side"] != side}
    stacked = {  # one vehicle or Gun a hex (HX-4)
        u["hex"]
        for u in seen
        if u["side"] == side and u["id"] != uid and u.get("category") != "infantry"
    }
    return [
        h for h in table.setup_hexes(uid) if h not in enemy_hexes and not (heavy and h in stacked)
    ]


class SpotScore:
    """The score of each set-up hex of ``unit`` among ``choices`` (docs/ai.md "Set-up"):

    - cover: a hex where it may set up concealed (woods or a building out of the LOS of every
      enemy its side knows of, ``eyes``, RD-11), for the scenario defender (which may conceal)
      or a unit concealed already (``[set_up] cover``; half to a vehicle);
    - a vehicle: the objective less the risk of being knocked out there (RD-18), at level 2
      each enemy "?" in its LOS counted by the set-up's prior (``[set_up] unknown``: a shot
      as it starts its first move there has no Case J, C6.1; the side that sets up second
      sees where the "?" stand, HX-12, RD-11);
    - a Gun (it cannot move): how much of the enemy's way in (``way``) it sees, nearer
      better (``[set_up] sight``), and the objective;
    - Infantry: the objective, and nearness to the enemy's way in (its AT weapons are
      short-ranged);
    - a little less next to another unit of its side (one shot, one mover in sight, should
      not find them all)."""

    def __init__(
        self, s: Weighing, unit: UnitView, seen: list, way: list, eyes: list, choices: list[str]
    ):
        t = tuning()
        table, uid = s.table, unit["id"]
        self.table, self.unit, self.eyes = table, unit, eyes
        board = table.board
        self.may_hide = s.side == table.defender or bool(unit.get("concealed"))
        self.objective = s.objectives.of(table, uid)
        self.others = [
            board.parse(u["hex"]) for u in seen if u["side"] == s.side and u["id"] != uid
        ]
        self.way_at = [(w, board.index(w)) for w in way]
        self.threats: dict = {}
        self.unknown = (
            unknown_risk(table, s.side, (t.set_up.unknown, t.set_up.unknown_beyond))
            if s.level >= 2 and unit.get("is_vehicle")
            else lambda hx: 0.0
        )
        self.views: dict[str, float] = {}
        self.most = 1.0
        if unit.get("is_vehicle"):
            self.threats = s.maps.threats(table, uid, frozenset([unit["hex"], *choices]))
            self.worth = t.targets.afv if unit.get("category") == "afv" else t.targets.other
        elif unit.get("has_gun"):
            self.views = {h: self.view(h) for h in choices}
            self.most = max(self.views.values()) or 1.0

    def hides(self, hx: str) -> bool:
        """Whether ``unit`` may set up concealed in ``hx`` (RD-11)."""
        board = self.table.board
        h = board.parse(hx)
        if board.terrain_at(h).key not in HIDING_TERRAIN:
            return False
        i = board.index(h)
        return not any(eye[i] for eye in self.eyes)

    def view(self, hx: str) -> float:
        """How much of the enemy's way in ``hx`` sees, nearer better."""
        t = tuning().set_up
        h = self.table.board.parse(hx)
        clear = self.table.viewshed(hx)[0]
        total = 0.0
        for w, i in self.way_at:
            d = h.distance(w)
            if d == 0 or not clear[i]:
                continue
            if t.sight_from <= d <= t.sight_to:
                total += t.sight_best
            else:
                total += t.sight_near if d < t.sight_from else _far(d)
        return total

    def base(self, hx: str) -> float:
        """What ``hx`` is worth to this kind of unit (a vehicle, a Gun, Infantry)."""
        t = tuning().set_up
        if self.unit.get("is_vehicle"):
            known = removal_risk(self.threats.get(hx))
            risk = 1.0 - (1.0 - known) * (1.0 - self.unknown(hx))
            return self.objective(hx) - t.caution * self.worth * risk
        if self.unit.get("has_gun"):
            return t.sight * self.views[hx] / self.most + t.gun_objective * self.objective(hx)
        here = self.table.board.parse(hx)
        near = min((here.distance(w) for w, _ in self.way_at), default=0)
        return self.objective(hx) - t.infantry_way * max(0, near - 1)

    def __call__(self, hx: str) -> float:
        t = tuning().set_up
        here = self.table.board.parse(hx)
        s = self.base(hx)
        if self.may_hide and self.hides(hx):  # a vehicle weighs its risk there too: half
            s += t.cover / 2 if self.unit.get("is_vehicle") else t.cover
        if any(here.distance(o) <= 1 for o in self.others):
            s -= t.crowd
        return s


def _far(d: int) -> float:
    t = tuning().set_up
    return t.sight_far if d <= t.sight_far_to else t.sight_beyond


def _gun_facing(table: Table, unit: UnitView, way: list) -> int:
    """The facing in which a Gun's Covered Arc holds the most of the enemy's way in it sees
    (else of all of it), the nearest to its own facing first."""
    board = table.board
    here = board.parse(unit["hex"])
    facing = int(unit.get("facing", 0))
    clear = table.viewshed(unit["hex"])[0]
    sighted = [w for w in way if clear[board.index(w)] and w != here] or list(way)

    def arc(f: int) -> tuple:
        offs = [facing_offset(here, f, w) for w in sighted]
        return (-sum(o <= ARC for o in offs), sum(offs), f != facing, f)

    return min(range(6), key=arc)


def way_out_facing(
    table: Table, side: str, unit: UnitView, seen: list[UnitView], settled: AbstractSet[str]
) -> tuple[int, float] | None:
    """For a Gun or a vehicle with no turret (it fires only into its Covered Arc in the
    enemy's Movement Phase, HX-2), against an enemy exit victory (RD-13): the facing whose
    Covered Arc holds the most of the enemy's ways out (:func:`~.exits.ways_out`) that it
    sees within ``[objective] watch_range`` hexes (RD-9), but for the hexes the units of its
    side in ``settled`` (set up already, or with no set-up area) watch, with that share;
    None with no such way or none of it seen. Issue 41: the hedgerow's PaK in B2 faced the
    woods south of it while the Jeep drove past its north side and off the west edge in turn
    1; the StuG in the hill woods faced the Americans while their way round the south passed
    behind it."""
    if unit.get("turreted") or not unit.get("has_gun"):
        return None
    ways = ways_out(table, side, seen)
    if not ways:
        return None
    board = table.board
    others = watchers(table, side, unit["id"], [u for u in seen if u["id"] in settled])
    weight, total = unwatched(ways, others, board.size)
    here = board.parse(unit["hex"])
    cells = (
        np.asarray(table.viewshed(unit["hex"])[0], dtype=bool)
        & (board.distances(board.index(here)) <= tuning().objective.watch_range)
        & ~others  # the hexes the others watch already are watched
    )
    values = arc_values(board, here, np.flatnonzero(cells & (weight > 0)), weight)
    kept = int(unit.get("facing", 0))
    best = max(range(6), key=lambda f: (round(values[f], 6), f == kept, -f))
    if values[best] <= 0 or not total:
        return None
    return best, values[best] / total


def sees_way_in(table: Table, unit: UnitView, way: list) -> bool:
    """Whether a Gun sees at least ``[set_up] way_in_seen`` hexes of the enemy's way in
    (:func:`~.approach.enemy_way`) beyond the hexes next to it (C6.42: it waits for the enemy
    there; the hexes of it beside a Gun in woods are woods the enemy will not drive
    through)."""
    board = table.board
    here = board.parse(unit["hex"])
    clear = table.viewshed(unit["hex"])[0]
    seen = sum(here.distance(w) >= 2 and bool(clear[board.index(w)]) for w in way)
    return seen >= tuning().set_up.way_in_seen


def facing(
    table: Table,
    side: str,
    unit: UnitView,
    seen: list[UnitView],
    way: list,
    settled: AbstractSet[str] = frozenset(),
) -> tuple[int, str]:
    """The facing ``unit`` takes where it has set up (HX-12: any facing) and its words: a Gun
    faces the most of the enemy's way in it sees inside its Covered Arc (C6.42: it waits for
    the enemy there); against an enemy exit victory, a Gun that sees little of that way beyond
    the hexes next to it (:func:`sees_way_in`), or the scenario defender's vehicle with no
    turret, turns its Covered Arc onto the most of the enemy's ways out the ``settled`` units
    leave unwatched (:func:`way_out_facing`); else a Gun faces the way in (all of it); the
    scenario defender's vehicle faces the enemies it knows of (its front armor, RD-8); else
    its facing is kept."""
    board = table.board
    here = board.parse(unit["hex"])
    kept = int(unit.get("facing", 0))
    gun = not unit.get("is_vehicle") and unit.get("has_gun")
    if (side == table.defender or gun) and not (gun and sees_way_in(table, unit, way)):
        found = way_out_facing(table, side, unit, seen, settled)
        if found is not None:
            best, share = found
            return best, (
                f"turns its Covered Arc to the enemy's way out (hexside {best}, "
                f"{100 * share:.0f}% of it)"
            )
    if gun and way:
        best = _gun_facing(table, unit, way)
        return best, f"turns its Covered Arc towards the enemy's way in (hexside {best})"
    if not (unit.get("is_vehicle") and side == table.defender):
        return kept, ""
    enemies = [
        board.parse(u["hex"])
        for u in seen
        if u["side"] != side and u.get("status", "active") == "active"
    ]
    if not enemies:
        return kept, ""

    def off(f: int) -> float:
        return sum(facing_offset(here, f, e) for e in enemies)

    best = min(range(6), key=lambda f: (off(f), f != kept, f))
    if off(best) < off(kept) - 1e-6:
        return best, f"turns to face the enemy (hexside {best})"
    return kept, ""
