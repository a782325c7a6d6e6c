"""A scenario defender's set-up Bore Sighted Location written in the scenario file
(``bore_sight = "D7"`` on a unit, issue 42): refused with a located reason where the BoreSight
set-up action would refuse it (C6.41-C6.42), applied at the start as that action applies it,
hidden from the other side (C6.42), dropped when the unit is placed elsewhere at set-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine.actions import BoreSight, Place
from game.engine.game import Game
from game.files.scenario import parse_scenario
from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import MoveUnit, SetUnit

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "scenarios" / "road-ambush.toml"


def with_bore_sight(uid: str = "rus-gun-2", spot: str = "D7") -> ScenarioDoc:
    doc = ScenarioDoc.load(AMBUSH)
    checked = doc.apply(SetUnit(uid, "bore_sight", spot))
    assert checked.errors == (), checked.errors
    return doc


def test_the_edit_writes_one_key_and_undoes_to_the_same_bytes():
    doc = with_bore_sight()
    before, after = AMBUSH.read_text().splitlines(), doc.text.splitlines()
    assert [b for b in after if b not in before] == ['bore_sight = "D7"']
    assert doc.undo_title == "rus-gun-2: bore_sight D7"
    doc.undo()
    assert doc.text == AMBUSH.read_text()
    doc.redo()
    doc.apply(SetUnit("rus-gun-2", "bore_sight", None))
    assert doc.text == AMBUSH.read_text()


def test_c6_42_the_game_starts_as_if_the_defender_had_bore_sighted_at_set_up():
    """C6.42: the Bore Sighted Location is recorded at set-up, as the BoreSight action does."""
    scenario = with_bore_sight().check().scenario
    assert scenario is not None
    written = Game(scenario.setup, 5)
    acted = Game(parse_scenario(AMBUSH.read_text(), str(AMBUSH)).setup, 5)
    acted.apply(BoreSight("rus-gun-2", "D7"))
    assert written.units["rus-gun-2"].bore_sight == "D7"
    assert {k: u.key() for k, u in written.units.items()} == {
        k: u.key() for k, u in acted.units.items()
    }
    # the unit has its one Bore Sighting (C6.42): the action is not offered again
    assert written.check(BoreSight("rus-gun-2", "D8")) is not None
    assert not any(
        isinstance(a, BoreSight) and a.unit == "rus-gun-2" for a in written.legal_actions()
    )


def test_c6_42_the_bore_sighted_location_is_hidden_from_the_enemy():
    """C6.42: recorded in secret; the other side's view never holds it."""
    scenario = with_bore_sight().check().scenario
    assert scenario is not None
    game = Game(scenario.setup, 5)
    own = {u.id: u for u in game.side_view("russian").units}
    assert own["rus-gun-2"].bore_sight == "D7"
    enemy = game.side_view("german").units
    assert all(u.bore_sight is None for u in enemy)
    assert "D7" not in str(game.view("german"))


def test_c6_42_placed_elsewhere_at_set_up_the_bore_sight_is_dropped():
    scenario = with_bore_sight().check().scenario
    assert scenario is not None
    game = Game(scenario.setup, 5)
    game.apply(Place("rus-gun-2", "C8", 0))
    assert game.units["rus-gun-2"].bore_sight is None


@pytest.mark.parametrize(
    ("edits", "line", "reason"),
    [
        ((SetUnit("rus-gun-1", "bore_sight", "E2"),), 50, "E2 is the unit's own hex"),
        ((SetUnit("rus-gun-1", "bore_sight", "H2"),), 50, "H2 is not in the LOS from E2 (C6.42)"),
        (
            (MoveUnit("rus-gun-1", "A2"), SetUnit("rus-gun-1", "bore_sight", "R2")),
            50,
            "R2 is 17 hexes from A2: 16 at most (C6.42)",
        ),
        (
            (SetUnit("rus-atr-1", "bore_sight", "C4"),),
            73,
            "only a Gun or a vehicle's main armament may Bore Sight (C6.41)",
        ),
        (
            (SetUnit("ger-pz4-1", "bore_sight", "P4"),),
            88,
            "only the scenario defender (russian) may Bore Sight (C6.41)",
        ),
        ((SetUnit("rus-gun-1", "bore_sight", "Z2"),), 50, "Z2 is off the map"),
    ],
)
def test_each_refusal_is_a_located_error(edits, line, reason):
    doc = ScenarioDoc.load(AMBUSH)
    for edit in edits:
        checked = doc.apply(edit)
    assert checked.scenario is None
    assert any(e.startswith(f"{AMBUSH}:{line}: units[") and reason in e for e in checked.errors), (
        checked.errors
    )
