"""What the editor draws over the one map view: each side's set-up area (HX-12), outlined in
the side's colour and named in a corner of the map; each unit's Bore Sighted Location (C6.42),
the author's to see (in play only its own side sees it)."""

from __future__ import annotations

import pygame

from game.board.hexes import Hex
from game.ui.map.render import FONTS
from game.ui.map.view import MapView
from game.ui.style import style


def draw_areas(surface: pygame.Surface, view: MapView, areas: dict[str, list[Hex]]) -> None:
    """Each side's set-up area: its edge in the side's colour, its name in a corner."""
    st = style()
    y = view.rect.top + 8
    for side, hexes in sorted(areas.items()):
        if not hexes:
            continue
        color = st.side(side).fill
        view.renderer.outline(surface, view.camera, hexes, color, view.rect)
        t = FONTS.text(f"{side.title()} set-up area", 14, color, True)
        box = t.get_rect(topleft=(view.rect.left + 8, y)).inflate(10, 4)
        pygame.draw.rect(surface, (16, 18, 22), box, border_radius=4)  # read on any terrain
        surface.blit(t, (view.rect.left + 8, y))
        y += 22


def draw_bore_sights(surface: pygame.Surface, view: MapView) -> None:
    """Each unit's Bore Sighted Location: the hex ringed, a line from the unit, "BS" and its
    name (every side's: the scenario's author sees them all)."""
    st = style()
    cam, board, color = view.camera, view.table.board, st.ui["reach"]
    surface.set_clip(view.rect)
    for unit in view.units():
        spot = unit.get("bore_sight")
        if not spot:
            continue
        try:
            h, home = board.parse(spot), board.parse(unit["hex"])
        except ValueError:
            continue  # the validator names it
        view.renderer.highlight(surface, cam, h, color, 2)
        pygame.draw.line(surface, color, cam.hex_to_screen(home), cam.hex_to_screen(h), 1)
        sx, sy = cam.hex_to_screen(h)
        t = FONTS.text(f"BS {unit['name']}", max(11, cam.zoom // 3), color, True)
        surface.blit(t, t.get_rect(midtop=(sx, sy + cam.zoom * 0.45)))
    surface.set_clip(None)
