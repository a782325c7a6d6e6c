"""The overview map: the whole board small, at the foot of the side panel, when the map is
larger than the screen shows it (a 200 x 200 map never fits): terrain and hills by colour, the
units the player at the screen may see (the engine's view, so a concealed unit is a "?" dot),
and a frame round the part on screen. A click or a drag there centres the map on that spot."""

from __future__ import annotations

import math

import numpy as np
import pygame

from game.board import Board
from game.board.hexes import Hex
from game.board.lines import on_board, round_cube
from game.ui.map.geometry import SQRT3, Camera, map_extent, world_of
from game.ui.style import style

HEIGHT = 190
"""The overview's box height in pixels (its width is the side panel's)."""


class Minimap:
    """The overview of one board: its picture is drawn once per box size."""

    def __init__(self, board: Board):
        self.board = board
        self._picture: tuple[tuple[int, int], pygame.Surface] | None = None
        self.rect: pygame.Rect | None = None
        """Where it was last drawn (None: not shown)."""

    # --- geometry ---------------------------------------------------------------------------

    def fit(self, box: pygame.Rect) -> pygame.Rect:
        """The largest rectangle in ``box`` with the map's proportions, centred."""
        x0, y0, x1, y1 = map_extent(self.board.columns, self.board.rows)
        scale = min(box.width / (x1 - x0), box.height / (y1 - y0))
        w, h = max(1, int((x1 - x0) * scale)), max(1, int((y1 - y0) * scale))
        return pygame.Rect(box.centerx - w // 2, box.centery - h // 2, w, h)

    def to_world(self, pos: tuple[int, int]) -> tuple[float, float]:
        """The world point under a screen point of the overview."""
        assert self.rect is not None
        x0, y0, x1, y1 = map_extent(self.board.columns, self.board.rows)
        fx = (pos[0] - self.rect.left) / self.rect.width
        fy = (pos[1] - self.rect.top) / self.rect.height
        return x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)

    def to_screen(self, wx: float, wy: float) -> tuple[float, float]:
        assert self.rect is not None
        x0, y0, x1, y1 = map_extent(self.board.columns, self.board.rows)
        return (
            self.rect.left + (wx - x0) / (x1 - x0) * self.rect.width,
            self.rect.top + (wy - y0) / (y1 - y0) * self.rect.height,
        )

    # --- drawing ----------------------------------------------------------------------------

    def picture(self, size: tuple[int, int]) -> pygame.Surface:
        """The terrain at ``size``: each pixel coloured as the hex under it (numpy: every
        pixel's world point rounded to its hex at once)."""
        if self._picture is not None and self._picture[0] == size:
            return self._picture[1]
        board = self.board
        w, h = size
        x0, y0, x1, y1 = map_extent(board.columns, board.rows)
        wx = x0 + (np.arange(w) + 0.5) / w * (x1 - x0)
        wy = y0 + (np.arange(h) + 0.5) / h * (y1 - y0)
        x, y = np.meshgrid(wx, wy, indexing="ij")  # (w, h): surfarray's order
        fq = x * (2.0 / 3.0)  # Red Blob's flat-top pixel -> cube, rounded as the board does
        fr = -x / 3.0 + y * (SQRT3 / 3.0)
        q, r = round_cube(fq, fr, -fq - fr)
        inside = on_board(q, r, board.columns, board.rows)
        index = np.where(inside, (r + (q - (q & 1)) // 2) * board.columns + q, 0)
        colors = _hex_colors(board)
        rgb = colors[index]
        rgb[~inside] = style().ui["background"]
        surf = pygame.surfarray.make_surface(rgb.astype(np.uint8))
        self._picture = (size, surf)
        return surf

    def draw(
        self,
        surface: pygame.Surface,
        box: pygame.Rect,
        cam: Camera,
        viewport: pygame.Rect,
        units: list[tuple[str, Hex]],
    ) -> None:
        """The overview in ``box``: terrain, ``units`` (each side and hex, as the side at the
        screen may see them), and the frame of what ``viewport`` shows."""
        st = style()
        rect = self.rect = self.fit(box)
        surface.blit(self.picture(rect.size), rect.topleft)
        board = self.board
        dot = max(2, min(4, rect.width // max(board.columns, 1)))  # a counter, not a blot
        for side, hx in units:
            sx, sy = self.to_screen(*world_of(hx))
            pygame.draw.circle(surface, st.side(side).fill, (int(sx), int(sy)), dot)
            pygame.draw.circle(surface, (20, 20, 20), (int(sx), int(sy)), dot, 1)
        (ax, ay), (bx, by) = (
            self.to_screen(*cam.screen_to_world(*corner))
            for corner in (viewport.topleft, viewport.bottomright)
        )
        frame = pygame.Rect(int(ax), int(ay), max(2, int(bx - ax)), max(2, int(by - ay)))
        surface.set_clip(rect)
        pygame.draw.rect(surface, st.ui["select"], frame, 2)
        surface.set_clip(None)
        pygame.draw.rect(surface, (20, 22, 25), rect, 1)


def _hex_colors(board: Board) -> np.ndarray:
    """(size, 3): each hex's terrain fill, tinted by its hill level as on the map."""
    st = style()
    terrains = board.catalogue.terrains
    fills = np.array(
        [st.terrain.get(t.key, st.terrain["open"]).fill for t in terrains], dtype=float
    )
    rgb = fills[board.terrain.astype(int)]
    t = np.minimum(0.75, st.level_step * board.ground.astype(float))[:, None]
    return rgb * (1 - t) + np.array(st.level_tint, dtype=float) * t


def map_fits(board: Board, cam: Camera, viewport: pygame.Rect) -> bool:
    """Whether the whole map is on screen at the camera's zoom and position."""
    x0, y0, x1, y1 = map_extent(board.columns, board.rows)
    (ax, ay), (bx, by) = cam.world_to_screen(x0, y0), cam.world_to_screen(x1, y1)
    return (
        math.floor(ax) >= viewport.left
        and math.floor(ay) >= viewport.top
        and math.ceil(bx) <= viewport.right
        and math.ceil(by) <= viewport.bottom
    )
