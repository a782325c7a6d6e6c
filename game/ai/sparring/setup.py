"""The careful player's set-up (HX-12): each unit to a hex of its set-up area chosen for the
way the enemy must come in; a Gun (or the defender's vehicle) where it sees that way at a
good range from cover, facing the way in (its Covered Arc, HX-2); the attacker's vehicles out
of the enemy's sight, on the flank its plan works round; then it conceals what it may (Case K,
RD-11) and Bore Sights the hex of the way in its Gun covers best (C6.42)."""

from __future__ import annotations

import random

from game.board.hexes import Hex, label
from game.board.hexes import line as hex_line
from game.engine.actions import Action, BoreSight, Conceal, Place
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from .ground import axis, covered, enemies, eyes, facing_towards, goal_hexes, left_of, seen_by, xy
from .plans import Plan

GUN_ARC = 30
"""A Gun's Covered Arc, degrees either side of its facing (HX-2)."""
BEST_RANGE = (3, 8)
"""The ranges a Gun or a waiting vehicle likes to see the way in at (short enough to hit,
long enough not to be overrun at once)."""


def enemy_way(table: Table, side: str) -> list[Hex]:
    """The hexes the enemy must cross: the straight line from each of its units to the
    nearest hex of what its victory needs (its goals, read from the victory conditions)."""
    board = table.board
    way: dict[Hex, None] = {}
    for u in enemies(table, side):
        start = board.parse(u["hex"])
        ends = goal_hexes(table, u["side"], u)
        ends = [e for e in ends if e != start] or [
            board.parse(m["hex"]) for m in table.units() if m["side"] == side
        ]
        if ends:
            end = min(ends, key=lambda h: (start.distance(h), h))
            way.update(dict.fromkeys(h for h in hex_line(start, end) if board.contains(h)))
    return list(way)


def _view_of_way(table: Table, h: Hex, way: list[Hex]) -> tuple[float, tuple[float, float]]:
    """How well ``h`` sees the way in (each hex seen at a good range counts 1, nearer or
    further less) and the centre of what it sees (where to face)."""
    board = table.board
    clear = table.viewshed(label(h))[0]
    total, sx, sy = 0.0, 0.0, 0.0
    lo, hi = BEST_RANGE
    for w in way:
        if not clear[board.index(w)]:
            continue
        d = h.distance(w)
        if d == 0:
            continue
        v = 1.0 if lo <= d <= hi else 0.5 if d < lo else max(0.1, 1.0 - (d - hi) / 10.0)
        x, y = xy(w)
        total, sx, sy = total + v, sx + v * x, sy + v * y
    if total == 0:
        return 0.0, (0.0, 0.0)
    return total, (sx / total, sy / total)


def _free(table: Table, side: str, unit: UnitView) -> list[str]:
    """The hexes of ``unit``'s set-up area it may take: no enemy there, one vehicle or Gun a
    hex (HX-4)."""
    taken = {u["hex"] for u in enemies(table, side)}
    if unit.get("category") != "infantry":
        taken |= {
            u["hex"]
            for u in table.units()
            if u["side"] == side and u["id"] != unit["id"] and u.get("category") != "infantry"
        }
    return [h for h in table.setup_hexes(unit["id"]) if h not in taken]


