"""What a hex is worth to one of the computer's units towards its side's victory conditions
(RD-13): on a hex it must hold, near the edge it must leave by, near the enemy it must knock
out; for Infantry (AT fire cannot harm it, 002), on a hex the enemy must hold. The move and
set-up candidates and a playout's value read it (``[objective]`` in the tuning table)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from game.engine.table import Table
from game.engine.view import UnitRecord, UnitView

from ..tuning import tuning
from .danger import seen_guns
from .exits import arc_values, unwatched, watchers, ways_out
from .reach import exit_open, strike_left, to_edge, wins_on_time
from .targets import loss_share, may_be

Objective = Callable[[str], float]
Watch = tuple[np.ndarray, float]
"""Each hex's share of the enemy's ways out left unwatched, and the ways' total
(:func:`.exits.unwatched`)."""


def depths(hexes: list, home: list) -> dict:
    """How much deeper each hex of a hold condition lies than the nearest of them, counted
    from where the side set up (0 for the nearest): the deepest is taken first."""
    if not hexes or not home:
        return {}
    far = {h: min(h.distance(x) for x in home) for h in hexes}
    least = min(far.values())
    return {h: d - least for h, d in far.items()}


@dataclass(frozen=True)
class Aims:
    """What the objective of one unit reads, read once from its side's table."""

    holds: list  # (the hold's hexes no other unit of its side holds yet, their depths)
    edges: list[str]  # the edges its exit victories name
    enemies: list  # the hexes of the enemies it may have to knock out
    block: set[str]  # Infantry: the enemy's hold hexes it may deny (002, RD-13)
    immune: bool  # Infantry: AT fire cannot harm it (002)
    near: int  # the range it closes with the enemy to
    stand: float  # what standing on a hold hex counts for now
    urgency: float  # how much the victory conditions count now
    watch: Watch | None = None  # the enemy's ways out the others leave unwatched
    arc: bool = False  # a vehicle with no turret: it watches inside its Covered Arc (HX-2)


def _holds(
    table: Table, side: str, mine: list[UnitView], unit_id: str, kept: set, immune: bool
) -> list:
    """Each hold condition of ``side`` not lost (no known enemy Infantry in one of its hexes:
    AT fire cannot harm it, 002, and no unit enters an enemy's hex, RD-13): its hexes no other
    active unit of its side holds, with their depths from where the side set up. To Infantry
    (``immune``) a hex only a vehicle of its side holds is still free: the vehicle may yet be
    knocked out or drive off, while Infantry keeps it to the end (issue 41: on the four boards
    a T-34 stood on JJ12 and the squads never went there)."""
    board = table.board
    held = {
        u["hex"]
        for u in mine
        if u["id"] != unit_id
        and u.get("status") == "active"
        and (not immune or u.get("category") == "infantry")
    }
    home = [board.parse(h) for h in table.home_hexes()]
    out = []
    for v in table.victory:
        if v.side == side and v.kind == "hold" and not kept.intersection(v.hexes):
            free = [board.parse(h) for h in v.hexes if h not in held]
            out.append((free, depths(free, home)))
    return out


def _block(table: Table, side: str, mine: list[UnitView], unit_id: str, kept: set) -> set[str]:
    """The enemy's hold hexes an Infantry unit of ``side`` may deny by standing there: of each
    enemy hold no own Infantry unit keeps yet, the hexes no enemy Infantry unit keeps (a
    vehicle there may yet be knocked out or drive off)."""
    ours = {
        u["hex"]
        for u in mine
        if u["id"] != unit_id and u.get("category") == "infantry" and u.get("status") == "active"
    }
    return {
        h
        for v in table.victory
        if v.side != side and v.kind == "hold" and not ours.intersection(v.hexes)
        for h in v.hexes
        if h not in kept
    }


