"""Issue 41, fourteenth session: the enemy's order of battle is public (HX-21), and a search's
copy holds each enemy "?" as a type drawn from what it leaves (docs/ai.md "The enemy's order
of battle in the search's copies")."""

from __future__ import annotations

from collections import Counter

from engine_helpers import table_of

from game.ai.valuation.danger import must_be_afvs
from game.engine import Game
from game.engine.actions import EndPhase
from game.engine.imagine import determinize, prior_afv, prior_gun
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


def test_hx21_a_copys_question_marks_are_drawn_from_the_order_of_battle_left():
    """The copies hold the "?" as the types the order of battle leaves (no longer two StuGs
    and a 50 mm PaK 38 for a Panzer IV, a StuG and a PaK 40), the two the victory says must be
    AFVs (RD-13) AFV types; which "?" is which is drawn, the same whatever the "?" are."""
    game, swapped = hedgerow(), hedgerow(swap=True)
    table, other = table_of(game, "american"), table_of(swapped, "american")
    need, hexes = must_be_afvs(table, "american")
    assert need == 2 and len(hexes) == 3
    kinds, afv_hexes = set(), set()
    for seed in range(12):
        a = table.imagined(seed, need, frozenset(hexes)).game
        b = other.imagined(seed, need, frozenset(hexes)).game
        held = {str(a.units[u].hex): a.units[u].type.key for u in HIDDEN}
        assert held == {str(b.units[u].hex): b.units[u].type.key for u in HIDDEN}
        assert sorted(held.values()) == ["pak40", "pz4h", "stug3g"]
        kinds.add(tuple(sorted(held.items())))
        afv_hexes.add(next(h for h, k in held.items() if k == "pak40"))
    assert len(kinds) >= 3 and len(afv_hexes) >= 2  # drawn, not fixed
    # the game's own units stay what they are
    assert {game.units[u].type.key for u in HIDDEN} == {"pz4h", "stug3g", "pak40"}


def test_rd13_the_question_marks_that_must_be_afvs_draw_afv_types():
    """The "?" the victory says must be AFVs draw among the AFV types left; the others take
    what remains, here the Infantry's types (a "?" may be Infantry)."""
    game = hedgerow()
    units = game.state.units
    for u in ("ger-pf-1", "ger-psk-1"):
        units[u].concealed = True
    units["ger-pak-1"].status = "eliminated"  # seen removed: known
    hidden = ("ger-pz4-1", "ger-stug-1", "ger-pf-1", "ger-psk-1")
    table = table_of(game, "american")
    assert table.unknown_order() == {"ger_pf": 1, "ger_psk": 1, "pz4h": 1, "stug3g": 1}
    for seed in range(8):
        need = 1
        may_be = frozenset(str(units[u].label) for u in hidden)
        copy = table.imagined(seed, need, may_be).game
        held = Counter(copy.units[u].type.key for u in hidden)
        assert held == Counter({"ger_pf": 1, "ger_psk": 1, "pz4h": 1, "stug3g": 1})
    # only one "?" may be an AFV by its hex: it is one of the two AFV types in every copy
    only = str(units["ger-pf-1"].label)
    for seed in range(8):
        copy = table.imagined(seed, 1, frozenset({only})).game
        there = next(u for u in hidden if str(copy.units[u].label) == only)
        assert copy.units[there].type.category == "afv"


def test_hx21_the_priors_when_the_order_of_battle_left_does_not_add_up():
    """More "?" than the order of battle leaves (or none given): today's priors, a typical
    AFV for the "?" that must be AFVs and a typical Gun for the others."""
    game = hedgerow()
    hidden = frozenset(HIDDEN)
    setup = game.setup
    afv, gun = prior_afv(setup, "german"), prior_gun(setup, "german")
    hexes = frozenset(str(game.units[u].label) for u in hidden)
    for pool in (None, {}, {"pz4h": 1, "pak40": 1}):
        copy = determinize(game, "american", 4, hidden, 2, hexes, pool)
        assert sorted(copy.units[u].type.key for u in hidden) == sorted([afv.key, afv.key, gun.key])
    full = determinize(game, "american", 4, hidden, 2, hexes, {"pz4h": 1, "pak40": 1, "stug3g": 1})
    assert sorted(full.units[u].type.key for u in hidden) == ["pak40", "pz4h", "stug3g"]
    # more AFVs must be than the AFV types left: the prior AFV for the one short
    short = determinize(game, "american", 4, hidden, 3, hexes, {"pz4h": 1, "pak40": 1, "ger_pf": 1})
    assert sorted(short.units[u].type.key for u in hidden) == sorted(["pz4h", afv.key, afv.key])
