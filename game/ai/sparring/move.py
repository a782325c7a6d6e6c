"""The careful player's Movement Phase: a unit on the edge its exit victory names leaves by it
(RD-13); each vehicle weighs every hex it can reach (the engine's route planner) by the shots
it would have from there, side and rear shots above all (the attack map: the odds there turned
to face each enemy, RD-8), less the risk of being knocked out there and on the way (the threat
map of the enemies its side knows, RD-18, and every "?" taken for a hidden Gun, RD-11), in
cover and out of sight where it can, and by the ground it gains towards its plan's goal (a
flank's waypoint, or the goal itself); it drives there and ends its move in Motion when an
enemy sees it (Case J). A vehicle that stays turns its front to the enemy (RD-8); Infantry
walks towards its goal from cover to cover."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from game.board.hexes import Hex
from game.engine.actions import Action, EndMove, Move, Turn
from game.engine.play.paths import Route
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from .ground import covered, eyes, goal_hexes, seen_by, unknown_risk, waypoint, worth
from .plans import Plan

FRONT = 60.0
"""Degrees either side of a vehicle's hull facing that count as its front (RD-8): a shot from
beyond hits its side or rear."""
HOLD_HEXES = 2
"""A holding plan shifts a vehicle at most this many hexes (to a better firing position)."""
BETTER_BY = 0.05
"""A hex must beat staying by this much."""
FACE_GAIN = 0.05
"""A vehicle that stays pivots only when the pivot lowers its risk by this much."""


@dataclass
class Moves:
    """What the careful player has decided this Movement Phase: the route each moving vehicle
    drives (its steps still to take) and the units that stay."""

    key: tuple = ()
    routes: dict[str, list[Action]] = field(default_factory=dict)
    done: set[str] = field(default_factory=set)

    def begin(self, table: Table) -> None:
        key = (table.turn, table.phasing)
        if key != self.key:
            self.key, self.routes, self.done = key, {}, set()


def wanted_edges(table: Table, side: str, unit: UnitView) -> set[str]:
    """The edges ``unit`` leaving by would count for its side's exit victories (RD-13)."""
    return {v.edge for v in table.victory if v.side == side and v.edge and v.counts(unit)}


def leave(table: Table, side: str, legal: list[Action]) -> tuple[Action, str] | None:
    """An exit victory (RD-13): a unit on the edge it names leaves by it; a vehicle on that
    edge facing along it first turns its front off the map."""
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    if not any(v.side == side and v.kind == "exit" for v in table.victory):
        return None
    for a in legal:
        if not isinstance(a, Move) or a.to != "off" or a.unit not in mine:
            continue
        if table.exit_edge(a.unit) in wanted_edges(table, side, mine[a.unit]):
            return a, "leaves the map (an exit victory, RD-13)"
    for a in legal:
        unit = mine.get(a.unit) if isinstance(a, Turn) else None
        if not isinstance(a, Turn) or unit is None or not unit.get("is_vehicle"):
            continue
        wanted = wanted_edges(table, side, unit)
        facing = int(unit.get("facing", 0))
        ahead = [f for f in range(6) if table.exit_edge(a.unit, f) in wanted]
        if not ahead or facing in ahead:
            continue
        best = min(ahead, key=lambda f: (min((f - facing) % 6, (facing - f) % 6), f))
        step = 1 if (best - facing) % 6 <= 3 else -1
        if a.facing == (facing + step) % 6:
            return a, "turns to leave the map (an exit victory, RD-13)"
    return None


def urgency(table: Table, side: str, plan: Plan, distance: int) -> tuple[float, bool]:
    """How much a hex gained towards the goal counts now: the plan's; more, when its victory
    is a hex to hold or an edge to leave by (RD-13), as the pace it needs rises (the hexes
    still to go, ``distance``, over its Movement Phases left: above 1.5 a phase, it must hurry);
    much less for the side that wins when time runs out while the enemy holds none of its
    hexes (HX-11). A holding plan comes out only when time presses. With whether it presses."""
    must_reach = any(v.side == side and v.kind in ("hold", "exit") for v in table.victory)
    left = max(1, table.turns - table.turn + 1)
    pace = distance / left if must_reach else 0.0
    hurry = max(0.0, pace - 1.5) * 0.6
    progress = 0.05 if plan.hold else plan.progress
    progress += hurry
    if side == table.defender and not _enemy_on_our_hold(table, side):
        progress *= 0.3
    return progress, hurry > 0


def _enemy_on_our_hold(table: Table, side: str) -> bool:
    holds = {h for v in table.victory if v.side == side and v.kind == "hold" for h in v.hexes}
    return any(u["hex"] in holds for u in table.units() if u["side"] != side)


