"""Path moves: the engine's cheapest route (RD-10 costs, HX-3 moves and turns) and the screen's
two clicks that show it and then move along it through Game.apply, stopping at each Defensive
First Fire chance (C6.17)."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import click_hex, key, select

from game.engine import Game
from game.engine.actions import EndPhase, Move, Pass, Turn
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.overlays.scenes import DffPrompt
from game.ui.play.screen import PlayScene


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def lesson5_movement(seed: int = 1) -> Game:
    sc = load_scenario(scenarios_dir() / "lesson-5-dff.toml")
    game = Game(sc.setup, seed)
    game.apply(EndPhase())
    while game.nothing_to_do():
        game.apply(EndPhase())
    assert (game.phase, game.to_act) == ("movement", "russian")
    return game


def test_rd10_the_route_costs_what_its_steps_cost_when_applied():
    game = lesson5_movement()
    route = game.route("rus-t34-1", "A5")
    assert route is not None
    assert route.steps[0] == Turn("rus-t34-1", 5)  # HX-3: it turns before it drives south
    assert route.hexes == ("A3", "A4", "A5")
    for step in route.steps:
        game.apply(step)
        if game.dff_pending:
            game.apply(Pass())
    tank = game.units["rus-t34-1"]
    assert tank.label == "A5" and tank.mp_spent == pytest.approx(route.mp) == 5.0  # 1 start


def test_rd10_the_route_takes_the_road_at_half_an_mp_a_hex():
    game = lesson5_movement()
    route = game.route("rus-t34-1", "F4")
    assert route is not None and route.hexes == ("B2", "C3", "D3", "E4", "F4")
    assert route.mp == pytest.approx(1 + 5 * 0.5)  # the start MP, then road to road


def test_no_route_beyond_the_mp_left_nor_outside_the_movement_phase():
    game = lesson5_movement()
    assert game.route("rus-t34-1", "I6") is not None
    game.units["rus-t34-1"].mp_spent = 16  # 2 MP left
    assert game.route("rus-t34-1", "I6") is None
    assert game.route("ger-pz4-1", "G1") is None  # not the moving side's
    assert lesson5_movement().route("rus-t34-1", "Z9") is None  # off the map


def test_two_clicks_move_along_the_path_stopping_at_each_dff_chance(app):
    sc = load_scenario(scenarios_dir() / "lesson-5-dff.toml")
    session = new_game(sc, 2, app.save_dir / "l5.json")
    play = PlayScene(session, sc.title)
    app.push(play)
    app.pump([])
    key(app, pygame.K_e, "e")  # the German set-up ends; the Russian moves
    assert play.session.game.phase == "movement"
    select(app, play, "rus-t34-1")
    before = play.session.game.actions_applied
    click_hex(app, play, "F4")  # first click: the path shown, nothing moved
    state = play.map.state
    assert state.route is not None and state.route.hexes[-1] == "F4"
    assert "Path to F4: 3.5 MP" in state.message and "could fire at it in D3" in state.message
    assert play.session.game.actions_applied == before
    click_hex(app, play, "F4")  # second click: along it, to the first DFF chance (D3)
    assert play.session.game.units["rus-t34-1"].label == "D3"
    assert isinstance(app.scene, DffPrompt) and "Stopped in D3" in state.message
    key(app, pygame.K_SPACE, " ")  # the German lets it go on
    assert play.map.state.selected == "rus-t34-1"
    click_hex(app, play, "F4")  # one click goes on, as the bar said
    assert play.session.game.units["rus-t34-1"].label == "E4"  # to the next DFF chance
    moves = [a for a in (r["action"] for r in session.saved.actions) if a["type"] == "move"]
    assert [m["to"] for m in moves][:3] == ["B2", "C3", "D3"]
    assert all(Move(**{k: v for k, v in m.items() if k != "type"}) for m in moves)


def infantry_movement() -> Game:
    """A Russian ATR squad (4 MF) in A2 of an open map, a German Panzer IV in C2: a hex it
    may not enter (RD-10)."""
    from engine_helpers import make_setup, to_phase

    from game.engine import UnitSetup

    units = [
        UnitSetup("rus-sq-1", "rus_atr", "russian", "A2", facing=0),
        UnitSetup("ger-pz-1", "pz4h", "german", "C2", facing=3),
    ]
    game = Game(make_setup(units, rows=["o o o o o o o"] * 3), 1)
    to_phase(game, "movement", "russian")
    return game


def test_rd10_infantry_has_a_route_of_moves_within_its_mf_round_an_enemy():
    game = infantry_movement()
    route = game.route("rus-sq-1", "D2")
    assert route is not None and all(isinstance(s, Move) for s in route.steps)
    assert "C2" not in route.hexes and route.hexes[-1] == "D2"  # never into the enemy's hex
    assert route.mp == len(route.hexes) <= 4  # 1 MF a hex of open ground
    for step in route.steps:
        game.apply(step)
        if game.dff_pending:
            game.apply(Pass())
    squad = game.units["rus-sq-1"]
    assert squad.label == "D2" and squad.mp_spent == route.mp
    assert infantry_movement().route("rus-sq-1", "G2") is None  # 6 hexes: beyond its 4 MF
