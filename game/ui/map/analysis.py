"""What the engine knows, on the map: the LOS thread (as ``hexfire los`` traces it), the
viewshed of a unit or hex, the fire map (a firer's kill odds against every enemy it sees) and
the threat map (how deadly each hex would be for a vehicle). They never change the game and
never show a concealed unit."""

from __future__ import annotations

import numpy as np
import pygame

from game.board.hexes import Hex, label
from game.board.los import LosResult, los
from game.session import Table
from game.ui.bindings import action_for
from game.ui.map.geometry import Camera
from game.ui.map.host import MapHost
from game.ui.map.layout import along, clear_corner, clear_spot, counter_box
from game.ui.map.render import FONTS, MapRenderer
from game.ui.style import style

THREAD_COLORS = {"clear": (110, 230, 110), "hindered": (255, 210, 60), "blocked": (240, 70, 60)}


def thread_segments(result: LosResult) -> list[tuple[Hex, Hex, str]]:
    """The thread hex to hex, each segment coloured by what the LOS is by then: clear, hindered
    (from the first hindrance on) or blocked (from the blocking hex on)."""
    out = []
    state = "clear"
    hexes = list(result.hexes)
    for a, b in zip(hexes, hexes[1:], strict=False):
        if a.status == "hindrance" and state == "clear":
            state = "hindered"
        if result.blocked_by is not None and a.hex == result.blocked_by:
            state = "blocked"
        out.append((a.hex, b.hex, state))
    return out


def draw_thread(
    surface: pygame.Surface,
    cam: Camera,
    result: LosResult,
    counters: list[pygame.Rect] | None = None,
) -> None:
    """The LOS thread and its label (the first line of ``hexfire los``, the same function):
    the label over the target hex, or where it covers the fewest ``counters`` (their names)."""
    pa = cam.hex_to_screen(result.firer)
    pb = cam.hex_to_screen(result.target)
    n = max(1, len(result.hexes) - 1)
    for k, (_, _, state) in enumerate(thread_segments(result)):
        # straight from centre dot to centre dot, each step's stretch in its colour
        t0, t1 = k / n, (k + 1) / n
        p0 = (pa[0] + (pb[0] - pa[0]) * t0, pa[1] + (pb[1] - pa[1]) * t0)
        p1 = (pa[0] + (pb[0] - pa[0]) * t1, pa[1] + (pb[1] - pa[1]) * t1)
        pygame.draw.line(surface, THREAD_COLORS[state], p0, p1, 4)
    pygame.draw.circle(surface, (255, 255, 255), pa, 5)
    text = result.summary()
    f = FONTS.get(17, bold=True)
    t = f.render(text, True, (255, 255, 255))
    size = t.get_rect().inflate(10, 6).size
    above = (pb[0], pb[1] - cam.zoom * 0.9 - size[1] / 2)
    below = (pb[0], pb[1] + cam.zoom * 0.9 + size[1] / 2)
    clip = surface.get_clip()
    area = clip if clip.width else surface.get_rect()
    box = clear_spot(area, size, [above, below, *along(pa, pb, cam.zoom, size)], counters or [])
    pygame.draw.rect(surface, (25, 25, 30), box, border_radius=4)
    surface.blit(t, t.get_rect(center=box.center))


def trace(table: Table, a: str, b: str) -> LosResult:
    """The LOS thread between two hexes: the scalar reference ``hexfire los`` prints (RD-9)."""
    return los(table.board, table.board.parse(a), table.board.parse(b))


def viewshed(
    table: Table, origin: str, among: np.ndarray | None = None
) -> tuple[list[Hex], dict[Hex, int], list[Hex]]:
    """What ``origin`` sees (RD-9): the clear hexes, the hindered ones with their Case R DRM,
    and the blocked ones; of the whole map, or of the board indices ``among`` (those on
    screen)."""
    board = table.board
    clear_row, hind_row = table.viewshed(origin)
    idx = np.arange(board.size) if among is None else among
    clear, hind = clear_row[idx], hind_row[idx]
    seen = [board.hex_at(int(j)) for j in idx[clear & (hind == 0)]]
    hindered = {board.hex_at(int(j)): int(hind_row[j]) for j in idx[clear & (hind > 0)]}
    blocked = [board.hex_at(int(j)) for j in idx[~clear]]
    return seen, hindered, blocked


