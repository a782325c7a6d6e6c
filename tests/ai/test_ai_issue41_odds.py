"""Issue 41, tenth session: the duel's playouts could not tell plans apart, because a playout's
end was decided by one roll (a T-34 or the Panzer knocked out: the game won or lost) and the few
rounds the budget buys could not tell a plan's side shots from another's frontal ones. On a map
of at most ``[search] odds_hexes`` hexes a search's copy is now played by the odds: a shot
removes nothing and its chance of a removal (its exact odds, as the threat map's, RD-18) is
counted at the playout's end by the target's stake (RD-13), deterministically."""

from __future__ import annotations

import pytest
from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.lookahead import PLANS
from game.ai.opponent import portfolio
from game.ai.tuning import tuning
from game.ai.valuation import Valuation
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Fire
from game.engine.imagine import determinize
from game.engine.play.outcomes import REMOVAL
from game.engine.table import Snapshot

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o o o o o o", "o o o o o o o o"]


def _game() -> Game:
    """A Panzer IV H in A2 at its Advancing Fire Phase, a T-34 in D2, 3 hexes off, showing it
    its side; each side wins by knocking out the other's one AFV."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A2", facing=1),
        UnitSetup("rus-t34-1", "t34m43", "russian", "D2", facing=0),
    ]
    victory = [Victory("german", "eliminate", count=1), Victory("russian", "eliminate", count=1)]
    setup = make_setup(units, rows=ROWS, victory=victory, first="german", defender="russian")
    game = Game(setup, 4)
    to_phase(game, "advancing_fire", "german")
    return game


def _odds(game: Game) -> tuple[float, float]:
    """The shot's chances of removing and of immobilizing the T-34."""
    o = game.shot_odds(Fire("ger-pz-1", "rus-t34-1"))
    return sum(o.p[k] for k in REMOVAL), o.p["immobilized"]


def test_issue41_rd18_a_shot_in_a_copy_played_by_the_odds_removes_nothing_and_counts_its_odds():
    game = _game()
    p, stuck = _odds(game)
    assert 0.1 < p < 0.95
    killed = 0
    for seed in range(12):
        rolled = determinize(game, "german", seed)
        rolled.apply(Fire("ger-pz-1", "rus-t34-1"))
        killed += not rolled.units["rus-t34-1"].active
        odds = determinize(game, "german", seed, by_odds=True)
        odds.apply(Fire("ger-pz-1", "rus-t34-1"))
        t34 = odds.units["rus-t34-1"]
        assert t34.active and not t34.immobilized and t34.shock == "none" and not odds.over
        ledger = Snapshot(odds, play=True).table("german").removed_by_odds()
        assert ledger == {"rus-t34-1": (pytest.approx(p), pytest.approx(stuck), "russian", "afv")}
    assert killed  # the rolled copies knock it out on some dice
    assert game.units["rus-t34-1"].active  # the game itself is left be


def test_issue41_rd13_a_playouts_end_counts_each_shots_chance_by_the_targets_stake():
    game = _game()
    p, _ = _odds(game)
    judge = Valuation(ComputerPlayer("german", 3, seed=1), table_of(game, "german"))
    before = judge(table_of(determinize(game, "german", 5, by_odds=True), "german"))
    copy = determinize(game, "german", 5, by_odds=True)
    copy.apply(Fire("ger-pz-1", "rus-t34-1"))
    after = judge(table_of(copy, "german"))
    assert after - before == pytest.approx(judge.stakes["rus-t34-1"] * p, abs=1.0)
    # the shot at the German's own tank counts against it, by its stake
    them = Valuation(ComputerPlayer("russian", 3, seed=1), table_of(game, "russian"))
    assert them(table_of(copy, "russian")) < them(table_of(game, "russian"))


def test_issue41_the_hunt_plan_and_the_odds_only_on_a_map_of_at_most_odds_hexes():
    game = _game()  # 32 hexes
    assert game.board.size <= tuning().search.odds_hexes
    table = table_of(game, "german")
    assert any(pl.close_to for pl in portfolio(table, "german"))
    budget = ComputerPlayer("german", 3)._budget(table)
    assert budget.by_odds
    assert any(pl.close_to for pl in PLANS)
