"""Issue 41: on the Orel road (road-ambush) the German wins by driving three units off the west
edge, or by knocking out the two named Guns (RD-13). Traced (level 3 against the careful
player, seeds 100-119, main at c1e0349): with two of its four vehicles lost in the crossing of
turn 2, the exit of three could no longer be met, and the last two vehicles stood out of the
named Guns' sight for turns 3 and 4 and lost on time (seeds 104, 106, 107): each named Gun a
"?" in the woods, within the range the objective closes to, no shot at it to be had from any
hex (the attack map holds no "?"), and every hex in its sight risky. Standing still then loses
for sure, as in the side's last player turn (:func:`last_chance`): now the risk counts as it
does there, and the vehicles close to point blank with the named units (:func:`strike_left`)."""

from __future__ import annotations

from dataclasses import replace

from ai_helpers import situation
from engine_helpers import table_of, to_phase
from test_ai_issue41_exit_open import column

from game.ai.opponent import STEADY
from game.ai.tuning import tuning
from game.ai.valuation import objective
from game.ai.valuation.hexes import best_hex, weights
from game.ai.valuation.objective import near_range
from game.ai.valuation.reach import strike_left
from game.engine import Game, UnitSetup, Victory


def test_issue41_rd13_strike_left_once_the_exit_is_closed():
    """An exit of three with two vehicles and slow pioneers is closed and the named Gun is in
    play: only its removal can win (RD-13); an exit of two may still be met."""
    assert strike_left(table_of(column(3), "german"), "german")
    assert not strike_left(table_of(column(2), "german"), "german")


def test_issue41_rd13_the_risk_counts_as_in_the_last_turn():
    """With only the named Gun's removal left to win by, the risk counts ``[move]
    last_chance_caution`` from turn 1, and the vehicle closes to point blank (1 hex)."""
    closed, open_ = table_of(column(3), "german"), table_of(column(2), "german")
    assert weights(closed, "german", 2)[0] == tuning().move.last_chance_caution
    assert weights(open_, "german", 2)[0] > tuning().move.last_chance_caution
    stug = next(u for u in closed.units() if u["id"] == "ger-stug-1")
    assert near_range(closed, "german", stug, immune=False) == 1
    assert near_range(open_, "german", stug, immune=False) > 1


def test_issue41_rd13_the_stug_drives_up_to_the_named_gun():
    """The StuG in G6, the exit closed, drives next to the "?" in C8 that may be the named Gun
    (RD-11: which "?" is which is secret), whence its Advancing Fire sees it; before, it stood
    within 3 hexes of it, where it had no shot at it."""
    game = column(3)
    s = situation(game, "german")
    stug = next(u for u in s.table.units() if u["id"] == "ger-stug-1")
    _, hx, _ = best_hex(s, stug, STEADY)
    assert hx is not None
    assert game.board.parse(hx).distance(game.board.parse("C8")) == 1


def _with_a_second_question_mark(*more: Victory) -> Game:
    """:func:`column` (3) with a concealed Russian ATR squad in H4 too: a "?" that is not the
    named Gun; ``more``: victory conditions the German has besides."""
    game = column(3)
    setup = game.setup
    units = [*setup.units, UnitSetup("rus-sq-1", "rus_atr", "russian", "H4", concealed=True)]
    victory = [*setup.victory, *more]
    game = Game(replace(setup, units=tuple(units), victory=tuple(victory)), 3)
    to_phase(game, "movement", "german")
    game.units["ger-pz4-1"].hex = game.board.parse("A5")
    game.units["ger-stug-1"].hex = game.board.parse("G6")
    return game


def test_issue41_rd11_a_question_mark_is_not_a_named_gun_its_side_has_seen_elsewhere(
    monkeypatch,
):
    """The named Gun seen in C8 (its side's log: it regained concealment there, ``seen_guns``)
    is in C8: a Gun does not move, so the other "?" (H4) cannot be it, and the vehicles that
    only its removal can still win by close with C8 alone (RD-13, RD-11)."""
    game = _with_a_second_question_mark()
    table = table_of(game, "german")
    seen = table.units()
    both = {game.board.parse("C8"), game.board.parse("H4")}
    assert set(objective._enemies(table, "german", seen)) == both  # either may be the Gun
    monkeypatch.setattr(objective, "seen_guns", lambda table, side: {"C8": "rus-gun-2"})
    assert objective._enemies(table, "german", seen) == [game.board.parse("C8")]


def test_issue41_rd13_strike_left_not_while_another_victory_may_be_met():
    """A hold (or a count of AFVs) of the German's own still open: it is not down to the
    named units alone, so it keeps its caution (RD-13)."""
    assert strike_left(table_of(_with_a_second_question_mark(), "german"), "german")
    hold = Victory("german", "hold", hexes=("J5",))
    assert not strike_left(table_of(_with_a_second_question_mark(hold), "german"), "german")
    afvs = Victory("german", "eliminate", count=2)
    assert not strike_left(table_of(_with_a_second_question_mark(afvs), "german"), "german")
