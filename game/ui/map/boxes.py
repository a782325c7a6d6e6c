"""The map view's boxes over the counters (a part of :class:`game.ui.map.view.MapView`): the
box by a moving vehicle with what a Defensive First Fire shot of each known enemy would have
now (C6.15-.17), and the last shot's banner by its line of fire; each placed where it covers
the fewest counters."""

from __future__ import annotations

import pygame

from game.engine.view import UnitView
from game.session import Table
from game.ui.map.geometry import Camera
from game.ui.map.layout import along, clear_corner, clear_spot, counter_box
from game.ui.map.render import FONTS
from game.ui.map.viewstate import ViewState
from game.ui.style import style


class MapBoxes:
    """The boxes' part of the map view (its state is set up by the view)."""

    camera: Camera
    state: ViewState
    rect: pygame.Rect
    banner_rect: pygame.Rect
    tracking_rect: pygame.Rect

    @property
    def table(self) -> Table:
        """The viewer's table (the view's)."""
        raise NotImplementedError

    def knows(self) -> Table:
        """What the side at the screen may know (the view's)."""
        raise NotImplementedError

    def units(self) -> list[UnitView]:
        """The units the side at the screen may see (the view's)."""
        raise NotImplementedError

    def tracking_lines(self) -> list[str]:
        """The label by a moving vehicle, a line a known enemy firer: what a Defensive First
        Fire shot now would have, in the odds panel's number and words."""
        tracking = self.knows().tracking()
        if tracking is None:
            return []
        rows = []
        for name, _mp, _exempt, shot_mp, case in tracking.rows:
            # the odds panel's number and words: the MP in the firer's LOS a Defensive First
            # Fire shot now would count (the fewest of this Location that give its best Case J,
            # C6.17), and that Case J (it said the whole move's MP, another number)
            if not tracking.moved:
                what = "only pivots: no Case J (C6.1)"
            elif shot_mp is None:
                what = "no Defensive First Fire shot now (C6.17)"
            else:
                what = f"a shot now: {shot_mp:g} MP in the firer's LOS, {case}"
            rows.append(f"{name}: {what}")
        return rows

    def _draw_tracking(self, surface: pygame.Surface) -> None:
        """While a vehicle moves: what a Defensive First Fire shot of each known enemy firer
        would have now (C6.15-.17), in a box in a corner of the map clear of the counters, a
        line from it to the mover (by the mover it covered the next hex and ran off the map)."""
        tracking = self.knows().tracking()
        rows = self.tracking_lines()
        if tracking is None or not rows:
            return
        z = self.camera.zoom
        board = self.table.board
        sx, sy = self.camera.hex_to_screen(board.parse(tracking.hex))
        f = FONTS.get(15, bold=True)
        head = f.render(f"Moving in {tracking.hex}, in enemy sight:", True, (255, 255, 255))
        pictures = [head] + [f.render(text, True, (255, 220, 160)) for text in rows]
        size = (
            min(self.rect.width - 16, max(t.get_width() for t in pictures) + 12),
            sum(t.get_height() + 1 for t in pictures) + 8,
        )
        points = [self.camera.hex_to_screen(board.parse(u["hex"])) for u in self.units()]
        if self.state.hover_hex:
            points.append(self.camera.hex_to_screen(board.parse(self.state.hover_hex)))
        order = ("top right", "top left", "bottom right", "bottom left")
        box = clear_corner(self.rect, size, points, 2 * z, order, 8)
        self.tracking_rect = box
        pygame.draw.line(surface, (255, 220, 160), _nearest(box, (sx, sy)), (sx, sy), 2)
        pygame.draw.rect(surface, (40, 30, 20), box, border_radius=4)
        pygame.draw.rect(surface, (255, 220, 160), box, 1, border_radius=4)
        y = box.top + 4
        for t in pictures:
            surface.blit(t, (box.left + 6, y), area=pygame.Rect(0, 0, box.width - 10, 20))
            y += t.get_height() + 1

    def _draw_banner(self, surface: pygame.Surface) -> None:
        """The last shot, until the player at the screen acts or clicks it away (phases that
        passed by themselves and the computer's moves hid a kill): by the line of fire where
        it covers the fewest counters (over the target it covered the moving tank and its MP
        label; midway between two neighbours, both names)."""
        banner = self.state.banner
        self.banner_rect = pygame.Rect(0, 0, 0, 0)
        if banner is None:  # it stays until the player at the screen acts, or clicks it away
            return
        st = style()
        cam = self.camera
        board = self.table.board
        pa = cam.hex_to_screen(board.parse(banner.firer_hex))
        pb = cam.hex_to_screen(board.parse(banner.target_hex))
        pygame.draw.line(surface, st.ui["target"], pa, pb, 2)
        t = FONTS.get(18, bold=True).render(banner.text, True, (255, 255, 255))
        size = t.get_rect().inflate(8, 4).size
        counters = [
            counter_box(cam.hex_to_screen(board.parse(u["hex"])), cam.zoom) for u in self.units()
        ]
        box = clear_spot(self.rect, size, along(pa, pb, cam.zoom, size), counters)
        pygame.draw.rect(surface, (120, 30, 20), box, border_radius=3)
        surface.blit(t, t.get_rect(center=box.center))
        self.banner_rect = box


def _nearest(rect: pygame.Rect, point: tuple[float, float]) -> tuple[float, float]:
    """The point of ``rect``'s border nearest ``point`` (a line from a box to a hex)."""
    return min(max(point[0], rect.left), rect.right), min(max(point[1], rect.top), rect.bottom)
