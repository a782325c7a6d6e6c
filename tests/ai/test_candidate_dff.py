"""The Defensive First Fire candidate (game/ai/candidates/dff.py, C6.17): at a chance to fire at
the enemy's mover it fires the best shot worth taking, scored by its value; level 2 holds a
Case J2 / J1 shot at a mover with MP left (its odds will improve), a playout's eager enemy never
does, and a concealed vehicle keeps its concealment for a poor shot at no danger (RD-11); the
pass candidate lets the chance go with the reason."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai.candidates.dff import HIDDEN, POOR, WAITS, DffCandidate, waits
from game.ai.candidates.pass_ import PassCandidate
from game.ai.tuning import tuning
from game.ai.valuation.targets import shots
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Move, Pass

DFF = DffCandidate()


def moved(units, rows, to: str, mover: str, side: str, first: str) -> Game:
    """``mover`` (of ``first``, the side moving) steps to ``to``: the other side's Defensive
    First Fire chance."""
    setup = make_setup(
        units,
        rows=rows,
        victory=[Victory(side, "eliminate", count=1)],
        turns=4,
        first=first,
        defender=side,
    )
    game = Game(setup, 3)
    to_phase(game, "movement", first)
    game.apply(Move(mover, to))
    assert game.dff_pending and game.to_act == side
    return game


def t34_comes_round_the_woods() -> Game:
    """A T-34 steps out from behind woods into a PaK 40's sight, 16 MP left: a Case J2 shot
    (C6.12), 36% to knock it out."""
    units = [
        UnitSetup("ger-gun-1", "pak40", "german", "A3", facing=0),
        UnitSetup("rus-tank-1", "t34m43", "russian", "H3", facing=5),
    ]
    rows = ["o o o o w w o o o"] * 3 + ["o o o o o o o o o"] * 2
    return moved(units, rows, "H4", "rus-tank-1", "german", "russian")


@pytest.mark.parametrize(
    ("level", "eager", "fires"), [(1, False, True), (2, False, False), (2, True, True)]
)
def test_c6_17_level_2_holds_a_case_j2_shot_at_a_mover_with_mp_left(level, eager, fires):
    s = situation(t34_comes_round_the_woods(), "german", level=level, eager=eager)
    best = shots(s.table, "german", s.legal)[0]
    assert "C6.12" in str(best.odds.report) and best.odds.p_kill < tuning().dff.sure_kill
    assert waits(s, best) == (not fires)
    option = DFF.evaluate(s)
    if fires:
        assert option is not None and option.decision.action == best.action
        assert option.score == best.value
    else:
        assert option is None and s.held == WAITS
        assert PassCandidate().evaluate(s).decision.action == Pass()
        assert PassCandidate().evaluate(s).decision.why == WAITS


def concealed_t34_and_a_jeep(start: str, to: str) -> Game:
    """A concealed T-34 in A2; a jeep (no danger to it) drives in its sight."""
    units = [
        UnitSetup("rus-1", "t34m43", "russian", "A2", facing=0, concealed=True),
        UnitSetup("ger-1", "jeep", "german", start, facing=3),
    ]
    return moved(units, ["o " * 11 + "o"] * 3, to, "ger-1", "russian", "german")


@pytest.mark.parametrize(("level", "fires"), [(1, True), (2, False)])
def test_rd11_a_concealed_tank_lets_a_poor_shot_at_no_danger_go(level, fires):
    s = situation(concealed_t34_and_a_jeep("L2", "K2"), "russian", level=level)
    best = shots(s.table, "russian", s.legal)[0]
    assert tuning().dff.least < best.value < tuning().fire.hidden_shot
    option = DFF.evaluate(s)
    assert (option is not None) == fires
    if not fires:
        assert s.held == HIDDEN


def test_rd11_a_good_shot_is_worth_the_concealment():
    s = situation(concealed_t34_and_a_jeep("H2", "G2"), "russian")
    option = DFF.evaluate(s)
    assert option is not None and option.score >= tuning().fire.hidden_shot


def test_a_shot_under_the_least_worth_taking_is_let_go_as_too_poor():
    units = [
        UnitSetup("rus-1", "t50", "russian", "A2", facing=0),
        UnitSetup("ger-1", "pz5g", "german", "L2", facing=3),
    ]
    game = moved(units, ["o o br br br o o o o o o o"] * 3, "K2", "ger-1", "russian", "german")
    s = situation(game, "russian", level=1)
    assert shots(s.table, "russian", s.legal)[0].value < tuning().dff.least
    assert DFF.evaluate(s) is None and s.held == POOR


def test_the_dff_candidate_offers_nothing_without_a_chance():
    game = t34_comes_round_the_woods()
    game.apply(Pass())
    s = situation(game, "russian")
    assert not s.table.dff_pending and DFF.evaluate(s) is None
