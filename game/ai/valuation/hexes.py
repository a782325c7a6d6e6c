"""What a hex is worth to one of the computer's vehicles in its Movement Phase: the objective
(:mod:`.objective`), less the risk of being knocked out there and on the way (the threat map,
RD-18, and the "?" prior), plus the shots it would give (the attack map), each weighed by the
side's caution and aggression and the plan's scales (level 3). The move candidates drive by it
(``[move]`` in the tuning table)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from game.engine.actions import Turn
from game.engine.play.paths import Route
from game.engine.table import Table
from game.engine.view import UnitView

from ..tuning import Plan, tuning
from .danger import (
    IMMOBILIZED_WEIGHT,
    live_risk,
    removal_risk,
    soft,
    spent_firers,
    unknown_risk,
    unknown_shots,
)
from .exits import in_enemy_sight, must_move, reveals
from .maps import KeptMaps
from .objective import Objectives
from .reach import exit_open, last_chance, phases_left, strike_left, wins_on_time
from .targets import worth

Choice = tuple[float, str | None, Route | None]
"""(score, hex, route): hex and route None for staying where it stands."""


class Weighing(Protocol):
    """Who weighs the hexes (a decision's :class:`~game.ai.situation.Situation`)."""

    @property
    def table(self) -> Table: ...
    @property
    def side(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def rng(self) -> random.Random: ...
    @property
    def maps(self) -> KeptMaps: ...
    @property
    def objectives(self) -> Objectives: ...


def weights(table: Table, side: str, level: int) -> tuple[float, float]:
    """(caution, aggression): how much the risk of being knocked out (RD-18) and the shots a
    hex gives count against the objective. The side that wins when time runs out (the
    scenario defender, HX-11, while the enemy holds no hold condition of its, RD-13:
    :func:`~.reach.wins_on_time`) holds back; the other must come on, the bolder as its turns
    run out; in its last player turn, lost as things stand (:func:`~.reach.last_chance`),
    or with only the named units' removal left to win by (:func:`~.reach.strike_left`), the
    risk counts ``[move] last_chance_caution``."""
    t = tuning().move
    if level < 2:
        return t.caution, 0.0
    defends = wins_on_time(table, side)
    late = table.turn / max(1, table.turns)
    caution = t.defender_caution if defends else t.attacker_caution + t.early_caution * (1.0 - late)
    if last_chance(table, side) or strike_left(table, side):
        caution = t.last_chance_caution
    aggression = (
        t.defender_aggression if defends else t.attacker_aggression + t.late_aggression * late
    )
    return caution, aggression


def own_worth(table: Table, side: str, unit: UnitView) -> float:
    """What losing its own ``unit`` costs ``side`` where it moves: RD-13's points (an AFV 2,
    anything else 1); a vehicle of a side with an exit victory at least an AFV's, since any
    unit off the map by that edge counts alike (RD-13; issue 41: the Orel road's half-track,
    one of the four vehicles of which the column must drive three off, weighed its risk at
    half a tank's)."""
    t = tuning().targets
    worth = t.afv if unit.get("category") == "afv" else t.other
    if unit.get("is_vehicle") and any(v.side == side and v.kind == "exit" for v in table.victory):
        worth = max(worth, t.afv)
    return worth


def can_leave(table: Table, side: str, unit: UnitView) -> Callable[[str, Route], bool]:
    """With an exit victory (RD-13): whether the route to a hex leaves the vehicle on the edge
    that victory names with the MP to turn off the map and leave by its front hexside (1 MP,
    RD-13 exit) this phase (it then leaves at once: the leave candidate); a hex on the edge it
    could not leave from counts for nothing more than its nearness."""
    wanted = {
        v.edge
        for v in table.victory
        if v.side == side and v.counts(unit) and exit_open(table, side, v)
    }
    if not wanted or not unit.get("is_vehicle"):
        return lambda hx, route: False
    board = table.board
    left = float(unit.get("mp_left", 0.0))
    facing0 = int(unit.get("facing", 0))

    def leaves(hx: str, route: Route) -> bool:
        here = board.parse(hx)
        out = [f for f in range(6) if board.edge_beyond(here.neighbor(f)) in wanted]
        if not out:
            return False
        facing = facing0
        for step in route.steps:
            if isinstance(step, Turn):
                facing = step.facing
        turns = min(min((f - facing) % 6, (facing - f) % 6) for f in out)
        return left - route.mp >= 1 + turns

    return leaves


def leaving_wins(table: Table, side: str, unit: UnitView) -> bool:
    """Whether ``unit`` off the map by the edge an exit victory names meets it (RD-13): the
    side wins the moment it leaves, whatever is left of the game."""
    return any(
        v.side == side and v.counts(unit) and v.edge and table.exited(v.edge, v.only) + 1 >= v.count
        for v in table.victory
    )


def looks_ahead(s: Weighing) -> bool:
    """Whether the vehicle weighs the threat after the enemy's next move (:func:`ahead_risk`):
    level 2 and up on a map of at most ``[search] max_hexes`` hexes (on a larger one it would
    cost more than the move is worth), not a level-3 playout's player (``commit``)."""
    drive = getattr(s, "drive", None)
    return (
        s.level >= 2
        and not (drive is not None and drive.commit)
        and s.table.board.size <= tuning().search.max_hexes
    )


def ahead_risk(facings: dict | None, facing: int | None = None) -> float:
    """A share (``[risk] ahead``) of the risk after the enemy's next move (RD-18, the
    enemies each at the hex of their reach whence its shot is deadliest: an upper bound, and
    they must drive there under Defensive First Fire, C6.17), in ``facing`` or, if None, in
    the best of the six (a vehicle that stays turns its front to it)."""
    if not facings:
        return 0.0
    share = tuning().risk.ahead
    if facing is not None:
        return share * removal_risk(facings.get(facing))
    return share * min(removal_risk(t) for t in facings.values())


def routes_of(table: Table, unit_id: str, level: int) -> dict[str, Route]:
    """The hexes a vehicle weighs and the routes there: level 2 every hex it can reach this
    phase (the engine's route planner), level 1 the hexes next to it."""
    if level >= 2:
        return table.reachable(unit_id)
    return {h: r for h in table.move_costs(unit_id) if (r := table.route(unit_id, h))}


class HexScore:
    """The score of each hex for one vehicle, its inputs read once (the maps over the hexes
    ``within`` it weighs)."""

    def __init__(self, s: Weighing, unit: UnitView, plan: Plan, within: frozenset[str]):
        table, uid = s.table, unit["id"]
        self.s, self.unit, self.plan = s, unit, plan
        self.threats = s.maps.threats(table, uid, within)
        self.worth = own_worth(table, s.side, unit)
        level2 = s.level >= 2
        self.unknown = unknown_risk(table, s.side, scale=soft(unit)) if level2 else lambda hx: 0.0
        # level 3 counts each enemy's best shot on the way, not one in every hex it sees
        self.by_firer = s.level >= 3
        way = (tuning().risk.way_unknown, tuning().risk.way_unknown_beyond)
        self.shots = (
            unknown_shots(table, s.side, scale=soft(unit), base=way) if self.by_firer else None
        )
        # on the way, the enemies that took their Defensive First Fire shot fire no more
        self.spent = spent_firers(table, s.side) if s.level >= 2 else frozenset()
        # a stopped vehicle starts its move in its hex: a shot there has no Case J (C6.1)
        self.starts = not (unit.get("motion") or unit.get("moving") or unit.get("mp_spent"))
        caution, aggression = weights(table, s.side, s.level)
        self.caution = caution * plan.caution
        self.aggression = aggression * plan.aggression
        # level 2 also seeks the hexes it could shoot from (the attack map, RD-18)
        self.attacks = s.maps.attacks(table, uid, within) if s.level >= 2 else {}
        self.worths: dict[str, float] = {}
        self.leaves = can_leave(table, s.side, unit)
        # off the map in its last Movement Phase, or by the exit that meets its victory (RD-13)
        self.last = phases_left(table, s.side) == 0 or leaving_wins(table, s.side, unit)
        # level 2 looks one enemy move ahead (issue 41: a lone defender stood still while the
        # enemy drove round to its flank) at the few best hexes (:meth:`look`)
        self.looks = looks_ahead(s)
        self.ahead: dict[str, dict] = {}

    def look(self, hexes: list[str]) -> None:
        """Weigh the threat after the enemy's next move (:func:`ahead_risk`) in ``hexes``
        from now on."""
        if self.looks:
            want = frozenset(hexes)
            self.ahead.update(self.s.maps.ahead(self.s.table, self.unit["id"], want))

    def risk_at(self, hx: str, stay: bool = True) -> float:
        """The risk of being knocked out in ``hx``: the threat map's, and the "?" prior's; and
        where it would stay (not a hex on the way), a share (``[risk] ahead``) of the threat
        after the enemy's next move, in its best facing there (:func:`ahead_risk`); on the way,
        the enemies that may fire no more this phase left out (:func:`~.danger.spent_firers`:
        their C6.17 shot is taken, HX-8)."""
        t = self.threats.get(hx)
        known = removal_risk(t) if stay else live_risk(t, self.spent)
        later = ahead_risk(self.ahead.get(hx)) if stay else 0.0
        return 1.0 - (1.0 - known) * (1.0 - self.unknown(hx)) * (1.0 - later)

    def way_safe(self, route: Route) -> float:
        """Level 3: the chance of coming through the Defensive First Fire on ``route`` (C6.17)
        alive, each enemy (a known one not ``spent``, and the "?" of each hex: one vehicle or Gun
        a hex, HX-4, so one gun among them) firing once, at the hex
        of the way where its shot is deadliest: a Gun that fires without keeping its Multiple
        ROF fires no more that phase, nor in the Defensive Fire Phase (RD-4, HX-8), and its
        shot shows it (RD-11), so a long way in sight of one "?" is not one shot a hex (issue
        41: the Orel road's column read the crossing past five "?" as a shot in every hex of
        it from each). A hex of the way counts ``[move] dff_on_the_way`` of a shot there (a
        moving target, Case J); a stopped vehicle's start MP in its hex counts all of it."""
        way = tuning().move.dff_on_the_way
        best: dict[str, float] = {}
        shots = self.shots
        assert shots is not None

        def shot_at(hx: str, weight: float) -> None:
            t = self.threats.get(hx)
            for one in t.threats if t is not None else ():
                if one.firer not in self.spent:
                    r = weight * (one.p_kill + IMMOBILIZED_WEIGHT * one.p_immobilized)
                    if r > best.get(one.firer, 0.0):
                        best[one.firer] = r
            for where, chance in shots(hx):
                key = "?" + where
                if weight * chance > best.get(key, 0.0):
                    best[key] = weight * chance

        for h in route.hexes[:-1]:
            shot_at(h, way)
        if self.starts and route.steps:
            shot_at(self.unit["hex"], 1.0)
        safe = 1.0
        for r in best.values():
            safe *= 1.0 - min(1.0, r)
        return safe

    def offense(self, hx: str) -> float:
        """The shots ``hx`` would give: the best one's P(kill) x its target's worth, and a
        share (``[move] other_shots``) of the others'."""
        values = []
        for target, p in self.attacks.get(hx, ()):
            if target not in self.worths:
                self.worths[target] = worth(self.s.table, self.s.side, target)
            values.append(p * self.worths[target])
        values.sort(reverse=True)
        return values[0] + tuning().move.other_shots * sum(values[1:]) if values else 0.0

    def __call__(self, hx: str, route: Route | None = None) -> float:
        t = tuning().move
        leaves = route is not None and self.leaves(hx, route)
        if leaves and self.last:  # off the map in its last phase, or the exit that wins
            return t.exit_now
        # a vehicle that can leave from the edge hex does so at once (the leave candidate,
        # RD-13): it neither stays there to be shot nor shoots from there
        safe = 1.0 if leaves else 1.0 - self.risk_at(hx)
        if route is not None and self.by_firer:  # each enemy's best shot on the way
            safe *= self.way_safe(route)
        elif route is not None and self.s.level >= 2:  # Defensive First Fire on the way
            for h in route.hexes[:-1]:  # (a moving target: about half as easy, Case J)
                safe *= 1.0 - t.dff_on_the_way * self.risk_at(h, stay=False)
            if self.starts and route.steps:  # its start MP in its hex: no Case J (C6.1)
                safe *= 1.0 - self.risk_at(self.unit["hex"], stay=False)
        goal = self.plan.objective * self.s.objectives.of(self.s.table, self.unit["id"])(hx)
        shots = 0.0 if leaves else self.aggression * self.offense(hx)
        return goal - self.caution * self.worth * (1.0 - safe) + shots


def playout_routes(s: Weighing, unit: UnitView, routes: dict[str, Route]) -> dict[str, Route]:
    """A level-3 playout's vehicle weighs at most ``[search] playout_hexes`` of the hexes it
    can reach (restricted candidates: the threat and attack maps of every hex it can reach
    are most of a playout's cost, and a playout needs a likely move, not the best): half the
    best by its objective alone (no map needed), the rest drawn by the decision's seeded
    random source."""
    k = tuning().search.playout_hexes
    if len(routes) <= k:
        return routes
    goal = s.objectives.of(s.table, unit["id"])
    ranked = sorted(routes, key=lambda h: (-goal(h), h))
    kept = ranked[: k // 2]
    rest = ranked[k // 2 :]
    kept += s.rng.sample(rest, k - len(kept))
    return {h: routes[h] for h in sorted(kept)}


def hidden_cost(s: Weighing, unit: UnitView) -> Callable[[Route], float]:
    """What a route costs a concealed vehicle of the side that wins on time (level 2 and up) in
    the concealment it gives up: ``[move] hidden_stays`` if it spends MP in the LOS of an enemy
    within 16 hexes, the start included (RD-11: it is revealed), less as far as an enemy heading
    for its exit edge goes unwatched (:func:`~.exits.must_move`: it moves when it must); a move
    out of every enemy's sight keeps it, and costs nothing (issue 41)."""
    table = s.table
    if not (s.level >= 2 and unit.get("concealed") and wins_on_time(table, s.side)):
        return lambda route: 0.0
    cost = tuning().move.hidden_stays * (1.0 - must_move(table, s.side, unit))
    if cost <= 0.0:
        return lambda route: 0.0
    seen = in_enemy_sight(table, s.side)
    start = unit["hex"]
    return lambda route: cost if reveals(table, seen, start, route.hexes) else 0.0


def best_hex(
    s: Weighing, unit: UnitView, plan: Plan, allowed: Callable[[Route], bool] | None = None
) -> Choice:
    """Level 2's search over every hex the vehicle can reach (level 1: the hexes next to it):
    the best by :class:`HexScore`, less a little for each MP the route spends and the
    concealment it gives up (:func:`hidden_cost`), if it beats staying by ``[move] better_by``;
    ties broken by the decision's seeded random source. Where it looks ahead
    (:func:`looks_ahead`), the best ``[move] ahead_hexes`` of them and its own are weighed
    again with the threat after the enemy's next move (:func:`ahead_risk`), and it chooses
    among those. ``allowed``: only the routes it accepts are weighed (a move under way: none
    that goes back over it)."""
    t = tuning().move
    table = s.table
    drive = getattr(s, "drive", None)
    if drive is not None and drive.commit:  # a playout's player: the few likeliest hexes
        routes = playout_routes(s, unit, s.maps.routes(table, unit["id"]))
    else:
        routes = routes_of(table, unit["id"], s.level)
    if allowed is not None:
        routes = {hx: r for hx, r in routes.items() if allowed(r)}
    # the hexes weighed: where it stands, where it could go and the hexes on the way
    within = frozenset([unit["hex"], *routes, *(h for r in routes.values() for h in r.hexes)])
    score = HexScore(s, unit, plan, within)
    hidden = hidden_cost(s, unit)

    def staying() -> float:
        return score(unit["hex"])

    s.maps.work += len(routes)
    jitter = {hx: s.rng.random() * t.jitter for hx in sorted(routes)}

    def going(hx: str) -> float:
        route = routes[hx]
        return score(hx, route) - t.mp_cost * route.mp + jitter[hx] - hidden(route)

    values = {hx: going(hx) for hx in sorted(routes)}
    if score.looks:
        few = sorted(values, key=lambda h: (-values[h], h))[: t.ahead_hexes]
        score.look([unit["hex"], *few])
        values = {hx: going(hx) for hx in sorted(few)}
    best: Choice = (staying(), None, None)
    for hx in sorted(values):
        if values[hx] > best[0] + t.better_by:
            best = (values[hx], hx, routes[hx])
    return best
