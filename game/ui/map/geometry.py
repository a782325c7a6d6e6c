"""Hex <-> pixel on the screen (Red Blob's flat-top layout) and the camera: pan, and zoom
around the cursor. Pure arithmetic, no pygame: unit-tested at every zoom."""

from __future__ import annotations

import math
from dataclasses import dataclass

from game.board.hexes import FLAT, Hex, Layout

UNIT = Layout(FLAT, (1.0, 1.0), (0.0, 0.0))
"""World coordinates: a hex of radius 1, Hex(0, 0) at the origin."""
ZOOMS = (10, 13, 16, 20, 25, 31, 38, 46, 56, 68)
"""The zoom levels: hex radius in pixels (the terrain is cached per level)."""
DEFAULT_ZOOM = 31
SQRT3 = math.sqrt(3.0)


def world_of(h: Hex) -> tuple[float, float]:
    """The centre of ``h`` in world units."""
    return UNIT.hex_to_pixel(h)


def hex_of_world(x: float, y: float) -> Hex:
    return UNIT.pixel_to_hex(x, y)


def map_extent(columns: int, rows: int) -> tuple[float, float, float, float]:
    """The world rectangle (left, top, right, bottom) that holds every hex of the map."""
    left, top = -1.0, -SQRT3 / 2
    right = 1.5 * (columns - 1) + 1.0
    bottom = SQRT3 * (rows - 1) + SQRT3 / 2 + (SQRT3 / 2 if columns > 1 else 0.0)
    return left, top, right, bottom


def direction_vector(d: int) -> tuple[float, float]:
    """The screen direction (y down) of hexside ``d`` (RD-7: 60*d - 30 degrees
    counterclockwise from screen-right)."""
    a = math.radians(60 * d - 30)
    return math.cos(a), -math.sin(a)


@dataclass
class Camera:
    """What part of the world the map viewport shows: ``zoom`` (hex radius in pixels) and
    ``ox, oy`` (the screen pixel of the world origin)."""

    zoom: int = DEFAULT_ZOOM
    ox: float = 0.0
    oy: float = 0.0

    def world_to_screen(self, x: float, y: float) -> tuple[float, float]:
        return x * self.zoom + self.ox, y * self.zoom + self.oy

    def screen_to_world(self, sx: float, sy: float) -> tuple[float, float]:
        return (sx - self.ox) / self.zoom, (sy - self.oy) / self.zoom

    def hex_to_screen(self, h: Hex) -> tuple[float, float]:
        return self.world_to_screen(*world_of(h))

    def screen_to_hex(self, sx: float, sy: float) -> Hex:
        return hex_of_world(*self.screen_to_world(sx, sy))

    def pan(self, dx: float, dy: float) -> None:
        self.ox += dx
        self.oy += dy

    def zoom_step(self, steps: int, cx: float, cy: float) -> bool:
        """Zoom ``steps`` levels in (+) or out (-), keeping the world point under the screen
        point (cx, cy) where it is. False when already at the end of the range."""
        i = ZOOMS.index(self.zoom) if self.zoom in ZOOMS else ZOOMS.index(DEFAULT_ZOOM)
        j = max(0, min(len(ZOOMS) - 1, i + steps))
        if ZOOMS[j] == self.zoom:
            return False
        self.zoom_to(ZOOMS[j], cx, cy)
        return True

    def zoom_to(self, zoom: int, cx: float, cy: float) -> None:
        """Zoom to ``zoom``, keeping the world point under the screen point (cx, cy) there."""
        wx, wy = self.screen_to_world(cx, cy)
        self.zoom = zoom
        self.ox = cx - wx * self.zoom
        self.oy = cy - wy * self.zoom

    def center_on(self, x: float, y: float, width: float, height: float, left: float = 0) -> None:
        """Put world point (x, y) at the centre of a viewport ``width`` x ``height`` whose left
        edge is at screen x ``left``."""
        self.ox = left + width / 2 - x * self.zoom
        self.oy = height / 2 - y * self.zoom

    def keep_map_in(self, columns: int, rows: int, view: tuple[float, float, float, float]) -> None:
        """No empty band beside the map where the map could fill it: along each axis a map
        smaller than the viewport (left, top, width, height) is centred in it, a larger one
        fills it edge to edge (a handover centred on a side's units left half a small map's
        viewport empty and cut off its far rows)."""
        x0, y0, x1, y1 = map_extent(columns, rows)
        z = self.zoom
        vl, vt, vw, vh = view
        for lo, hi, start, size, axis in ((x0, x1, vl, vw, "x"), (y0, y1, vt, vh, "y")):
            o = self.ox if axis == "x" else self.oy
            a, b = lo * z + o, hi * z + o
            if b - a <= size:
                o += start + size / 2 - (a + b) / 2
            elif a > start:
                o -= a - start
            elif b < start + size:
                o += start + size - b
            if axis == "x":
                self.ox = o
            else:
                self.oy = o

    def fit(self, columns: int, rows: int, width: float, height: float, left: float = 0) -> None:
        """The largest zoom level at which the whole map fits (at least the smallest), centred."""
        x0, y0, x1, y1 = map_extent(columns, rows)
        fitting = [z for z in ZOOMS if (x1 - x0) * z <= width and (y1 - y0) * z <= height]
        self.zoom = max(fitting) if fitting else ZOOMS[0]
        self.zoom = min(self.zoom, DEFAULT_ZOOM + 15)
        self.center_on((x0 + x1) / 2, (y0 + y1) / 2, width, height, left)


_CORNERS = tuple((math.cos(math.pi / 3 * i), math.sin(math.pi / 3 * i)) for i in range(6))


def hex_corners(cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """The six corners of a flat-top hex centred at (cx, cy), rounded to 1e-6 px: a corner
    that falls on a whole pixel then lands there exactly wherever the hex is drawn (pygame
    truncates coordinates, and 133.99999999999997 would fall a pixel short)."""
    return [(round(cx + radius * c, 6), round(cy + radius * s, 6)) for c, s in _CORNERS]