class Spots:
    """The score of each hex of ``unit``'s set-up area, and the point it would face from there
    (the module's text), what it reads of the map and the enemy read once."""

    def __init__(self, table: Table, side: str, unit: UnitView, plan: Plan):
        board = table.board
        self.table, self.board, self.unit, self.plan = table, board, unit, plan
        self.way = enemy_way(table, side)
        self.watchers = eyes(table, side)
        self.ambushes = side == table.defender or (
            unit.get("has_gun") and not unit.get("is_vehicle")
        )
        self.ahead = axis(table, side)
        self.left = left_of(self.ahead)
        self.mine = [board.parse(u["hex"]) for u in table.units() if u["side"] == side]
        self.named = any(v.side != side and unit["id"] in v.units for v in table.victory)
        self.span = 1.5 * max(board.columns, board.rows)
        self.mid = sum(self._across(h) for h in self.mine) / max(1, len(self.mine))
        self.foes = [xy(board.parse(u["hex"])) for u in enemies(table, side)]

    def _across(self, h: Hex) -> float:
        """How far ``h`` lies to the left of the side's way in."""
        x, y = xy(h)
        return x * self.left[0] + y * self.left[1]

    def ambush(self, h: Hex) -> tuple[float, tuple[float, float]]:
        """A Gun's or the defender's hex: hidden in cover (it may set up concealed there,
        RD-11), seeing a stretch of the way in at a good range; a unit the enemy must knock
        out further off it. With the centre of what it sees."""
        looks, at = _view_of_way(self.table, h, self.way)
        seen = seen_by(self.board, self.watchers, h)
        covers = covered(self.board, h)
        score = 0.0
        score += 1.5 * min(1.0, looks / 6.0)
        score += 1.2 if covers and seen == 0 else (0.3 if covers else 0.0) - 0.15 * seen
        if self.named and self.way:
            score += 0.1 * min(4, min(h.distance(w) for w in self.way))
        return score, at

    def approach(self, h: Hex) -> float:
        """The attacker's hex: out of the enemy's sight, in cover, a little forward."""
        score = 0.0
        score -= 0.8 * seen_by(self.board, self.watchers, h)
        score += 0.4 if covered(self.board, h) else 0.0
        x, y = xy(h)
        score += 0.05 * (x * self.ahead[0] + y * self.ahead[1])
        return score

    def __call__(self, hx: str) -> tuple[float, tuple[float, float]]:
        h = self.board.parse(hx)
        score, at = self.ambush(h) if self.ambushes else (self.approach(h), (0.0, 0.0))
        # the flank its plan works round; apart from the rest of its side
        score -= 0.6 * self.plan.lean * (self._across(h) - self.mid) / self.span
        score -= 0.3 * sum(
            1 for m in self.mine if m.distance(h) <= 2 and label(m) != self.unit["hex"]
        )
        if not at[0] and not at[1]:
            at = self._towards_enemy(h)
        return score, at

    def _towards_enemy(self, h: Hex) -> tuple[float, float]:
        """The point to face with nothing of the way in in sight: the enemy's centre."""
        if not self.foes:
            x, y = xy(h)
            return (x + self.ahead[0], y + self.ahead[1])
        n = len(self.foes)
        return (sum(p[0] for p in self.foes) / n, sum(p[1] for p in self.foes) / n)


def spot(table: Table, side: str, unit: UnitView, plan: Plan, rng: random.Random) -> Place | None:
    """Where ``unit`` sets up, and facing which way (a legal placement), or None: one of the
    hexes within 0.05 of the best (:class:`Spots`), drawn by ``rng``."""
    free = _free(table, side, unit)
    if not free:
        return None
    score = Spots(table, side, unit, plan)
    scored = [(*score(hx), hx) for hx in free]
    top = max(v for v, _, _ in scored)
    pool = sorted((hx, at) for v, at, hx in scored if v >= top - 0.05)
    hx, at = pool[rng.randrange(len(pool))]
    facing = facing_towards(table.board.parse(hx), at)
    for f in (facing, int(unit.get("facing", 0))):
        place = Place(unit["id"], hx, f)
        if table.check(place) is None:
            return place
    return None


def bore_sight(table: Table, side: str, legal: list[Action]) -> BoreSight | None:
    """The Bore Sighting (C6.42) of the hex of the enemy's way in nearest its best range
    inside a Gun's Covered Arc (HX-2), for the first weapon that has one."""
    board = table.board
    way = set(enemy_way(table, side))
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    best: tuple[float, str, BoreSight] | None = None
    for a in legal:
        if not isinstance(a, BoreSight) or a.unit not in mine:
            continue
        unit = mine[a.unit]
        here, there = board.parse(unit["hex"]), board.parse(a.hex)
        if there not in way:
            continue
        if not unit.get("turreted") and facing_offset(here, int(unit["facing"]), there) > GUN_ARC:
            continue
        d = here.distance(there)
        value = -abs(d - 5)
        if best is None or (value, a.hex) > best[:2]:
            best = (value, a.hex, a)
    return best[2] if best else None


def setup_action(
    table: Table, side: str, plan: Plan, legal: list[Action], rng_of, done: set[str]
) -> tuple[Action, str] | None:
    """The set-up's next action and its words: each unit placed once (its hex and facing),
    then concealment, then one Bore Sighting per weapon; None: the set-up is done. ``done``
    keeps what it has already decided (a unit placed, concealed, a weapon bore sighted)."""
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    for uid in table.placeable():
        unit = mine.get(uid)
        if unit is None or f"place:{uid}" in done:
            continue
        done.add(f"place:{uid}")
        place = spot(table, side, unit, plan, rng_of(uid))
        if place is not None and (place.hex, place.facing) != (unit["hex"], unit["facing"]):
            return place, f"sets up in {place.hex} facing the way in"
    for a in legal:
        if isinstance(a, Conceal) and f"conceal:{a.unit}" not in done:
            done.add(f"conceal:{a.unit}")
            return a, "sets up concealed (RD-11)"
    left = [a for a in legal if not (isinstance(a, BoreSight) and f"bore:{a.unit}" in done)]
    shot = bore_sight(table, side, left)
    if shot is not None:
        done.add(f"bore:{shot.unit}")
        return shot, f"bore sights {shot.hex}, on the enemy's way in (C6.42)"
    return None
