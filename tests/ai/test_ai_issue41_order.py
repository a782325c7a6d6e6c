"""Issue 41, fourteenth session: the enemy's order of battle is public (HX-21), offered by the
side's table (docs/ai.md "The enemy's order of battle in the search's copies": the copies'
draw from it and its tests are at the branch's commit 370b183, 604b3d1, taken out here)."""

from __future__ import annotations

from engine_helpers import table_of

from game.engine import Game
from game.engine.actions import EndPhase
from game.files.scenario import load_scenario
from game.files.shipped import shipped_scenarios

HIDDEN = ("ger-pz4-1", "ger-stug-1", "ger-pak-1")


def scenario(name: str):
    return load_scenario(next(p for p in shipped_scenarios() if p.stem == name))


def hedgerow(swap: bool = False) -> Game:
    """The hedgerow after set-up, the Panzer IV, the StuG and the PaK 40 "?" to the American
    (the two Infantry seen); ``swap``: the Panzer and the StuG stand in each other's hex."""
    game = Game(scenario("hedgerow-chart").setup, 3)
    while game.phase.startswith("setup"):
        game.apply(EndPhase())
    units = game.state.units
    if swap:
        a, b = units["ger-pz4-1"], units["ger-stug-1"]
        a.hex, b.hex = b.hex, a.hex
    for u in HIDDEN:
        units[u].concealed = True
    return game


def test_hx21_the_order_of_battle_is_public_and_the_same_whatever_the_question_marks_are():
    """Each side knows the enemy's unit types and how many of each (the scenario card), never
    which "?" is which: two games whose "?" stand in each other's hexes answer the same."""
    one, two = table_of(hedgerow(), "american"), table_of(hedgerow(swap=True), "american")
    expect = {"ger_pf": 1, "ger_psk": 1, "pak40": 1, "pz4h": 1, "stug3g": 1}
    assert one.order_of_battle("german") == two.order_of_battle("german") == expect
    assert one.order_of_battle("american") == {
        "jeep": 1,
        "m10": 1,
        "m4a1": 2,
        "m4a3e8": 1,
        "us_baz": 1,
    }
    # what the "?" may be: the order of battle less the two Infantry seen as themselves
    left = {"pak40": 1, "pz4h": 1, "stug3g": 1}
    assert one.unknown_order() == two.unknown_order() == left


def test_hx13_a_unit_seen_removed_leaves_the_order_of_the_question_marks():
    """A removal is seen by both sides (HX-13): the unit is known, and no "?" may be it."""
    game = hedgerow()
    game.state.units["ger-stug-1"].status = "burning"
    assert table_of(game, "american").unknown_order() == {"pak40": 1, "pz4h": 1}
    # a "?" gone off the map concealed is not known: its type stays among what the "?" may be
    game = hedgerow()
    game.state.units["ger-stug-1"].status = "exited"
    assert table_of(game, "american").unknown_order() == {"pak40": 1, "pz4h": 1, "stug3g": 1}
