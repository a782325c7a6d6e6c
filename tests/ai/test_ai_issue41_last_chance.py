"""Issue 41: in the duel's last turn a T-34 held the crossroads (the Russian's hold victory,
RD-13) and the lone Panzer, out of its sight behind woods, drove one hex and stopped: still
counting the risk of being knocked out, when standing still lost the game as surely. In its
last player turn, lost as things stand (``game.ai.valuation.reach.last_chance``), the risk
counts ``[move] last_chance_caution`` (nothing) and it drives for a shot at the holder."""

from __future__ import annotations

import pytest
from engine_helpers import make_setup, table_of, to_phase

from game.ai import ComputerPlayer
from game.ai.lookahead import PLANS
from game.ai.valuation.hexes import weights
from game.ai.valuation.reach import holds_met, last_chance, wins_on_time
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import Fire

# Woods (row 2) hide the Panzer in A1 from the T-34 holding E5.
SCREEN = [
    "o o o o o o o",
    "w w w w w o o",
    "o o o o o o o",
    "o o o o o o o",
    "o o o o o o o",
    "o o o o o o o",
]


def last_turn(turns: int = 2, turn_to_play: int = 2, t34: str = "E5") -> Game:
    """The German Panzer (the scenario defender) in A1 at its Movement Phase of turn
    ``turn_to_play`` of ``turns``; a T-34 in ``t34``, the Russian winning by holding E5 at the
    game's end or by knocking the Panzer out; the German by knocking the T-34 out."""
    units = [
        UnitSetup("ger-pz4-1", "pz4h", "german", "A1", facing=0),
        UnitSetup("rus-t34-1", "t34m43", "russian", t34, facing=2),
        UnitSetup("rus-t34-2", "t34m43", "russian", "C4", facing=2),
        UnitSetup("rus-t34-3", "t34m43", "russian", "G4", facing=2),
    ]
    setup = make_setup(
        units,
        rows=SCREEN,
        victory=[
            Victory("russian", "hold", hexes=("E5",)),
            Victory("russian", "eliminate", count=1),
            Victory("german", "eliminate", count=3),
        ],
        turns=turns,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 7)
    for _ in range(turn_to_play - 1):
        to_phase(game, "movement", "german")
        to_phase(game, "movement", "russian")
    to_phase(game, "movement", "german")
    return game


def test_issue41_rd13_the_last_player_turn_with_the_enemy_holding_is_the_last_chance():
    table = table_of(last_turn(), "german")
    assert [v.side for v in holds_met(table)] == ["russian"]
    assert not wins_on_time(table, "german") and last_chance(table, "german")
    assert weights(table, "german", 2)[0] == 0.0  # the risk counts nothing now
    earlier = table_of(last_turn(turns=3), "german")  # a Movement Phase of its own follows
    assert not last_chance(earlier, "german") and weights(earlier, "german", 2)[0] > 0.0
    free = table_of(last_turn(t34="G6"), "german")  # E5 not held: the defender wins on time
    assert not last_chance(free, "german") and wins_on_time(free, "german")


@pytest.mark.parametrize("plan", [p for p in PLANS if p.name != "stand"], ids=lambda p: p.name)
def test_issue41_rd13_in_its_last_chance_the_panzer_drives_out_for_a_shot_at_the_holder(plan):
    """Played through its Movement Phase by each plan level 3 may choose that moves (the
    T-34s' Defensive First Fire by the computer), the Panzer ends where its Advancing Fire
    reaches the T-34 on E5 (under ``careful`` it stayed behind the woods)."""
    game = last_turn()
    players = {s: ComputerPlayer(s, 2, seed=3) for s in ("german", "russian")}
    players["german"].plan = plan
    while game.phase == "movement" and not game.over:
        side = game.to_act
        table = table_of(game, side)
        game.apply(table.engine_action(players[side].choose(table).action))
    assert not game.over  # (the T-34's Defensive First Fire missed, with these seeds)
    to_phase(game, "advancing_fire", "german")
    table = table_of(game, "german")
    shots = [a for a in table.actions() if isinstance(a, Fire)]
    assert any(a.target == "rus-t34-1" for a in shots), table.where("ger-pz4-1")
