"""The editor's frames while its map is read again (issue 44, item 7): an undo, a redo or a
resize brings a new board, and its new renderer drew every terrain tile on screen in the one
frame that took it (4-5 s frames of ``hexfire bench soak`` in the editor, on a loaded machine;
the window's thread was drawing, not waiting). Now a frame draws new tiles for a while (one at
least), the last renderer's tiles standing in, and the next frames draw the rest."""

from __future__ import annotations

import pygame
from test_editor import open_editor

from game.files.scenario_edits import SetHexes
from game.ui.edit import screen
from game.ui.map.render import MapRenderer


def test_a_map_read_again_is_drawn_over_frames_and_ends_the_same(app, tmp_path, monkeypatch):
    monkeypatch.setattr(screen, "TILE_BUDGET_S", 0.0, raising=False)  # one new tile a frame
    scene, _ = open_editor(app, tmp_path, "bagration-4-boards.toml")
    assert scene.worker is not None
    scene.worker.apply(SetHexes(("E4",), terrain="w"), repaints=False)
    scene.worker.wait()
    app.frame(0.016)
    drawn: list[tuple] = []
    real = MapRenderer._render

    def counted(self, *args):
        drawn.append(args)
        return real(self, *args)

    monkeypatch.setattr(MapRenderer, "_render", counted)
    scene.worker.undo()  # the map read again: a new board, a new renderer
    scene.worker.wait()
    app.frame(0.016)
    assert len(drawn) == 1 and scene.animating()  # the window asks for the next frames
    for _ in range(100):
        if not scene.animating():
            break
        app.frame(0.016)
    assert not scene.animating() and len(drawn) > 2  # every tile on screen, one a frame
    picture = pygame.image.tobytes(app.screen, "RGB")
    scene.view.tile_budget = None
    scene.view.renderer = MapRenderer(scene.sketch.board)
    app.frame(0.016)
    assert pygame.image.tobytes(app.screen, "RGB") == picture  # the same map, drawn at once


def test_the_four_board_map_opens_filling_the_editors_view_with_no_empty_band(app, tmp_path):
    """A map too large to fit opens at the readable zoom about its middle: the zoom was changed
    alone, keeping the smallest zoom's offset, and the editor (no side's units to centre on)
    showed a band of empty background above the four-board map's first row."""
    from game.ui.map.geometry import map_extent
    from game.ui.style import style

    scene, _ = open_editor(app, tmp_path, "bagration-4-boards.toml")
    for _ in range(100):
        app.frame(0.016)
        if not scene.animating():
            break
    m, cam, board = scene.view.rect, scene.view.camera, scene.sketch.board
    x0, y0, x1, y1 = map_extent(board.columns, board.rows)
    assert y0 * cam.zoom + cam.oy <= m.top and y1 * cam.zoom + cam.oy >= m.bottom
    assert x0 * cam.zoom + cam.ox <= m.left and x1 * cam.zoom + cam.ox >= m.right
    background = tuple(style().ui["background"])
    band = [app.screen.get_at((x, y))[:3] for x in range(200, m.right, 97) for y in (60, 120)]
    assert background not in band
