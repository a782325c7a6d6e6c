"""The play screen: the map, the counters, the phase bar, the side panel with the odds panel,
the log; selecting, moving, turning, firing, ending phases, undo and save. Every change goes
through the engine's ``Game.apply`` (via the session's autosave); everything shown comes from
``Game.view``, ``legal_actions``, ``preview_fire``, ``move_costs`` and the events."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui

from game.board.hexes import label
from game.engine import Game, IllegalAction
from game.engine.actions import (
    Action,
    Place,
)
from game.engine.events import Event
from game.engine.knowledge import ShotOdds
from game.files.session import Autosave
from game.rules.words import outcome_words

from . import playview
from .analysis import AnalysisLayer
from .app import Scene
from .bindings import action_for
from .buttonbar import button_row
from .eventlog import event_html
from .geometry import Camera, world_of
from .mapinput import MapInput
from .maprender import MapRenderer
from .minimap import Minimap
from .playdialogs import Dialogs
from .playorders import Orders
from .routes import DffChance, GameOver, HandOver, Push
from .style import style

READABLE_ZOOM = 25
"""The smallest zoom a game opens at; a map too big to fit opens on the own units."""
BAR_H = 46
SIDE_W = 380
LOG_H = 150
BUTTONS_H = 38
LOG_KEEP = 400
LOG_SHOWN = 120
"""The lines the log box is given at once (it scrolls; the side's whole log is kept)."""


class Session(Protocol):
    """What the play screen needs of a session: the game, its save file, and the door."""

    game: Game
    path: Path | None

    def apply(self, action: Action) -> list[Event]: ...

    def undo(self) -> str | None: ...

    def save_as(self, path: str | Path) -> None: ...


class PlayScene(Scene):
    """A game in progress, played at one screen."""

    bindings_screen = "play"
    """The screen of data/bindings.toml whose keys this screen reads (and its help shows)."""
    overview = True
    """Whether the side panel shows the overview map when the map is larger than the screen."""

    def __init__(self, session: Session | Autosave, title: str = ""):
        self.session = session
        self.title = title
        self.renderer = MapRenderer(session.game.board)
        self.minimap = Minimap(session.game.board)
        self.camera = Camera()
        self.fitted = False
        self.viewer: str | None = None
        self.selected: str | None = None
        self.hover_hex: str | None = None
        self.mouse = (0, 0)
        self.ammo: dict[str, str] = {}
        self.last_shot: tuple[str, str, str] | None = None
        self.last_shot_at = 0  # the action count at the last shot: its banner lasts one more
        self.message = ""
        self.bore_sight_mode = False
        self.dragging: str | None = None
        """The unit whose counter is being dragged to a set-up hex (HX-12)."""
        self._legal_key: tuple | None = None
        self._legal: list[Action] = []
        self._view_key: tuple | None = None
        self._view: list[dict] = []
        self._odds_key: tuple | None = None
        self._odds: ShotOdds | str | None = None
        self.log: list[str] = []
        self.analysis = AnalysisLayer(self)
        self.map_input = MapInput(self)
        self.widgets: list = []
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.log_box: pygame_gui.elements.UITextBox | None = None
        self._log_lines = 0
        self.dialogs = Dialogs(self)
        self.dff_order: tuple[str, list[str]] = ("", [])  # the DFF prompt's numbers, per mover
        self.orders = Orders(self)
        for event in self.game.history:
            self._log_event(event)

    # --- the game -----------------------------------------------------------------------

    @property
    def game(self):
        return self.session.game

    def legal(self) -> list[Action]:
        key = (id(self.game), self.game.actions_applied, self.game.dice.draws)
        if key != self._legal_key:
            self._legal_key = key
            self._legal = self.game.legal_actions()
        return self._legal

    def view(self) -> list[dict]:
        key = (id(self.game), self.game.actions_applied, self.viewer)
        if key != self._view_key:
            self._view_key = key
            self._view = self.game.view(self.viewer) if self.viewer else []
        return self._view

    def apply(self, action: Action) -> bool:
        """Apply through the autosave; a refusal shows its reason in the phase bar."""
        try:
            events = self.session.apply(action)
        except IllegalAction as e:
            self.message = e.reason
            return False
        self.message = getattr(self.session, "save_error", None) or ""
        self.bore_sight_mode = False
        before = len(self.log)
        for event in events:
            self._log_event(event)
            if event.kind == "fire":
                d = event.data
                firer, target = self.game.units[d["firer"]], self.game.units[d["target"]]
                dr = d["dr"]
                dice = f"{dr['white']}+{dr['colored']}" if dr else ""
                self.last_shot_at = self.game.actions_applied
                self.last_shot = (
                    firer.label,
                    target.label,
                    f"{'HIT' if d['hit'] else 'MISS'} {dice}: {outcome_words(d['outcome'])}",
                )
        self._append_log(self.log[before:] if len(self.log) > before else [])
        if self.selected and not self.game.units[self.selected].active:
            self.selected = None
        self.after_change()
        return True

    def after_change(self) -> None:
        """What the screen must do next: the end screen, a handover, or the Defensive First
        Fire prompt."""

        game = self.game
        if game.over:
            self.app.go(Push(GameOver(self)))
            return
        strict = self.app.prefs.strict_hotseat
        if game.dff_pending:
            defender = game.non_phasing
            if strict and self.viewer != defender:
                self.app.go(Push(HandOver(self, defender, then_dff=True)))
            else:
                self.app.go(Push(DffChance(self)))
            return
        if self.viewer != game.to_act:
            self.app.go(Push(HandOver(self, game.to_act)))

    def _log_event(self, event: Event) -> None:
        seen = event.seen_by(self.viewer)  # what this side may read (the engine's knowledge)
        if seen is not None:
            self.log.append(event_html(seen))
        if len(self.log) > LOG_KEEP:
            del self.log[: len(self.log) - LOG_KEEP]

    def _refresh_log(self) -> None:
        """Set the log box's whole text: its last lines (a new viewer, a new screen)."""
        if self.log_box is not None:
            shown = self.log[-LOG_SHOWN:]
            self.log_box.set_text("<br>".join(shown))
            self._log_lines = len(shown)
            if self.log_box.scroll_bar is not None:
                self.log_box.scroll_bar.set_scroll_from_start_percentage(1.0)

    def _append_log(self, lines: list[str]) -> None:
        """An action's new lines, appended to the log box (setting its whole text again cost
        80 ms an action); the text is set anew only when the box holds twice its lines."""
        if self.log_box is None or not lines:
            return
        if self._log_lines + len(lines) > 2 * LOG_SHOWN or not self._log_lines:
            self._refresh_log()
            return
        self.log_box.append_html_text("<br>" + "<br>".join(lines))
        self._log_lines += len(lines)
        if self.log_box.scroll_bar is not None:  # the newest line in view
            self.log_box.scroll_bar.set_scroll_from_start_percentage(1.0)

    def rebuild_log(self) -> None:
        """The viewer changed: the log shows what that side may know."""
        self.log = []
        for event in self.game.history:
            self._log_event(event)
        self._refresh_log()

    # --- layout and widgets ---------------------------------------------------------------

    def rects(self) -> dict[str, pygame.Rect]:
        w, h = self.app.size
        return {
            "bar": pygame.Rect(0, 0, w, BAR_H),
            "map": pygame.Rect(0, BAR_H, w - SIDE_W, h - BAR_H - LOG_H - BUTTONS_H),
            "buttons": pygame.Rect(0, h - LOG_H - BUTTONS_H, w - SIDE_W, BUTTONS_H),
            "log": pygame.Rect(0, h - LOG_H, w - SIDE_W, LOG_H),
            "side": pygame.Rect(w - SIDE_W, BAR_H, SIDE_W, h - BAR_H),
        }

    def enter(self) -> None:
        ui = self.app.ui
        r = self.rects()
        self.renderer.show_labels = self.app.prefs.show_labels
        if not self.fitted:
            m = r["map"]
            self.camera.fit(
                self.game.board.columns, self.game.board.rows, m.width, m.height, m.left
            )
            self.camera.oy += m.top
            if self.camera.zoom < READABLE_ZOOM:  # a big map: readable counters first
                self.camera.zoom = READABLE_ZOOM
                self.focus_own_units(always=True)
            self.fitted = True
        end = pygame_gui.elements.UIButton(
            pygame.Rect(r["bar"].right - 150, 6, 140, BAR_H - 12),
            "End Phase (e)",
            ui,
            object_id="#end_phase",
            tool_tip_text="End this phase (RD-12)",
        )
        self.buttons = {"end_phase": end}
        specs = [
            ("turn_left", "Turn <  (,)", "Turn the hull one hexside counterclockwise (1 MP)", None),
            ("turn_right", "Turn >  (.)", "Turn the hull one hexside clockwise (1 MP)", None),
            ("stop", "Stop (x)", "Stop: spend the Stop MP (1 MP)", None),
            ("motion", "Motion (m)", "End the move in Motion (Case J; no Case L against it)", None),
            ("hatch", "BU / CE (b)", "Button up or go Crew Exposed", None),
            ("undo", "Undo (u)", "Take back your last action (never across a die roll)", None),
            ("help", "Help (F1)", "Every key and mouse binding", None),
        ]
        self.buttons.update(button_row(ui, r["buttons"], specs, 122, BUTTONS_H - 8))
        self.log_box = pygame_gui.elements.UITextBox("", r["log"], ui)
        self.widgets = [*self.buttons.values(), self.log_box]
        self._refresh_log()
        if self.viewer is None:
            self.after_change()

    def may_close(self) -> bool:
        """Every action is autosaved, so closing loses nothing; unless the last save failed
        (a full disk): then ask first, with the reason (Save as elsewhere, or close)."""
        return self.dialogs.may_close()

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        self.widgets = []
        self.buttons = {}
        self.log_box = None
        self.dialogs.close()

    # --- input --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.command(key)
            return
        if self.dialogs.handle(event):
            return
        if self.map_input.analysis_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self.key(event)
            return
        if self.map_input.overview_event(event) or self.map_input.drag_and_wheel(event):
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse_moved(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.rects()["map"].collidepoint(event.pos):
                return
            aiming = self.bore_sight_mode
            self.orders.click(event.pos)
            if (
                not aiming
                and self.setting_up()
                and self.selected in self.placeable()
                and self.hex_at(event.pos) == self.game.units[self.selected].label
            ):
                self.dragging = self.selected  # a press on the counter picks it up
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            unit, self.dragging = self.game.units[self.dragging], None
            hx = self.hex_at(event.pos)
            if hx and hx != unit.label:
                self.apply(Place(unit.id, hx, unit.facing))

    def key(self, event: pygame.event.Event) -> None:
        """A key press: the action the bindings table gives it on this screen."""
        action = action_for(event, "play")
        if action is not None:
            self.do(action)

    def do(self, action: str) -> None:
        """One action of the bindings table on the play screen (:class:`.playorders.Orders`)."""
        self.orders.do(action)

    def command(self, key: str) -> None:
        """A button's or a key's command (the replay viewer has its own)."""
        self.orders.command(key)

    def setting_up(self) -> bool:
        return self.game.phase in ("setup", "setup_attacker")

    def placeable(self) -> set[str]:
        """Own units the side at the screen may still place (HX-12)."""
        return {a.unit for a in self.legal() if isinstance(a, Place)}

    def focus_own_units(self, always: bool = False) -> None:
        """Bring the side at the screen's units into view (after a handover the camera was on
        the other side's); ``always``: centre on them even when some are in view. A side with
        no unit left on the map keeps the camera where it is."""
        side = self.viewer or self.game.to_act
        own = [u.hex for u in self.game.units.values() if u.active and u.side == side]
        if not own:
            return
        m = self.rects()["map"]
        inner = m.inflate(-80, -80)
        if not always and any(inner.collidepoint(self.camera.hex_to_screen(h)) for h in own):
            return
        x, y = (sum(c) / len(own) for c in zip(*map(world_of, own), strict=True))
        self.camera.center_on(x, y, m.width, m.height, m.left)
        self.camera.oy += m.top

    def hand_over(self, side: str, keep_shot: bool = False) -> None:
        """The screen passes to ``side`` (the handover clicked): its view, no selection, no
        overlay or LOS thread left on by the other player, its own units in view."""
        self.viewer = side
        self.selected = self.hover_hex = None  # the other player's hover is not this one's
        self.analysis.clear()
        if not keep_shot:
            self.last_shot = None
        self.rebuild_log()
        self.focus_own_units()

    def center_on(self, hex_label: str) -> None:
        m = self.rects()["map"]
        sx, sy = self.camera.hex_to_screen(self.game.board.parse(hex_label))
        if not m.inflate(-80, -80).collidepoint(sx, sy):
            self.camera.pan(m.centerx - sx, m.centery - sy)

    def chosen_ammo(self, unit_id: str) -> str | None:
        """The ammunition chosen for ``unit_id`` (``r``), dropped once the unit is out of it
        (RD-17): the next shot then goes with its first ammunition again."""
        ammo = self.ammo.get(unit_id)
        if ammo is not None and ammo in self.game.units[unit_id].ammo_out:
            del self.ammo[unit_id]
            return None
        return ammo

    def hex_at(self, pos: tuple[int, int]) -> str | None:
        if not self.rects()["map"].collidepoint(pos):
            return None
        h = self.camera.screen_to_hex(*pos)
        return label(h) if self.game.board.contains(h) else None

    def units_at(self, hex_label: str) -> list[dict]:
        return [u for u in self.view() if u["hex"] == hex_label]

    def mouse_moved(self, pos: tuple[int, int]) -> None:
        self.mouse = pos
        self.hover_hex = self.hex_at(pos)

    # --- odds -----------------------------------------------------------------------------

    def hover_odds(self) -> tuple[str, ShotOdds | str] | None:
        """The odds panel's content: the selected firer against the enemy under the mouse."""
        if not self.selected or not self.hover_hex:
            return None
        target = self.orders.target_in(self.hover_hex)
        if target is None:
            return None
        ammo = self.chosen_ammo(self.selected)
        key = (self.game.actions_applied, self.selected, target["id"], ammo, id(self.game))
        firer = self.game.units[self.selected]
        title = f"{firer.name} -> {target.get('name', '?')} in {target['hex']}"
        if key != self._odds_key:
            self._odds_key = key
            try:
                knows = self.game.knowledge(self.viewer)
                self._odds = knows.odds(self.selected, target["id"], ammo)
            except IllegalAction as e:
                self._odds = e.reason
        assert self._odds is not None
        return title, self._odds

    # --- drawing ------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        r = self.rects()
        surface.fill(st.ui["background"])
        self.draw_map(surface, r["map"])
        pygame.draw.rect(surface, st.ui["panel"], r["buttons"])
        self.draw_bar(surface, r["bar"])
        self.draw_side(surface, r["side"])

    def draw_map(self, surface: pygame.Surface, m: pygame.Rect) -> None:
        playview.draw_map(self, surface, m)

    def draw_tracking(self, surface: pygame.Surface) -> None:
        playview.draw_tracking(self, surface)

    def draw_bar(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        playview.draw_bar(self, surface, bar)

    def hint(self) -> str:
        return playview.hint(self)

    def draw_side(self, surface: pygame.Surface, side: pygame.Rect) -> None:
        playview.draw_side(self, surface, side)
