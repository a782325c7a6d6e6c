"""Issue 38, newcomer item 5: labels and boxes keep off what the player must see or click: the
last shot's banner and the LOS thread's label beside the counters (not over their names), a box
in a corner over the fewest counters when no corner is clear, the Defensive First Fire prompt
off an enemy tank."""

from __future__ import annotations

import pygame
import pytest
from ui_driver import clear_overlays

from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir
from game.ui.map.analysis import draw_thread, trace
from game.ui.map.layout import along, clear_corner, clear_spot, counter_box
from game.ui.map.viewstate import ShotBanner
from game.ui.play.screen import PlayScene


@pytest.fixture(autouse=True)
def _data_dir(data_dir):
    return data_dir


def _duel(app) -> PlayScene:
    sc = load_scenario(scenarios_dir() / "tutorial-duel.toml")
    play = PlayScene(new_game(sc, 7, app.save_dir / "duel.json"), sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    return play


def _counters(play: PlayScene) -> list[pygame.Rect]:
    cam, board = play.map.camera, play.map.table.board
    return [
        counter_box(cam.hex_to_screen(board.parse(u["hex"])), cam.zoom) for u in play.map.units()
    ]


def test_a_label_between_two_neighbouring_counters_covers_neither():
    """Midway between neighbours (the old place) a banner covered both names; the spot chosen
    is beside the line, clear of both, and inside the map."""
    area = pygame.Rect(0, 0, 900, 600)
    a, b, zoom = (400.0, 300.0), (400.0, 362.0), 36
    counters = [counter_box(a, zoom), counter_box(b, zoom)]
    mid = pygame.Rect(0, 0, 220, 24)
    mid.center = (400, int(331 - zoom * 0.5))
    assert any(mid.colliderect(c) for c in counters)  # the old place
    box = clear_spot(area, (220, 24), along(a, b, zoom, (220, 24)), counters)
    assert not any(box.colliderect(c) for c in counters) and area.contains(box)


def test_a_label_near_the_maps_edge_stays_on_the_map():
    area = pygame.Rect(0, 0, 900, 600)
    box = clear_spot(area, (300, 24), along((880.0, 590.0), (860.0, 560.0), 36, (300, 24)), [])
    assert area.contains(box)


def test_a_corner_box_with_no_clear_corner_takes_the_one_over_the_fewest_counters():
    """It took the first corner when every corner had a counter, however many it covered."""
    area = pygame.Rect(0, 0, 800, 600)
    order = ("top right", "top left", "bottom right", "bottom left")
    crowded_top_right = [(700.0, 30.0), (740.0, 60.0), (760.0, 40.0)]
    one_each = [(40.0, 30.0), (700.0, 560.0), (40.0, 560.0)]
    box = clear_corner(area, (200, 100), crowded_top_right + one_each, 10, order, 8)
    assert box.left < 400 and box.top < 300  # top left: one counter, not three
    # points it must keep clear come first; those it would rather keep clear break the tie
    box = clear_corner(area, (200, 100), [(700.0, 30.0)], 10, order, 8, rather_clear=one_each[:1])
    assert box.top > 300 and box.left > 400  # bottom right: clear of both


def test_the_shot_banner_on_the_map_is_drawn_beside_the_counters(app):
    """A shot from L5 at the hex below it (L7's T-34 beneath): the banner covers no counter."""
    play = _duel(app)
    play.map.state.banner = ShotBanner("L5", "L6", "HIT: To Kill 7 vs Final TK# 11: KIA", 0)
    app.pump([])
    box = play.map.banner_rect
    assert box.width > 0 and play.map.rect.contains(box)
    assert not [c for c in _counters(play) if box.colliderect(c)]


def test_the_los_threads_label_keeps_off_the_counters(app):
    """The thread's label sat over the target hex: over the counter there and its name."""
    play = _duel(app)
    surface = app.screen
    thread = trace(play.map.table, "L5", "C4")
    cam = play.map.camera
    counters = _counters(play)
    surface.set_clip(play.map.rect)
    seen = []
    original = pygame.draw.rect

    def spy(surf, color, rect, *args, **kwargs):
        seen.append(pygame.Rect(rect))
        return original(surf, color, rect, *args, **kwargs)

    pygame.draw.rect = spy
    try:
        draw_thread(surface, cam, thread, counters)
    finally:
        pygame.draw.rect = original
        surface.set_clip(None)
    label = seen[-1]
    assert not [c for c in counters if label.colliderect(c)]


def test_hex_labels_read_on_every_terrain_and_level():
    """Hex labels were grey on green (contrast 2.2 on woods on a hill): the label takes the
    dark or the light ink, whichever reads better, at least 4:1 everywhere (4.5:1, the WCAG
    figure for text, on level ground and the first level)."""
    from game.ui.map.render import _mix
    from game.ui.style import contrast, style

    st = style()
    worst = {}
    for name, terrain in st.terrain.items():
        for level in range(5):
            fill = terrain.fill
            if level:
                fill = _mix(fill, st.level_tint, min(0.75, st.level_step * level))
            worst[(name, level)] = contrast(st.label_ink(fill), fill)
    assert min(worst.values()) >= 4.0, worst
    assert min(v for (_, level), v in worst.items() if level <= 1) >= 4.5, worst


def test_hex_labels_are_readable_at_the_four_board_maps_opening_zoom(app):
    """The four boards open at the readable zoom (25): the labels were 9-pixel text there."""
    from game.ui.map.render import label_size
    from game.ui.map.view import READABLE_ZOOM

    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    play = PlayScene(new_game(sc, 7, app.save_dir / "b4.json"), sc.title)
    app.push(play)
    app.pump([])
    assert play.map.camera.zoom == READABLE_ZOOM
    assert label_size(play.map.camera.zoom) >= 11


def test_hx12_the_set_up_area_is_edged_so_it_reads_on_a_green_map(app):
    """A newcomer could not find the set-up area on the four-board map (a green tint on green
    ground): its border is drawn in the area-edge ink while the side sets up, and gone after."""
    from game.engine.actions import EndPhase
    from game.ui.style import style

    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    play = PlayScene(new_game(sc, 7, app.save_dir / "b4.json"), sc.title)
    app.push(play)
    app.pump([])
    clear_overlays(app, play)
    edge = pygame.Color(*style().ui["area_edge"])

    def edge_pixels() -> int:
        m = play.map.rect
        shot = app.screen.subsurface(m)
        return sum(
            1
            for x in range(0, m.width, 2)
            for y in range(0, m.height, 2)
            if shot.get_at((x, y)) == edge
        )

    assert play.table.phase == "setup" and edge_pixels() > 100
    for _ in range(4):  # the defender's set-up, then the attacker's (HX-12)
        if play.table.phase not in ("setup", "setup_attacker"):
            break
        play.apply(EndPhase(), side=play.table.to_act)
        clear_overlays(app, play)
        app.pump([])
    assert play.table.phase not in ("setup", "setup_attacker") and edge_pixels() == 0


def test_a_handover_on_a_small_map_keeps_the_whole_map_in_view(app):
    """Found in a newcomer's trial (lesson 1, step 7): when play passed to the German the
    camera centred on its units and half the map's viewport went empty while the far rows were
    cut off. A map that fits stays centred; a larger one fills the viewport edge to edge."""
    from game.ui.map.geometry import map_extent

    play = _duel(app)
    m, cam, board = play.map.rect, play.map.camera, play.map.table.board
    x0, y0, x1, y1 = map_extent(board.columns, board.rows)
    assert (x1 - x0) * cam.zoom <= m.width and (y1 - y0) * cam.zoom <= m.height  # it fits
    play.map.focus_own_units(always=True)
    left, top = cam.world_to_screen(x0, y0)
    right, bottom = cam.world_to_screen(x1, y1)
    assert abs((left + right) / 2 - m.centerx) <= 1 and abs((top + bottom) / 2 - m.centery) <= 1
    cam.zoom = 68  # now larger than the viewport: no empty band on any side
    play.map.focus_own_units(always=True)
    left, top = cam.world_to_screen(x0, y0)
    right, bottom = cam.world_to_screen(x1, y1)
    assert left <= m.left and top <= m.top and right >= m.right and bottom >= m.bottom


@pytest.mark.parametrize("zoom", [25, 38, 56])
def test_a_hills_level_is_written_beside_the_counter_not_under_it(app, zoom):
    """Found in a newcomer's trial: lesson 2 speaks of a low hill in B3 and nothing showed
    one: the "L1" was drawn where the T-34's counter covers it. It is drawn beside the counter's
    square, inside the hex."""
    from game.board.board import Board
    from game.ui.map.render import MapRenderer

    board = Board.from_map_table({"columns": 1, "rows": 1, "hexes": ["o1"]})
    renderer = MapRenderer(board)
    renderer.show_labels = False
    surface = pygame.Surface((400, 400))
    surface.fill((0, 0, 0))
    h = board.hex_at(0)
    renderer._draw_hex(surface, h, 200, 200, zoom)
    fill = tuple(surface.get_at((200, 200))[:3])  # the hill's fill at its centre
    counter = counter_box((200, 200), zoom).inflate(-2, -2)
    left, right = int(200 - zoom * 0.85), int(200 - zoom * 0.58)  # the hex's edge is further
    beside = [
        (x, y)
        for x in range(left, right)
        for y in range(int(200 - zoom * 0.2), int(200 + zoom * 0.2))
        if sum(abs(a - b) for a, b in zip(surface.get_at((x, y))[:3], fill, strict=True)) > 60
        and not counter.collidepoint(x, y)
    ]
    assert len(beside) > 10  # the "L1" written there, clear of the counter


def test_marker_chips_are_readable_at_the_usual_zoom():
    """Found in a newcomer's trial: "ID A" and "-1A" on the counters could not be read at
    the usual zoom (10-pixel text); 11 pixels at the default zoom and 13 at the duel's (the
    chips still stay in their hex: test_ui_mapview.py tests every marker at every zoom)."""
    from game.ui.map.counters import chip_size
    from game.ui.map.geometry import DEFAULT_ZOOM

    assert chip_size(DEFAULT_ZOOM) >= 11 and chip_size(38) >= 13


def test_hx12_enemy_counters_that_set_up_later_are_faint_on_their_file_hexes(app):
    """Found in a newcomer's trial: while the German set up, the T-34s stood at full strength
    on their file's hexes and read as where they would be; they set up after it (HX-12). They
    are marked so in the German's view (public: the file says it), drawn faint, and named so."""
    from game.ui.style import style

    play = _duel(app)
    german = {u.id: u for u in play.session.table("german").view.units}
    russian = {u.id: u for u in play.session.table("russian").view.units}
    assert german["rus-t34-3"].awaiting_setup and not german["ger-pz4-1"].awaiting_setup
    assert not any(u.awaiting_setup for u in russian.values())  # its own are its own
    app.pump([])
    cam, board = play.map.camera, play.map.table.board
    x, y = cam.hex_to_screen(board.parse("L5"))
    fill = pygame.Color(*style().side("russian").fill)
    box = counter_box((x, y), cam.zoom).inflate(-8, -8)
    full = sum(
        1
        for px in range(box.left, box.right)
        for py in range(box.top, box.bottom)
        if app.screen.get_at((px, py)) == fill
    )
    assert full == 0  # no pixel of the counter at full strength
    # once the Russian has set up, they are counters like any other
    from game.engine.actions import EndPhase

    play.session.table("german").submit(EndPhase())
    assert not any(u.awaiting_setup for u in play.session.table("german").view.units)


def test_the_label_ink_is_worked_out_once_a_colour_not_once_a_hex(app, monkeypatch):
    """A map tile asks every hex's label ink: it was worked out anew each time (two WCAG
    contrasts, a tenth of drawing a tile; issue 44's slow frames drew tiles)."""
    from game.ui import style as style_module
    from game.ui.map.render import MapRenderer

    real, calls = style_module.contrast, []

    def counted(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(style_module, "contrast", counted)
    board = load_scenario(scenarios_dir() / "bagration-4-boards.toml").setup.board
    renderer = MapRenderer(board)
    renderer._render(25, 0, 0, 512, 512)
    fills = {b for _, b in calls}
    assert len(calls) <= 2 * len(fills) < 40  # a few colours, some 200 hexes
