"""The Defensive First Fire candidate (C6.17): at a chance to fire at the enemy's mover, fire
now, or let it spend more MP in sight and fire at better odds, scored by the shot's value
(:func:`game.ai.valuation.targets.shots`). Level 2 holds a shot at Limited or Restricted Aim
(Case J2 / J1) at a mover with MP left unless its next step may take it out of the firer's LOS,
and fires a firer already seen before one a shot would give away (RD-11). ``[dff]`` in the
tuning table."""

from __future__ import annotations

from dataclasses import replace

from game.engine.actions import Action, Pass
from game.engine.play.shot import COVERED_ARC_HALF
from game.engine.table import Table
from game.engine.view import UnitView
from game.rules.facing import facing_offset

from ..decision import Decision, Option, shot_words
from ..situation import Situation
from ..tuning import tuning
from ..valuation.danger import hides
from ..valuation.exits import hidden_shot
from ..valuation.targets import Shot, shots

WAITS = "waits: the mover will be easier to hit (C6.17)"
HIDDEN = "stays hidden: the shot would give it away (RD-11)"
POOR = "the odds are too poor"
WEIGHED = "holds: the trial runs of the move favour waiting"


def waits(s: Situation, shot: Shot) -> bool:
    """Whether level 2 holds the best shot for better odds: its kill chance is not high
    (``[dff] sure_kill``), the shot is at Limited or Restricted Aim (Case J2 / J1: C6.12,
    C6.11) and the mover has MP left (``[dff] wait_mp``): every MP it spends in sight lowers
    the DRM towards Case J's +2), unless the mover's next step may take it out of the firer's
    LOS (:func:`may_leave`): then this chance may be the last. A playout's eager enemy never
    waits."""
    t = tuning().dff
    if s.level < 2 or s.eager or (shot.odds.p_kill is not None and shot.odds.p_kill >= t.sure_kill):
        return False
    table = s.table
    mover = next((u for u in table.units() if u["id"] == table.moving_unit), None)
    left = float(mover.get("mp_left", 0)) if mover else 0.0
    report = str(shot.odds.report)
    limited = "C6.12" in report or "C6.11" in report
    if not (limited and left >= t.wait_mp) or mover is None:
        return False
    firer = next((u for u in table.units() if u["id"] == shot.action.unit), None)
    return firer is not None and not may_leave(table, firer["hex"], mover, firer)


def may_leave(table: Table, firer_hex: str, mover: UnitView, firer: UnitView | None = None) -> bool:
    """Whether the mover's next step may take it out of the LOS of ``firer_hex`` (RD-9) with no
    further Defensive First Fire chance: the hex ahead of it, entered through its front hexside
    (HX-3), is off the map or out of that LOS, or, for a ``firer`` that fires only into its
    Covered Arc (a Gun or a vehicle with no turret, HX-2: it may not turn to fire in the
    enemy's Movement Phase), out of that arc (issue 41: a 45 mm Gun whose arc held one hex of
    a lane held its shot there and never fired). Anything else it may do gives another chance
    first (C6.17: a pivot, a stop, a hex entered in sight; the MP left at the end of its move
    are spent where it stops, C6.16). A "?", whose facing is secret (RD-11) and whose pivot is
    not seen, may leave by any hex next to it that a vehicle may enter. Off the map counts only
    by an edge an exit victory of the mover's side names (RD-13): by another, a unit off the
    map scores nothing, so a mover facing it turns first, another chance (issue 41: the
    hedgerow's PaK fired at 17% at a Jeep on the north edge facing off it, which then turned and
    drove through B1, the hex the PaK had Bore Sighted, at 58-72%, C6.42)."""
    board = table.board
    here = board.parse(mover["hex"])
    clear = table.viewshed(firer_hex)[0]
    arc = None
    if firer is not None:
        kind = table.unit_type(firer["id"])
        if kind.gun and not kind.turret:
            arc = (board.parse(firer_hex), int(firer.get("facing", 0)))
    if mover.get("type") == "?":
        ahead = [here.neighbor(f) for f in range(6)]
    else:
        ahead = [here.neighbor(int(mover.get("facing", 0)))]
    exits = {v.edge for v in table.victory if v.side == mover["side"] and v.counts(mover)}
    for h in ahead:
        if not board.contains(h):
            if board.edge_beyond(h) in exits:
                return True
            continue
        if not board.terrain_at(h).enterable_by_vehicle:
            continue
        if not clear[board.index(h)]:
            return True
        if arc is not None and facing_offset(arc[0], arc[1], h) > COVERED_ARC_HALF:
            return True
    return False


