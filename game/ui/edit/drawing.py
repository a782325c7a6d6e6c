"""What the editor draws over the one map view: each side's set-up area (HX-12), outlined in
the side's colour and named in a corner of the map."""

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
