"""The one map view: camera, terrain, counters, markers, highlights, the analysis layer, the LOS
thread, the last shot's banner and the overview. The play screen, the replay viewer (and later
an editor) each compose one. It draws from a plain :class:`ViewState` (who is looking, the
selection, the hover, the message) and from the engine's answer to "what may this side know"
(its :class:`~game.session.Table`: the side's view and the questions it may ask), never from
the game."""

from __future__ import annotations

from collections.abc import Callable, Collection, Container
from typing import Protocol

import pygame

from game.board import Board
from game.board.hexes import Hex, label
from game.engine import IllegalAction
from game.engine.actions import Move
from game.engine.knowledge import ShotOdds
from game.engine.play.paths import Route
from game.engine.view import UnitRecord, UnitView
from game.session import Table
from game.ui.map.analysis import AnalysisLayer
from game.ui.map.boxes import MapBoxes
from game.ui.map.counters import (
    draw_acquired,
    draw_awaiting,
    draw_can_act,
    draw_counter,
    draw_markers,
    stack_offset,
)
from game.ui.map.geometry import Camera, world_of
from game.ui.map.input import MapInput
from game.ui.map.minimap import Minimap
from game.ui.map.render import FONTS, MapRenderer
from game.ui.map.viewstate import ShotBanner, ViewState, shot_banner
from game.ui.style import style

READABLE_ZOOM = 25
"""The smallest zoom a game opens at; a map too big to fit opens on the own units."""


def route_marks(route: Route, unit: UnitRecord, threats: Container[str]) -> list[tuple[str, bool]]:
    """The hexes of a planned move to ring, each with whether an enemy the side knows of could
    fire there (RD-18): each hex entered, and the start hex when MP are spent in it first (the
    start MP of a vehicle not yet moving, or a pivot: HX-5, a Defensive First Fire chance after
    each)."""
    first = next((i for i, step in enumerate(route.steps) if isinstance(step, Move)), None)
    moving = unit.get("moving") or unit.get("motion")
    spends = bool(unit.get("is_vehicle")) and (not moving or first != 0)
    start = [(unit["hex"], unit["hex"] in threats)] if spends else []
    return start + [(h, h in threats) for h in route.hexes]


class Tables(Protocol):
    """What the map view reads a game through: each side's table (a session, a snapshot)."""

    def table(self, side: str | None) -> Table: ...

    def refresh(self) -> None: ...