def draw_viewshed(
    surface: pygame.Surface,
    cam: Camera,
    renderer: MapRenderer,
    table: Table,
    origin: str,
    viewport: pygame.Rect,
) -> None:
    seen, hindered, blocked = viewshed(table, origin, renderer.on_screen(cam, viewport))
    renderer.shade(surface, cam, blocked, (0, 0, 0), 120, viewport)
    renderer.shade(surface, cam, seen, (120, 220, 255), 60, viewport)
    renderer.shade(surface, cam, list(hindered), (255, 210, 60), 70, viewport)
    f = FONTS.get(max(11, cam.zoom // 2), bold=True)
    for h, drm in hindered.items():
        sx, sy = cam.hex_to_screen(h)
        t = f.render(f"+{drm}", True, (60, 40, 0))
        surface.blit(t, t.get_rect(center=(sx, sy + cam.zoom * 0.5)))


def fire_map(table: Table, firer: str, ammo: str | None = None) -> dict[str, tuple[float, str]]:
    """For the selected firer with the ammunition selected: each enemy the viewing side knows
    -> (P(burn or eliminated), its hex), the odds panel's own numbers (asked of its table);
    those it cannot shoot are left out."""
    return table.fire_map(firer, ammo)


def draw_fire_map(
    surface: pygame.Surface, cam: Camera, table: Table, firer: str, ammo: str | None
) -> int:
    """The fire map's labels; how many (none: the legend says why)."""
    f = FONTS.get(18, bold=True)
    shots = fire_map(table, firer, ammo)
    for _, (p, hx) in shots.items():
        sx, sy = cam.hex_to_screen(table.board.parse(hx))
        t = f.render(f"{100 * p:.0f}% kill", True, (255, 255, 255))
        box = t.get_rect(midtop=(sx, sy + cam.zoom * 0.62)).inflate(6, 2)
        pygame.draw.rect(surface, style().ui["target"], box, border_radius=3)
        surface.blit(t, t.get_rect(center=box.center))
    return len(shots)


def draw_legend(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    rows: list[tuple[tuple[int, int, int], str]],
) -> None:
    """A small legend box for an overlay, see-through enough to show the hexes under it."""
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(box, (25, 27, 31, 215), box.get_rect(), border_radius=4)
    surface.blit(box, rect.topleft)
    pygame.draw.rect(surface, (90, 95, 100), rect, 1, border_radius=4)
    f = FONTS.get(16, bold=True)
    surface.blit(f.render(title, True, (255, 230, 100)), (rect.left + 8, rect.top + 6))
    y = rect.top + 26
    for color, text in rows:
        pygame.draw.rect(surface, color, (rect.left + 8, y + 2, 14, 12))
        surface.blit(FONTS.get(15).render(text, True, (230, 230, 225)), (rect.left + 28, y))
        y += 18


THREAT_KILL = (230, 40, 30)
THREAT_IMMOBILIZE = (255, 200, 40)


class AnalysisLayer:
    """The analysis tools of a map screen (play or replay): the LOS thread (``l`` then drag, or
    Shift + right-drag), the viewshed (``v``), the threat map (``t``) and the fire map (``f``);
    Escape clears them. They read the engine and change nothing."""

    def __init__(self, view: MapHost) -> None:
        self.view = view
        self.armed = False
        self.dragging = False
        self.thread: LosResult | None = None
        self.overlay: str | None = None
        self._threat_key: tuple | None = None
        self._threat: dict = {}

    @property
    def table(self) -> Table:
        """The side at the screen's table."""
        return self.view.table

    # --- input ------------------------------------------------------------------------------

    def clear(self) -> None:
        """No overlay, no LOS thread (Esc; a handover: one player's tools are not left on for
        the other)."""
        self.thread, self.overlay, self.armed, self.dragging = None, None, False, False

    def key(self, event: pygame.event.Event) -> bool:
        """True when the key was an analysis key."""
        action = action_for(event, "map")
        if action == "thread":
            self.armed = True
            self.view.state.message = "LOS thread: drag from one hex to another (Esc clears)"
            return True
        if action in ("viewshed", "threat", "fire"):
            self.overlay = None if self.overlay == action else action
            return True
        if event.key == pygame.K_ESCAPE and (self.thread or self.overlay or self.armed):
            self.clear()
            return True
        return False

    def mouse(self, event: pygame.event.Event) -> bool:
        """True when the mouse event drew the thread (the map's own handling is skipped)."""
        view = self.view
        if event.type == pygame.MOUSEBUTTONDOWN:
            shift = pygame.key.get_mods() & pygame.KMOD_SHIFT or getattr(event, "shift", False)
            if (event.button == 1 and self.armed) or (event.button == 3 and shift):
                hx = view.hex_at(event.pos)
                if hx is None:
                    return False
                self.dragging = True
                self.thread = trace(self.table, hx, hx)
                return True
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            hx = view.hex_at(event.pos)
            if hx is not None and self.thread is not None:
                self.thread = trace(self.table, label(self.thread.firer), hx)
            return False
        elif event.type == pygame.MOUSEBUTTONUP and self.dragging:
            self.dragging = False
            self.armed = False
            view.state.message = self.thread.summary() if self.thread else ""
            return True
        return False

    # --- the threat map ---------------------------------------------------------------------

    def threats(self) -> dict:
        """Hex label -> :class:`HexThreat` for the selected own vehicle (cached per state)."""
        view = self.view
        unit, viewer = view.state.selected, view.state.viewer
        if unit is None or viewer is None:
            return {}
        key = (id(self.view.table), self.table.version, unit, viewer)
        if key != self._threat_key:
            self._threat_key = key
            u = view.unit(unit)
            ok = u is not None and u["side"] == viewer and bool(u.get("is_vehicle"))
            self._threat = view.knows().threat_map(unit) if ok else {}
        return self._threat

    # --- drawing ------------------------------------------------------------------------------

    def draw_under(self, surface: pygame.Surface, viewport: pygame.Rect) -> None:
        """Overlays drawn under the counters: the viewshed and the threat map."""
        view = self.view
        cam = view.camera
        if self.overlay == "viewshed":
            sel = view.unit(view.state.selected)
            origin = sel["hex"] if sel is not None else view.state.hover_hex
            if origin:
                draw_viewshed(surface, cam, view.renderer, self.table, origin, viewport)
        elif self.overlay == "threat":
            board = self.table.board
            by_level: dict[int, list[Hex]] = {}
            immobile: list[Hex] = []
            for hx, t in self.threats().items():
                by_level.setdefault(min(9, int(t.p_kill * 10)), []).append(board.parse(hx))
                if t.p_immobilized >= 0.1:
                    immobile.append(board.parse(hx))
            for level, hexes in by_level.items():
                view.renderer.shade(surface, cam, hexes, THREAT_KILL, 25 + 20 * level, viewport)
            for h in immobile:
                view.renderer.highlight(surface, cam, h, THREAT_IMMOBILIZE, 2)

    def draw_over(self, surface: pygame.Surface, viewport: pygame.Rect) -> None:
        """Over the counters: the fire map's labels, the thread, and the legend."""
        view = self.view
        cam = view.camera
        selected, viewer = view.state.selected, view.state.viewer
        labels = 0
        if self.overlay == "fire" and selected and viewer:
            firer = view.unit(selected)  # an enemy selected (the replay viewer): no fire map
            if firer is not None and firer["side"] == viewer:
                ammo = view.chosen_ammo(selected)  # the ammunition the odds panel shows
                labels = draw_fire_map(surface, cam, self.table, selected, ammo)
        if self.thread is not None:
            board = self.table.board
            counters = [
                counter_box(cam.hex_to_screen(board.parse(u["hex"])), cam.zoom)
                for u in view.units()
            ]
            draw_thread(surface, cam, self.thread, counters)
        legend = self.legend_rect(viewport)
        if self.overlay == "viewshed":
            draw_legend(
                surface,
                legend,
                "Viewshed (v): what the unit or hex sees",
                [
                    ((120, 220, 255), "in LOS, clear"),
                    ((255, 210, 60), "in LOS, hindered: +DRM (Case R)"),
                    ((0, 0, 0), "out of LOS (RD-9)"),
                ],
            )
        elif self.overlay == "threat":
            draw_legend(
                surface,
                legend,
                "Threat map (t): if every seen enemy fired",
                [
                    (THREAT_KILL, "darker: likelier burned / eliminated"),
                    (THREAT_IMMOBILIZE, "outline: >= 10% immobilized"),
                    (
                        (200, 200, 200),
                        "hover a hex: the shots behind it"
                        if self.threats()
                        else "now: no enemy seen that could fire"
                        if view.state.selected
                        else "now: select one of your vehicles",
                    ),
                ],
            )
        elif self.overlay == "fire":
            draw_legend(
                surface,
                legend,
                "Fire map (f): the selected firer",
                [
                    (style().ui["target"], "% kill: burned or eliminated"),
                    ((200, 200, 200), "the odds panel's own numbers"),
                    (
                        (200, 200, 200),
                        "enemies it cannot hit: no label"
                        if labels
                        else "now: it can fire at no enemy it sees"
                        if selected
                        else "now: select a firer of yours",
                    ),
                ],
            )

    def legend_rect(self, viewport: pygame.Rect) -> pygame.Rect:
        """Where the overlay's legend goes: the first corner of the map with no counter, no
        hover and no LOS thread end under it (it covered A1-D1 and the units there), else the
        bottom left."""
        view = self.view
        cam = view.camera
        board = self.table.board
        points = [cam.hex_to_screen(board.parse(u["hex"])) for u in view.units()]
        if view.state.hover_hex:
            points.append(cam.hex_to_screen(board.parse(view.state.hover_hex)))
        if self.thread is not None:
            points += [cam.hex_to_screen(self.thread.firer), cam.hex_to_screen(self.thread.target)]
        order = ("bottom left", "top left", "bottom right", "top right")
        return clear_corner(viewport, (300, 98), points, 2 * cam.zoom, order, 8)

    def side_lines(self) -> list[str]:
        """For the side panel: the threats behind the hovered hex's number."""
        hover = self.view.state.hover_hex
        if self.overlay != "threat" or not hover:
            return []
        t = self.threats().get(hover)
        if t is None:
            return [f"{hover}: no seen enemy can fire here"]
        lines = [
            f"{hover}: {100 * t.p_kill:.1f}% burned/eliminated, "
            f"{100 * t.p_immobilized:.1f}% immobilized"
        ]
        for shot in t.threats:
            name = self.view.knows().name(shot.firer)
            lines.append(f"  {name} ({shot.ammo or 'SW'}): {100 * shot.p_kill:.1f}% kill")
        return lines
