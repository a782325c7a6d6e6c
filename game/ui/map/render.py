"""Drawing the map: terrain rendered once per zoom level, in tiles as they come on screen
(fill, hill shading, a pattern per terrain type, the hex grid, ASL coordinate labels), then
blitted; wrecks,
smoke, highlights and counters drawn over it each frame. :meth:`MapRenderer.draw_naive` draws
every hex polygon every frame: the benchmark's reference."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Collection

import numpy as np
import pygame

from game.board import Board
from game.board.hexes import Hex, label
from game.ui.map.geometry import SQRT3, Camera, direction_vector, hex_corners, map_extent, world_of
from game.ui.map.tiles import Deadline, Tiles, drawn_at_once
from game.ui.style import RGB, style

TILE = 512
"""The terrain is cached in square tiles of this many pixels, per zoom."""
MAX_CACHED_TEXTS = 4096
"""Rendered texts kept (a few KiB each): every name, chip and label of a big map, twice."""
MAX_TEXT_BYTES = 16 * 2**20
"""... and the most their pictures hold: the texts that keep changing (the side panel's and
the phase bar's sentences, 8 KiB each on average) had filled the 4,096 with some 35 MiB in a
soak; the least recently drawn go first."""
LABEL_REACH = 3.0
"""How far (in hex radii) a hex's picture may reach from its centre: its hexside, and a long
column label (AAAAAAA1) drawn above the centre."""


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


class Fonts:
    """Fonts by pixel size (pygame's default font), cached."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, bool], pygame.font.Font] = {}
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._text_bytes = 0

    def get(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (max(6, size), bold)
        font = self._cache.get(key)
        if font is None:
            font = pygame.font.Font(None, key[0])
            font.set_bold(bold)
            self._cache[key] = font
        return font

    def text(self, text: str, size: int, color: RGB, bold: bool = False) -> pygame.Surface:
        """``text`` rendered (antialiased), kept: the map draws the same counter names, marker
        chips and MP labels every frame (rendering them anew was a third of a frame)."""
        key = (text, max(6, size), bold, tuple(color))
        texts = self._texts
        surf = texts.get(key)
        if surf is not None:
            texts.move_to_end(key)
            return surf
        surf = self.get(size, bold).render(text, True, color)
        texts[key] = surf
        self._text_bytes += _bytes(surf)
        while len(texts) > MAX_CACHED_TEXTS or self._text_bytes > MAX_TEXT_BYTES:
            self._text_bytes -= _bytes(texts.popitem(last=False)[1])
        return surf

    def forget_texts(self) -> None:
        """Let go of the kept texts (the window went to another screen: the closed one's names
        and sentences, up to :data:`MAX_TEXT_BYTES`, were kept to the end; issue 44, item 7)."""
        self._texts.clear()
        self._text_bytes = 0


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


FONTS = Fonts()


def label_size(zoom: int) -> int:
    """The hex label's font size at ``zoom``: 11 pixels at least (9 was unreadable at the
    four-board map's opening zoom), a little larger as the hexes grow."""
    return max(11, int(zoom * 0.38))


class MapRenderer:
    """The map of one board: cached terrain per zoom, and the dynamic layers."""

    def __init__(self, board: Board):
        self.board = board
        self.hexes = [board.hex_at(i) for i in range(board.size)]
        self._cache = Tiles()  # within the window's budget for every renderer's tiles
        self.show_labels = True
        self.owed = False
        """The last frame left tiles on screen undrawn (its ``budget`` spent)."""
        self.stand_in: MapRenderer | None = None
        """The renderer this one replaced: its tiles shown where this one's are owed."""

    # --- terrain, cached --------------------------------------------------------------------

    def _origin(self, zoom: int) -> tuple[float, float]:
        x0, y0, _, _ = map_extent(self.board.columns, self.board.rows)
        return x0 * zoom, y0 * zoom

    def tile(self, zoom: int, tx: int, ty: int) -> pygame.Surface:
        """The terrain of tile (tx, ty) at ``zoom``: TILE x TILE pixels of the whole map's
        terrain picture (its top left at the map's top left corner), rendered once and kept
        while the window's tiles have room (:mod:`.tiles`). Only the tiles on screen are ever
        drawn, so a 200 x 200 map costs no more memory than a small one."""
        key = (zoom, self.show_labels, tx, ty)
        surf = self._cache.get(key)
        if surf is None:
            surf = self._render(zoom, tx * TILE, ty * TILE, TILE, TILE)
            self._cache.put(key, surf)
        return surf

    def _render(self, zoom: int, x: int, y: int, w: int, h: int) -> pygame.Surface:
        """The w x h pixels at (x, y) of the whole map's terrain picture at ``zoom``."""
        # drawn with a margin wide enough that every coordinate is positive: pygame truncates
        # coordinates toward zero, so negative ones would round differently from tile to tile
        pad = math.ceil(LABEL_REACH * zoom) + 2
        big = pygame.Surface((w + 2 * pad, h + 2 * pad))
        big.fill(style().ui["background"])
        x0, y0 = self._origin(zoom)
        ox, oy = pad - x0 - x, pad - y0 - y  # world x zoom -> pixel
        for hx in self._hexes_near(zoom, x, y, w, h):
            wx, wy = world_of(hx)
            self._draw_hex(big, hx, wx * zoom + ox, wy * zoom + oy, zoom)
        return big.subsurface((pad, pad, w, h)).copy()

    def _hexes_near(self, zoom: int, x: int, y: int, w: int, h: int) -> list[Hex]:
        """The hexes whose picture (label included) may reach into the w x h pixels at (x, y)
        of the map's picture, in board order (the order the whole map is drawn in, so that
        shared edges come out the same)."""
        x0, y0 = self._origin(zoom)
        margin = LABEL_REACH
        xlo, xhi = (x + x0) / zoom - margin, (x + w + x0) / zoom + margin
        ylo, yhi = (y + y0) / zoom - margin, (y + h + y0) / zoom + margin
        cols, rows = self.board.columns, self.board.rows
        c0, c1 = max(0, math.ceil(xlo / 1.5)), min(cols - 1, math.floor(xhi / 1.5))
        r0 = max(0, math.floor(ylo / SQRT3) - 1)
        r1 = min(rows - 1, math.ceil(yhi / SQRT3))
        return [self.hexes[r * cols + c] for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]

    def repaint(self, changed: Collection[Hex], zoom: int) -> None:
        """Hexes whose terrain or level changed (an editor's stroke): the part of the map's
        picture they and their neighbours (a road's ends, a hill's contour) cover drawn again
        into the kept tiles of ``zoom`` (the zoom on screen); the other zooms' tiles there are
        dropped, drawn afresh when shown. Each kept tile draws only its own part of that area (a
        fill over a 200 x 200 map spans the whole map: drawn at once it was one picture of
        hundreds of megapixels and a stall of many seconds; issue 44)."""
        if not changed:
            return
        x0, y0 = self._origin(zoom)
        xs, ys = zip(*(world_of(h) for h in changed), strict=True)
        reach = 2.0  # the neighbours' pictures: a hex and a half, rounded up
        left = math.floor((min(xs) - reach) * zoom - x0)
        top = math.floor((min(ys) - reach) * zoom - y0)
        right = math.ceil((max(xs) + reach) * zoom - x0)
        bottom = math.ceil((max(ys) + reach) * zoom - y0)
        area = pygame.Rect(left, top, right - left, bottom - top)
        for key in list(self._cache):
            z, _labels, tx, ty = key
            tile = pygame.Rect(tx * TILE, ty * TILE, TILE, TILE)
            if not tile.colliderect(area):
                continue
            if z != zoom or _labels != self.show_labels:
                self._cache.pop(key)
                continue
            part = tile.clip(area)
            picture = self._render(zoom, part.x, part.y, part.w, part.h)
            self._cache[key].blit(picture, (part.x - tile.x, part.y - tile.y))

    def _draw_hex(self, surf: pygame.Surface, h: Hex, cx: float, cy: float, zoom: int) -> None:
        st = style()
        info = self.board.info(h)
        ts = st.terrain.get(info.terrain.key, st.terrain["open"])
        fill = ts.fill
        if info.level:
            fill = _mix(fill, st.level_tint, min(0.75, st.level_step * info.level))
        pts = hex_corners(cx, cy, zoom)
        pygame.draw.polygon(surf, fill, pts)
        if ts.pattern == "road":
            self._draw_road(surf, h, cx, cy, zoom, ts.ink)
        else:
            _pattern(surf, ts.pattern, ts.ink, cx, cy, zoom)
        grid = st.contour if info.level else st.ui["grid"]
        pygame.draw.polygon(surf, grid, pts, 2 if info.level else 1)
        if info.level and zoom >= 16:
            # left of the counter's square, where a counter in the hex leaves it in sight (it
            # was drawn under the counter: lesson 2's "low hill" showed nothing of a hill)
            f = FONTS.get(max(10, int(zoom * 0.32)), bold=True)
            t = f.render(f"L{info.level}", True, st.contour)
            surf.blit(t, t.get_rect(midleft=(cx - zoom * 0.94, cy)))
        if self.show_labels and zoom >= 16:
            f = FONTS.get(label_size(zoom))
            t = f.render(label(h), True, st.label_ink(fill))
            surf.blit(t, (cx - t.get_width() / 2, cy - zoom * 0.82))

    def _draw_road(
        self, surf: pygame.Surface, h: Hex, cx: float, cy: float, zoom: int, ink: RGB
    ) -> None:
        """A road runs from the hex centre to each neighbouring road hex (or the map edge)."""
        width = max(3, zoom // 4)
        ends = []
        for d in range(6):
            n = h.neighbor(d)
            back = h.neighbor((d + 3) % 6)
            off_edge = (
                not self.board.contains(n)
                and self.board.contains(back)
                and self.board.terrain_at(back).key == "road"
            )
            if d in (2, 5) and self._road_triangle(h, d):
                continue  # the two other sides of the triangle carry the road
            if off_edge or (self.board.contains(n) and self.board.terrain_at(n).key == "road"):
                dx, dy = direction_vector(d)
                ends.append((cx + dx * zoom * 0.87, cy + dy * zoom * 0.87))
        if not ends:
            ends = [(cx - zoom * 0.6, cy), (cx + zoom * 0.6, cy)]
        for end in ends:
            pygame.draw.line(surf, ink, (cx, cy), end, width)
        pygame.draw.circle(surf, ink, (cx, cy), width // 2)

    def _road_triangle(self, h: Hex, d: int) -> bool:
        """Whether h, its neighbour d and a common neighbour are all road hexes."""
        for side in (h.neighbor((d + 1) % 6), h.neighbor((d - 1) % 6)):
            if self.board.contains(side) and self.board.terrain_at(side).key == "road":
                return True
        return False

    def on_screen(self, cam: Camera, viewport: pygame.Rect) -> np.ndarray:
        """The board indices of the hexes in (or partly in) ``viewport``, in board order: what
        an overlay needs to look at on a 40,000-hex map."""
        z = cam.zoom
        xlo, xhi = (viewport.left - cam.ox) / z - 1, (viewport.right - cam.ox) / z + 1
        ylo, yhi = (viewport.top - cam.oy) / z - 1, (viewport.bottom - cam.oy) / z + 1
        cols, rows = self.board.columns, self.board.rows
        c0, c1 = max(0, math.ceil(xlo / 1.5)), min(cols - 1, math.floor(xhi / 1.5))
        r0 = max(0, math.floor(ylo / SQRT3) - 1)
        r1 = min(rows - 1, math.ceil(yhi / SQRT3))
        if c0 > c1 or r0 > r1:
            return np.zeros(0, dtype=np.intp)
        return (np.arange(r0, r1 + 1)[:, None] * cols + np.arange(c0, c1 + 1)[None, :]).ravel()

    # --- per frame ------------------------------------------------------------------------

    def draw(
        self,
        target: pygame.Surface,
        cam: Camera,
        viewport: pygame.Rect,
        occupied: frozenset[Hex] = frozenset(),
        budget: float | None = None,
    ) -> None:
        """Blit the cached terrain tiles on screen, then the wrecks and smoke (a wreck under a
        counter in ``occupied`` at the foot of its hex); ``budget``: the seconds of new tiles
        this frame may draw, the rest :attr:`owed` (:class:`.tiles.Deadline`)."""
        z = cam.zoom
        x0, y0 = self._origin(z)
        left, top = math.floor(cam.ox + x0), math.floor(cam.oy + y0)  # the map's corner
        _, _, x1, y1 = map_extent(self.board.columns, self.board.rows)
        width, height = (x1 * z - x0), (y1 * z - y0)
        target.set_clip(viewport)
        target.fill(style().ui["background"], viewport)
        tx0 = max(0, (viewport.left - left) // TILE)
        ty0 = max(0, (viewport.top - top) // TILE)
        tx1 = min(int(width // TILE), (viewport.right - left) // TILE)
        ty1 = min(int(height // TILE), (viewport.bottom - top) // TILE)
        drawn_at_once(max(0, tx1 - tx0 + 1) * max(0, ty1 - ty0 + 1) * TILE * TILE * 4)
        frame = Deadline(budget)
        for ty in range(ty0, ty1 + 1):
            for tx in range(tx0, tx1 + 1):
                key, old = (z, self.show_labels, tx, ty), self.stand_in
                tile = old._cache.peek(key) if old is not None else None  # while it is owed
                if frame.allows(key in self._cache):
                    tile = self.tile(z, tx, ty)
                if tile is not None:
                    target.blit(tile, (left + tx * TILE, top + ty * TILE))
        self.owed = frame.owed
        self.stand_in = self.stand_in if self.owed else None  # (its tiles let go when done)
        self._draw_markers(target, cam, occupied)
        target.set_clip(None)

    def draw_naive(
        self,
        target: pygame.Surface,
        cam: Camera,
        viewport: pygame.Rect,
        occupied: frozenset[Hex] = frozenset(),
        _budget: float | None = None,
    ) -> None:
        """The reference: every hex polygon (and its pattern and label) drawn every frame."""
        target.set_clip(viewport)
        target.fill(style().ui["background"], viewport)
        for hx in self.hexes:
            sx, sy = cam.hex_to_screen(hx)
            self._draw_hex(target, hx, sx, sy, cam.zoom)
        self._draw_markers(target, cam, occupied)
        target.set_clip(None)

    def _draw_markers(self, target: pygame.Surface, cam: Camera, occupied: frozenset[Hex]) -> None:
        b = self.board
        z = cam.zoom
        for i in b.wrecks.nonzero()[0]:
            h = b.hex_at(int(i))
            sx, sy = cam.hex_to_screen(h)
            draw_wreck(target, sx, sy, z, int(b.wrecks[i]), under_counter=h in occupied)
        for i in b.smoke.nonzero()[0]:
            sx, sy = cam.hex_to_screen(b.hex_at(int(i)))
            pygame.draw.circle(target, (210, 210, 210), (int(sx), int(sy)), int(z * 0.6), 3)

    def shade(
        self,
        target: pygame.Surface,
        cam: Camera,
        hexes: list[Hex],
        color: RGB,
        alpha: int,
        viewport: pygame.Rect,
    ) -> None:
        """Tint many hexes at once: one translucent layer, one blit."""
        layer = pygame.Surface(viewport.size, pygame.SRCALPHA)
        for h in hexes:
            sx, sy = cam.hex_to_screen(h)
            if -cam.zoom < sx - viewport.left < viewport.width + cam.zoom and (
                -cam.zoom < sy - viewport.top < viewport.height + cam.zoom
            ):
                pts = hex_corners(sx - viewport.left, sy - viewport.top, cam.zoom - 1)
                pygame.draw.polygon(layer, (*color, alpha), pts)
        target.blit(layer, viewport.topleft)

    def outline(
        self,
        target: pygame.Surface,
        cam: Camera,
        hexes: list[Hex],
        color: RGB,
        viewport: pygame.Rect,
    ) -> None:
        """The border of an area of hexes: each edge between a hex in it and one outside, in
        a light line over a dark one (a green tint alone vanished on a green map)."""
        inside = set(hexes)
        z = cam.zoom
        width = max(2, z // 10)
        for h in hexes:
            sx, sy = cam.hex_to_screen(h)
            if not (
                -z < sx - viewport.left < viewport.width + z
                and -z < sy - viewport.top < viewport.height + z
            ):
                continue
            corners = hex_corners(sx, sy, z)
            for n in h.neighbors():
                if n in inside:
                    continue
                nx, ny = cam.hex_to_screen(n)
                a, b = sorted(corners, key=lambda c: (c[0] - nx) ** 2 + (c[1] - ny) ** 2)[:2]
                pygame.draw.line(target, (20, 30, 20), a, b, width + 2)
                pygame.draw.line(target, color, a, b, width)

    def highlight(
        self,
        target: pygame.Surface,
        cam: Camera,
        h: Hex,
        color: RGB,
        width: int = 3,
        fill_alpha: int = 0,
    ) -> None:
        sx, sy = cam.hex_to_screen(h)
        pts = hex_corners(sx, sy, cam.zoom - 1)
        if fill_alpha:
            x0 = min(p[0] for p in pts)
            y0 = min(p[1] for p in pts)
            over = pygame.Surface((cam.zoom * 2 + 2, cam.zoom * 2 + 2), pygame.SRCALPHA)
            pygame.draw.polygon(over, (*color, fill_alpha), [(x - x0, y - y0) for x, y in pts])
            target.blit(over, (x0, y0))
        pygame.draw.polygon(target, color, pts, width)


def draw_wreck(
    target: pygame.Surface,
    cx: float,
    cy: float,
    z: int,
    count: int = 1,
    under_counter: bool = False,
) -> None:
    """A wreck (RD-9: +1 hindrance), drawn as a burnt-out hull in the middle of its hex; under
    a counter, in the strip at the foot of the hex, below the counter and well inside the hex's
    edge (drawn at the very foot it read as in the hex below); "x2" on it for two."""
    hull = pygame.Rect(0, 0, max(8, int(z * 0.8)), max(4, int(z * 0.22)))
    hull.center = (int(cx - z * 0.08), int(cy + z * 0.66) if under_counter else int(cy))
    pygame.draw.rect(target, (48, 44, 40), hull, border_radius=2)
    pygame.draw.rect(target, (15, 12, 10), hull, 1, border_radius=2)
    turret = (hull.centerx - int(z * 0.1), hull.centery)  # seen from above, like a counter
    tr = max(2, hull.height // 2 - 1)
    pygame.draw.circle(target, (70, 64, 58), turret, tr)
    pygame.draw.line(  # the barrel, knocked askew
        target, (15, 12, 10), turret, (turret[0] + int(z * 0.34), turret[1] - 1), max(1, z // 20)
    )
    for k in (0.15, 0.8):  # embers
        pygame.draw.circle(
            target, (235, 120, 40), (hull.left + int(hull.width * k), hull.centery), max(1, z // 18)
        )
    if count > 1 and z >= 16:
        f = FONTS.get(max(9, int(z * 0.28)), bold=True)
        t = f.render(f"x{count}", True, (255, 190, 120))
        target.blit(t, t.get_rect(midright=(hull.right - 1, hull.centery)))


def _pattern(surf: pygame.Surface, kind: str, ink: RGB, cx: float, cy: float, z: int) -> None:
    """A small symbol per terrain type, so that colour is never the only cue (roads are drawn
    hex to hex by :meth:`MapRenderer._draw_road`)."""
    if kind == "none" or z < 10:
        return
    w = max(1, z // 14)
    if kind == "canopy":
        for dx, dy in ((-0.35, -0.15), (0.3, -0.25), (0.0, 0.25), (-0.4, 0.35), (0.4, 0.3)):
            pygame.draw.circle(surf, ink, (cx + dx * z, cy + dy * z), z * 0.22)
    elif kind == "trees":
        for dx, dy in ((-0.4, -0.25), (0.0, -0.25), (0.4, -0.25), (-0.2, 0.25), (0.2, 0.25)):
            pygame.draw.circle(surf, ink, (cx + dx * z, cy + dy * z), z * 0.12)
            pygame.draw.line(
                surf, ink, (cx + dx * z, cy + dy * z), (cx + dx * z, cy + (dy + 0.2) * z), w
            )
    elif kind == "rows":
        for k in (-0.4, -0.15, 0.1, 0.35):
            pygame.draw.line(surf, ink, (cx - z * 0.6, cy + k * z), (cx + z * 0.6, cy + k * z), w)
    elif kind == "tufts":
        for dx, dy in ((-0.4, -0.2), (0.1, -0.3), (0.4, 0.1), (-0.2, 0.3), (0.15, 0.35)):
            x, y = cx + dx * z, cy + dy * z
            for a in (-0.12, 0.0, 0.12):
                pygame.draw.line(surf, ink, (x, y), (x + a * z, y - 0.18 * z), w)
    elif kind == "building":
        r = pygame.Rect(0, 0, int(z * 1.0), int(z * 0.8))
        r.center = (int(cx), int(cy + z * 0.05))
        pygame.draw.rect(surf, ink, r)
        pygame.draw.rect(surf, _mix(ink, (0, 0, 0), 0.4), r, max(1, z // 12))
