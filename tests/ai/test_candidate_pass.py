"""The pass candidate (game/ai/candidates/pass_.py): it always offers, at the lowest score, End
Phase (Pass at a Defensive First Fire chance), its words the reason a candidate above it left
(``Situation.held``) or what the phase had nothing of; a Movement Phase's carries its plan."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, to_phase

from game.ai import ComputerPlayer
from game.ai.candidates.pass_ import PassCandidate
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase, Move, Pass

PASS = PassCandidate()


def hidden_duel(phase: str, side: str = "german") -> Game:
    """A Pz IV and a T-34 with woods between (no shot, no sight), at ``side``'s ``phase``."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "J2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o w w o o o o"] * 4,
        victory=[Victory("german", "eliminate", count=1)],
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, phase, side)
    return game


@pytest.mark.parametrize(
    ("phase", "why"),
    [
        ("rally", "nothing to do in this phase"),
        ("prep_fire", "no shot worth taking"),
        ("advancing_fire", "no shot worth taking"),
        ("movement", "no move worth making"),
    ],
)
def test_the_pass_ends_the_phase_in_the_phases_words(phase, why):
    s = situation(hidden_duel(phase), "german", words="plan 'careful'")
    option = PASS.evaluate(s)
    assert option.score == PASS.score == 0.0
    assert option.decision.action == EndPhase() and option.decision.why == why
    assert option.decision.plan == ("plan 'careful'" if phase == "movement" else "")


def test_the_pass_says_what_a_candidate_above_it_held():
    s = situation(hidden_duel("prep_fire"), "german")
    s.held = "holds its fire: it moves to exit (RD-12, RD-13)"
    assert PASS.evaluate(s).decision.why == s.held


def test_a_defensive_first_fire_chance_is_let_go_with_a_pass():
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o o o o o o o"] * 4,
        victory=[Victory("german", "eliminate", count=1)],
        first="russian",
        defender="german",
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "russian")
    game.apply(next(a for a in game.legal_actions() if isinstance(a, Move)))
    assert game.dff_pending and game.to_act == "german"
    s = situation(game, "german")
    decision = PASS.evaluate(s).decision
    assert decision.action == Pass() and decision.why == "no shot at the mover"
    s.held = "waits: the mover will be easier to hit (C6.17)"
    assert PASS.evaluate(s).decision == decision.__class__(Pass(), s.held)


def test_a_computer_player_with_nothing_to_do_ends_the_phase():
    game = hidden_duel("prep_fire")
    for level in (1, 2, 3):
        decision = ComputerPlayer("german", level, seed=1).choose(situation(game, "german").table)
        assert decision.action == EndPhase() and decision.why == "no shot worth taking"
