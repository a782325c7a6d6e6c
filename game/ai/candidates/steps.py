"""The steps a move candidate takes for one unit: an Infantry unit's next hex, a vehicle's
pivot towards the enemy where it stays, whether a step would go back over its own move, and
how a vehicle's move ends (stopped, or in Motion where the threat is high: Case J)."""

from __future__ import annotations

from game.engine.actions import Action, EndMove, Move, Turn
from game.engine.table import Table
from game.engine.view import UnitView

from ..decision import Decision
from ..situation import Situation
from ..tuning import tuning
from ..valuation.danger import afv_share, removal_risk, soft, unknown_risk
from ..valuation.exits import in_enemy_sight
from ..valuation.hexes import ahead_risk, looks_ahead
from ..valuation.objective import aims, watched
from ..valuation.reach import wins_on_time


def infantry_step(s: Situation, unit: UnitView) -> Decision | None:
    """An Infantry unit's move: the adjacent hex that serves the objective best, if it is
    better than where it stands by ``[move] infantry_step``."""
    objective = s.objectives.of(s.table, unit["id"])
    here = objective(unit["hex"])
    moves = [a for a in s.legal if isinstance(a, Move) and a.unit == unit["id"]]
    scored = [(objective(a.to), a.to, a) for a in moves if a.to != "off"]
    scored.sort(key=lambda t: (-t[0], t[1]))
    if scored and scored[0][0] > here + tuning().move.infantry_step:
        return Decision(scored[0][2], f"moves to {scored[0][1]}")
    return None


def pivots(facing: int, to: int) -> int:
    """Hexsides from ``facing`` round to ``to``, the shorter way."""
    return min((to - facing) % 6, (facing - to) % 6)


def face(s: Situation, unit: UnitView) -> Decision | None:
    """For a vehicle that stays in its hex: the pivot (one hexside) towards the facing in
    which the enemies its side knows would be least likely to knock it out there (the threat
    map's exact odds, RD-18: a shot at its front meets its thickest armor, RD-8), if that is at
    least ``[move] face_gain`` less likely than as it stands; else None. A concealed vehicle
    does not (a pivot in sight would reveal it, RD-11)."""
    gain = tuning().move.face_gain
    table, uid = s.table, unit["id"]
    turns = {a.facing: a for a in s.legal if isinstance(a, Turn) and a.unit == uid}
    if not turns:
        return None
    if unit.get("concealed"):
        return face_the_way(s, unit, turns)
    here = unit["hex"]
    later = s.maps.ahead(table, uid, frozenset([here])).get(here) if looks_ahead(s) else None
    if removal_risk(table.threat_here(uid)) + ahead_risk(later) < gain and not later:
        return None  # no facing could gain that
    facing = int(unit.get("facing", 0))
    risks = {
        f: 1.0 - (1.0 - removal_risk(t)) * (1.0 - ahead_risk(later, f))
        for f, t in table.threat_facings(uid).items()
    }
    best = min(risks, key=lambda f: (round(risks[f], 6), pivots(facing, f), f))
    if risks[best] > risks[facing] - gain:
        return None
    step = (facing + (1 if (best - facing) % 6 <= 3 else -1)) % 6
    if step not in turns:
        return None
    why = f"turns its front to the enemy ({100 * risks[facing]:.0f}% -> {100 * risks[best]:.0f}%)"
    return Decision(turns[step], why)


def face_the_way(s: Situation, unit: UnitView, turns: dict[int, Turn]) -> Decision | None:
    """For a concealed vehicle with no turret that stays in its hex out of every enemy's
    sight (a pivot there keeps its concealment, RD-11): the pivot (one hexside) towards the
    facing whose Covered Arc (HX-2) holds the most of the enemy's ways to its exit edge that
    its side leaves unwatched (:func:`~game.ai.valuation.objective.watched`), if that is at
    least ``[move] face_gain`` more of them than as it faces; else None (issue 41: the
    hedgerow's StuG drove to the west edge facing north-west while the Americans left by the
    south-west corner behind its arc)."""
    table = s.table
    if unit.get("turreted") or not unit.get("has_gun"):
        return None
    board = table.board
    here = unit["hex"]
    if in_enemy_sight(table, s.side)[board.index(board.parse(here))]:
        return None
    a = aims(table, s.side, unit["id"])
    if a.watch is None:
        return None
    facing = int(unit.get("facing", 0))
    value = {f: watched(table, a, here, f) for f in range(6)}
    best = max(value, key=lambda f: (round(value[f], 6), -pivots(facing, f), -f))
    if value[best] < value[facing] + tuning().move.face_gain:
        return None
    step = (facing + (1 if (best - facing) % 6 <= 3 else -1)) % 6
    if step not in turns:
        return None
    why = f"turns its Covered Arc to the enemy's way out ({100 * value[best]:.0f}% of it)"
    return Decision(turns[step], why)