def _enemies(table: Table, side: str, seen: list[UnitView]) -> list:
    """The hexes of the enemies ``side`` may have to knock out: those its victory conditions
    name (or a "?" that may be one of them: a "?" its side has seen to be a Gun is that Gun,
    :func:`~.danger.seen_guns`), else every enemy."""
    board = table.board
    named = {x for v in table.victory if v.side == side for x in v.units}
    guns = seen_guns(table, side) if named else {}  # a "?" seen to be a Gun is that Gun
    unplaced = named - set(guns.values())  # a Gun seen in its hex is no other "?" (it stays)
    return [
        board.parse(u["hex"])
        for u in seen
        if u["side"] != side
        and (
            not named
            or (guns[u["hex"]] in named if u["hex"] in guns else may_be(table, u["id"], unplaced))
        )
    ]


def lanes(table: Table, side: str, seen: list[UnitView]) -> list:
    """The ground the enemy must still cross to leave by the edge its exit victory names
    (RD-13): every hex of each enemy unit's way out (:func:`~.exits.ways_out`), as (board
    index, hex)."""
    board = table.board
    cells = sorted({i for w in ways_out(table, side, seen) for i in w.cells})
    return [(i, board.hex_at(i)) for i in cells]


def near_range(table: Table, side: str, me: UnitRecord, immune: bool) -> int:
    """The range a unit closes with the enemy to: the scenario defender's vehicles, which win
    when time runs out (HX-11), to shooting range (``[objective] standoff``); the side that must
    act to ``close_to``, but a vehicle whose loss alone would meet at least ``stake_share`` of
    the enemy's elimination victory (RD-13, :func:`~.targets.loss_share`) only to
    ``stake_close_to``: an enemy tank that drives up fires first in its Advancing Fire Phase
    (RD-12), so it lets that one come through its side's Defensive First Fire (C6.17; issue 41,
    the duel's T-34s). Infantry, which AT fire cannot harm (002), closes in. A vehicle of a side
    with only the named units' removal left to win by (:func:`~.reach.strike_left`) closes to
    point blank: it must see them to shoot, and a "?" in the woods is seen from next to it."""
    t = tuning().objective
    if immune:
        return t.close_to
    if wins_on_time(table, side):
        return t.standoff
    if me.get("is_vehicle") and strike_left(table, side):
        return 1  # only the named units' removal can win: it must see them to shoot (RD-13)
    if me.get("is_vehicle") and loss_share(table, side, me) >= t.stake_share:
        return t.stake_close_to
    return t.close_to


def aims(table: Table, side: str, unit_id: str) -> Aims:
    """What the objective of ``unit_id`` reads (:class:`Aims`)."""
    t = tuning().objective
    late = table.turn / max(1, table.turns)
    seen = table.units()
    mine = [u for u in seen if u["side"] == side]
    me: UnitRecord = next((u for u in mine if u["id"] == unit_id), {})
    # an enemy Infantry unit seen in a hex keeps it: AT fire cannot harm it (002) and no unit
    # enters an enemy's hex, so a hold of that hex is lost (RD-13)
    kept = {u["hex"] for u in seen if u["side"] != side and u.get("category") == "infantry"}
    immune = me.get("category") == "infantry"
    conditions = [v for v in table.victory if v.side == side]
    return Aims(
        holds=_holds(table, side, mine, unit_id, kept, immune),
        # an exit victory that can no longer be met draws no one to its edge (RD-13)
        edges=[v.edge for v in conditions if v.edge and v.counts(me) and exit_open(table, side, v)],
        enemies=_enemies(table, side, seen),
        block=_block(table, side, mine, unit_id, kept) if immune else set(),
        immune=immune,
        # the scenario defender wins when time runs out (HX-11) unless the enemy holds its
        # hold's hexes (RD-13): till then its vehicles close only to shooting range and let
        # the enemy come the rest of the way (its Infantry, which AT fire cannot harm, 002,
        # closes with it all the same)
        near=near_range(table, side, me, immune),
        # a hold counts when the last turn ends (RD-13): before it, near is enough
        stand=t.stand_last if table.turn >= table.turns else t.stand,
        urgency=t.urgency + t.urgency_late * late * late,
        # a vehicle watches the ground the enemy must cross to its exit edge (RD-13, RD-9; a
        # Gun's set-up weighs its sight of the way in already, and must keep to cover, RD-11)
        watch=_watch(table, side, unit_id, seen) if me.get("is_vehicle") else None,
        arc=bool(me.get("has_gun")) and not me.get("turreted"),
    )


