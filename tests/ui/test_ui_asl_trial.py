"""What an ASL player's trial against the computer found in the window (2026-12-06): the
hedgerow's Jeep could not be dragged in set-up and nothing said why (HX-12); the victory
conditions were on the start screen only (RD-13)."""

from __future__ import annotations

from ui_driver import clear_overlays, click_hex, drawn_lines, perform

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


def test_rd13_the_side_panel_lists_the_victory_conditions_while_no_unit_is_selected(
    app, monkeypatch
):
    sc = load_scenario(scenarios_dir() / "hedgerow-chart.toml")
    play = PlayScene(new_game(sc, 7, app.save_dir / "hedgerow.json"), sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    drawn = drawn_lines(monkeypatch)
    app.frame(0.016)
    assert [t for t in drawn if t.startswith(("To win", "  "))] == [
        "To win (RD-13):",
        "  german: eliminate 3 enemy AFVs",
        "  american: eliminate 2 enemy AFVs",
        "  american: exit 2 AFVs off the west edge",
        "  otherwise at the end of turn 6: german wins (HX-11)",
    ]
    drawn.clear()
    click_hex(app, play, "D6")  # the Panzer IV selected: its lines instead
    app.frame(0.016)
    assert "To win (RD-13):" not in drawn
