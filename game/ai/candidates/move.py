"""The Movement Phase's candidates, from the highest: leave the map by the edge an exit
victory names (RD-13); stand fast when the phase's plan keeps the vehicles where they stand
(level 3's ``stand``); carry on with the move under way; begin the next unit's move. Each
vehicle drives towards the hex that scores best (:mod:`game.ai.valuation.hexes`: the
objective, the risk of being knocked out there and on the way, the shots it would give), a
step at a time, weighed again after each step; Infantry walks a hex at a time towards its
objective (:mod:`.steps`). The pass candidate ends the phase."""

from __future__ import annotations

from game.engine.actions import EndMove, EndPhase, Move, Turn
from game.engine.play.paths import Route
from game.engine.view import UnitView

from ..decision import Decision, Option
from ..situation import Situation
from ..valuation.hexes import best_hex
from ..valuation.reach import exit_open
from .steps import end_move, face, goes_back, infantry_step


class LeaveCandidate:
    """An exit victory (RD-13): a unit on the edge it names leaves by it (never by another
    edge, where it would not count); a vehicle there facing along the edge turns towards it
    first (it leaves through its front hexside)."""

    name = "leave"
    score = 500.0

    def evaluate(self, s: Situation) -> Option | None:
        table = s.table
        # an exit victory that can no longer be met scores no unit that leaves (RD-13)
        exits = [v for v in table.victory if v.side == s.side and exit_open(table, s.side, v)]
        if not exits:
            return None
        mine = s.mine()

        def wanted(unit_id: str) -> set[str | None]:
            unit = mine.get(unit_id)
            return {v.edge for v in exits if unit is not None and v.counts(unit)}

        for a in s.legal:
            if isinstance(a, Move) and a.to == "off" and table.exit_edge(a.unit) in wanted(a.unit):
                return Option(self.score, Decision(a, "leaves the map (an exit victory, RD-13)"))
        for a in s.legal:
            if not (isinstance(a, Turn) and mine.get(a.unit, {}).get("is_vehicle")):
                continue
            if self._turns_to_leave(s, mine[a.unit], a, wanted(a.unit)):
                why = "turns to leave the map (an exit victory, RD-13)"
                return Option(self.score, Decision(a, why))
        return None

    @staticmethod
    def _turns_to_leave(s: Situation, unit: UnitView, a: Turn, wanted: set) -> bool:
        """Whether the pivot ``a`` is the first hexside of the shorter way round to face off
        the map by an edge in ``wanted`` (False: not on that edge, or facing off it)."""
        facing = int(unit.get("facing", 0))
        ahead = [f for f in range(6) if s.table.exit_edge(a.unit, f) in wanted]
        if not ahead or facing in ahead:
            return False
        best = min(ahead, key=lambda f: (min((f - facing) % 6, (facing - f) % 6), f))
        step = 1 if (best - facing) % 6 <= 3 else -1
        return a.facing == (facing + step) % 6


class StandCandidate:
    """The plan keeps the vehicles where they stand (level 3's ``stand``): Infantry still
    walks, a move under way ends (in Motion it stops only in a new hex, HX-16), and the phase
    ends. Asking for the plan is what runs level 3's search, at the phase's first decision no
    exit took."""

    name = "stand"
    score = 400.0

    def evaluate(self, s: Situation) -> Option | None:
        plan, because = s.plan()
        if plan.moves:
            return None
        table = s.table
        mine = s.mine()
        for uid in table.can_act():
            unit = mine.get(uid)
            if unit is not None and not unit.get("is_vehicle"):
                step = infantry_step(s, unit)
                if step is not None:
                    return Option(self.score, step)
        moving = table.moving_unit
        if moving is not None and moving in mine:
            stop = EndMove(moving, False)  # in Motion, it stops only in a new hex (HX-16)
            if stop not in s.legal:
                return Option(
                    self.score, Decision(EndMove(moving, True), "stays in Motion", because)
                )
            return Option(self.score, Decision(stop, "stops", because))
        return Option(self.score, Decision(EndPhase(), "stands fast", because))


