"""Issue 41: the careful Americans' Jeep left the hedgerow by the west edge in turn 1, before
any German moved. The set-up left the lanes to that edge unwatched: the PaK in B2 turned its
Covered Arc to the two woods hexes of the straight line from the Americans to the edge, the
StuG in C8 its arc to the Americans themselves, while the Jeep drove past the PaK's north side
and the flank round the south passed behind the StuG. A Gun, or a vehicle with no turret (it
fires only into its Covered Arc in the enemy's Movement Phase, HX-2), now sets up facing the
most of the enemy's ways to its exit edge that it sees (RD-13, RD-9;
``game.ai.valuation.setup.way_out_facing``)."""

from __future__ import annotations

import numpy as np
import pytest
from ai_helpers import situation
from engine_helpers import make_setup

from game.ai.candidates.setup import BoreSightCandidate, ConcealCandidate, PlaceCandidate
from game.ai.valuation.exits import sight, ways_out
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import BoreSight, Place
from game.engine.setup import SetupArea

WOODS = [  # woods in B-D 2-3; the enemy comes from I2, east of them
    "o o o o o o o o o",
    "o w w w o o o o o",
    "o w w w o o o o o",
    "o o o o o o o o o",
    "o o o o o o o o o",
]


def in_the_woods(kind: str, exit_victory: bool = True) -> Game:
    """The German (the scenario defender) sets up ``kind`` in B3, at the south-west corner of
    the woods (its only set-up hex), facing north-east (hexside 1, at the T-34 in I2 through
    the woods); the T-34 wins by leaving by the west edge (RD-13), or, without
    ``exit_victory``, by knocking it out."""
    units = [
        UnitSetup("ger-x-1", kind, "german", "B3", facing=1, area=SetupArea((1, 1), (2, 2))),
        UnitSetup("rus-t34-1", "t34m43", "russian", "I2", facing=3),
    ]
    russian = (
        Victory("russian", "exit", count=1, edge="west")
        if exit_victory
        else Victory("russian", "eliminate", count=1)
    )
    setup = make_setup(
        units,
        rows=WOODS,
        victory=[russian, Victory("german", "eliminate", count=1)],
        turns=4,
        first="russian",
        defender="german",
        year=1943,
    )
    game = Game(setup, 3)
    assert game.phase == "setup" and game.to_act == "german"
    return game


def way_in_arc(game: Game, facing: int) -> int:
    """How many hexes of the T-34's way out the unit in B3 watches facing ``facing`` (in LOS,
    RD-9, within range and inside its Covered Arc, HX-2)."""
    s = situation(game, "german")
    table = s.table
    unit = dict(next(u for u in table.units() if u["id"] == "ger-x-1"))
    unit["facing"] = facing
    cells = {i for w in ways_out(table, "german", table.units()) for i in w.cells}
    return sum(int(i) in cells for i in np.flatnonzero(sight(table, unit)))


@pytest.mark.parametrize("kind", ["stug3g", "pak40"])
def test_issue41_hx2_rd13_a_covered_arc_sets_up_on_the_way_out_not_on_the_woods(kind):
    """Before, the StuG kept facing the T-34 beyond the woods (its arc held the woods, C3 and
    D3) and the PaK faced the straight line to the edge (A2, B2); now each turns its Covered
    Arc south-east, over the open ground south of the woods the T-34 may cross (HX-2)."""
    game = in_the_woods(kind)
    option = PlaceCandidate().evaluate(situation(game, "german"))
    assert option is not None
    action = option.decision.action
    assert isinstance(action, Place) and action.hex == "B3"
    assert "way out" in option.decision.why
    best = max(range(6), key=lambda f: way_in_arc(game, f))
    assert action.facing == best
    assert way_in_arc(game, action.facing) >= way_in_arc(game, 1) + 3


def test_issue41_no_exit_victory_the_stug_faces_the_enemy_as_before():
    """Without the enemy's exit victory the StuG keeps facing the T-34 (RD-8: its front
    armor), as before (the control)."""
    game = in_the_woods("stug3g", exit_victory=False)
    assert PlaceCandidate().evaluate(situation(game, "german")) is None


@pytest.mark.parametrize("kind", ["stug3g", "pak40"])
def test_issue41_c642_it_bore_sights_a_hex_of_the_way_out_in_its_arc(kind):
    """Turned onto the way out, it Bore Sights a hex of the T-34's way out that it watches
    (C6.42: -2 to hit a target there, Case M): once the straight line through the woods north
    of it, none of which lay in its Covered Arc (it Bore Sighted nothing then); now the way
    round the woods the T-34 would drive in the fewest MP, or else its way out."""
    game = in_the_woods(kind)
    for _ in range(3):  # placed and turned, then concealed if it may be (RD-11)
        s = situation(game, "german")
        option = PlaceCandidate().evaluate(s) or ConcealCandidate().evaluate(s)
        if option is None:
            break
        game.apply(option.decision.action)
    s = situation(game, "german")
    option = BoreSightCandidate().evaluate(s)
    assert option is not None, "no Bore Sighting"
    action = option.decision.action
    assert isinstance(action, BoreSight) and action.unit == "ger-x-1"
    assert "way in" in option.decision.why or "way out" in option.decision.why
    table = s.table
    unit = next(u for u in table.units() if u["id"] == "ger-x-1")
    cells = {i for w in ways_out(table, "german", table.units()) for i in w.cells}
    i = table.board.index(table.board.parse(action.hex))
    assert i in cells and sight(table, unit)[i] and action.hex != "B3"
