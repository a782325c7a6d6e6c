"""The screen on the largest map (200 x 200 hexes): terrain drawn in tiles as they come on
screen, seamless, within a bounded cache, at every zoom."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import clear_overlays, hex_pos, key, select

from game.board.mapgen import random_map
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.map import render
from game.ui.map.geometry import ZOOMS, Camera
from game.ui.map.render import MapRenderer
from game.ui.map.tiles import budget
from game.ui.play.screen import PlayScene
from game.ui.style import style


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def _start(app, name: str) -> PlayScene:
    """A new game of shipped scenario ``name`` on the screen, past the first handover."""
    sc = load_scenario(scenarios_dir() / f"{name}.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / f"{name}.json"), sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    app.pump([])
    return play


@pytest.mark.parametrize("zoom", [16, 31, 68])
def test_terrain_tiles_join_without_seams(app, monkeypatch, zoom):
    """The map drawn from 512-pixel tiles is pixel for pixel the map drawn as one tile."""
    board = random_map(30, 25, seed=3)
    shots = []
    for size in (512, 4096):
        monkeypatch.setattr(render, "TILE", size)
        cam = Camera()
        cam.zoom, cam.ox, cam.oy = zoom, 37.3, 21.6
        view = pygame.Rect(0, 0, 1300, 900)
        surf = pygame.Surface(view.size)
        MapRenderer(board).draw(surf, cam, view)
        shots.append(pygame.image.tobytes(surf, "RGB"))
    assert shots[0] == shots[1]


def test_a_200_by_200_map_plays_at_every_zoom_within_the_tile_cache(app):
    play = _start(app, "steppe-200")
    assert play.session.game.board.size == 40_000
    unit = next(u for u in play.session.game.units.values() if u.side == play.session.game.to_act)
    select(app, play, unit.id)
    background = pygame.Color(app.screen.get_at(play.rects()["map"].topleft))
    for _ in range(len(ZOOMS)):  # out to the whole map, then in to the closest zoom
        key(app, pygame.K_MINUS, "-")
    assert play.map.camera.zoom == ZOOMS[0]
    for _ in range(len(ZOOMS)):
        key(app, pygame.K_EQUALS, "=")
        for k in (pygame.K_LEFT, pygame.K_DOWN, pygame.K_RIGHT, pygame.K_UP):
            key(app, k)
        assert play.map.renderer._cache.nbytes <= budget()
    assert play.map.camera.zoom == ZOOMS[-1]
    # the terrain is on screen around the selected unit, not the background
    x, y = hex_pos(play, unit.label)
    assert play.rects()["map"].collidepoint(x, y)
    assert pygame.Color(app.screen.get_at((x, y - 20))) != background


def test_rd9_the_viewshed_overlay_on_a_200_by_200_map_shades_the_hexes_on_screen(app):
    """Only the hexes on screen are looked at; those are shaded exactly as the engine's
    on-demand viewshed (the same function the small maps use)."""
    from game.ui.map.analysis import viewshed

    play = _start(app, "steppe-200")
    unit = next(u for u in play.session.game.units.values() if u.side == play.viewer)
    select(app, play, unit.id)
    key(app, pygame.K_v, "v")
    assert play.map.analysis.overlay == "viewshed"
    board = play.session.game.board
    shown = play.map.renderer.on_screen(play.map.camera, play.rects()["map"])
    assert 0 < len(shown) < board.size // 20
    seen, hindered, blocked = viewshed(play.session.game, unit.label, shown)
    clear, hind = play.session.game.viewshed(unit.label)
    for j in shown:
        h = board.hex_at(int(j))
        assert (h in blocked) == (not clear[j])
        assert (h in hindered) == (bool(clear[j]) and bool(hind[j]))
    m = play.rects()["map"]
    target = next(h for h in blocked if m.collidepoint(play.map.camera.hex_to_screen(h)))
    x, y = (int(v) for v in play.map.camera.hex_to_screen(target))
    shaded = app.screen.get_at((x + 5, y + 12))
    key(app, pygame.K_v, "v")
    assert sum(shaded[:3]) < sum(app.screen.get_at((x + 5, y + 12))[:3])


def test_the_overview_map_shows_a_large_map_and_a_click_there_goes_there(app):
    from ui_driver import click

    from game.ui.map.geometry import hex_of_world

    play = _start(app, "steppe-200")
    overview = play.map.minimap.rect
    assert overview is not None and overview.width > 100
    board = play.session.game.board
    m = play.rects()["map"]
    # a click near the overview's lower right corner: the map's centre goes there
    spot = (overview.right - 12, overview.bottom - 12)
    click(app, spot)
    wx, wy = play.map.minimap.to_world(spot)
    centre = play.map.camera.screen_to_world(*m.center)
    assert abs(centre[0] - wx) < 0.5 and abs(centre[1] - wy) < 0.5
    there = hex_of_world(*centre)
    col, row = board.index(there) % board.columns, board.index(there) // board.columns
    assert col > 180 and row > 170  # the far corner of the 200 x 200 map
    assert play.map.state.selected is None  # a click on the overview selects nothing
    # the frame round the part on screen is drawn there, in the selection colour
    app.pump([])
    left, top = play.map.minimap.to_screen(*play.map.camera.screen_to_world(*m.topleft))
    frame = pygame.Color(app.screen.get_at((int(left) + 1, int(top) + 8)))
    assert frame == pygame.Color(*style().ui["select"])


def test_no_overview_when_the_whole_map_is_on_screen(app):
    play = _start(app, "tutorial-duel")
    assert play.map.minimap.rect is None