class MapView(MapBoxes):
    """The map of one game as one side (or both) may see it, in the rectangle ``rect``.

    ``source`` gives the tables of the game shown (a session, or the replay viewer's
    :class:`~game.session.Snapshot`, which changes as it seeks); ``shows_all``:
    with no viewer, show both sides (the replay) rather than nothing (a game before its first
    handover).

    The scenario editor draws a scenario with no game yet through a view-like value of its
    own (:class:`game.ui.edit.sketch.Sketch`: the board, the units, the version and the
    phase); it asks no rules question of it (no odds, no overlay)."""

    def __init__(self, source: Callable[[], Tables], shows_all: bool = False):
        self.source = source
        self.shows_all = shows_all
        board = source().table(None).board
        self.renderer = MapRenderer(board)
        self.tile_budget: float | None = None
        """The seconds of new terrain tiles a frame may draw (None: all on screen at once)."""
        self.minimap = Minimap(board)
        self.camera = Camera()
        self.state = ViewState()
        self.rect = pygame.Rect(0, 0, 1, 1)
        self.fitted = False
        self.analysis = AnalysisLayer(self)
        self.input = MapInput(self)
        self.acting: Callable[[], Collection[str]] = list
        """The units of the side at the screen that can still act this phase (each carries a
        green dot); the play screen sets it, the replay shows none."""
        self._key: tuple | None = None
        self._knows: Table | None = None
        self._units: list[UnitView] = []
        self._at: dict[str, Hex] = {}
        self._odds_key: tuple | None = None
        self._odds: ShotOdds | str | None = None
        self._area_key: tuple | None = None
        self._unit_area_key: tuple | None = None
        self._unit_area_hexes: list[Hex] = []
        self._area: list[Hex] = []
        self.banner_rect = pygame.Rect(0, 0, 0, 0)
        """Where the last shot's banner is drawn (a click there puts it away)."""
        self.tracking_rect = pygame.Rect(0, 0, 0, 0)
        """Where the moving vehicle's box of Defensive First Fire chances was last drawn."""

    # --- what the side may know --------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The side at the screen's table (its view and questions)."""
        return self.source().table(self.state.viewer)

    def _refresh(self) -> None:
        table = self.table
        key = (id(self.source()), table.version, self.state.viewer)
        if key != self._key or self._knows is not table:
            self._key = key
            self._knows = table
            shown = self.state.viewer is not None or self.shows_all
            self._units = table.units() if shown else []
            parse = table.board.parse
            self._at = {u["id"]: parse(u["hex"]) for u in self._units}

    def knows(self) -> Table:
        """The side at the screen's table: what it may know and ask (cached per version)."""
        self._refresh()
        assert self._knows is not None
        return self._knows

    def units(self) -> list[UnitView]:
        """The units as the side at the screen may see them."""
        self._refresh()
        return self._units

    def positions(self) -> dict[str, Hex]:
        """Each shown unit's hex (parsed once per state: a big map's frame parsed every
        counter's label)."""
        self._refresh()
        return self._at

    def unit(self, unit_id: str | None) -> UnitView | None:
        """One unit as the side at the screen sees it; None when not in play (or not shown)."""
        return next((u for u in self.units() if u["id"] == unit_id), None) if unit_id else None

    def units_at(self, hex_label: str) -> list[UnitView]:
        return [u for u in self.units() if u["hex"] == hex_label]

    def own(self) -> list[UnitView]:
        """The side at the screen's units (the side to act's, when nobody is at it yet)."""
        side = self.state.viewer or self.table.to_act
        return [u for u in self.source().table(side).units() if u["side"] == side]

    def chosen_ammo(self, unit_id: str) -> str | None:
        """The ammunition chosen for ``unit_id`` (``r``), dropped once the unit is out of it
        (RD-17): the next shot then goes with its first ammunition again."""
        ammo = self.state.ammo.get(unit_id)
        unit = self.unit(unit_id)
        if ammo is not None and unit is not None and ammo in unit.get("ammo_out", ()):
            del self.state.ammo[unit_id]
            return None
        return ammo

    def target_in(self, hx: str) -> UnitView | None:
        """The enemy a click on ``hx`` aims at: a vehicle, Gun or unknown "?" before infantry
        (AT fire has no effect on Infantry, 002)."""
        enemy = [u for u in self.units_at(hx) if u["side"] != self.state.viewer]
        enemy.sort(key=lambda u: u.get("category") == "infantry")
        return enemy[0] if enemy else None

    def hover_odds(self) -> tuple[str, ShotOdds | str] | None:
        """The odds panel's content: the selected firer against the enemy under the mouse, as
        the side at the screen may be shown them."""
        st = self.state
        firer = self.unit(st.selected)
        if firer is None or not st.hover_hex:
            return None
        target = self.target_in(st.hover_hex)
        if target is None:
            return None
        ammo = self.chosen_ammo(firer["id"])
        key = (self._key, firer["id"], target["id"], ammo)
        board = self.table.board
        rng = board.parse(firer["hex"]).distance(board.parse(target["hex"]))
        title = (
            f"{firer.get('name', '?')} -> {target.get('name', '?')} in {target['hex']}, "
            f"{rng} hex{'es' if rng != 1 else ''}"
        )
        if key != self._odds_key:
            self._odds_key = key
            try:
                self._odds = self.knows().odds(firer["id"], target["id"], ammo)
            except IllegalAction as e:
                self._odds = e.reason
        assert self._odds is not None
        return title, self._odds

    def _setup_area(self, side: str) -> list[Hex]:
        """The side's whole set-up area (HX-12), kept: set-up areas never change."""
        key = (id(self.source()), side)
        if self._area_key != key:
            self._area_key = key
            table = self.source().table(side)
            self._area = [table.board.parse(hx) for hx in table.setup_area(side)]
        return self._area

    def _unit_area(self, unit_id: str) -> list[Hex]:
        """One unit's set-up area (HX-12), kept while it is selected."""
        key = (id(self.source()), unit_id)
        if self._unit_area_key != key:
            self._unit_area_key = key
            table = self.table
            self._unit_area_hexes = [table.board.parse(hx) for hx in table.setup_hexes(unit_id)]
        return self._unit_area_hexes

    def setting_up(self) -> bool:
        return self.table.phase in ("setup", "setup_attacker")

    # --- the camera --------------------------------------------------------------------------

    def fit(self) -> None:
        """The first view of the map: all of it, or, when that would make counters too small
        to read, the own units at a readable zoom."""
        if self.fitted:
            return
        m = self.rect
        board = self.table.board
        self.camera.fit(board.columns, board.rows, m.width, m.height, m.left)
        self.camera.oy += m.top
        if self.camera.zoom < READABLE_ZOOM:  # about the map's middle (the zoom alone changed
            # left the smaller zoom's offset: the editor, with no own units, showed a band
            # above the four-board map), then on the own units
            self.camera.zoom_to(READABLE_ZOOM, m.centerx, m.centery)
            self.focus_own_units(always=True)
        self.fitted = True

    def hex_at(self, pos: tuple[int, int]) -> str | None:
        if not self.rect.collidepoint(pos):
            return None
        h = self.camera.screen_to_hex(*pos)
        return label(h) if self.table.board.contains(h) else None

    def center_on(self, hex_label: str) -> None:
        m = self.rect
        sx, sy = self.camera.hex_to_screen(self.table.board.parse(hex_label))
        if not m.inflate(-80, -80).collidepoint(sx, sy):
            self.camera.pan(m.centerx - sx, m.centery - sy)

    def focus_own_units(self, always: bool = False) -> None:
        """Bring the side at the screen's units into view (after a handover the camera was on
        the other side's); ``always``: centre on them even when some are in view. A side with
        no unit left on the map keeps the camera where it is."""
        board = self.table.board
        own = [board.parse(u["hex"]) for u in self.own()]
        if not own:
            return
        m = self.rect
        inner = m.inflate(-80, -80)
        if not always and any(inner.collidepoint(self.camera.hex_to_screen(h)) for h in own):
            return
        x, y = (sum(c) / len(own) for c in zip(*map(world_of, own), strict=True))
        self.camera.center_on(x, y, m.width, m.height, m.left)
        self.camera.oy += m.top
        self.camera.keep_map_in(board.columns, board.rows, (m.left, m.top, m.width, m.height))

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        """The hex under the mouse; one moved on into the side panel keeps the hex it left
        (its odds stay up to be read, a rule id in them hovered)."""
        self.state.mouse = pos
        if pos[0] >= self.rect.right and self.rect.top <= pos[1] and self.state.hover_hex:
            return
        self.state.hover_hex = self.hex_at(pos)

    def refresh(self) -> None:
        """The game shown changed other than by an action (an undo, a replay's jump): read
        it afresh (the terrain is the scenario's and never changes: its tiles are kept)."""
        self.source().refresh()
        self.renderer.board = self.table.board
        self.minimap.board = self.table.board
        self._key = self._odds_key = None

    def redraw_map(self, board: Board) -> None:
        """A new renderer for ``board`` (the same map read again), the last one's tiles standing
        in until its own are drawn (:attr:`tile_budget`)."""
        old, self.renderer = self.renderer, MapRenderer(board)
        self.renderer.stand_in = old
        self.renderer.show_labels = old.show_labels

    # --- drawing ------------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        """The map in :attr:`rect`: terrain, highlights, overlays, counters, the banner."""
        m = self.rect
        cam = self.camera
        board = self.table.board
        occupied = frozenset(board.parse(u["hex"]) for u in self.units())
        self.renderer.draw(surface, cam, m, occupied, self.tile_budget)
        surface.set_clip(m)
        self._draw_highlights(surface)
        self.analysis.draw_under(surface, m)
        self._draw_counters(surface)
        self._draw_tracking(surface)
        self._draw_banner(surface)
        self.analysis.draw_over(surface, m)
        surface.set_clip(None)

    def _draw_highlights(self, surface: pygame.Surface) -> None:
        """The selected unit's set-up area or the hexes it may enter (with their MP), the own
        Bore Sighted Locations, and the hex under the mouse."""
        st = style()
        cam, z = self.camera, self.camera.zoom
        table = self.table
        sel = self.unit(self.state.selected)
        viewer = self.state.viewer
        setting_up = self.setting_up() and viewer is not None and viewer == table.to_act
        if setting_up and viewer is not None and (sel is None or sel["side"] != viewer):
            # before a unit is picked: where the side may set up at all, lighter (HX-12)
            area = self._setup_area(viewer)
            self.renderer.shade(surface, cam, area, st.ui["good"], 75, self.rect)
            self.renderer.outline(surface, cam, area, st.ui["area_edge"], self.rect)
        if sel is not None and sel["side"] == table.to_act:
            if self.setting_up():
                area = self._unit_area(sel["id"])
                self.renderer.shade(surface, cam, area, st.ui["good"], 90, self.rect)
                self.renderer.outline(surface, cam, area, st.ui["area_edge"], self.rect)
            if table.phase == "movement":
                mp = "MP" if sel.get("is_vehicle") else "MF"  # Infantry's are MF (RD-10)
                for hx, cost in table.move_costs(sel["id"]).items():
                    h = table.board.parse(hx)
                    self.renderer.highlight(surface, cam, h, st.ui["reach"], 2, fill_alpha=60)
                    sx, sy = cam.hex_to_screen(h)
                    t = FONTS.text(f"{cost:g} {mp}", max(12, int(z * 0.5)), (10, 40, 70), True)
                    surface.blit(t, t.get_rect(center=(sx, sy + z * 0.55)))
        self._draw_route(surface)
        for own in self.units():  # the side's own Bore Sighted Locations (C6.42)
            if own["side"] == self.state.viewer and own.get("bore_sight"):
                h = table.board.parse(own["bore_sight"])
                self.renderer.highlight(surface, cam, h, st.ui["reach"], 1)
                sx, sy = cam.hex_to_screen(h)
                t = FONTS.text(f"BS {own['name']}", max(11, z // 3), st.ui["reach"], True)
                surface.blit(t, t.get_rect(midtop=(sx, sy + z * 0.45)))
        if self.state.hover_hex:
            h = table.board.parse(self.state.hover_hex)
            color = st.ui["hover"]
            dragged = self.state.dragging
            if dragged and self.setting_up():  # where the counter would land: may it (HX-12)?
                ok = h in set(self._unit_area(dragged)) and not [
                    u for u in self.units_at(self.state.hover_hex) if u["id"] != dragged
                ]
                color = st.ui["good"] if ok else st.ui["bad"]
            self.renderer.highlight(surface, cam, h, color, 3 if dragged else 2)

    def _draw_route(self, surface: pygame.Surface) -> None:
        """A path move shown: the line through its hexes, a red ring where an enemy the side
        knows of could fire (RD-18's threat map), its MP at the last hex."""
        route, table = self.state.route, self.table
        if route is None or self.state.route_at != table.version:
            return
        if route.unit != self.state.selected:
            return
        st = style()
        cam, z = self.camera, self.camera.zoom
        sel = self.unit(route.unit)
        if sel is None:
            return
        points = [cam.hex_to_screen(table.board.parse(h)) for h in (sel["hex"], *route.hexes)]
        pygame.draw.lines(surface, st.ui["reach"], False, points, max(2, z // 10))
        threats = self.analysis.threats()
        marks = route_marks(route, sel, threats)
        ringed = points[len(points) - len(marks) :]  # the start hex too, if MP are spent there
        for (h, fired_at), (sx, sy) in zip(marks, ringed, strict=True):
            color = st.ui["bad"] if fired_at else st.ui["reach"]
            if h == sel["hex"]:  # under its counter: the hex's edge shows it
                if fired_at:
                    self.renderer.highlight(surface, cam, table.board.parse(h), color, 4)
                continue
            pygame.draw.circle(
                surface, color, (int(sx), int(sy)), max(4, z // 6), 0 if fired_at else 2
            )
        sx, sy = points[-1]
        mp = "MP" if sel.get("is_vehicle") else "MF"  # a squad's path is in MF (RD-10)
        t = FONTS.text(f"{route.mp:g} {mp}", max(12, int(z * 0.5)), (10, 40, 70), True)
        box = t.get_rect(center=(sx, sy + z * 0.55)).inflate(6, 2)
        pygame.draw.rect(surface, st.ui["reach"], box, border_radius=3)
        surface.blit(t, t.get_rect(center=box.center))

    def _draw_counters(self, surface: pygame.Surface) -> None:
        """The counters, stacked in their hex, each with its marker chips inside the hex."""
        cam, z = self.camera, self.camera.zoom
        table = self.table
        at = self.positions()
        acting = self.acting()
        seen = self.rect.inflate(3 * z, 3 * z)  # a counter partly in view is drawn
        by_hex: dict[str, list[UnitView]] = {}
        for u in self.units():
            by_hex.setdefault(u["hex"], []).append(u)
        for stack in by_hex.values():
            sx, sy = cam.hex_to_screen(at[stack[0]["id"]])
            if not seen.collidepoint(sx, sy):
                continue
            for i, u in enumerate(stack):
                off = stack_offset(i, z)
                selected = u["id"] == self.state.selected
                if u.get("awaiting_setup"):  # on its file's hex until its side sets up (HX-12)
                    draw_awaiting(surface, u, sx + off, sy - off, z)
                    continue
                rect = draw_counter(surface, u, sx + off, sy - off, z, selected=selected)
                if u["id"] in acting:  # it can still move or fire this phase
                    draw_can_act(surface, rect, z)
                if i == len(stack) - 1:  # the top counter's markers (the others are under it)
                    draw_markers(surface, u, rect, z, table.phasing, (sx, sy))
            if len(stack) > 1:
                t = FONTS.text(str(len(stack)), max(12, z // 2), (255, 255, 255), True)
                surface.blit(t, (sx - z * 0.75, sy - z * 0.8))
        for u in self.units():  # each Acquired counter on its Location (C6.5)
            acq = u.get("acquisition")
            if acq:
                ax, ay = cam.hex_to_screen(table.board.parse(acq[2].split()[0]))
                draw_acquired(surface, acq, ax, ay, z, u.get("name", ""))
        dragged = self.unit(self.state.dragging)
        if dragged is not None:
            mx, my = self.state.mouse
            draw_counter(surface, dragged, mx, my, z, selected=True)
        hovered = by_hex.get(self.state.hover_hex or "")
        if hovered and dragged is None:  # the full names of the counters under the mouse
            names = [
                (u.get("name") or "a concealed unit")
                + (
                    " (sets up after you: not its place yet, HX-12)"
                    if u.get("awaiting_setup")
                    else ""
                )
                for u in hovered
            ]
            sx, sy = cam.hex_to_screen(at[hovered[0]["id"]])
            t = FONTS.text(" / ".join(names), 15, (255, 255, 255), True)
            box = t.get_rect(midbottom=(sx, sy - z * 0.62)).inflate(8, 4)
            box.clamp_ip(self.rect)
            pygame.draw.rect(surface, (16, 18, 22), box, border_radius=4)
            surface.blit(t, t.get_rect(center=box.center))


__all__ = ["READABLE_ZOOM", "MapInput", "MapView", "ShotBanner", "ViewState", "shot_banner"]
