"""Issue 41: on the Orel road (road-ambush) the German column must drive past the Russian's
concealed Guns. Each hex of a route counted the "?" prior of every "?" that sees it, compounded
hex by hex, as if each hidden Gun fired at every hex of the way; but a Gun fires once in a
phase unless it keeps its Multiple ROF (RD-4; no more in that phase nor in the Defensive Fire
Phase, HX-8), and its shot shows it (RD-11). Level 3 now counts each enemy's best shot on the
way (C6.17), once (:meth:`HexScore.way_safe`); level 2 is as it was."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from test_ai_issue41_exit_open import column

from game.ai.opponent import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.danger import unknown_risk, unknown_shots
from game.ai.valuation.hexes import HexScore, routes_of
from game.engine import Game
from game.files.scenario import load_scenario
from game.files.shipped import find_scenario


def _route_past_the_gun(level: int):
    game = column(2)
    s = situation(game, "german", level=level)
    stug = next(u for u in s.table.units() if u["id"] == "ger-stug-1")
    routes = routes_of(s.table, "ger-stug-1", 2)
    # the longest way whose hexes the "?" in C8 sees at least twice
    seen = unknown_risk(s.table, "german")
    route = max(
        (r for r in routes.values() if sum(seen(h) > 0 for h in r.hexes[:-1]) >= 2),
        key=lambda r: (sum(seen(h) > 0 for h in r.hexes[:-1]), r.hexes),
    )
    within = frozenset([stug["hex"], *route.hexes])
    return s, HexScore(s, stug, STEADY, within), route


def test_issue41_rd4_c617_a_hidden_gun_fires_once_on_the_way():
    """The StuG's way in sight of the "?" in C8 (its only enemy): level 3 counts that "?"'s
    best shot of the way (``[move] dff_on_the_way`` of it), not one in every hex."""
    s, score, route = _route_past_the_gun(3)
    way = tuning().move.dff_on_the_way
    risk = tuning().risk
    shots = unknown_shots(s.table, "german", base=(risk.way_unknown, risk.way_unknown_beyond))
    best = max(c for h in route.hexes[:-1] for _, c in shots(h))
    assert score.way_safe(route) == pytest.approx(1.0 - way * best)
    compounded = 1.0
    for h in route.hexes[:-1]:
        compounded *= 1.0 - way * score.risk_at(h, stay=False)
    assert score.way_safe(route) > compounded


def test_issue41_level_2_still_compounds_the_way(monkeypatch):
    """Level 2 (which level 3's search imagines) weighs the way as before (C6.17, Case J):
    every hex of the way the "?" sees costs its shot again, compounded, and the one-shot
    reading is never asked."""
    _, score, route = _route_past_the_gun(2)

    def refused(self, route):
        raise AssertionError("level 2 read each firer once")

    monkeypatch.setattr(HexScore, "way_safe", refused)
    way = tuning().move.dff_on_the_way
    end = route.hexes[-1]
    compounded = 1.0
    for h in route.hexes[:-1]:
        compounded *= 1.0 - way * score.risk_at(h, stay=False)
    if score.starts and route.steps:
        compounded *= 1.0 - score.risk_at(score.unit["hex"], stay=False)
    assert compounded < 1.0
    standing = 1.0 - score.risk_at(end)
    cost = score.caution * score.worth * standing * (1.0 - compounded)
    assert score(end) - score(end, route) == pytest.approx(cost)


def test_issue41_unknown_risk_is_the_shots_combined():
    """:func:`unknown_risk` is :func:`unknown_shots` combined, each "?" once, and its figures
    are level 2's as they were before (pinned: the Orel road's start, the German's view,
    several "?" seeing some hexes)."""
    game = Game(load_scenario(find_scenario("road-ambush")).setup, 1)
    s = situation(game, "german")
    risk, shots = unknown_risk(s.table, "german"), unknown_shots(s.table, "german")
    before = {"A1": 0.0975, "H4": 0.0785, "I4": 0.0591, "N4": 0.0397, "O4": 0.0199, "J2": 0.03}
    for hx, figure in {**before, "D1": 0.0}.items():
        alive = 1.0
        for _, c in shots(hx):
            alive *= 1.0 - c
        assert risk(hx) == pytest.approx(1.0 - alive)
        assert risk(hx) == pytest.approx(figure)
    assert max(len(shots(hx)) for hx in before) >= 2
