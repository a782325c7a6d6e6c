"""Issue 41: on the Orel road (road-ambush) the careful Russian beat level 3's German column 15
games of 20 (seed 100, main at 89ff6fd). A vehicle that reaches the exit edge with the MP to
leave leaves at once (the leave candidate, RD-13): the hex counted the risk of staying there
and the shots from there all the same, so the column drove for the edge only in its last
Movement Phase (``[move] exit_now``) or when the hex beat the woods short of it. Now a hex on
the exit edge it can leave from counts neither, and an exit that meets the victory (the game
won as it leaves) is taken in any Movement Phase, as in the last."""

from __future__ import annotations

from ai_helpers import situation
from test_ai_issue41_column import column_game, german_movement

from game.ai import ComputerPlayer
from game.ai.lookahead import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.hexes import HexScore
from game.board.hexes import label


def score_of(hx: str, to: str):
    """A Panzer IV of the column in ``hx`` (turn 1 of 4, to drive two units off the west edge,
    RD-13: its own exit does not win yet; the other Panzer in R5 can leave in time, so the exit
    may still be met, :func:`~game.ai.valuation.reach.exit_open`), its :class:`HexScore` over
    its route to ``to`` and that route."""
    game = column_game({"ger-pz4-1": ("pz4h", hx), "ger-pz4-2": ("pz4h", "R5")}, exits=2)
    s = situation(game, "german")
    unit = next(u for u in s.table.units() if u["id"] == "ger-pz4-1")
    route = s.table.route("ger-pz4-1", to)
    assert route is not None
    return HexScore(s, unit, STEADY, frozenset([hx, *route.hexes])), route


def test_issue41_rd13_a_hex_it_leaves_from_counts_no_risk_of_staying_there():
    """A8, on the west edge, next to the "?" of the village (A4-B4 are out of its sight, the
    45 mm Guns' in C8 and D7 see it): a Panzer that reaches it with the MP to leave leaves at
    once (RD-13), so the hex counts the way's risk alone, and no shot from there."""
    score, route = score_of("I7", "A8")
    assert score.leaves("A8", route)
    assert score.risk_at("A8") > 0.0
    goal = STEADY.objective * score.s.objectives.of(score.s.table, "ger-pz4-1")("A8")
    safe = 1.0 - score.risk_at("I7", stay=False) if score.starts else 1.0
    for h in route.hexes[:-1]:
        safe *= 1.0 - tuning().move.dff_on_the_way * score.risk_at(h, stay=False)
    assert abs(score("A8", route) - (goal - score.caution * score.worth * (1.0 - safe))) < 1e-9


def test_issue41_rd13_an_exit_that_meets_the_victory_goes_in_any_movement_phase():
    """One unit to drive off the west edge (RD-13) and a Panzer IV in H2 that can reach it this
    phase, past the "?" in the woods (turn 1 of 4): leaving wins the game at once, so it goes,
    whatever the way's risk (``[move] exit_now``, as in its last Movement Phase). Before, it
    stood in H2 (the way read too deadly for a turn with three more to come); and with the
    exit of the lesson's T-34 worth no shot from the edge hex, it drove past it to shoot the
    half-track first."""
    game = column_game({"ger-pz4-1": ("pz4h", "H2")}, exits=1)
    german_movement(game, ComputerPlayer("german", 2, seed=1), 80)
    assert game.over and game.winner == "german", label(game.units["ger-pz4-1"].hex)
    assert game.turn == 1
