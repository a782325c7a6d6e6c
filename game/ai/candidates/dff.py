"""The Defensive First Fire candidate (C6.17): at a chance to fire at the enemy's mover, fire
now, or let it spend more MP in sight and fire at better odds, scored by the shot's value
(:func:`game.ai.valuation.targets.shots`). Level 2 holds a shot at Limited or Restricted Aim
(Case J2 / J1) at a mover with MP left, and fires a firer already seen before one a shot would
give away (RD-11). ``[dff]`` in the tuning table."""

from __future__ import annotations

from ..decision import Decision, Option, shot_words
from ..situation import Situation
from ..tuning import tuning
from ..valuation.danger import hides
from ..valuation.targets import Shot, shots

WAITS = "waits: the mover will be easier to hit (C6.17)"
HIDDEN = "stays hidden: the shot would give it away (RD-11)"
POOR = "the odds are too poor"


def waits(s: Situation, shot: Shot) -> bool:
    """Whether level 2 holds the best shot for better odds: its kill chance is not high
    (``[dff] sure_kill``), the shot is at Limited or Restricted Aim (Case J2 / J1: C6.12,
    C6.11) and the mover has MP left (``[dff] wait_mp``): every MP it spends in sight lowers
    the DRM towards Case J's +2. A playout's eager enemy never waits."""
    t = tuning().dff
    if s.level < 2 or s.eager or (shot.odds.p_kill is not None and shot.odds.p_kill >= t.sure_kill):
        return False
    table = s.table
    mover = next((u for u in table.units() if u["id"] == table.moving_unit), None)
    left = float(mover.get("mp_left", 0)) if mover else 0.0
    report = str(shot.odds.report)
    limited = "C6.12" in report or "C6.11" in report
    return limited and left >= t.wait_mp


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
        if waits(s, found[0]):
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

    @staticmethod
    def _firer(s: Situation, found: list[Shot]) -> Shot | None:
        """Level 2: the best shot from a firer already seen, or worth giving a concealed one
        away for (``[fire] hidden_shot``, RD-11); None: every shot would give one away."""
        hidden_shot = tuning().fire.hidden_shot
        for x in found:
            if x.value >= hidden_shot or not hides(s.table, x.action.unit, x.action.target):
                return x
        return None
