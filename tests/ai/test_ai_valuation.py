"""The shared valuation the candidates score by (game/ai/valuation/): what an enemy is worth
(RD-13), the "?" prior (RD-11), the weights of caution and aggression (HX-11), the objective
of a hex (RD-13, 002) and the hexes a vehicle weighs at each level."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai.tuning import tuning
from game.ai.valuation.danger import unknown_chance
from game.ai.valuation.hexes import routes_of, weights
from game.ai.valuation.objective import objective_of
from game.ai.valuation.targets import may_be, worth
from game.engine import Game, UnitSetup, Victory

OPEN = ["o o o o o o o o o o"] * 4


def game_of(units, victory, defender="russian", turns=4) -> Game:
    setup = make_setup(
        units, rows=OPEN, victory=victory, turns=turns, first="german", defender=defender
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    return game


def test_rd13_an_afv_is_worth_2_and_a_victory_condition_multiplies_it():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H2", facing=3),
        UnitSetup("rus-gun-1", "zis3", "russian", "H4", facing=3),
    ]
    table = situation(game_of(units, [Victory("german", "eliminate", count=1)]), "german").table
    assert worth(table, "german", "rus-t34-1") == 2.0 and worth(table, "german", "rus-gun-1") == 1.0
    t = tuning().targets
    named = [Victory("german", "eliminate", units=("rus-gun-1", "rus-t34-1"))]
    table = situation(game_of(units, named), "german").table
    assert worth(table, "german", "rus-gun-1") == 1.0 * t.named
    # the last unit a victory names: its removal wins the game (RD-13, issue 41)
    named = [Victory("german", "eliminate", units=("rus-gun-1",))]
    table = situation(game_of(units, named), "german").table
    assert worth(table, "german", "rus-gun-1") == 1.0 * t.named * t.wins
    hold = [Victory("german", "hold", hexes=("H2",))]
    table = situation(game_of(units, hold), "german").table
    assert worth(table, "german", "rus-t34-1") == 2.0 * tuning().targets.on_our_hold


def test_rd11_a_question_mark_may_be_any_named_unit_not_seen_elsewhere():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-gun-1", "zis3", "russian", "H4", facing=3, concealed=True),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H2", facing=3),
    ]
    table = situation(game_of(units, [Victory("german", "eliminate", count=1)]), "german").table
    alias = next(u["id"] for u in table.units() if u.get("type") == "?")
    assert alias != "rus-gun-1"  # a "?" is known by its alias
    assert may_be(table, alias, ("rus-gun-1",))
    assert not may_be(table, alias, ("rus-t34-1",))  # the T-34 is seen elsewhere
    assert may_be(table, "rus-t34-1", ("rus-t34-1",)) and not may_be(table, alias, ())


@pytest.mark.parametrize(("d", "p"), [(1, 0.05), (6, 0.05), (7, 0.03), (12, 0.03), (13, 0.01)])
def test_rd11_the_question_mark_prior_falls_with_range(d, p):
    assert unknown_chance(d) == p


def test_hx11_the_defender_is_cautious_and_the_attacker_bolder_as_its_turns_run_out():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H2", facing=3),
    ]
    table = situation(game_of(units, [Victory("german", "eliminate", count=1)]), "german").table
    t = tuning().move
    assert weights(table, "german", 1) == (t.caution, 0.0)
    assert weights(table, "russian", 2) == (t.defender_caution, t.defender_aggression)
    late = 1 / 4  # turn 1 of 4
    attacker = weights(table, "german", 2)
    assert attacker == (
        t.attacker_caution + t.early_caution * (1 - late),
        t.attacker_aggression + t.late_aggression * late,
    )


def test_rd13_002_a_hold_hex_is_the_objective_and_infantry_takes_it_at_once():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("ger-sq-1", "ger_psk", "german", "B4"),
        UnitSetup("rus-t34-1", "t34m43", "russian", "J2", facing=3),
    ]
    table = situation(game_of(units, [Victory("german", "hold", hexes=("E3",))]), "german").table
    tank = objective_of(table, "german", "ger-pz-1")
    assert tank("E3") > tank("D3") > tank("C3")
    squad = objective_of(table, "german", "ger-sq-1")
    assert squad("E3") - squad("D3") >= tuning().objective.take_and_keep


def test_level_1_weighs_the_hexes_next_to_a_vehicle_and_level_2_all_it_can_reach():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "J2", facing=3),
    ]
    table = situation(game_of(units, [Victory("german", "eliminate", count=1)]), "german").table
    here = table.board.parse("B2")
    near = routes_of(table, "ger-pz-1", 1)
    assert near and all(table.board.parse(h).distance(here) == 1 for h in near)
    far = routes_of(table, "ger-pz-1", 2)
    assert set(near) < set(far) and max(table.board.parse(h).distance(here) for h in far) > 3