def _watch(table: Table, side: str, unit_id: str, seen: list[UnitView]) -> Watch | None:
    """The enemy's ways out (:func:`~.exits.ways_out`), each hex weighted by how much of them
    this side's other armed units leave unwatched; None with no such way."""
    ways = ways_out(table, side, seen)
    if not ways:
        return None
    return unwatched(ways, watchers(table, side, unit_id, seen), table.board.size)


def _hold_terms(score: float, a: Aims, here) -> float:
    t = tuning().objective
    for hexes, depth in a.holds:
        if hexes:
            d = min(here.distance(h) for h in hexes)
            if a.immune:  # Infantry keeps a hex it takes (002): take it now
                score += t.take_and_keep if d == 0 else -t.infantry_away * d
            else:
                score += (
                    (a.stand + t.depth * depth.get(here, 0)) * a.urgency
                    if d == 0
                    else (-t.hold_away * a.urgency * d)
                )
    return score


def _other_terms(score: float, a: Aims, board, here) -> float:
    t = tuning().objective
    for edge in a.edges:  # Infantry is slow and AT fire cannot stop it (002): go now
        urge = t.infantry_edge if a.immune else a.urgency
        score -= t.edge_away * urge * to_edge(board, here, edge)
    if a.enemies:  # close with the enemy it must knock out
        d = min(here.distance(e) for e in a.enemies)
        score -= t.closing * max(0, d - a.near)
    if a.block:  # the sooner the better: once there, it stays (002, RD-13)
        d = min(here.distance(board.parse(h)) for h in a.block)
        score += t.take_and_keep if d == 0 else -t.infantry_away * d
    return score


def watched(table: Table, a: Aims, hx: str, facing: int | None = None) -> float:
    """The share of the enemy's ways to its exit edge (:mod:`.exits`) that ``hx`` sees (RD-9)
    within ``[objective] watch_range`` hexes and this side's other armed units leave
    unwatched; for a vehicle with no turret, inside its Covered Arc facing ``facing`` (None:
    the best of the six, HX-2); 0 with no such way."""
    if a.watch is None:
        return 0.0
    weight, total = a.watch
    if not total:
        return 0.0
    board = table.board
    here = board.parse(hx)
    clear = np.asarray(table.viewshed(hx)[0], dtype=bool)
    cells = clear & (board.distances(board.index(here)) <= tuning().objective.watch_range)
    if not a.arc:
        return float(weight[cells].sum()) / total
    ahead = np.flatnonzero(cells & (weight > 0))
    values = arc_values(board, here, ahead, weight)
    return (max(values) if facing is None else values[facing]) / total


def objective_of(table: Table, side: str, unit_id: str) -> Objective:
    """The objective of ``unit_id`` as a function of a hex, its inputs read once: on a hex the
    side must hold that no other unit of its holds yet, or near one (more as the turns run out:
    a hold counts at the end), the deepest first so that the others can follow in behind; near
    the edge it must leave by; near the enemy it must knock out (not closer than point blank);
    for Infantry (AT fire does not harm it, 002), on a hex the enemy must hold (it cannot
    hold it while this side stands there, RD-13); and for a vehicle, where it watches the
    ground the enemy must cross to leave by its exit edge (:func:`watched`)."""
    a = aims(table, side, unit_id)
    board = table.board
    memo: dict[str, float] = {}

    def objective(hx: str) -> float:
        hit = memo.get(hx)
        if hit is None:
            here = board.parse(hx)
            hit = _other_terms(_hold_terms(0.0, a, here), a, board, here)
            hit = memo[hx] = hit + tuning().objective.watch_exit * watched(table, a, hx)
        return hit

    return objective


class Objectives:
    """A player's objective of the unit it last asked about, kept while it asks about the same
    unit on the same table (a table is of one moment of one game)."""

    def __init__(self, side: str):
        self.side = side
        self._key: tuple | None = None
        self._fn: Objective | None = None

    def of(self, table: Table, unit_id: str) -> Objective:
        key = (table, unit_id)
        if self._key == key and self._fn is not None:
            return self._fn
        self._key, self._fn = key, objective_of(table, self.side, unit_id)
        return self._fn
