"""The play screen's frames while new terrain tiles come on screen (issue 44, item 7): a new
game's first frame and a zoom drew every tile on screen in one frame (the soak's slowest play
passes: 6-16 s on a loaded machine, the window drawing nothing else). Now a frame draws new
tiles for :data:`.tiles.TILE_BUDGET_S` (one at least), as the editor's do, and asks for the
next frames until the map is whole; the picture it ends at is the one drawn at once."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import clear_overlays

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.map.render import MapRenderer
from game.ui.map.tiles import TILE_BUDGET_S
from game.ui.play.screen import PlayScene


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def _counted(monkeypatch) -> list:
    drawn: list = []
    real = MapRenderer._render

    def counted(self, *args):
        drawn.append(args)
        return real(self, *args)

    monkeypatch.setattr(MapRenderer, "_render", counted)
    return drawn


def _whole(app, play: PlayScene) -> bytes:
    """The picture once every owed tile is drawn: the frames until the screen asks no more."""
    for _ in range(100):
        if not play.animating():
            break
        app.frame(0.016)
    assert not play.animating()
    return pygame.image.tobytes(app.screen, "RGB")


def _at_once(app, play: PlayScene) -> bytes:
    """The same screen with a renderer that draws every tile in its frame."""
    play.map.tile_budget = None
    play.map.renderer = MapRenderer(play.map.table.board)
    app.frame(0.016)
    return pygame.image.tobytes(app.screen, "RGB")


def test_a_new_games_first_frame_and_a_zoom_are_drawn_over_frames(app, monkeypatch):
    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / "four.json"), sc.title)
    assert play.map.tile_budget == TILE_BUDGET_S  # as the editor's
    play.map.tile_budget = 0.0  # one new tile a frame
    drawn = _counted(monkeypatch)
    app.push(play)
    app.frame(0.016)
    if app.scene is not play:  # the first handover: the map is first drawn once it is clicked
        pos = (app.size[0] // 2, app.size[1] // 2)
        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            app.handle(pygame.event.Event(kind, pos=pos, button=1))
        app.frame(0.016)
    assert app.scene is play
    assert len(drawn) == 1 and play.animating() and play.tiles_owed()
    whole = _whole(app, play)
    assert len(drawn) > 2  # every tile on screen, one a frame
    clear_overlays(app, play)
    play.map.tile_budget = 0.0
    drawn.clear()
    for kind in (pygame.KEYDOWN, pygame.KEYUP):  # a zoom: another zoom's tiles
        app.handle(pygame.event.Event(kind, key=pygame.K_MINUS, unicode="-", mod=0, scancode=0))
    app.frame(0.016)
    assert len(drawn) == 1 and play.animating()
    zoomed = _whole(app, play)
    assert len(drawn) > 1 and zoomed != whole
    assert _at_once(app, play) == zoomed  # the same map as drawn at once


def test_the_test_helpers_draw_the_whole_map(app):
    """:meth:`.App.pump` draws until no tile is owed, so that tests read the whole picture."""
    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    play = PlayScene(new_game(sc, 3, app.save_dir / "four.json"), sc.title)
    play.map.tile_budget = 0.0
    app.push(play)
    app.pump([])
    assert not play.tiles_owed()
    whole = pygame.image.tobytes(app.screen, "RGB")
    assert _at_once(app, play) == whole
