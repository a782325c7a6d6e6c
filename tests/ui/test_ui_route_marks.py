"""A planned move's rings (the path preview): a red disc where an enemy the side knows of could
fire (RD-18), the start hex included when MP are spent there first (HX-5: a Defensive First
Fire chance after the start MP and after each pivot; an ASL player's trial found the preview
silent about the pivot shot in the start hex)."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import clear_overlays, click_hex, drawn_lines, hex_pos, select

from game.engine.actions import EndPhase, Move, Turn
from game.engine.play.paths import Route
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.ui.map.view import route_marks
from game.ui.play.screen import PlayScene
from game.ui.style import style

SCENARIO = """
id = "route-marks"
title = "Route marks"
briefing = "A T-34 in the sight of a Panzer IV."
date = "1943-07"
turns = 2

[map]
columns = 8
rows = 5
hexes = ["o o o o o o o o"] * 5

[sides.german]
nationality = "german"
defender = true

[sides.russian]
nationality = "russian"
moves_first = true

[[units]]
id = "ger-pz-1"
type = "pz4h"
side = "german"
hex = "A3"
facing = 0

[[units]]
id = "rus-t34-1"
type = "t34m43"
side = "russian"
hex = "F3"
facing = 3

[[units]]
id = "rus-sq-1"
type = "rus_atr"
side = "russian"
hex = "F5"

[[victory]]
side = "russian"
kind = "eliminate"
count = 1

[[victory]]
side = "german"
kind = "eliminate"
count = 1
"""


def test_hx5_the_start_hex_is_ringed_when_mp_are_spent_there_first():
    route = Route("u", (Turn("u", 2), Move("u", "F2")), ("F2",), 2.0)
    still = {"hex": "F3", "is_vehicle": True}
    assert route_marks(route, still, {"F3"}) == [("F3", True), ("F2", False)]
    moving = {"hex": "F3", "is_vehicle": True, "moving": True}
    assert route_marks(route, moving, {"F3", "F2"}) == [("F3", True), ("F2", True)]
    straight = Route("u", (Move("u", "E3"),), ("E3",), 1.0)
    assert route_marks(straight, moving, {"F3"}) == [("E3", False)]  # no MP in F3 now
    assert route_marks(straight, {"hex": "F3"}, {"F3"}) == [("E3", False)]  # Infantry


@pytest.fixture
def play(app, tmp_path) -> PlayScene:
    path = tmp_path / "route-marks.toml"
    path.write_text(SCENARIO.replace('["o o o o o o o o"] * 5', str(["o o o o o o o o"] * 5)))
    sc = load_scenario(path)
    scene = PlayScene(new_game(sc, 3, app.save_dir / "route-marks.json"), sc.title)
    app.push(scene)
    app.pump([])
    game = scene.session.game
    for _ in range(10):
        clear_overlays(app, scene)
        if game.phase == "movement" and game.phasing == "russian":
            break
        scene.apply(EndPhase(), side=game.to_act)
    assert game.phase == "movement"
    return scene


def test_hx5_the_path_preview_rings_the_start_hex_in_an_enemys_sight(app, play):
    clear_overlays(app, play)
    select(app, play, "rus-t34-1")
    click_hex(app, play, "G3")  # behind it: the path pivots in F3 first (HX-3)
    route = play.map.state.route
    assert route is not None and isinstance(route.steps[0], Turn)
    assert "in F3 (before it leaves), G3 (red)" in play.map.state.message
    z = play.map.camera.zoom
    bad = tuple(style().ui["bad"])[:3]

    def red_edge() -> bool:  # the hex's edge, beside the counter that covers its middle
        x, y = hex_pos(play, "F3")
        app.frame(0.016)
        row = [tuple(app.screen.get_at((x + d, y)))[:3] for d in range(z // 2, 2 * z)]
        return bad in row

    assert red_edge()


def test_rd10_two_clicks_move_infantry_along_its_path(app, play):
    """Infantry too: the first click on a distant hex shows its path and its MF, the second
    walks it there (RD-10; an ASL player's trial found a squad moved only hex by hex)."""
    clear_overlays(app, play)
    select(app, play, "rus-sq-1")
    game = play.session.game
    click_hex(app, play, "C5")
    route = play.map.state.route
    assert route is not None and route.hexes[-1] == "C5" and len(route.hexes) == 3
    assert play.map.state.message.startswith("Path to C5: 3 MF, 3 hexes")
    assert game.units["rus-sq-1"].label == "F5"
    click_hex(app, play, "C5")
    clear_overlays(app, play)
    assert game.units["rus-sq-1"].label == "C5"


def test_rd10_a_click_beyond_reach_says_there_is_no_path_there(app, play):
    """A distant hex out of reach: no path there with what it has left (the trial read "A1 is
    not adjacent to F5", the engine's word for a single step)."""
    clear_overlays(app, play)
    select(app, play, "rus-sq-1")
    click_hex(app, play, "A1")
    assert play.map.state.message == "no path to A1 with the 4 MF left (RD-10)"
    assert play.session.game.units["rus-sq-1"].label == "F5"


def test_rd12_end_phase_ends_a_squads_move_first(app, play):
    """A squad that has walked part of its way is still moving: End Phase ends its move (it
    has no stop to choose, unlike a vehicle, HX-16) and then the phase."""
    from ui_driver import key

    clear_overlays(app, play)
    select(app, play, "rus-sq-1")
    game = play.session.game
    click_hex(app, play, "F4")  # one step: its move goes on
    assert game.units["rus-sq-1"].label == "F4" and game.state.moving_unit == "rus-sq-1"
    app.prefs.confirm_end_phase = False
    key(app, pygame.K_e, "e")
    clear_overlays(app, play)
    assert game.phase != "movement" or game.phasing != "russian"
    assert game.units["rus-sq-1"].moved and not game.units["rus-sq-1"].moving


@pytest.mark.parametrize("reason", ["russian: exit 1 unit off the east edge (RD-13)", None])
def test_rd13_the_result_shows_the_last_shot_only_when_a_shot_decided_it(
    app, play, monkeypatch, reason
):
    """An earlier shot's banner is not "the last shot" of a game an exit decided (an ASL
    player's trial read B3 -> B4 on the result of a game won by two tanks off the map)."""
    from game.ui.map.viewstate import ShotBanner
    from game.ui.overlays.scenes import EndScene

    game = play.session.game
    game.state.over, game.state.winner = True, "russian"
    game.state.end_reason = reason or "russian: eliminate 1 enemy AFV (RD-13)"
    play.map.state.banner = ShotBanner("F3", "A3", "hit: burns", game.actions_applied)
    drawn = drawn_lines(monkeypatch)
    app.push(EndScene(play))
    app.frame(0.016)
    shown = any(t.startswith("The last shot: F3 -> A3") for t in drawn)
    assert shown == (reason is None)
