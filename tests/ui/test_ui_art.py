"""The unit art (assets/silhouettes.toml): every catalogue type has a silhouette drawn here,
packaged with the game; a counter shows it in its side's ink, with the gun and armor when
there is room, and its facing notch stays visible at the smallest zoom."""

from __future__ import annotations

import pygame

from game.engine.catalogue import unit_types
from game.files.shipped import assets_dir
from game.ui.map.counters import draw_counter, gun_and_armor
from game.ui.map.silhouettes import BOX, kind_of, silhouettes
from game.ui.style import style


def test_every_catalogue_type_has_a_silhouette_inside_its_box():
    art = silhouettes()
    for tid, t in unit_types().items():
        assert kind_of(tid, t.category, t.turret) in art, tid
    for kind, s in art.items():
        points = [p for poly in s.polygons for p in poly] + [(x, y) for x, y, _ in s.circles]
        assert points, kind
        assert all(0 <= x <= BOX[0] and 0 <= y <= BOX[1] for x, y in points), kind
    assert {"tank", "tank_destroyer", "assault_gun", "halftrack", "truck", "jeep"} <= set(art)
    assert {"towed_gun", "at_infantry"} <= set(art)
    assert (assets_dir() / "silhouettes.toml").is_file()


def ink_pixels(unit: dict, z: int) -> int:
    surface = pygame.Surface((4 * z, 4 * z))
    surface.fill((0, 0, 0))
    draw_counter(surface, unit, 2 * z, 2 * z, z)
    ink = style().side(unit["side"]).ink
    return sum(
        1
        for x in range(surface.get_width())
        for y in range(surface.get_height())
        if surface.get_at((x, y))[:3] == ink
    )


def test_a_counter_shows_its_kinds_silhouette_in_its_sides_ink():
    tank = {"id": "t", "side": "russian", "type": "t34m43", "category": "afv", "name": "T-34"}
    truck = {**tank, "type": "gaz_aa", "category": "vehicle", "turreted": False, "name": "GAZ"}
    pygame.font.init()
    assert ink_pixels(tank, 60) > 200 and ink_pixels(truck, 60) > 200
    assert ink_pixels(tank, 60) != ink_pixels(truck, 60)
    assert gun_and_armor(tank) == "76L 11" and gun_and_armor(truck) == ""


def test_the_facing_notch_is_seen_at_the_smallest_zoom():
    pygame.font.init()
    unit = {"id": "t", "side": "german", "type": "pz4h", "category": "afv", "facing": 0}
    surface = pygame.Surface((80, 80))
    surface.fill((0, 0, 0))
    draw_counter(surface, unit, 40, 40, 10)
    edge = style().side("german").edge
    outside = [  # beyond the counter's square (11 px): the notch alone
        (x, y)
        for x in range(80)
        for y in range(80)
        if surface.get_at((x, y))[:3] == edge and max(abs(x - 40), abs(y - 40)) > 6
    ]
    assert len(outside) >= 8


def test_a_small_counter_shows_a_readable_abbreviation_of_its_name():
    from game.ui.map.counters import fitting_name

    pygame.font.init()
    assert fitting_name("T-34/76 M43", 60, 200) == "T-34/76 M43"
    small = fitting_name("T-34/76 M43", 22, 23)
    assert small in ("T-34/76", "T-34") and fitting_name("Pz IVH", 22, 23) in ("Pz IVH", "Pz")


def test_hovering_a_counter_shows_its_full_name(app, data_dir):
    from ui_driver import hover

    from game.files.scenario import load_scenario
    from game.files.session import new_game
    from game.files.shipped import scenarios_dir
    from game.ui.play.screen import PlayScene

    sc = load_scenario(scenarios_dir() / "bagration-4-boards.toml")
    play = PlayScene(new_game(sc, 1, None), sc.title, viewer="german")
    app.push(play)
    app.pump([])
    unit = next(u for u in play.map.units() if u["side"] == "german")
    x, y = play.map.camera.hex_to_screen(play.session.game.board.parse(unit["hex"]))
    if not play.map.rect.collidepoint(x, y):
        play.map.center_on(unit["hex"])
        x, y = play.map.camera.hex_to_screen(play.session.game.board.parse(unit["hex"]))
    hover(app, (int(x), int(y)))
    app.pump([])
    z = play.map.camera.zoom
    rows = range(int(y - z * 0.62) - 14, int(y - z * 0.62))
    seen = {app.screen.get_at((int(x) + dx, r))[:3] for dx in range(-30, 31) for r in rows}
    assert (16, 18, 22) in seen and (255, 255, 255) in seen, "the name box over the hex"
