"""An exit victory that counts vehicles or AFVs alone (RD-13, ``only = "vehicle"`` or
``"afv"``): a scenario's choice where Infantry, which nothing in this game can stop (002, RD-12),
or a fast unarmored vehicle would make the exit cheap: the engine's count, the scenario file's
key, a seat's question and the computer's reading of it."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai.candidates.move import LeaveCandidate
from game.ai.sparring.move import leave
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Move
from game.files.scenario import parse_scenario
from game.files.scenario_read import ScenarioError
from game.server.answers import answer

FLAT = ["o o o o o o", "o o o o o o", "o o o o o o"]
BY_VEHICLE = Victory("russian", "exit", count=1, edge="east", only="vehicle")


def _game(victory: Victory) -> Game:
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-sq-1", "rus_atr", "russian", "F1", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=0),
    ]
    game = Game(make_setup(units, rows=FLAT, victory=[victory]), 1)
    to_phase(game, "movement", "russian")
    return game


def test_rd13_an_exit_of_vehicles_alone_does_not_count_infantry_leaving():
    game = _game(BY_VEHICLE)
    events = game.apply(Move("rus-sq-1", "off"))
    assert game.units["rus-sq-1"].status == "exited"
    left = next(e for e in events if e.kind == "exit")
    assert left.text.endswith(": only vehicles count for the exit victory (HX-20)")
    assert left.rules == ("RD-13", "HX-20")
    assert not game.over  # the squad left, but it is no vehicle
    assert table_of(game, "russian").exited("east") == 1
    assert table_of(game, "russian").exited("east", "vehicle") == 0
    game.apply(Move("rus-tank-1", "off"))
    assert game.over and game.winner == "russian"
    assert table_of(game, "russian").exited("east", "vehicle") == 1


def test_rd13_an_exit_of_any_unit_counts_infantry_leaving():
    game = _game(Victory("russian", "exit", count=1, edge="east"))
    game.apply(Move("rus-sq-1", "off"))
    assert game.over and game.winner == "russian"


def test_rd13_a_vehicle_off_another_edge_does_not_count_for_a_vehicles_exit():
    game = _game(Victory("russian", "exit", count=1, edge="west", only="vehicle"))
    game.apply(Move("rus-tank-1", "off"))  # F2 facing lower right: off the east edge
    assert not game.over
    assert table_of(game, "russian").exited("west", only="vehicle") == 0


def test_rd13_the_condition_says_it_counts_vehicles():
    assert BY_VEHICLE.describe() == "russian: exit 1 vehicle off the east edge"
    assert (
        Victory("russian", "exit", 2, edge="east").describe().endswith("2 units off the east edge")
    )


def test_rd13_an_exit_of_afvs_alone_does_not_count_an_unarmored_vehicle():
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A2", facing=0),
        UnitSetup("rus-truck-1", "gaz_aa", "russian", "F1", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "F2", facing=0),
    ]
    victory = Victory("russian", "exit", count=1, edge="east", only="afv")
    game = Game(make_setup(units, rows=FLAT, victory=[victory]), 1)
    to_phase(game, "movement", "russian")
    game.apply(Move("rus-truck-1", "off"))
    assert not game.over
    assert table_of(game, "russian").exited("east", "vehicle") == 1
    assert table_of(game, "russian").exited("east", "afv") == 0
    game.apply(Move("rus-tank-1", "off"))
    assert game.over and game.winner == "russian"


def test_rd13_a_seat_asks_how_many_of_its_vehicles_left():
    game = _game(BY_VEHICLE)
    game.apply(Move("rus-sq-1", "off"))
    table = table_of(game, "russian")
    assert answer(table, "exited", ["east"]) == 1
    assert answer(table, "exited", ["east", "vehicle"]) == 0


def test_rd13_the_computer_leaves_only_with_a_unit_that_counts():
    game = _game(BY_VEHICLE)
    option = LeaveCandidate().evaluate(situation(game, "russian"))
    assert option is not None and option.decision.action == Move("rus-tank-1", "off")
    game.apply(Move("rus-tank-1", "off"))  # the win: a new game with the squad alone
    game = _game(Victory("russian", "exit", count=2, edge="east", only="vehicle"))
    game.units["rus-tank-1"].status = "eliminated"
    assert LeaveCandidate().evaluate(situation(game, "russian")) is None
    table = table_of(game, "russian")
    assert leave(table, "russian", table.actions()) is None


SCENARIO = """
id = "x"
title = "x"
briefing = "x"
date = "1943-07"
turns = 2
[map]
columns = 3
rows = 2
hexes = ["o o o", "o o o"]
[sides.german]
nationality = "german"
defender = true
[sides.russian]
nationality = "russian"
moves_first = true
[[units]]
id = "g"
type = "pak40"
side = "german"
hex = "A1"
[[units]]
id = "r"
type = "t34m43"
side = "russian"
hex = "C2"
[[victory]]
side = "russian"
kind = "{kind}"
count = 1
edge = "east"
only = "{only}"
"""


def test_rd13_a_scenario_names_an_exit_of_vehicles():
    setup = parse_scenario(SCENARIO.format(kind="exit", only="afv"), "x.toml").setup
    assert setup.victory[0].only == "afv" and setup.victory[0].edge == "east"
    assert setup.victory[0].describe() == "russian: exit 1 AFV off the east edge"


def test_rd13_an_exit_condition_counts_vehicles_or_afvs_and_nothing_else():
    with pytest.raises(ScenarioError, match=r"victory\[0\]\.only"):
        parse_scenario(SCENARIO.format(kind="exit", only="tanks"), "x.toml")


def test_rd13_only_an_exit_condition_may_count_vehicles_alone():
    with pytest.raises(ScenarioError, match=r"victory\[0\]\.only"):
        parse_scenario(SCENARIO.format(kind="eliminate", only="afv"), "x.toml")


def test_rd10_a_vehicle_facing_off_the_map_is_told_so_in_words():
    """Its front hexside leads off the map: the refusal names the edge, not the engine's
    coordinates of a hex beyond it (an ASL player's trial read "faces off-map(-1,9)")."""
    game = _game(BY_VEHICLE)
    why = game.check(Move("rus-tank-1", "E2"))
    assert why is not None and "faces off the map (east edge); turn first (RD-10)" in why
    assert "off-map(" not in why


def test_rd13_each_side_sees_how_far_a_side_has_come_towards_its_exit():
    """The view's victory lines say how many have left (both sides see an exit, RD-13), once
    any has: what counts alone (HX-20)."""
    game = _game(Victory("russian", "exit", count=2, edge="east", only="vehicle"))
    line = "russian: exit 2 vehicles off the east edge"
    assert table_of(game, "german").view.victory == (line,)
    game.apply(Move("rus-sq-1", "off"))  # Infantry: it does not count
    assert table_of(game, "german").view.victory == (line,)
    game.apply(Move("rus-tank-1", "off"))
    for side in ("german", "russian"):
        assert table_of(game, side).view.victory == (f"{line} (1 so far)",)
