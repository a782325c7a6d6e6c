"""Issue 41, eleventh session (docs/ai.md "A flank plan in level 3's portfolio"): level 3's
portfolio holds ``flank-left``, level 2's scorer whose objective first draws each vehicle to the
careful player's flank waypoint (game.ai.sparring.ground waypoint, reused), then the usual
objective; weighed only on the maps searched in full (``[search] max_hexes``)."""

from __future__ import annotations

from importlib import resources

import pytest
from engine_helpers import table_of

from game.ai.lookahead import PLANS, STEADY
from game.ai.opponent import portfolio
from game.ai.sparring.ground import goal_hexes, waypoint
from game.ai.tuning import TuningError, parse, tuning
from game.ai.valuation.objective import Objectives, objective_of
from game.board.hexes import label
from game.engine import Game
from game.engine.actions import EndPhase, action_from_json
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios


def at_movement(name: str, side: str, turn: int = 1, seed: int = 3) -> Game:
    """``name``'s game at ``side``'s Movement Phase of ``turn``, everything before passed."""
    game = Game(load_scenario(next(p for p in shipped_scenarios() if p.stem == name)).setup, seed)
    while not (game.phase == "movement" and game.phasing == side and game.turn == turn):
        if game.dff_pending:
            game.apply(action_from_json({"type": "pass"}))
        else:
            game.apply(EndPhase())
    return game


def test_issue41_flank_left_is_a_plan_of_the_maps_searched_in_full_only():
    flank = next(p for p in PLANS if p.flank)
    assert (flank.name, flank.flank) == ("flank-left", "left")
    assert (flank.objective, flank.caution, flank.aggression, flank.moves) == (1.0, 1.0, 1.0, True)
    assert STEADY.flank == ""
    game = at_movement("hedgerow-chart", "german")
    table = table_of(game, "german")
    assert table.board.size <= tuning().search.max_hexes
    assert flank in portfolio(table, "german")


def test_issue41_a_plans_flank_is_left_right_or_none():
    text = resources.files("game.ai").joinpath("data/tuning.toml").read_text("utf-8")
    parse(text)
    row = (
        '[[plans]]\nname = "x"\nwords = "w"\nobjective = 1.0\ncaution = 1.0\n'
        'aggression = 1.0\nmoves = true\nflank = "up"\n'
    )
    with pytest.raises(TuningError, match="flank"):
        parse(text + row)


def test_issue41_the_flank_objective_draws_a_vehicle_to_the_careful_players_waypoint():
    """Away from the waypoint, a hex a step nearer it scores ``[objective] flank_away`` more
    against the usual objective than one a step farther (the careful flank-left's waypoint)."""
    game = at_movement("hedgerow-chart", "german")
    table = table_of(game, "german")
    board = table.board
    unit = next(u for u in table.units() if u["side"] == "german" and u.get("category") == "afv")
    here = board.parse(unit["hex"])
    goal = min(goal_hexes(table, "german", unit), key=lambda g: (here.distance(g), g))
    point = waypoint(table, "german", goal, -1, here)
    assert point != goal
    base = objective_of(table, "german", unit["id"])
    flanked = Objectives("german").of(table, unit["id"], "left")
    assert Objectives("german").of(table, unit["id"])(unit["hex"]) == base(unit["hex"])
    away = tuning().objective.flank_away
    for hx in (unit["hex"], label(point)):
        d = board.parse(hx).distance(point)
        assert flanked(hx) == pytest.approx(base(hx) - away * d)
    assert flanked(label(point)) - base(label(point)) > flanked(unit["hex"]) - base(unit["hex"])
