"""Issue 41: on the Orel road (road-ambush) the German column lost most of its vehicles to the
first shot of a hidden Gun it had not seen (ai41y's trace: 22-23 of ~45 losses over seeds
100-119), every vehicle crossing the "?"'s ground in the same Movement Phase. A Gun gives
itself away by its first shot (RD-11): once one vehicle of a side with an exit victory (RD-13)
and a Movement Phase to spare has moved and no enemy has fired, the others hold out of the
"?"'s sight (``[move] scout_holds``) for the scout to draw that shot first."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import table_of
from test_ai_issue41_column import column_game

from game.ai.lookahead import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.danger import unknown_risk
from game.ai.valuation.hexes import best_hex, scout_out
from game.engine import Game

VEHICLES = {"ger-pz4-1": ("pz4h", "P4"), "ger-pz4-2": ("pz4h", "J5")}


def column(scout_moved: bool, fired: bool = False, turns: int = 4) -> Game:
    """Two Panzers of the column in its first Movement Phase (of ``turns``); the first (P4)
    has spent MP this phase (``scout_moved``: the scout), and an enemy shot is in the phase's
    log (``fired``)."""
    game = column_game(VEHICLES, exits=2, kills=2, turns=turns)
    if scout_moved:
        game.units["ger-pz4-1"].mp_spent = 3.0
    if fired:
        game.history.append(game.history[-1]._replace(kind="fire", text="a shot"))
    return game


def test_issue41_rd11_the_others_hold_once_the_scout_has_moved_unfired_on():
    """The second Panzer holds (:func:`scout_out`) once the first has moved and no enemy has
    fired this phase; not before the scout moves, not once a shot was fired (a Gun seen),
    and not in the side's last Movement Phase (no phase to spare)."""
    assert tuning().move.scout_holds > 0.0

    def holds(game: Game) -> bool:
        return scout_out(table_of(game, "german"), "german", "ger-pz4-2")

    assert holds(column(True))
    assert not holds(column(False))
    assert not holds(column(True, fired=True))
    assert not holds(column(True, turns=1))


def test_issue41_rd11_the_second_panzer_ends_out_of_the_question_marks_sight():
    """The second Panzer, in J5 on the road, drives into the "?"'s sight (F1, by the woods of
    the ZiS-3's "?" in E2) while no vehicle of its side has moved; once the scout has, it ends
    its move where no "?" sees it (H2)."""
    ends = {}
    for moved in (False, True):
        game = column(moved)
        s = situation(game, "german")
        unit = next(u for u in s.table.units() if u["id"] == "ger-pz4-2")
        _, hx, _ = best_hex(s, unit, STEADY)
        ends[moved] = unknown_risk(s.table, "german")(hx or "J5")
    assert ends[False] > 0.0
    assert ends[True] == 0.0
