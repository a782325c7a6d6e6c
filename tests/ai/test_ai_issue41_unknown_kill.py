"""Issue 41, fourteenth session: a level-3 playout that knocked out an enemy "?" counted
nothing for it (the value read the units its side knew at the search's start, never a "?"),
so a playout that killed a hidden tank was worth no more than one that missed it. It counts
now by what the copy's hit revealed it to be (HX-9; in a copy a "?" is its prior, never what
it really is, RD-11): RD-13's points and its share of the victory it brings nearer."""

from __future__ import annotations

from engine_helpers import make_setup, table_of

from game.ai import ComputerPlayer
from game.ai.valuation import WIN, Valuation
from game.engine import Game, UnitSetup, Victory

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o o o o o o"]


def _hidden_tank() -> Game:
    """A concealed Panzer IV (a "?" to the Russian, RD-11) and a known one; two T-34s; the
    Russian wins by knocking out two AFVs (RD-13)."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=0, concealed=True),
        UnitSetup("ger-pz-2", "pz4h", "german", "A4", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", "H4", facing=3),
        UnitSetup("rus-t34-2", "t34m43", "russian", "H1", facing=3),
    ]
    victory = [
        Victory("german", "eliminate", count=2),
        Victory("russian", "eliminate", count=2),
    ]
    setup = make_setup(units, rows=ROWS, victory=victory, first="russian", defender="german")
    return Game(setup, 4)


def test_issue41_rd13_hx9_a_question_mark_knocked_out_in_a_playout_counts_as_what_it_was():
    """Knocking out the "?" is worth at least what knocking out the known Panzer is (2 and half
    the Russian's win; the known one's fire at the T-34s goes with it, the "?"'s prior risk
    with the "?"), not nothing; one that was gone before the search counts nothing more."""
    game = _hidden_tank()
    start = table_of(game, "russian")
    assert "?" in [u["type"] for u in start.units() if u["side"] == "german"]
    judge = Valuation(ComputerPlayer("russian", 3, seed=1), start)
    base = judge(table_of(game.copy(), "russian"))
    hidden = game.copy()
    unit = hidden.state.units["ger-pz-1"]
    unit.status, unit.concealed = "burning", False  # its hit revealed it (HX-9)
    known = game.copy()
    known.state.units["ger-pz-2"].status = "burning"
    stake = 2 + WIN / 2
    assert judge(table_of(known, "russian")) > base + stake - 5
    assert judge(table_of(hidden, "russian")) > base + stake - 5  # was about base alone
    before = Valuation(ComputerPlayer("russian", 3, seed=1), table_of(hidden, "russian"))
    later = table_of(hidden.copy(), "russian")
    assert "ger-pz-1" in later.out_of_play()
    assert before._unknown_removed(later, later.out_of_play()) == 0  # gone before: not again


def test_issue41_rd11_the_value_of_a_question_marks_removal_is_the_same_whatever_it_hides():
    """The copy decides what the "?" was (its prior); the real game's "?" being a Panzer or a
    T-34's worth of nothing changes no value the search reads: two starts that differ only in
    what the "?" is give the same stakes and the same base value."""
    game = _hidden_tank()
    other = _hidden_tank()
    other.state.units["ger-pz-1"].type = other.state.units["ger-pz-2"].type  # the same kind
    a = Valuation(ComputerPlayer("russian", 3, seed=1), table_of(game, "russian"))
    b = Valuation(ComputerPlayer("russian", 3, seed=1), table_of(other, "russian"))
    assert a.stakes == b.stakes and a.gone_before == b.gone_before
