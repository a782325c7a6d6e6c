"""The play screen's set-up marks (a part of :class:`game.ui.play.screen.PlayScene`, HX-12): the
units the side may still place, those not yet touched ringed, and their count on End Phase;
and the view a resumed game had (its zoom, centre and selection), with its last shot."""

from __future__ import annotations

from pathlib import Path

import pygame
import pygame_gui

from game.session import Session, Table
from game.ui.map.geometry import ZOOMS, map_extent
from game.ui.map.view import MapView
from game.ui.map.viewstate import shot_banner
from game.ui.scenes.stack import App


class SetUpMarks:
    """The set-up's marks and the resumed view (their state is set up by the screen)."""

    app: App
    map: MapView
    session: Session

    def _seen(self) -> Table:
        """The side at the screen's table."""
        return self.session.table(self.map.state.viewer)

    buttons: dict[str, pygame_gui.elements.UIButton]
    _resumed_selection: tuple[str | None, str | None]

    def placeable(self) -> set[str]:
        """Own units the side at the screen may still place (HX-12)."""
        return set(self._seen().placeable())

    def unplaced(self) -> list[str]:
        """The units the side setting up may place and has not touched yet (HX-12): no
        placement, turn, concealment or Bore Sight of theirs. They stand where the scenario
        set them, which is a legal place: their counters are ringed and End Phase says how many
        are unmoved (it said "to place", which a newcomer read as a duty, and it kept counting
        a unit concealed where it stood)."""
        if self.map.state.viewer != self._seen().to_act:
            return []
        touched = {  # the side's own set-up events: its log, never the save (HX-12, RD-11)
            e.data.get("unit")
            for e in self._seen().events()
            if e.kind in ("place", "concealment", "bore_sight")
        }
        return sorted(u for u in self.placeable() if u not in touched)

    def _draw_unplaced(self, surface: pygame.Surface, r: dict[str, pygame.Rect]) -> None:
        """In the set-up: a ring on each unit still to place, and the count on End Phase."""
        button = self.buttons.get("end_phase")
        left = self.unplaced() if self.map.setting_up() else []
        text = f"End Phase: {len(left)} unmoved" if left else "End Phase (e)"
        if button is not None and button.text != text:
            button.set_text(text)
        if not left:
            return
        cam, z = self.map.camera, self.map.camera.zoom
        surface.set_clip(r["map"])
        for unit_id in left:
            unit = self.map.unit(unit_id)
            if unit is not None:
                x, y = cam.hex_to_screen(self._seen().board.parse(unit["hex"]))
                pygame.draw.circle(surface, (110, 210, 110), (int(x), int(y)), int(z * 0.85), 2)
        surface.set_clip(None)

    def _show_last_shot(self) -> None:
        """A finished game resumed: the last shot the side at the screen may read goes back on
        the map, as it was when the game ended (the result screen came up without it)."""
        knows = self.map.knows()
        for event in reversed(self._seen().events()):
            seen = event.seen_by(self.map.state.viewer)
            banner = shot_banner(seen, knows, self.session.version) if seen else None
            if banner is not None:
                self.map.state.banner = banner
                return

    def remember_view(self) -> None:
        """Keep this game's zoom, centre and selection for its Resume (in the preferences)."""
        path = getattr(self.session, "path", None)
        if path is None:
            return
        m, cam, state = self.map.rect, self.map.camera, self.map.state
        x, y = cam.screen_to_world(*m.center)
        view = {"zoom": cam.zoom, "center": [x, y], "viewer": state.viewer}
        self.app.prefs.remember(Path(path), {**view, "selected": state.selected})

    def _restore_view(self) -> None:
        """A resumed game opens as its window last showed it: the zoom and the centre now,
        the selection once the same side takes the seat again (its handover)."""
        path = getattr(self.session, "path", None)
        view = self.app.prefs.view_of(Path(path)) if path else None
        if view is None:
            return
        m, cam = self.map.rect, self.map.camera
        cam.zoom = min(ZOOMS, key=lambda z: abs(z - view["zoom"]))  # one of the zoom levels
        board = self.map.table.board
        x0, y0, x1, y1 = map_extent(board.columns, board.rows)
        x, y = view["center"]  # on the map, whatever the file said
        cam.center_on(min(max(x, x0), x1), min(max(y, y0), y1), m.width, m.height, m.left)
        cam.oy += m.top
        self._resumed_selection = (view["viewer"], view["selected"])
        if (
            view["viewer"] is not None and view["viewer"] == self.map.state.viewer
        ):  # its seat, no handover
            own = self.map.unit(view["selected"])  # (against the computer)
            if own is not None and own["side"] == self.map.state.viewer:
                self.map.state.selected = own["id"]
                self._resumed_selection = (None, None)
