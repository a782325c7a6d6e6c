"""The fire candidate (Prep, Defensive and Advancing Fire): the best legal shot worth its cost,
scored by its value (:func:`game.ai.valuation.targets.shots`: P(knock out) x the target's
worth). A Prep Fire shot keeps the firer from moving (RD-12); a concealed vehicle's shot
reveals it (RD-11); a shot that costs an exit its move must be worth more (:func:`exit_stake`).
Each firer is weighed by its own cost, so an equal shot from a firer already seen goes first.
``[fire]`` in the tuning table."""

from __future__ import annotations

from game.engine.table import Table

from ..decision import Decision, Option, shot_words
from ..situation import Situation
from ..tuning import tuning
from ..valuation.danger import hides
from ..valuation.exits import hidden_shot
from ..valuation.reach import HEXES_PER_MP, exit_open, in_time, phases_left
from ..valuation.targets import Shot, shots

HOLDS = "holds its fire: it moves to exit (RD-12, RD-13)"


def exit_stake(table: Table, side: str, unit_id: str) -> float:
    """What a Prep Fire shot must be worth when it costs the firer the Movement Phase (RD-12) a
    victory by exit needs (RD-13): a unit that could leave by that edge this phase, or could no
    longer get there in time if it waits one, keeps its move unless the shot is worth a named
    unit's even chance (``[fire] exit_shot``), while that victory may still be met
    (:func:`~..valuation.reach.exit_open`); else 0."""
    unit = next((u for u in table.units() if u["id"] == unit_id), None)
    if unit is None or not unit.get("is_vehicle"):
        return 0.0
    board = table.board
    here = board.parse(unit["hex"])
    left = phases_left(table, side, 1)
    reach = float(unit.get("mp_left", 0.0)) * HEXES_PER_MP
    for v in table.victory:
        if v.side != side or not v.edge or not exit_open(table, side, v):
            continue
        now = in_time(board, here, v.edge, reach)
        later = in_time(board, here, v.edge, (left - 1) * reach)
        if now >= 1.0 or later < 1.0 <= in_time(board, here, v.edge, left * reach):
            return tuning().fire.exit_shot
    return 0.0


class FireCandidate:
    """Fire the best shot worth its cost; none: the pass candidate ends the phase, saying why
    when a shot was held for an exit's move."""

    name = "fire"
    score = 100.0
    """Above any shot's value (P(kill) x a worth of at most 24)."""

    def evaluate(self, s: Situation) -> Option | None:
        t = tuning().fire
        table = s.table
        careful = s.level >= 2
        prep = table.phase == "prep_fire"
        least = t.prep_least if prep and careful else t.least
        held = False
        stakes: dict[str, float] = {}
        for shot in shots(table, s.side, s.legal):
            if shot.value < least:
                break
            need = least
            if careful and hides(table, shot.action.unit, shot.action.target):
                need = max(need, hidden_shot(table, s.side, shot.action.target))
            if careful and prep:
                # a vehicle that leaves the map leaves the target's threat behind too
                stake = self._stake(s, stakes, shot)
                if stake > 0.0:
                    held = held or (shot.value >= need and stake > shot.value - shot.danger)
                    need = max(need, stake + shot.danger)
            if shot.value >= need:
                return Option(shot.value, Decision(shot.action, shot_words(shot.odds)))
        if held:
            s.held = HOLDS
        return None

    @staticmethod
    def _stake(s: Situation, stakes: dict[str, float], shot: Shot) -> float:
        """The firer's exit stake (:func:`exit_stake`), reckoned once a firer."""
        unit = shot.action.unit
        if unit not in stakes:
            stakes[unit] = exit_stake(s.table, s.side, unit)
        return stakes[unit]
