"""Issue 41, the duel's Russian after the duel's rebalance: the German wins by knocking out one
T-34, so every T-34 lost is the game. The T-34s closed to 3 hexes of the hidden Panzer, as a
side that must act does, and it drove out in its Movement Phase and shot one of them in its
Advancing Fire Phase (RD-12). Now a vehicle whose loss alone would meet at least
``[objective] stake_share`` of the enemy's elimination victory (``loss_share``, RD-13) closes
only to ``[objective] stake_close_to`` hexes, letting the enemy tank come through its side's
Defensive First Fire (C6.17)."""

from __future__ import annotations

import pytest
from engine_helpers import table_of
from test_ai_issue41_duel import duel as hidden_panzer_duel

from game.ai.tuning import tuning
from game.ai.valuation.objective import aims
from game.ai.valuation.targets import loss_share
from game.engine import Game, Victory


def duel(german: Victory) -> Game:
    """test_ai_issue41_duel's hidden Panzer in B2 and three T-34s at their Movement Phase; the
    Russian wins by knocking out one AFV, the German by ``german``."""
    return hidden_panzer_duel((Victory("russian", "eliminate", count=1), german))


def _t34(game: Game) -> tuple:
    table = table_of(game, "russian")
    return table, next(u for u in table.units() if u["id"] == "rus-t34-1")


@pytest.mark.parametrize(("count", "share"), [(1, 1.0), (2, 0.5), (3, 1 / 3)])
def test_issue41_rd13_a_loss_meets_its_share_of_the_enemys_elimination_victory(count, share):
    table, t34 = _t34(duel(Victory("german", "eliminate", count=count)))
    assert loss_share(table, "russian", t34) == pytest.approx(share)


def test_issue41_rd13_a_named_unit_meets_its_share_of_a_victory_naming_it():
    game = duel(Victory("german", "eliminate", units=("rus-t34-1", "rus-t34-2")))
    table = table_of(game, "russian")
    views = {u["id"]: u for u in table.units()}
    assert loss_share(table, "russian", views["rus-t34-1"]) == pytest.approx(0.5)
    assert loss_share(table, "russian", views["rus-t34-3"]) == 0.0  # not named
    # the Russian's own victory is no stake of the Russian's units
    game2 = duel(Victory("german", "hold", hexes=("A1",)))
    table2, t34 = _t34(game2)
    assert loss_share(table2, "russian", t34) == 0.0


def test_issue41_rd12_a_t34_whose_loss_is_the_game_keeps_out_of_a_hidden_tanks_reach():
    """The side that must act closes to ``close_to`` hexes of the enemy; a T-34 whose loss
    alone is the German's victory only to ``stake_close_to``: the hidden Panzer that drives up
    to it fires first in its Advancing Fire Phase (RD-12). Where the German needs three T-34s,
    it closes as before."""
    t = tuning().objective
    assert t.stake_close_to > t.close_to
    table, _ = _t34(duel(Victory("german", "eliminate", count=1)))
    assert aims(table, "russian", "rus-t34-1").near == t.stake_close_to
    table3, _ = _t34(duel(Victory("german", "eliminate", count=3)))
    assert aims(table3, "russian", "rus-t34-1").near == t.close_to
    # the scenario defender keeps its standoff whatever its stake (HX-11)
    german = table_of(duel(Victory("german", "eliminate", count=1)), "german")
    assert aims(german, "german", "ger-pz4-1").near == t.standoff
