"""The play screen: the map, the counters, the phase bar, the side panel with the odds panel,
the log; selecting, moving, turning, firing, ending phases, undo and save. Every change goes
through the engine's ``Game.apply`` (via the session's autosave); everything shown comes from
``Game.view``, ``legal_actions``, ``preview_fire``, ``move_costs`` and the events."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Protocol

import pygame
import pygame_gui

from game.board.hexes import label
from game.engine import Game, IllegalAction
from game.engine.actions import (
    Action,
    BoreSight,
    ButtonUp,
    Conceal,
    CrewExposed,
    EndMove,
    EndPhase,
    Fire,
    Move,
    Place,
    Turn,
)
from game.engine.events import Event
from game.engine.knowledge import ShotOdds
from game.engine.phases import PHASES
from game.files.session import Autosave
from game.rules.words import outcome_words

from . import playview
from .analysis import AnalysisLayer
from .app import Scene
from .bindings import action_for
from .eventlog import event_html
from .geometry import Camera, world_of
from .maprender import MapRenderer
from .minimap import Minimap
from .opening import open_path
from .routes import ChooseStack, DffChance, GameOver, HandOver, Help, Push
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
PAN_STEP = 60


class Session(Protocol):
    """What the play screen needs of a session: the game, its save file, and the door."""

    game: Game
    path: Path | None

    def apply(self, action: Action) -> list[Event]: ...

    def undo(self) -> str | None: ...

    def save_as(self, path: str | Path) -> None: ...


def button_step(width: int, count: int, most: int) -> int:
    """The spacing of ``count`` buttons in a row ``width`` pixels wide: ``most`` when they fit,
    narrower in a small window (so that none runs under the side panel)."""
    return max(40, min(most, (width - 6) // count))


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
        self.minimap_drag = False
        self.camera = Camera()
        self.fitted = False
        self.viewer: str | None = None
        self.selected: str | None = None
        self.hover_hex: str | None = None
        self.mouse = (0, 0)
        self.ammo: dict[str, str] = {}
        self.last_shot: tuple[str, str, str] | None = None
        self.message = ""
        self.bore_sight_mode = False
        self.panning: tuple[int, int] | None = None
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
        self.widgets: list = []
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.log_box: pygame_gui.elements.UITextBox | None = None
        self._log_lines = 0
        self.confirm: pygame_gui.windows.UIConfirmationDialog | None = None
        self.file_dialog: pygame_gui.windows.UIFileDialog | None = None
        self.file_mode = ""
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
                side = self.viewer or self.game.to_act
                own = [u.hex for u in self.game.units.values() if u.active and u.side == side]
                x, y = (sum(c) / len(own) for c in zip(*map(world_of, own), strict=True))
                self.camera.center_on(x, y, m.width, m.height, m.left)
                self.camera.oy += m.top
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
            ("turn_left", "Turn <  (,)", "Turn the hull one hexside counterclockwise (1 MP)"),
            ("turn_right", "Turn >  (.)", "Turn the hull one hexside clockwise (1 MP)"),
            ("stop", "Stop (x)", "Stop: spend the Stop MP (1 MP)"),
            ("motion", "Motion (m)", "End the move in Motion (Case J; no Case L against it)"),
            ("hatch", "BU / CE (b)", "Button up or go Crew Exposed"),
            ("undo", "Undo (u)", "Take back your last action (never across a die roll)"),
            ("help", "Help (F1)", "Every key and mouse binding"),
        ]
        x, step = 6, button_step(r["buttons"].width, len(specs), 122)
        for key, text, tip in specs:
            b = pygame_gui.elements.UIButton(
                pygame.Rect(x, r["buttons"].top + 4, step - 4, BUTTONS_H - 8),
                text,
                ui,
                tool_tip_text=tip,
            )
            self.buttons[key] = b
            x += step
        self.log_box = pygame_gui.elements.UITextBox("", r["log"], ui)
        self.widgets = [*self.buttons.values(), self.log_box]
        self._refresh_log()
        if self.viewer is None:
            self.after_change()

    def leave(self) -> None:
        for w in self.widgets:
            w.kill()
        self.widgets = []
        self.buttons = {}
        self.log_box = None
        for dialog in (self.confirm, self.file_dialog):
            if dialog is not None:
                dialog.kill()
        self.confirm = self.file_dialog = None

    # --- input --------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            for key, button in self.buttons.items():
                if event.ui_element is button:
                    self.command(key)
            return
        if event.type == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and event.ui_element is (
            self.confirm
        ):
            self.confirm = None
            self.apply(EndPhase())
            return
        if event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and event.ui_element is (
            self.file_dialog
        ):
            self.file_dialog = None
            self.file_picked(Path(event.text))
            return
        if event.type == pygame_gui.UI_WINDOW_CLOSE:
            if event.ui_element is self.confirm:
                self.confirm = None
            if event.ui_element is self.file_dialog:
                self.file_dialog = None
            return
        if self.confirm is not None and event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):  # Enter confirms
                self.confirm.kill()
                self.confirm = None
                self.apply(EndPhase())
            elif event.key == pygame.K_ESCAPE:  # Esc cancels
                self.confirm.kill()
                self.confirm = None
            return
        if self.confirm is not None or self.file_dialog is not None:
            return
        if self.analysis_event(event):
            return
        if event.type == pygame.KEYDOWN:
            self.key(event)
        elif self.overview_event(event):
            return
        elif event.type == pygame.MOUSEMOTION:
            self.mouse_moved(event.pos)
            if self.panning:
                dx, dy = event.pos[0] - self.panning[0], event.pos[1] - self.panning[1]
                self.camera.pan(dx, dy)
                self.panning = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if not self.rects()["map"].collidepoint(event.pos):
                return
            if event.button == 1:
                aiming = self.bore_sight_mode
                self.click(event.pos)
                if (
                    not aiming
                    and self.setting_up()
                    and self.selected in self.placeable()
                    and self.hex_at(event.pos) == self.game.units[self.selected].label
                ):
                    self.dragging = self.selected  # a press on the counter picks it up
            elif event.button in (2, 3):
                self.panning = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self.panning = None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.dragging:
            unit, self.dragging = self.game.units[self.dragging], None
            hx = self.hex_at(event.pos)
            if hx and hx != unit.label:
                self.apply(Place(unit.id, hx, unit.facing))
        elif event.type == pygame.MOUSEWHEEL and self.rects()["map"].collidepoint(self.mouse):
            self.camera.zoom_step(1 if event.y > 0 else -1, *self.mouse)

    def overview_event(self, event: pygame.event.Event) -> bool:
        """A click or drag on the overview map centres the map there; True when it took it."""
        rect = self.minimap.rect
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
            m = self.rects()["map"]
            self.camera.center_on(*self.minimap.to_world((x, y)), m.width, m.height, m.left)
            self.camera.oy += m.top
            return True
        return False

    def analysis_event(self, event: pygame.event.Event) -> bool:
        """The analysis tools' keys and the LOS thread's drag; True when they took it."""
        if event.type == pygame.KEYDOWN:
            return self.analysis.key(event)
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            return self.analysis.mouse(event)
        if event.type == pygame.MOUSEMOTION:
            self.analysis.mouse(event)
        return False

    def key(self, event: pygame.event.Event) -> None:
        """A key press: the action the bindings table gives it on this screen."""
        action = action_for(event, "play")
        if action is not None:
            self.do(action)

    def do(self, action: str) -> None:
        """One action of the bindings table (data/bindings.toml) on the play screen."""
        simple = {
            "save_as": lambda: self.open_file_dialog("save"),
            "load": lambda: self.open_file_dialog("load"),
            "next_unit": self.next_unit,
            "ammo": self.cycle_ammo,
            "labels": self.toggle_labels,
            "deselect": self.deselect,
            "bore_sight": self.arm_bore_sight,
            "conceal": self.conceal_selected,
            "fire_at_hover": self.fire_at_hover,
            "zoom_in": lambda: self.camera.zoom_step(1, *self.rects()["map"].center),
            "zoom_out": lambda: self.camera.zoom_step(-1, *self.rects()["map"].center),
            "pan_left": lambda: self.camera.pan(PAN_STEP, 0),
            "pan_right": lambda: self.camera.pan(-PAN_STEP, 0),
            "pan_up": lambda: self.camera.pan(0, PAN_STEP),
            "pan_down": lambda: self.camera.pan(0, -PAN_STEP),
        }
        if action in simple:
            simple[action]()
        else:
            self.command(action)

    def conceal_selected(self) -> None:
        if self.selected:
            self.apply(Conceal(self.selected))

    def fire_at_hover(self) -> None:
        if self.hover_hex:
            self.fire_at_hex(self.hover_hex)

    def deselect(self) -> None:
        self.selected = None
        self.bore_sight_mode = False
        self.message = ""

    def toggle_labels(self) -> None:
        self.renderer.show_labels = not self.renderer.show_labels
        self.app.prefs.show_labels = self.renderer.show_labels

    def arm_bore_sight(self) -> None:
        if self.selected and self.game.phase == "setup":
            self.bore_sight_mode = True
            self.message = "click the hex to Bore Sight (C6.42)"

    def command(self, key: str) -> None:

        unit = self.selected
        game = self.game
        if key == "end_phase":
            self.request_end_phase()
        elif key == "help":
            self.app.go(Push(Help(self)))
        elif key == "undo":
            why = self.session.undo()
            self.message = f"cannot undo: {why}" if why else "undone"
            if not why:
                self.renderer = MapRenderer(self.game.board)
                self.rebuild_log()
                self.last_shot = None
        elif unit is None:
            self.message = "select a unit first (click it, or Tab)"
        elif key in ("turn_left", "turn_right"):
            u = game.units[unit]
            facing = (u.facing + (1 if key == "turn_left" else -1)) % 6
            if self.setting_up():
                self.apply(Place(unit, u.label, facing))
            else:
                self.apply(Turn(unit, facing))
        elif key == "stop":
            self.apply(EndMove(unit, False))
        elif key == "exit":
            self.apply(Move(unit, "off"))
        elif key == "motion":
            self.apply(EndMove(unit, True))
        elif key == "hatch":
            ce = game.units[unit].ce
            self.apply(ButtonUp(unit) if ce else CrewExposed(unit))

    def request_end_phase(self) -> None:
        """End the phase; with own units that could still act, ask each time (Enter confirms,
        Esc cancels; the preference ``confirm_end_phase`` turns the question off)."""
        game = self.game
        idle = self.units_that_can_act()
        if idle and self.app.prefs.confirm_end_phase:
            names = ", ".join(game.units[u].name for u in idle[:4])
            more = f" and {len(idle) - 4} more" if len(idle) > 4 else ""
            self.confirm = pygame_gui.windows.UIConfirmationDialog(
                pygame.Rect(self.app.size[0] // 2 - 210, 200, 420, 200),
                f"{len(idle)} unit(s) have not acted: {html.escape(names)}{more}. "
                f"End the {PHASES[game.phase].title}?",
                self.app.ui,
                window_title="End phase?",
                action_short_name="End phase",
            )
            return
        self.apply(EndPhase())

    def setting_up(self) -> bool:
        return self.game.phase in ("setup", "setup_attacker")

    def placeable(self) -> set[str]:
        """Own units the side at the screen may still place (HX-12)."""
        return {a.unit for a in self.legal() if isinstance(a, Place)}

    def units_that_can_act(self) -> list[str]:
        """Own units with a move (movement) or a shot (fire phases) still open."""
        kinds = {
            "movement": (Move,),
            "prep_fire": (Fire,),
            "defensive_fire": (Fire,),
            "advancing_fire": (Fire,),
        }.get(self.game.phase, ())
        out: list[str] = []
        for a in self.legal():
            unit = getattr(a, "unit", None)
            if kinds and isinstance(a, kinds) and unit and unit not in out:
                if isinstance(a, Move) and self.game.units[unit].moved:
                    continue
                out.append(unit)
        return out

    def next_unit(self) -> None:
        acting = [getattr(a, "unit", None) for a in self.legal()]
        ids = [u for u in dict.fromkeys(acting) if u and self.game.units[u].side == self.viewer]
        if not ids:
            self.message = "no unit of yours can act now: End Phase (e)"
            return
        i = ids.index(self.selected) + 1 if self.selected in ids else 0
        self.selected = ids[i % len(ids)]
        self.center_on(self.game.units[self.selected].label)

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

    def cycle_ammo(self) -> None:
        if not self.selected:
            return
        unit = self.game.units[self.selected]
        ut = unit.type
        left = [a for a in ut.ammo if a not in unit.ammo_out]  # RD-17: not what it is out of
        if len(left) < 2:
            self.message = f"{ut.name} has one kind of ammunition left"
            return
        now = self.ammo.get(self.selected, left[0])
        at = left.index(now) if now in left else -1
        self.ammo[self.selected] = left[(at + 1) % len(left)]
        self._odds_key = None

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

    def click(self, pos: tuple[int, int]) -> None:

        hx = self.hex_at(pos)
        if hx is None:
            return
        self.hover_hex = hx
        if self.bore_sight_mode and self.selected:
            self.apply(BoreSight(self.selected, hx))
            return
        here = self.units_at(hx)
        own = [u for u in here if u["side"] == self.viewer]
        enemy = [u for u in here if u["side"] != self.viewer]
        if enemy and self.selected:
            self.fire_at_hex(hx)
            return
        if self.selected and hx in self.game.move_costs(self.selected):  # a blue hex: move
            self.apply(Move(self.selected, hx))
            return
        if len(own) > 1:
            self.app.go(Push(ChooseStack(self, own, pos)))
        elif own:
            self.selected = own[0]["id"]
            self.message = ""
        elif self.selected:
            self.message = self.why_not_move(hx)

    def why_not_move(self, hx: str) -> str:
        unit = self.selected
        if unit is None:
            return ""
        why = self.game.check(Move(unit, hx))
        return why or ""

    def target_in(self, hx: str) -> dict | None:
        """The enemy a click on ``hx`` aims at: a vehicle, Gun or unknown "?" before infantry
        (AT fire has no effect on Infantry, 002)."""
        enemy = [u for u in self.units_at(hx) if u["side"] != self.viewer]
        enemy.sort(key=lambda u: u.get("category") == "infantry")
        return enemy[0] if enemy else None

    def fire_at_hex(self, hx: str) -> None:
        target = self.target_in(hx)
        if target is None or not self.selected:
            return
        self.apply(Fire(self.selected, target["id"], self.chosen_ammo(self.selected)))

    def file_picked(self, path: Path) -> None:

        if self.file_mode == "save":
            try:
                self.session.save_as(path)
                self.message = f"saved a copy to {path}"
            except OSError as e:
                self.message = f"cannot save to {path}: {e.strerror or e}"
        else:
            open_path(self.app, path)

    def open_file_dialog(self, mode: str) -> None:
        self.file_mode = mode
        self.file_dialog = pygame_gui.windows.UIFileDialog(
            pygame.Rect(self.app.size[0] // 2 - 260, 80, 520, 460),
            self.app.ui,
            window_title="Save a copy as" if mode == "save" else "Load a scenario or save",
            initial_file_path=str(self.app.save_dir),
            allow_existing_files_only=mode != "save",
        )

    # --- odds -----------------------------------------------------------------------------

    def hover_odds(self) -> tuple[str, ShotOdds | str] | None:
        """The odds panel's content: the selected firer against the enemy under the mouse."""
        if not self.selected or not self.hover_hex:
            return None
        target = self.target_in(self.hover_hex)
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