class HexWeigher:
    """The score of each hex for one vehicle (the module's text), its maps read once."""

    def __init__(self, table: Table, side: str, plan: Plan, unit: UnitView, within: set[str]):
        self.table, self.side, self.plan, self.unit = table, side, plan, unit
        board = table.board
        self.board = board
        uid = unit["id"]
        self.threats = table.threat_map(uid, within)
        self.attacks = table.attack_map(uid, within)
        self.watchers = eyes(table, side)
        self.here = board.parse(unit["hex"])
        goals = goal_hexes(table, side, unit)
        goal = min(goals, key=lambda g: (self.here.distance(g), g)) if goals else self.here
        self.target = waypoint(table, side, goal, plan.lean, self.here)
        self.progress, self.hurries = urgency(table, side, plan, self.here.distance(goal))
        self.edges = wanted_edges(table, side, unit)
        self.holds = {
            h for v in table.victory if v.side == side and v.kind == "hold" for h in v.hexes
        }
        self.held_by_others = {
            u["hex"] for u in table.units() if u["side"] == side and u["id"] != uid
        }
        left = table.turns - table.turn
        self.hold_bonus = 2.5 if left == 0 else 0.8 if left <= 1 else 0.2
        """A hex its victory needs held when the game ends (RD-13), the more as the end nears."""
        self.own_worth = 2.0 if unit.get("category") == "afv" else 1.0
        self.worths: dict[str, float] = {}
        self.known = {
            u["id"]: u for u in table.units() if u["side"] != side and u.get("type") != "?"
        }
        self._risk: dict[str, float] = {}

    def risk(self, hx: str) -> float:
        r = self._risk.get(hx)
        if r is None:
            t = self.threats.get(hx)
            known = 0.0 if t is None else t.p_kill + 0.3 * t.p_immobilized
            h = self.board.parse(hx)
            r = self._risk[hx] = 1.0 - (1.0 - known) * (
                1.0 - unknown_risk(self.board, self.watchers, h)
            )
        return r

    def offense(self, hx: str, h: Hex) -> float:
        """The best shot from ``hx`` (P(kill) x worth), a third of the others', and half as
        much again for a shot from beyond the target's hull front (a side or rear shot)."""
        values = []
        for target, p in self.attacks.get(hx, ()):
            if target not in self.worths:
                self.worths[target] = worth(self.table, self.side, target)
            v = p * self.worths[target]
            enemy = self.known.get(target)
            if enemy is not None and enemy.get("is_vehicle"):
                there = self.board.parse(enemy["hex"])
                if facing_offset(there, int(enemy.get("facing", 0)), h) > FRONT:
                    v *= 1.5
            values.append(v)
        values.sort(reverse=True)
        return values[0] + sum(values[1:]) / 3.0 if values else 0.0

    def __call__(self, hx: str, route: Route | None) -> float:
        h = self.board.parse(hx)
        safe = 1.0 - self.risk(hx)
        if route is not None:
            for step in route.hexes[:-1]:  # Defensive First Fire on the way (C6.17)
                safe *= 1.0 - 0.5 * self.risk(step)
        gained = self.here.distance(self.target) - h.distance(self.target)
        # a shot from there comes after the enemy's fire at it (its Defensive First Fire on
        # the way, C6.17, and its Defensive Fire Phase): only if it is still there
        score = safe * self.offense(hx, h) - self.plan.caution * self.own_worth * (1.0 - safe)
        score += 0.3 * self.progress * gained
        if hx in self.holds and hx not in self.held_by_others:
            score += self.hold_bonus
        if self.edges and any(self.board.edge_beyond(n) in self.edges for n in h.neighbors()):
            score += 1.0  # on the edge to leave by (RD-13): off the map next
        score += 0.15 if covered(self.board, h) else 0.0
        score -= 0.04 * seen_by(self.board, self.watchers, h)
        if route is not None:
            score -= 0.01 * route.mp
        return score


def best_route(
    table: Table, side: str, plan: Plan, unit: UnitView, rng: random.Random
) -> tuple[str, Route] | None:
    """The hex the vehicle drives to and its route, or None: it stays (the best hex must beat
    staying by ``BETTER_BY``; a concealed vehicle counts staying hidden a little more)."""
    routes = table.reachable(unit["id"])
    within = {unit["hex"], *routes, *(h for r in routes.values() for h in r.hexes)}
    weigh = HexWeigher(table, side, plan, unit, within)
    best = weigh(unit["hex"], None) + (0.3 if unit.get("concealed") else 0.0)
    found: tuple[str, Route] | None = None
    for hx in sorted(routes):
        route = routes[hx]
        if not route.steps or (plan.hold and not weigh.hurries and len(route.hexes) > HOLD_HEXES):
            continue
        v = weigh(hx, route) + 0.01 * rng.random()
        if v > best + BETTER_BY:
            best, found = v, (hx, route)
    return found


