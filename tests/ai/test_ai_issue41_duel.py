"""Issue 41, the duel's Russian against the careful German: the lone Panzer hid in the woods,
a "?" the T-34s weighed as a hidden Gun's fair chance (5% within 6 hexes), so they drove into
its Bore Sighted crossroads in sight of it and were knocked out there at 5 hexes, 57% a shot;
and the others stopped out of its sight, where it drove out and shot one standing (no Case J,
C6.1) in its Advancing Fire Phase (RD-12). Now a "?" that the victory conditions say must be an
enemy AFV (an elimination victory of N enemy AFVs, RD-13, and fewer of them seen) counts a
hidden tank's shot (``[risk] unknown_afv``), and the side that must act ends a move in Motion
wherever such a vehicle stands within ``[move] motion_reach`` hexes."""

from __future__ import annotations

import pytest
from ai_helpers import situation
from engine_helpers import make_setup, table_of, to_phase

from game.ai.candidates.steps import end_move, may_come
from game.ai.tuning import tuning
from game.ai.valuation.danger import afv_share, unknown_risk
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndMove, Move

# The Panzer hides in the woods of B2 (out of every LOS but the open ground south-east of it);
# the woods of D1-D3 hide F2 from it.
ROWS = [
    "o w o w o o o o",
    "o w o w o o o o",
    "o o o w o o o o",
    "o o o o o o o o",
    "o o o o o o o o",
]


def duel(victory: tuple[Victory, ...] | None = None) -> Game:
    """A concealed Panzer in B2, three T-34s in H1-H5 at their Movement Phase (the Russian
    moves first); the Russian wins by knocking out one AFV, the German two."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "B2", facing=0, concealed=True),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H1", facing=3),
        UnitSetup("rus-t34-2", "t34m43", "russian", "H3", facing=3),
        UnitSetup("rus-t34-3", "t34m43", "russian", "H5", facing=3),
    ]
    if victory is None:
        victory = (
            Victory("russian", "eliminate", count=1),
            Victory("german", "eliminate", count=2),
        )
    setup = make_setup(
        units, rows=ROWS, victory=victory, turns=5, first="russian", defender="german", year=1943
    )
    game = Game(setup, 7)
    to_phase(game, "movement", "russian")
    return game


def test_issue41_rd13_a_question_mark_the_victory_says_is_an_afv_counts_as_a_hidden_tank():
    game = duel()
    table = table_of(game, "russian")
    assert afv_share(table, "russian") == 1.0  # one AFV to knock out, none seen: the "?"
    risk = unknown_risk(table, "russian")
    # C3 is 1 hex from the "?" in B2, in its LOS: a hidden tank's shot, not a Gun's prior
    assert risk("C3") >= tuning().risk.unknown_afv[0][1] - 1e-9
    assert risk("C3") > 0.3
    # the German side sees every T-34: no "?" of its is an AFV it has not seen
    assert afv_share(table_of(game, "german"), "german") == 0.0


def test_issue41_rd13_no_such_share_without_an_elimination_victory_by_count():
    game = duel(victory=(Victory("russian", "hold", hexes=("A1",)),))
    table = table_of(game, "russian")
    assert afv_share(table, "russian") == 0.0
    assert unknown_risk(table, "russian")("C3") == pytest.approx(tuning().risk.unknown[0][1])


def test_issue41_c6_1_a_t34_out_of_the_hidden_tanks_sight_ends_its_move_in_motion():
    """The T-34 in H1 drives to G1 (out of the B2 woods' sight behind D1-D3, 5 hexes from
    the "?"): no threat and no prior where it stands, yet the hidden Panzer may drive out and
    shoot it in its Advancing Fire Phase (RD-12): it ends its move in Motion (Case J, C6.1)."""
    game = duel()
    game.apply(Move("rus-t34-1", "G1"))
    if game.dff_pending:
        raise AssertionError("G1 is out of the Panzer's sight")
    table = table_of(game, "russian")
    assert unknown_risk(table, "russian")("G1") == 0.0  # out of the "?"'s LOS
    assert may_come(table, "russian", "G1")
    assert end_move(situation(game, "russian"), "rus-t34-1").action == EndMove("rus-t34-1", True)


def test_issue41_c6_1_a_question_mark_that_need_not_be_an_afv_lets_it_stop():
    """With no elimination victory by count the "?" may be a Gun, which cannot come: out of
    its sight the T-34 stops (the rule before, RD-11)."""
    game = duel(victory=(Victory("russian", "hold", hexes=("A1",)),))
    game.apply(Move("rus-t34-1", "G1"))
    table = table_of(game, "russian")
    assert not may_come(table, "russian", "G1")
    assert end_move(situation(game, "russian"), "rus-t34-1").action == EndMove("rus-t34-1", False)


def test_issue41_rd11_a_question_mark_seen_to_be_a_gun_is_no_afv():
    """A PaK seen in B2 and concealed again there (RD-11: out of every enemy LOS at the end of
    a player turn; the log's line names it, ``seen_guns``) is that Gun: of the two "?", the
    other must be the AFV the Russian's victory needs (RD-13), the whole share its."""
    units = [
        UnitSetup("ger-pak-1", "pak40", "german", "B2", facing=0, concealed=True),
        UnitSetup("ger-pz4-1", "pz4h", "german", "A5", facing=0, concealed=True),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H1", facing=3),
    ]
    victory = (Victory("russian", "eliminate", count=1), Victory("german", "eliminate", count=1))
    setup = make_setup(
        units, rows=ROWS, victory=victory, turns=5, first="russian", defender="german", year=1943
    )
    game = Game(setup, 7)
    before = table_of(game, "russian")
    assert afv_share(before, "russian") == 0.5  # either "?" may be the AFV
    game.units["ger-pak-1"].concealed = False  # seen (it fired, RD-11)
    to_phase(game, "movement", "german")  # the Russian player turn ends: concealed again
    table = table_of(game, "russian")
    assert game.units["ger-pak-1"].concealed
    assert afv_share(table, "russian") == 1.0