class DriveOnCandidate:
    """The move under way goes on: Infantry walks on while its MF last (RD-10); a vehicle
    takes the next step towards the best hex (a playout's: the next step of the route it
    chose) unless it would go back over its own move, else pivots its front to the enemy
    (level 2) or ends its move."""

    name = "drive_on"
    score = 300.0

    def evaluate(self, s: Situation) -> Option | None:
        s.drive.begin(s.table)
        moving = s.table.moving_unit
        mine = s.mine()
        if moving is None or moving not in mine:
            return None
        unit = mine[moving]
        if not unit.get("is_vehicle"):  # Infantry walks on while its MF last (RD-10)
            step = infantry_step(s, unit)
            return Option(self.score, step or Decision(EndMove(moving, False), "stops"))
        return Option(self.score, self._vehicle(s, unit))

    @staticmethod
    def _vehicle(s: Situation, unit: UnitView) -> Decision:
        moving = unit["id"]
        ahead = s.drive.routes.get(moving)
        if s.drive.commit and ahead is not None:
            if ahead and ahead[0] in s.legal:
                return Decision(ahead.pop(0), "drives on")
            hx, route = None, None
        else:
            _, hx, route = best_hex(s, unit, s.plan()[0])
        first = route.steps[0] if route is not None and route.steps else None
        if first is not None and first in s.legal and goes_back(s.table, unit, first):
            # the best route begins by undoing the move's last step: the best that does not
            # (issue 41: a Panzer that pivoted towards one hex found another best, whose route
            # began with the pivot back, and stopped where it stood for the phase)
            _, hx, route = best_hex(s, unit, s.plan()[0], lambda r: not _back(s, unit, r))
            first = route.steps[0] if route is not None and route.steps else None
        if first is not None and first in s.legal and not goes_back(s.table, unit, first):
            if s.drive.commit and route is not None:  # a playout begun in its move (C6.17)
                s.drive.routes[moving] = list(route.steps[1:])
            return Decision(first, f"drives towards {hx}")
        if route is None and s.level >= 2:  # it stays: its front to the enemy (RD-8)
            pivot = face(s, unit)
            if pivot is not None:
                return pivot
        return end_move(s, moving)


def _back(s: Situation, unit: UnitView, route: Route) -> bool:
    """Whether ``route`` begins by going back over the move under way (:func:`goes_back`)."""
    return bool(route.steps) and goes_back(s.table, unit, route.steps[0])


class NextUnitCandidate:
    """The next unit that can act begins its move: Infantry one hex nearer its objective; a
    vehicle the first step towards the best hex it can reach (a playout's: the route is kept
    to drive to its end), else, staying, pivots its front to the enemy (level 2)."""

    name = "next_unit"
    score = 200.0

    def evaluate(self, s: Situation) -> Option | None:
        s.drive.begin(s.table)
        mine = s.mine()
        for uid in s.table.can_act():
            if uid not in mine or uid in s.drive.stays:
                continue
            unit = mine[uid]
            decision = self._vehicle(s, unit) if unit.get("is_vehicle") else infantry_step(s, unit)
            if decision is not None:
                return Option(self.score, decision)
        return None

    @staticmethod
    def _vehicle(s: Situation, unit: UnitView) -> Decision | None:
        uid = unit["id"]
        plan, because = s.plan()
        _, hx, route = best_hex(s, unit, plan)
        if route is not None and route.steps and route.steps[0] in s.legal:
            if s.drive.commit:
                s.drive.routes[uid] = list(route.steps[1:])
            return Decision(route.steps[0], f"drives towards {hx}", because)
        if route is None and s.level >= 2:  # it stays: its front to the enemy
            pivot = face(s, unit)
            if pivot is not None:
                return pivot
        if s.drive.commit:
            s.drive.stays.add(uid)
        return None
