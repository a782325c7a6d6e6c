"""The candidate-action loop (game/ai/candidates/base.py, after Wesnoth's stage_rca.cpp): the
candidates are evaluated from the highest score down, the best offer wins, and evaluation
stops once no candidate left could beat the best offer; a decision's candidates by level and
phase; and a candidate's work is done only when it is needed (level 3's search)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.candidates import candidates
from game.ai.candidates.base import best
from game.ai.decision import Decision, Option
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndPhase


@dataclass
class Fixed:
    """A candidate that offers ``offer`` (None: nothing), and counts its evaluations."""

    name: str
    score: float
    offer: float | None
    asked: list[str] = field(default_factory=list)

    def evaluate(self, s) -> Option | None:
        self.asked.append(self.name)
        if self.offer is None:
            return None
        return Option(self.offer, Decision(EndPhase(), self.name))


def test_the_best_offer_wins_and_a_lower_ranked_candidate_may_beat_a_poor_offer():
    high = Fixed("high", 10.0, 3.0)
    middle = Fixed("middle", 5.0, 4.0)
    low = Fixed("low", 1.0, 1.0)
    assert best([low, high, middle], None).why == "middle"  # 4 beats 3; order as given aside
    assert high.asked and middle.asked and not low.asked  # 1 could not beat 4: never asked


def test_evaluation_stops_once_no_candidate_left_could_beat_the_best_offer():
    high = Fixed("high", 10.0, 10.0)
    rest = [Fixed(f"c{i}", 10.0 - i, 10.0 - i) for i in range(1, 4)]
    assert best([*rest, high], None).why == "high"
    assert not any(c.asked for c in rest)


def test_a_candidate_that_offers_nothing_passes_to_the_next():
    empty = Fixed("empty", 10.0, None)
    fallback = Fixed("fallback", 0.0, 0.0)
    assert best([empty, fallback], None).why == "fallback"
    assert empty.asked == ["empty"]


def test_an_offer_above_the_candidates_own_highest_or_no_offer_at_all_is_refused():
    with pytest.raises(ValueError, match="liar offered 11.0, above its 10.0"):
        best([Fixed("liar", 10.0, 11.0)], None)
    with pytest.raises(ValueError, match="no candidate offered"):
        best([Fixed("empty", 10.0, None)], None)


def duel(phase: str, side: str = "german") -> Game:
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "B2", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "G2", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o o o o o"] * 4,
        victory=[Victory("german", "eliminate", count=1)],
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, phase, side)
    return game


@pytest.mark.parametrize(
    ("phase", "names"),
    [
        ("prep_fire", ["fire", "pass"]),
        ("movement", ["leave", "stand", "drive_on", "next_unit", "pass"]),
        ("advancing_fire", ["fire", "pass"]),
    ],
)
def test_each_phase_has_its_candidates_and_the_pass_candidate_last(phase, names):
    table = table_of(duel(phase), "german")
    assert [c.name for c in candidates(table, 2)] == names
    assert [c.name for c in candidates(table, 0)] == ["random"]
    scores = [c.score for c in candidates(table, 2)]
    assert scores == sorted(scores, reverse=True) and scores[-1] == 0.0


def test_a_defensive_first_fire_chance_has_the_dff_candidate_and_the_pass():
    game = duel("movement")
    for a in game.legal_actions():  # the Pz IV drives on in the T-34's sight
        if a.type == "move" and a.unit == "ger-pz-1":
            game.apply(a)
            break
    assert game.dff_pending and game.to_act == "russian"
    table = table_of(game, "russian")
    assert [c.name for c in candidates(table, 2)] == ["dff", "pass"]
    decision = ComputerPlayer("russian", 1, seed=1).choose(table)
    assert decision.action.type == "fire" and decision.why.startswith("fires: 92% to hit")


def exit_on_the_edge() -> Game:
    """The German tank stands on the west edge facing off it, with an exit victory there, at
    the start of its Movement Phase."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=3),
        UnitSetup("rus-t34-1", "t34m43", "russian", "G3", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o o o o o"] * 4,
        victory=[Victory("german", "exit", count=1, edge="west")],
        first="german",
        defender="russian",
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    return game


def test_level_3_searches_only_when_a_move_needs_the_phases_plan():
    """The leave candidate ranks above every move: when it offers, level 3's search (the
    plan, asked for by the candidates below it) never runs."""
    game = exit_on_the_edge()
    ai = ComputerPlayer("german", 3, seed=1)
    decision = ai.choose(table_of(game, "german"))
    assert decision.action.type == "move" and decision.action.to == "off"
    assert ai.last_search is None and decision.plan == ""
    # without the exit victory the same tank's first decision searches
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=3),
        UnitSetup("rus-t34-1", "t34m43", "russian", "G3", facing=3),
    ]
    setup = make_setup(
        units,
        rows=["o o o o o o o o"] * 4,
        victory=[Victory("german", "eliminate", count=1)],
        first="german",
        defender="russian",
    )
    other = Game(setup, 3)
    to_phase(other, "movement", "german")
    searched = ComputerPlayer("german", 3, seed=1)
    decision = searched.choose(table_of(other, "german"))
    assert searched.last_search is not None and searched.last_search.playouts > 0
    assert decision.plan.startswith("plan '")
