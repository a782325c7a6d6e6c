"""The fire candidate (game/ai/candidates/fire.py): the best legal shot worth its cost, scored
by its value (P(knock out) x the target's worth, the odds panel's own numbers, RD-16); level 2's
Prep Fire shot must be good (RD-12: the firer may not move after), a shot that costs an exit
its move must be worth more (RD-13), and a concealed vehicle keeps its concealment for a poor
shot at a target that is no danger to it (RD-11)."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai.candidates.fire import HOLDS, FireCandidate, exit_stake
from game.ai.candidates.pass_ import PassCandidate
from game.ai.tuning import tuning
from game.ai.valuation.targets import shots
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase

FIRE = FireCandidate()


def t50_at_a_pz4(phase: str) -> Game:
    """A T-50 (45 mm) ten hexes from a Pz IV's front: a long shot (value about 0.09)."""
    units = [
        UnitSetup("rus-1", "t50", "russian", "B2", facing=0),
        UnitSetup("ger-1", "pz4h", "german", "L2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o " * 15 + "o"] * 4,
        victory=[Victory("russian", "eliminate", count=1)],
        turns=4,
        first="russian",
        defender="german",
    )
    game = Game(setup, 3)
    to_phase(game, phase, "russian")
    return game


def test_the_offer_is_the_best_shot_scored_by_its_value_in_the_odds_words():
    s = situation(t50_at_a_pz4("advancing_fire"), "russian")
    found = shots(s.table, "russian", s.legal)
    option = FIRE.evaluate(s)
    assert option is not None and option.decision.action == found[0].action
    assert option.score == found[0].value and 0.02 < option.score < 0.25
    p_hit = found[0].odds.p_hit
    assert option.decision.why.startswith(f"fires: {100 * p_hit:.0f}% to hit")


@pytest.mark.parametrize(("level", "fires"), [(1, True), (2, False)])
def test_rd12_level_2s_prep_fire_shot_must_be_good_as_the_firer_may_not_move_after(level, fires):
    s = situation(t50_at_a_pz4("prep_fire"), "russian", level=level)
    option = FIRE.evaluate(s)
    assert (option is not None) == fires
    if not fires:  # the pass candidate ends the phase: nothing was held for an exit
        assert s.held == ""
        decision = PassCandidate().evaluate(s).decision
        assert decision.action == EndPhase() and decision.why == "no shot worth taking"
    assert tuning().fire.least < 0.09 < tuning().fire.prep_least


def tank_near_the_west_edge(kind: str) -> Game:
    """A Pz IV three hexes from the west edge in its Prep Fire Phase, a 45 mm Gun in its
    sights (72% to knock it out), the German victory ``kind``."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "D2", facing=3),
        UnitSetup("rus-gun-1", "m1937", "russian", "G2", facing=3),
    ]
    victory = (
        Victory("german", "exit", count=1, edge="west")
        if kind == "exit"
        else Victory("german", "eliminate", count=1)
    )
    setup = make_setup(
        units,
        rows=["o " * 9 + "o"] * 4,
        victory=[victory],
        turns=4,
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, "prep_fire", "german")
    return game


def test_rd13_exit_stake_is_the_exit_shot_for_a_vehicle_that_can_leave_this_turn():
    exits = situation(tank_near_the_west_edge("exit"), "german")
    assert exit_stake(exits.table, "german", "ger-pz-1") == tuning().fire.exit_shot
    kills = situation(tank_near_the_west_edge("eliminate"), "german")
    assert exit_stake(kills.table, "german", "ger-pz-1") == 0.0
    assert exit_stake(exits.table, "german", "no-such-unit") == 0.0


def test_rd12_rd13_a_shot_held_for_an_exit_leaves_its_reason_to_the_pass_candidate():
    s = situation(tank_near_the_west_edge("exit"), "german")
    assert FIRE.evaluate(s) is None and s.held == HOLDS
    decision = PassCandidate().evaluate(s).decision
    assert decision.action == EndPhase() and decision.why == HOLDS
    # the same shot where the victory is by elimination: taken
    option = FIRE.evaluate(situation(tank_near_the_west_edge("eliminate"), "german"))
    assert option is not None and option.decision.action.target == "rus-gun-1"
    # level 1 weighs no stake: it fires whatever its victory
    option = FIRE.evaluate(situation(tank_near_the_west_edge("exit"), "german", level=1))
    assert option is not None and option.decision.action.type == "fire"


def concealed_t34_at_a_pak() -> Game:
    """A concealed T-34 out of a PaK 40's Covered Arc (the Gun is no danger to it), in its
    Defensive Fire Phase, brush between them."""
    units = [
        UnitSetup("rus-1", "t34m43", "russian", "B2", facing=0, concealed=True),
        UnitSetup("ger-1", "pak40", "german", "H2", facing=0),
    ]
    setup = make_setup(
        units,
        rows=["o o br br br o o o o o o o"] * 3,
        victory=[Victory("russian", "eliminate", count=1)],
        turns=4,
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, "defensive_fire", "german")
    return game


@pytest.mark.parametrize(("level", "fires"), [(1, True), (2, False)])
def test_rd11_level_2_keeps_a_concealment_for_a_poor_shot_at_no_danger(level, fires):
    s = situation(concealed_t34_at_a_pak(), "russian", level=level)
    best = shots(s.table, "russian", s.legal)[0]
    assert best.value < tuning().fire.hidden_shot
    assert (FIRE.evaluate(s) is not None) == fires
