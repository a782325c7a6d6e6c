"""Issue 41, ninth session: level 3's portfolio had only plans that scale level 2's weights,
and where the side already holds what it must (the duel's Russian in F6, RD-13) none of them
moved a vehicle: every plan's playouts were alike in 71 of 82 searches of the duel's Russian
against level 2 (seeds 100-119). The ``hunt`` plan closes its vehicles with the enemy to
point blank (``close_to``), nearer than the objective's own range (``stake_close_to``: a T-34
whose loss is the game keeps 6 hexes off the hidden Panzer), so the search weighs a drive on
the "?" against waiting; level 2's own plan (``close_to = 0``) is unchanged."""

from __future__ import annotations

from engine_helpers import table_of
from test_ai_issue41_stake import duel

from game.ai.lookahead import PLANS, STEADY
from game.ai.tuning import tuning
from game.ai.valuation.objective import Objectives, aims
from game.board.hexes import label
from game.engine import Victory


def test_issue41_rd13_the_hunt_plan_closes_nearer_than_the_objectives_own_range():
    hunt = next(p for p in PLANS if p.name == "hunt")
    t = tuning().objective
    assert STEADY.close_to == 0
    assert 0 < hunt.close_to < t.stake_close_to
    table = table_of(duel(Victory("german", "eliminate", count=1)), "russian")
    assert aims(table, "russian", "rus-t34-1").near == t.stake_close_to
    assert aims(table, "russian", "rus-t34-1", hunt.close_to).near == hunt.close_to
    # the hunt plan's objective draws a T-34 nearer the "?" than level 2's does
    mine = Objectives("russian", hunt.close_to).of(table, "rus-t34-1")
    own = Objectives("russian").of(table, "rus-t34-1")
    here = next(u for u in table.units() if u["id"] == "rus-t34-1")["hex"]
    panzer = next(u for u in table.units() if u["side"] == "german")["hex"]
    board = table.board
    start, target = board.parse(here), board.parse(panzer)
    near = label(min((h for h in board.hexes if h.distance(target) == 2), key=start.distance))
    assert mine(near) - mine(here) > own(near) - own(here)
