"""Set-up placement (HX-12): each side places its units in their set-up areas, the scenario
defender first; recorded in the save and replayed like any other action. And format 1 saves
(one set-up phase) are migrated, not lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine import Game, IllegalAction
from game.engine.actions import BoreSight, EndPhase, Place
from game.files.replay import replay
from game.files.savegame import VERSION, read_save
from game.files.scenario import load_scenario
from game.files.session import new_game, resume
from game.files.shipped import scenarios_dir

DATA = Path(__file__).resolve().parents[1] / "data"


def duel() -> Game:
    return Game(load_scenario(scenarios_dir() / "tutorial-duel.toml").setup, 1)


def test_hx_12_the_defender_places_first_then_the_other_side():
    g = duel()
    assert g.phase == "setup" and g.to_act == "german"
    g.apply(Place("ger-pz4-1", "B3", 1))
    tank = g.units["ger-pz4-1"]
    assert tank.label == "B3" and tank.facing == 1 and tank.turret == 1
    with pytest.raises(IllegalAction, match="belongs to russian"):
        g.apply(Place("rus-t34-1", "K5", 3))
    g.apply(EndPhase())
    assert g.phase == "setup_attacker" and g.to_act == "russian"
    g.apply(Place("rus-t34-1", "K5", 3))
    g.apply(EndPhase())
    assert g.phase == "rally"
    with pytest.raises(IllegalAction, match="no place"):
        g.apply(Place("rus-t34-1", "K6", 3))


def test_hx_12_a_unit_is_placed_only_inside_its_area_and_one_vehicle_a_hex():
    g = duel()
    with pytest.raises(IllegalAction, match="outside .* set-up area .*columns A-E"):
        g.apply(Place("ger-pz4-1", "H3", 0))
    g.apply(EndPhase())
    other = g.units["rus-t34-2"].label
    with pytest.raises(IllegalAction, match="one per hex, HX-4"):
        g.apply(Place("rus-t34-1", other, 3))
    with pytest.raises(IllegalAction, match="0-5"):
        g.apply(Place("rus-t34-1", "K5", 6))


def test_hx_12_placing_drops_a_bore_sight_chosen_from_the_old_hex():
    g = duel()
    g.apply(BoreSight("ger-pz4-1", "D4"))
    events = g.apply(Place("ger-pz4-1", "B3", 0))
    assert g.units["ger-pz4-1"].bore_sight is None
    assert any(e.kind == "bore_sight" and "C6.42" in e.rules for e in events)


def test_hx_12_the_legal_actions_offer_every_hex_of_the_area():
    g = duel()
    hexes = {a.hex for a in g.legal_actions() if isinstance(a, Place)}
    assert hexes == set(g.setup_hexes("ger-pz4-1"))
    assert all(h[0] in "ABCDE" for h in hexes)


def test_placements_save_resume_and_replay(tmp_path):
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    session = new_game(sc, 5, tmp_path / "g.json")
    session.apply(Place("ger-pz4-1", "B3", 1))
    session.apply(EndPhase())
    session.apply(Place("rus-t34-2", "L2", 4))
    again = resume(tmp_path / "g.json")
    assert again.game.state_hash() == session.game.state_hash()
    assert again.game.units["rus-t34-2"].label == "L2"
    assert read_save(tmp_path / "g.json").actions[-1]["action"] == {
        "type": "place",
        "unit": "rus-t34-2",
        "hex": "L2",
        "facing": 4,
    }


def test_a_format_1_save_is_migrated_and_resumes(tmp_path):
    old = DATA / "v1-tutorial-duel.json"
    saved = read_save(old)
    assert saved.format_version == 1
    game = replay(saved)
    assert game.over and saved.format_version == VERSION
    kinds = [a["action"]["type"] for a in saved.actions[:4]]
    assert kinds[:3] == ["bore_sight", "end_phase", "end_phase"]  # the other side's set-up
    copy = tmp_path / "old.json"
    copy.write_text(old.read_text())
    assert resume(copy).game.state_hash() == game.state_hash()


def test_c6_42_the_enemy_never_sees_a_bore_sighted_location():
    g = duel()
    g.apply(BoreSight("ger-pz4-1", "D4"))
    assert "ger-pz4-1" not in {u["id"] for u in g.view("russian")}  # while it sets up (HX-12)
    g.apply(EndPhase())  # its set-up done: its units are shown (HX-12), the bore sight never
    own = next(u for u in g.view("german") if u["id"] == "ger-pz4-1")
    seen = next(u for u in g.view("russian") if u["id"] == "ger-pz4-1")
    assert own["bore_sight"] == "D4" and seen["bore_sight"] is None


@pytest.mark.parametrize("name", ["road-ambush", "steppe-200"])
def test_c6_42_hx_12_set_up_choices_are_the_brute_force_ones(name):
    """The bore sight hexes (in LOS, within 16 hexes, outside the own hex; C6.42) and the
    set-up hexes (the area's hexes a vehicle may stand in; HX-12), found from the map's arrays,
    equal a hex-by-hex search with the scalar LOS reference."""
    from game.board.hexes import label
    from game.board.los import los
    from game.engine.play.setup import BORE_SIGHT_RANGE, bore_sight_hexes, setup_hexes

    game = Game(load_scenario(scenarios_dir() / f"{name}.toml").setup, 1)
    board, state = game.board, game.state
    for unit in game.units.values():
        want_areas = [
            label(h)
            for h in board.hexes
            if unit.id in state.areas
            and state.areas[unit.id].contains(h)
            and (unit.type.category == "infantry" or board.terrain_at(h).enterable_by_vehicle)
        ]
        assert setup_hexes(state, unit) == want_areas
        if not unit.type.gun:
            continue
        near = [h for h in board.hexes if 0 < unit.hex.distance(h) <= BORE_SIGHT_RANGE]
        want = [label(h) for h in near if los(board, unit.hex, h).clear]
        assert bore_sight_hexes(state, unit) == want
