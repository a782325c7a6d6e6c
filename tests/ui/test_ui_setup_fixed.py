"""HX-12 in the window: a unit the side may not place says why when it is selected (an ASL
player's trial: the hedgerow's Jeep could not be dragged and nothing said why)."""

from __future__ import annotations

from ui_driver import clear_overlays, click_hex, perform

from game.engine.actions import EndPhase
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.play.screen import PlayScene


def test_hx12_a_unit_whose_hex_the_scenario_fixes_says_so_when_selected_in_set_up(app):
    sc = load_scenario(scenarios_dir() / "hedgerow-chart.toml")
    play = PlayScene(new_game(sc, 7, app.save_dir / "hedgerow.json"), sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    perform(app, play, EndPhase())  # the German set-up, as the file has it
    clear_overlays(app, play)
    assert play.session.game.phase == "setup_attacker" and play.viewer == "american"
    click_hex(app, play, "P2")
    assert play.map.state.selected == "us-jeep-1"
    assert play.map.state.message == (
        "Jeep stays in set-up: the scenario fixes Jeep's hex (P2) (HX-12)"
    )
    click_hex(app, play, "P5")  # a Sherman: its set-up area is N-P
    assert play.map.state.selected == "us-m4-1" and play.map.state.message == ""
