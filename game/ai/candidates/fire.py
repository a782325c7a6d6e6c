"""The fire candidate (Prep, Defensive and Advancing Fire): the best legal shot worth its cost,
scored by its value (:func:`game.ai.valuation.targets.shots`: P(knock out) x the target's
worth). A Prep Fire shot keeps the firer from moving (RD-12); a concealed vehicle's shot
reveals it (RD-11); a shot that costs an exit its move must be worth more (:func:`exit_stake`).
Each firer is weighed by its own cost, so an equal shot from a firer already seen goes first.
``[fire]`` in the tuning table."""

from __future__ import annotations

from dataclasses import replace

from game.engine.actions import Action, EndPhase
from game.engine.table import Table

from ..decision import Decision, Option, shot_words
from ..situation import Situation
from ..tuning import tuning
from ..valuation.danger import hides
from ..valuation.exits import hidden_shot
from ..valuation.reach import HEXES_PER_MP, exit_open, in_time, phases_left
from ..valuation.targets import Shot, shots

HOLDS = "holds its fire: it moves to exit (RD-12, RD-13)"
WEIGHED = "holds its fire: the trial runs of the turn favour holding"


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
        usual = self._usual(s)
        if s.level < 3 or s.eager or s.weigh is None or s.table.dff_pending:
            return usual
        return self._weighed(s, usual)

    def _usual(self, s: Situation) -> Option | None:
        """Level 2's choice (and level 1's): the best shot worth its cost; None: End Phase
        (``s.held`` says why a shot was held)."""
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

    def _weighed(self, s: Situation, usual: Option | None) -> Option | None:
        """Level 3 (docs/ai.md "Level 3's own fire weighed by playouts", issue 41): where level
        2's choice (``usual``) is not obvious (it holds a shot of P(kill) from ``[own_fire]
        low`` up, or its shot's P(kill) is below ``high``, or its firer is concealed, RD-11, or
        could still move, RD-12), level 2's choice, the best other shot and holding (End Phase)
        are played out on the search's copies (``Situation.weigh``:
        :func:`game.ai.lookahead.weigh_chance`); level 2's choice is kept unless another beats
        it there."""
        t = tuning().own_fire
        table = s.table
        found = [
            x
            for x in shots(table, s.side, s.legal)
            if x.odds.p_kill is None or x.odds.p_kill >= t.low
        ]
        mine: Action = usual.decision.action if usual is not None else EndPhase()
        fired = next((x for x in found if x.action == mine), None)
        if usual is not None:
            if fired is None:
                return usual  # a negligible shot: level 2's choice
            p = fired.odds.p_kill
            if p is not None and p >= t.high and not self._costly(table, fired):
                return usual  # near-certain and free: taken
        # the best other shot: another firer's, or another target's (not the same shot with
        # other ammunition)
        aim = (fired.action.unit, fired.action.target) if fired is not None else None
        other = next((x for x in found if (x.action.unit, x.action.target) != aim), None)
        options: list[Action] = [mine]
        if other is not None:
            options.append(other.action)
        if usual is not None:
            options.append(EndPhase())
        if len(options) < 2:
            return usual  # nothing else worth weighing
        assert s.weigh is not None
        kept, words = s.weigh(table, options)
        if kept == 0:
            return (
                usual if usual is None else Option(usual.score, replace(usual.decision, plan=words))
            )
        action = options[kept]
        if isinstance(action, EndPhase):
            return Option(self.score, Decision(action, WEIGHED, words))
        assert other is not None
        return Option(self.score, Decision(action, shot_words(other.odds), words))

    @staticmethod
    def _costly(table: Table, shot: Shot) -> bool:
        """Whether the shot costs its firer more than the shot: it reveals a concealed firer
        (RD-11), or it keeps a vehicle that could still move from moving (Prep Fire, RD-12)."""
        me = next((u for u in table.units() if u["id"] == shot.action.unit), None)
        if me is None:
            return False
        if me.get("concealed"):
            return True
        return (
            table.phase == "prep_fire" and bool(me.get("is_vehicle")) and not me.get("immobilized")
        )

    @staticmethod
    def _stake(s: Situation, stakes: dict[str, float], shot: Shot) -> float:
        """The firer's exit stake (:func:`exit_stake`), reckoned once a firer."""
        unit = shot.action.unit
        if unit not in stakes:
            stakes[unit] = exit_stake(s.table, s.side, unit)
        return stakes[unit]