class DffCandidate:
    """Fire at the mover now; else the pass candidate lets the chance go, saying why."""

    name = "dff"
    score = 100.0
    """Above any shot's value (P(kill) x a worth of at most 24)."""

    def evaluate(self, s: Situation) -> Option | None:
        table = s.table
        if not table.dff_pending:
            return None
        found = shots(table, s.side, s.legal)
        if not found:
            return None  # the pass candidate: "no shot at the mover"
        usual = self._usual(s, found)
        if s.level < 3 or s.eager or s.weigh is None:
            return usual
        return self._weighed(s, found, usual)

    def _usual(self, s: Situation, found: list[Shot]) -> Option | None:
        """Level 2's choice (and level 1's): the best shot, unless it waits for better odds
        (:func:`waits`) or would give a concealed firer away; None: the chance is let go
        (``s.held`` says why)."""
        if waits(s, found[0]):
            # the best firer will have another chance; another whose chance may be its last
            # (its LOS or arc about to end, :func:`may_leave`) fires now
            found = [x for x in found[1:] if x.action.unit != found[0].action.unit]
            found = [x for x in found if not waits(s, x)]
            if not found:
                s.held = WAITS
                return None
        shot = self._firer(s, found) if s.level >= 2 else found[0]
        if shot is None:
            s.held = HIDDEN
            return None
        if shot.value >= tuning().dff.least:
            return Option(shot.value, Decision(shot.action, shot_words(shot.odds)))
        s.held = POOR
        return None

    def _weighed(self, s: Situation, found: list[Shot], usual: Option | None) -> Option | None:
        """Level 3 (docs/ai.md "Defensive First Fire chances"; docs/ai-experiments.md "Level 3
        against the enemy it has met"): where level 2's choice (``usual``) is not obvious, a shot
        neither near-certain (``[chance] high``) nor negligible (``[chance] low``) or level 2
        holding, the best shot of each of the ``[chance] shots`` best firers and holding (Pass) are
        played out against it on the search's copies (``Situation.weigh``:
        :func:`game.ai.lookahead.weigh_chance`); level 2's choice is kept unless another beats
        it there."""
        t = tuning().chance
        mine = usual.decision.action if usual is not None else Pass()
        fired = next((x for x in found if x.action == mine), None)
        if fired is not None and fired.odds.p_kill is not None and fired.odds.p_kill >= t.high:
            return usual  # near-certain: taken
        best: list[Shot] = []
        for x in found:
            p = x.odds.p_kill
            if len(best) >= t.shots or any(b.action.unit == x.action.unit for b in best):
                continue
            if p is None or p >= t.low:
                best.append(x)
        if not best:
            return usual  # every shot negligible: level 2's choice
        options: list[Action] = [mine, *(x.action for x in best if x.action != mine)]
        if not isinstance(mine, Pass):
            options.append(Pass())
        assert s.weigh is not None
        kept, words = s.weigh(s.table, options)
        if kept == 0:
            return (
                usual if usual is None else Option(usual.score, replace(usual.decision, plan=words))
            )
        action = options[kept]
        if isinstance(action, Pass):
            s.held = WEIGHED
            return None
        shot = next(x for x in found if x.action == action)
        return Option(self.score, Decision(action, shot_words(shot.odds), words))

    @staticmethod
    def _firer(s: Situation, found: list[Shot]) -> Shot | None:
        """Level 2: the best shot from a firer already seen, or worth giving a concealed one
        away for (``[fire] hidden_shot``, less at a mover heading out: :func:`hidden_shot`,
        RD-11); None: every shot would give one away."""
        for x in found:
            least = hidden_shot(s.table, s.side, x.action.target)
            if x.value >= least or not hides(s.table, x.action.unit, x.action.target):
                return x
        return None
