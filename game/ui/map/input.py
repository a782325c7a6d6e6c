"""The map's own input, shared by the play screen and the replay viewer (a controller composed
into each, not inherited): drag to pan, the wheel and keys to zoom and pan, the overview map,
and the analysis layer's keys and LOS thread. It reads and moves the map view's camera
through :class:`game.ui.map.host.MapHost` and keeps its own drag state."""

from __future__ import annotations

import pygame

from game.ui.map.host import MapHost

PAN_STEP = 60
"""Pixels one arrow key pans the map."""

MAP_ACTIONS = ("pan_left", "pan_right", "pan_up", "pan_down", "zoom_in", "zoom_out")
"""The bindings table's map actions this controller runs (data/bindings.toml)."""


class MapInput:
    """Panning, zooming, the overview and the analysis tools for one screen's map."""

    def __init__(self, host: MapHost) -> None:
        self.host = host
        self.panning: tuple[int, int] | None = None
        """Where a right or middle drag last was (None: not dragging)."""
        self.minimap_drag = False

    def do(self, action: str) -> None:
        """One of :data:`MAP_ACTIONS`."""
        cam = self.host.camera
        centre = self.host.rect.center
        steps = {
            "pan_left": (PAN_STEP, 0),
            "pan_right": (-PAN_STEP, 0),
            "pan_up": (0, PAN_STEP),
            "pan_down": (0, -PAN_STEP),
        }
        if action in steps:
            cam.pan(*steps[action])
        elif action in ("zoom_in", "zoom_out"):
            cam.zoom_step(1 if action == "zoom_in" else -1, *centre)

    def analysis_event(self, event: pygame.event.Event) -> bool:
        """The analysis tools' keys and the LOS thread's drag; True when they took it."""
        analysis = self.host.analysis
        if event.type == pygame.KEYDOWN:
            return bool(analysis.key(event))
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return bool(analysis.mouse(event))
        if event.type == pygame.MOUSEMOTION:
            analysis.mouse(event)
        return False

    def overview_event(self, event: pygame.event.Event) -> bool:
        """A click or drag on the overview map centres the map there; True when it took it."""
        host = self.host
        rect = host.minimap.rect
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.minimap_drag = rect is not None and rect.collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.minimap_drag:
            self.minimap_drag = False
            return True
        if not self.minimap_drag or rect is None:
            return False
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION):
            x = min(max(event.pos[0], rect.left), rect.right - 1)
            y = min(max(event.pos[1], rect.top), rect.bottom - 1)
            m = host.rect
            host.camera.center_on(*host.minimap.to_world((x, y)), m.width, m.height, m.left)
            host.camera.oy += m.top
            return True
        return False

    def drag_and_wheel(self, event: pygame.event.Event) -> bool:
        """Right or middle drag pans; the wheel zooms around the cursor. True when taken."""
        host = self.host
        if event.type == pygame.MOUSEMOTION and self.panning:
            dx, dy = event.pos[0] - self.panning[0], event.pos[1] - self.panning[1]
            host.camera.pan(dx, dy)
            self.panning = event.pos
            return False  # the hover still follows the mouse
        if event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3):
            if host.rect.collidepoint(event.pos):
                self.panning = event.pos
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self.panning = None
            return True
        if event.type == pygame.MOUSEWHEEL:
            mouse = host.state.mouse
            if host.rect.collidepoint(mouse):
                host.camera.zoom_step(1 if event.y > 0 else -1, *mouse)
            return True
        return False
