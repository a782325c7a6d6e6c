"""Issue 41, tenth session: level 3 reads a route's Defensive First Fire (C6.17) by each enemy's
best shot once (:meth:`HexScore.way_safe`: a Gun fires once in a phase unless it keeps its
Multiple ROF, RD-4, and its shot shows it, RD-11), while its search judged its plans by
playouts whose players (level 2's scorer) compounded a shot in every hex of the way. The
search's playout player of the searching side, and the player of a plan it kept, now read the
way as level 3 does (``[search] playout_way_once``); the enemy in the playouts stays level 2.
And level 3 reads a known enemy's shot as the shots it may give while it keeps its Multiple
ROF (RD-4, ``[risk] rof_again``): on the Orel road a 45 mm Gun (ROF 3) fired 3-6 times at the
StuG that ended its move in its sight."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ai_helpers import situation
from engine_helpers import table_of
from test_ai_issue41_exit_open import column
from test_ai_issue41_firer_once import _route_past_the_gun

import game.ai.opponent as opponent
from game.ai.lookahead import PLANS, STEADY, Budget
from game.ai.opponent import ComputerPlayer
from game.ai.tuning import tuning
from game.ai.valuation.danger import removal_risk, with_rof
from game.ai.valuation.hexes import HexScore, routes_of


def test_issue41_c617_a_playout_player_reads_the_way_as_level_3():
    """A level-2 weighing marked ``way_once`` (the search's playout player of its own side)
    scores a route past the "?" in C8 as level 3 does (each firer's best shot once), not as
    level 2 (a shot in every hex in sight, compounded)."""
    s2, score2, route = _route_past_the_gun(2)
    _, score3, _ = _route_past_the_gun(3)
    end = route.hexes[-1]
    within = frozenset([score2.unit["hex"], *route.hexes])
    once = HexScore(replace(s2, way_once=True), score2.unit, STEADY, within)
    assert once.by_firer and not score2.by_firer
    assert once(end, route) == pytest.approx(score3(end, route))
    assert score2(end, route) < score3(end, route)  # level 2 reads the way as deadlier


def test_issue41_c617_the_search_plays_its_own_side_with_the_one_shot_way(monkeypatch):
    """Level 3's search on the Orel road column: its playout player of the German side reads
    the way once (``way_once``), the Russian's (the enemy it imagines: level 2) does not, and
    a plan kept other than level 2's own is played by a player that reads it once too."""
    assert tuning().search.playout_way_once
    seen: dict = {}

    def caught(table, seed, players, value, plans, budget, **kw):
        seen["me"], seen["them"] = players(plans[1], 0)
        return opponent.SearchResult(plans[1], (), 0, 0, 0)

    monkeypatch.setattr(opponent, "search", caught)
    game = column(2)
    player = ComputerPlayer("german", 3, seed=5)
    table = table_of(game, "german")
    player._search(table, Budget())
    me, them = seen["me"], seen["them"]
    assert me.level == them.level == 2
    assert me.way_once and not them.way_once
    assert me.plan == PLANS[1]
    script = player._scripted(table)
    assert script is not None and script.way_once


def _seen_gun(level: int):
    """The column of :func:`column`, the 45 mm Gun in C8 (ROF 3) seen (not concealed): the
    StuG's weighing at ``level``, and a hex of its reach in that Gun's shot."""
    game = column(2)
    game.units["rus-gun-2"].concealed = False
    s = situation(game, "german", level=level)
    stug = next(u for u in s.table.units() if u["id"] == "ger-stug-1")
    routes = routes_of(s.table, "ger-stug-1", 2)
    within = frozenset([stug["hex"], *routes])
    score = HexScore(s, stug, STEADY, within)
    shot = [h for h in routes if (t := score.threats.get(h)) is not None and t.threats]
    assert shot
    return score, max(shot, key=lambda h: (score.threats[h].p_kill, h)), routes


def test_issue41_rd4_a_gun_that_keeps_its_rof_fires_again():
    """RD-4: a firer whose colored die is <= its ROF keeps its Multiple ROF and may fire again
    at the vehicle. Level 3 reads a known 45 mm Gun (ROF 3: kept half the time) in C8 as the
    shots it may give, p / (1 - q (1 - p)), q = 3/6, where it would stay and on the way; level
    2 reads the threat map's one shot, as before."""
    assert with_rof(0.2, 0.5) == pytest.approx(0.2 / 0.6)
    assert with_rof(0.2, 0.0) == 0.2 and with_rof(1.0, 0.5) == 1.0
    level2, hx, routes = _seen_gun(2)
    level3, _, _ = _seen_gun(3)
    assert level3.again["rus-gun-2"] == pytest.approx(tuning().risk.rof_again * 3 / 6)
    assert not level2.again
    one = removal_risk(level3.threats[hx])
    assert level2.risk_at(hx) == pytest.approx(1.0 - (1.0 - one) * (1.0 - level2.unknown(hx)))
    assert level3.risk_at(hx) == pytest.approx(
        1.0 - (1.0 - with_rof(one, 0.5)) * (1.0 - level3.unknown(hx))
    )
    assert level3.risk_at(hx) > level2.risk_at(hx)
    # on the way: the Gun's best shot of the route, once, with its ROF
    way = max(
        (r for r in routes.values() if any(h in level3.threats for h in r.hexes[:-1])),
        key=lambda r: (len(r.hexes), r.hexes),
    )
    best = max(
        tuning().move.dff_on_the_way * removal_risk(level3.threats[h].threats[0])
        for h in way.hexes[:-1]
        if h in level3.threats and level3.threats[h].threats
    )
    assert level3.way_safe(way) <= 1.0 - with_rof(best, 0.5) + 1e-9