def pivots(table: Table, unit: UnitView) -> list[Action]:
    """For a vehicle that stays: the pivots (one hexside each) to the facing in which the
    enemies its side knows would be least likely to knock it out (RD-8, RD-18), when that is
    ``FACE_GAIN`` less likely; none for a concealed one (a pivot in sight reveals it)."""
    uid = unit["id"]
    if unit.get("concealed") or unit.get("immobilized"):
        return []
    if table.threat_here(uid).p_kill < FACE_GAIN:
        return []
    facing = int(unit.get("facing", 0))
    risks = {f: t.p_kill for f, t in table.threat_facings(uid).items()}
    turns = lambda f: min((f - facing) % 6, (facing - f) % 6)  # noqa: E731
    best = min(risks, key=lambda f: (round(risks[f], 6), turns(f), f))
    if risks[best] > risks[facing] - FACE_GAIN:
        return []
    step = 1 if (best - facing) % 6 <= 3 else -1
    out: list[Action] = []
    f = facing
    while f != best:
        f = (f + step) % 6
        out.append(Turn(uid, f))
    return out


def end_move(table: Table, side: str, uid: str, legal: list[Action]) -> tuple[Action, str]:
    """The end of a vehicle's move: in Motion (Case J) when an enemy it knows of, or a "?",
    sees it, else stopped (in Motion it stops only in a new hex, HX-16)."""
    unit = table.unit(uid)
    seen = (
        unit is not None
        and seen_by(table.board, eyes(table, side), table.board.parse(unit["hex"])) > 0
    )
    motion = seen or EndMove(uid, False) not in legal
    if motion and EndMove(uid, True) in legal:
        return EndMove(uid, True), "ends its move in Motion: the enemy sees it (Case J)"
    return EndMove(uid, False), "stops"


def infantry_step(table: Table, side: str, plan: Plan, unit: UnitView, legal: list[Action]):
    """Infantry's next hex towards its goal (a hex to hold or an edge: RD-13; else the nearest
    enemy, to 2 hexes), cover first; None: it stays (its plan holds, or no hex is nearer)."""
    board = table.board
    uid = unit["id"]
    here = board.parse(unit["hex"])
    goals = goal_hexes(table, side, unit)
    if not goals:
        return None
    must_reach = any(v.side == side and v.kind in ("hold", "exit") for v in table.victory)
    if plan.hold and not must_reach:
        return None
    goal = min(goals, key=lambda g: (here.distance(g), g))
    if here == goal or (not must_reach and here.distance(goal) <= 2):
        return None
    best: tuple[float, str, Action] | None = None
    for a in legal:
        if not isinstance(a, Move) or a.unit != uid or a.to == "off":
            continue
        h = board.parse(a.to)
        gained = here.distance(goal) - h.distance(goal)
        if gained <= 0:
            continue
        v = gained + (0.3 if covered(board, h) else 0.0)
        if best is None or (v, a.to) > best[:2]:
            best = (v, a.to, a)
    if best is None:
        return None
    return best[2], f"moves to {best[1]}"


def move_action(
    table: Table, side: str, plan: Plan, legal: list[Action], moves: Moves, rng: random.Random
) -> tuple[Action, str] | None:
    """The Movement Phase's next action and its words; None: End Phase."""
    moves.begin(table)
    out = leave(table, side, legal)
    if out is not None:
        return out
    mine = {u["id"]: u for u in table.units() if u["side"] == side}
    moving = table.moving_unit
    if moving is not None and moving in mine:
        mover = mine[moving]
        if not mover.get("is_vehicle"):
            step = infantry_step(table, side, plan, mover, legal)
            return step or (EndMove(moving, False), "stops")
        ahead = moves.routes.get(moving, [])
        if ahead and ahead[0] in legal:
            return ahead.pop(0), "drives on"
        moves.routes.pop(moving, None)
        return end_move(table, side, moving, legal)
    for uid in table.can_act():
        unit = mine.get(uid)
        if unit is None or uid in moves.done:
            continue
        moves.done.add(uid)
        if not unit.get("is_vehicle"):
            step = infantry_step(table, side, plan, unit, legal)
            if step is not None:
                return step
            continue
        if unit.get("immobilized"):
            continue
        found = best_route(table, side, plan, unit, rng)
        steps: list[Action] = list(found[1].steps) if found is not None else pivots(table, unit)
        if steps and steps[0] in legal:
            moves.routes[uid] = steps[1:]
            why = f"drives towards {found[0]}" if found else "turns its front to the enemy"
            return steps[0], why
    return None
