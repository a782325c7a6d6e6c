"""Issue 41: on the Orel road the German column that must drive three units off the west edge in
four turns (RD-13) lost a vehicle's whole Movement Phase one to three times a game (traced
against the careful player, level 3, seeds 200, 202, 205, 207, 210): a Panzer pivoted towards
the hex it weighed best, weighed the hexes again after the pivot (it drives an action at a
time), found another best whose route began with the pivot back, and, since it never goes back
over its own move (C6.17: it would spend MP in the enemy's sight for nothing), stopped where it
stood. Now it drives towards the best hex whose route does not go back."""

from __future__ import annotations

import pytest
from engine_helpers import make_setup, table_of, to_phase
from test_ai_issue41_column import german_movement

from game.ai import ComputerPlayer
from game.ai.candidates.steps import goes_back
from game.board.hexes import label, to_offset
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import EndMove, Pass, Turn

OPEN = ["o " * 11 + "o"] * 7


def pivoted(first: int, then: int) -> Game:
    """A Panzer IV in I4 facing ``first`` at its Movement Phase (turn 1 of 4), to leave by the
    west edge (RD-13), a Russian 45 mm Gun far off in L1; it has pivoted to ``then`` (1 MP)."""
    units = [
        UnitSetup("ger-1", "pz4h", "german", "I4", facing=first),
        UnitSetup("rus-1", "m1937", "russian", "L1", facing=3),
    ]
    setup = make_setup(
        units,
        rows=OPEN,
        victory=[
            Victory("german", "exit", count=1, edge="west"),
            Victory("russian", "eliminate", count=1),
        ],
        turns=4,
        first="german",
        defender="russian",
        year=1943,
    )
    game = Game(setup, 3)
    to_phase(game, "movement", "german")
    game.apply(Turn("ger-1", then))
    while game.to_act != "german":
        game.apply(Pass())
    return game


@pytest.mark.parametrize(("first", "then"), [(3, 2), (4, 5)])
def test_issue41_c6_17_a_pivot_that_turns_out_wrong_does_not_end_the_move(first, then):
    """Before, it stopped in I4 for the phase (its best route began with the pivot back);
    now its next step neither ends the move nor goes back, and it ends the phase at least four
    hexes nearer the west edge, or off the map by it (its exit meets the victory, RD-13)."""
    game = pivoted(first, then)
    player = ComputerPlayer("german", 2, seed=1)
    table = table_of(game, "german")
    unit = next(u for u in table.units() if u["id"] == "ger-1")
    step = player.choose(table).action
    assert not isinstance(step, EndMove), step
    assert not goes_back(table, unit, step)
    german_movement(game, player, 80)
    here = game.units["ger-1"].hex
    if here is None:  # it left the map by the west edge: the game is won (RD-13)
        assert game.winner == "german"
        return
    assert to_offset(here)[0] <= to_offset(game.board.parse("I4"))[0] - 4, label(here)