def goes_back(table: Table, unit: UnitView, step: Action) -> bool:
    """Whether ``step`` would bring the moving vehicle back to a hex and facing it has already
    stood in during this move: the route, weighed again after each step, would then go round
    in circles, spending MP in the enemy's sight for nothing (C6.17). Read from the game's log
    of the move as its side reads it (``Event.seen_by``, the door :meth:`Knowledge.events`
    reads through: a unit moves once a phase, so the walk back stops at the phase's start),
    so a game resumed in the middle of a move decides the same."""
    board = table.board
    here, facing = board.parse(unit["hex"]), int(unit.get("facing", 0))
    if isinstance(step, Turn):
        after = (here, step.facing)
    elif isinstance(step, Move) and step.to != "off":
        after = (board.parse(step.to), facing)
    else:
        return False
    been = {(here, facing)}
    for e in reversed(table.events()):
        if e.kind == "phase":
            break
        if e.kind not in ("move", "turn") or e.data.get("unit") != unit["id"]:
            continue
        if e.kind == "turn":
            facing = int(e.data["from"])
        else:
            here = board.parse(e.data["from"])
        been.add((here, facing))
    return after in been


def may_come(table: Table, side: str, hx: str) -> bool:
    """Whether an enemy armed vehicle may drive into sight of ``hx`` in its next Movement
    Phase and fire at a vehicle there in its Advancing Fire Phase (RD-12): a known one, or a
    "?" that must be an AFV (:func:`~game.ai.valuation.danger.afv_share`), within ``[move]
    motion_reach`` hexes (issue 41: the duel's T-34s stopped out of the hidden Panzer's sight,
    and it drove out and shot one standing, no Case J, C6.1)."""
    board = table.board
    here = board.parse(hx)
    reach = tuning().move.motion_reach
    maybe = afv_share(table, side) > 0
    return any(
        board.parse(u["hex"]).distance(here) <= reach
        for u in table.units()
        if u["side"] != side
        and ((u.get("is_vehicle") and u.get("has_gun")) or (maybe and u.get("type") == "?"))
    )


def end_move(s: Situation, uid: str) -> Decision:
    """The end of a vehicle's move where it stands: in Motion (Case J makes it harder to hit)
    where the threat of being knocked out as it stands is above ``[move] motion``, else
    stopped; in Motion, it stops only in a new hex (HX-16). At level 2 the side that must act
    (it drives on next turn) counts the "?" prior too, above ``[move] attacker_motion``: in
    Motion the enemy's Prep and Advancing Fire at it take Case J (C6.1, RD-10: it stays in
    Motion through the enemy's player turn) and its next move spends no start MP in its hex,
    where a shot at a stopped vehicle has none."""
    table = s.table
    t = tuning().move
    danger, bar = table.threat_here(uid).p_kill, t.motion
    if s.level >= 2 and not wins_on_time(table, s.side):
        unit = next(u for u in table.units() if u["id"] == uid)
        prior = unknown_risk(table, s.side, scale=soft(unit))(unit["hex"])
        danger = 1.0 - (1.0 - danger) * (1.0 - prior)
        bar = t.attacker_motion
        if may_come(table, s.side, unit["hex"]):
            danger = 1.0
    if EndMove(uid, False) not in s.legal:  # in Motion: it stops only in a new hex (HX-16)
        danger = 1.0
    motion = danger > bar
    return Decision(EndMove(uid, motion), "ends its move in Motion (Case J)" if motion else "stops")
