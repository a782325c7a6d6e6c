"""The set-up candidates (game/ai/candidates/setup.py, scored by game/ai/valuation/setup.py,
HX-12): each unit with a set-up area placed by its side's own reasoning (one of the best hexes,
drawn by the player's seed) and turned there; concealment (RD-11); level 2's Bore Sighting of
the enemy's way in (C6.42)."""

from __future__ import annotations

from ai_helpers import situation
from engine_helpers import make_setup

from game.ai.candidates.setup import (
    BoreSightCandidate,
    ConcealCandidate,
    PlaceCandidate,
    bore_value,
    placed_counts,
    spot,
)
from game.ai.tuning import tuning
from game.ai.valuation.approach import enemy_way
from game.ai.valuation.setup import SpotScore, options
from game.engine import Game, UnitSetup, Victory
from game.engine.actions import BoreSight, Conceal, EndPhase, Place
from game.engine.setup import SetupArea

ROWS = ["o o o o o o o o", "o o o o o o o o", "o o o w o o o o", "o o o w w w w w"]


def russian_set_up(second_gun: bool = False) -> Game:
    """The Russian (the scenario defender) sets up a Gun and an AT rifle team in columns F-H
    (``second_gun``: and a 45 mm Gun); the German must hold C1 and comes from the west edge."""
    units = [
        UnitSetup("ger-pz-1", "pz4h", "german", "A4", facing=0),
        UnitSetup("ger-pz-2", "pz4h", "german", "A2", facing=0),
        UnitSetup("rus-gun-1", "zis3", "russian", "G2", facing=3, area=SetupArea((5, 7))),
        UnitSetup("rus-sq-1", "rus_atr", "russian", "H3", area=SetupArea((5, 7))),
    ]
    if second_gun:
        units.append(UnitSetup("rus-gun-2", "m1937", "russian", "H1", area=SetupArea((5, 7))))
    setup = make_setup(
        units,
        rows=ROWS,
        victory=[Victory("german", "hold", hexes=("C1",))],
        first="german",
        defender="russian",
    )
    game = Game(setup, 4)
    assert game.phase == "setup" and game.to_act == "russian"
    return game


def unit_of(s, uid: str):
    return next(u for u in s.table.units() if u["id"] == uid)


def test_hx12_the_first_placement_is_to_a_hex_drawn_from_the_best_of_the_area():
    s = situation(russian_set_up(), "russian")
    option = PlaceCandidate().evaluate(s)
    assert option is not None and option.score == PlaceCandidate.score
    action = option.decision.action
    assert isinstance(action, Place) and action.unit == "rus-gun-1" and action in s.legal
    assert action.hex != "G2" and option.decision.why.startswith(f"sets up in {action.hex}")
    gun = unit_of(s, "rus-gun-1")
    seen = s.table.units()
    choices = options(s.table, "russian", gun, seen)
    way = enemy_way(s.table, "russian", seen)
    eyes = [s.table.viewshed(u["hex"])[0] for u in seen if u["side"] != "russian"]
    score = SpotScore(s, gun, seen, way, eyes, choices)
    top = max(score(h) for h in choices)
    assert score(action.hex) >= top - tuning().set_up.spread


def test_hx12_the_same_seed_draws_the_same_spot_and_the_seeds_draw_several():
    spots = set()
    for seed in range(8):
        s = situation(russian_set_up(), "russian", seed=seed)
        gun = unit_of(s, "rus-gun-1")
        seen = s.table.units()
        way = enemy_way(s.table, "russian", seen)
        eyes = [s.table.viewshed(u["hex"])[0] for u in seen if u["side"] != "russian"]
        found = spot(s, gun, seen, way, eyes)
        again = spot(situation(russian_set_up(), "russian", seed=seed), gun, seen, way, eyes)
        assert found is not None and found == again
        spots.add(found[0])
    assert len(spots) >= 2  # F4 and H4: woods out of the German's sight


def test_hx4_a_gun_never_sets_up_on_another_gun_or_vehicle_but_infantry_may():
    game = russian_set_up(second_gun=True)
    game.apply(Place("rus-gun-1", "F4", 3))
    s = situation(game, "russian")
    seen = s.table.units()
    assert "F4" in options(s.table, "russian", unit_of(s, "rus-sq-1"), seen)
    assert "F4" in options(s.table, "russian", unit_of(s, "rus-gun-1"), seen)  # its own
    assert "F4" not in options(s.table, "russian", unit_of(s, "rus-gun-2"), seen)
    assert "G4" in options(s.table, "russian", unit_of(s, "rus-gun-2"), seen)


def test_hx12_a_unit_placed_twice_is_done():
    game = russian_set_up()
    game.apply(Place("rus-gun-1", "F4", 3))
    game.apply(Place("rus-gun-1", "F4", 2))
    s = situation(game, "russian")
    assert placed_counts(s.table) == {"rus-gun-1": 2}
    option = PlaceCandidate().evaluate(s)
    assert option is not None and option.decision.action.unit == "rus-sq-1"


def test_rd11_a_concealable_unit_sets_up_concealed():
    s = situation(russian_set_up(), "russian")  # in the open, in the German's sight
    assert not [a for a in s.legal if isinstance(a, Conceal)]
    assert ConcealCandidate().evaluate(s) is None
    game = russian_set_up()
    game.apply(Place("rus-gun-1", "F4", 3))  # woods out of the German's sight
    s = situation(game, "russian")
    option = ConcealCandidate().evaluate(s)
    assert option is not None and option.decision.action == Conceal("rus-gun-1")


def test_c6_42_level_2_bore_sights_the_hex_the_enemy_must_hold():
    s = situation(russian_set_up(), "russian")
    option = BoreSightCandidate().evaluate(s)
    assert option is not None and option.decision.action == BoreSight("rus-gun-1", "C1")
    assert "C6.42" in option.decision.why
    assert BoreSightCandidate().evaluate(situation(russian_set_up(), "russian", level=1)) is None


def test_hx2_a_gun_bore_sights_nothing_outside_its_covered_arc():
    s = situation(russian_set_up(), "russian")
    gun = unit_of(s, "rus-gun-1")  # in G2, its front hexside towards F1
    behind = BoreSight("rus-gun-1", "H2")
    assert bore_value(s.table, gun, behind, {"H2"}, set()) is None
    aside = BoreSight("rus-gun-1", "D2")  # 41 degrees off its facing
    assert bore_value(s.table, gun, aside, {"D2"}, set()) is None
    ahead = BoreSight("rus-gun-1", "C1")  # 14 degrees off, 4 hexes
    t = tuning().set_up
    assert bore_value(s.table, gun, ahead, {"C1"}, set()) == t.bore_hold - t.bore_range * 4
    assert bore_value(s.table, gun, ahead, set(), {"C1"}) == t.bore_way - t.bore_range * 4
    assert bore_value(s.table, gun, ahead, set(), set()) == -t.bore_range * 4


def test_the_set_up_ends_with_the_pass_candidate():
    game = russian_set_up()
    game.apply(EndPhase())
    s = situation(game, "german")
    assert PlaceCandidate().evaluate(s) is None  # the German has no set-up area
    from game.ai.candidates.pass_ import PassCandidate

    decision = PassCandidate().evaluate(s).decision
    assert decision.action == EndPhase() and decision.why == "set-up done"
