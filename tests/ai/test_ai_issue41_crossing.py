"""Issue 41, eighth session: on the Orel road (road-ambush) the German column crosses the
ground the "?" in the western woods see. Each hex of a route counted ``[move] dff_on_the_way``
of its risk (C6.17: a Defensive First Fire chance at every hex of the way), and over a long way
past five "?" that compounded to several hidden Guns' shots, where a Gun fires at one hex of the
way (its shot shows it, RD-11, and without its Multiple ROF it fires no more that phase, RD-4):
the Panzer that had reached H2, in the woods' sight, stood there. At 0.4 (0.8 before) it
drives on."""

from __future__ import annotations

from ai_helpers import situation
from test_ai_issue41_column import column_game

from game.ai.opponent import STEADY
from game.ai.tuning import tuning
from game.ai.valuation.hexes import best_hex
from game.ai.valuation.reach import to_edge


def test_issue41_c617_the_way_counts_less_than_its_hexes_one_by_one():
    assert tuning().move.dff_on_the_way == 0.4


def test_issue41_c617_the_panzer_in_h2_drives_on_past_the_woods():
    """Turn 1, three vehicles to drive off the west edge (RD-13), every Russian a "?" (RD-11):
    the Panzer IV in H2 moves on west; before, it stood in H2."""
    game = column_game(
        {
            "ger-pz4-1": ("pz4h", "H2"),
            "ger-pz4-2": ("pz4h", "R5"),
            "ger-stug-1": ("stug3g", "R4"),
        },
        exits=3,
        kills=3,
    )
    s = situation(game, "german")
    panzer = next(u for u in s.table.units() if u["id"] == "ger-pz4-1")
    _, hx, _ = best_hex(s, panzer, STEADY)
    assert hx is not None
    board = game.board
    assert to_edge(board, board.parse(hx), "west") < to_edge(board, board.parse("H2"), "west")
