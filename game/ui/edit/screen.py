"""The editor screen: the scenario's map on the play screen's one map view (drawn from a
:class:`~.sketch.Sketch`, no game yet), painted with a brush, a fill or a line, every change
a named edit of the document (undo / redo), validated off the frame and its located errors
listed beside the map; Ctrl+S saves the TOML as the person wrote it, a draft is kept after each
change, and closing with unsaved changes asks."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any, cast

import pygame
import pygame_gui

from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import Edit, ResizeMap
from game.ui.bindings import action_for
from game.ui.edit.balancing import STATUS_HEIGHT, Balancer
from game.ui.edit.brush import BRUSH_SIZES
from game.ui.edit.drawing import draw_areas, draw_bore_sights
from game.ui.edit.forms import Forms, read_values
from game.ui.edit.lesson import LessonForm
from game.ui.edit.outings import draft_name, offer_draft, save_dialog, test_play
from game.ui.edit.painting import Brushwork
from game.ui.edit.panel import PANEL_WIDTH, EditPanel, located_hex, located_unit
from game.ui.edit.placing import Placing
from game.ui.edit.preparing import Prepared, prepare
from game.ui.edit.worker import DocWorker, Done
from game.ui.map.render import FONTS
from game.ui.map.tiles import TILE_BUDGET_S
from game.ui.map.view import MapView
from game.ui.scenes.routes import Help, Pop, Push, Replace, Start
from game.ui.scenes.stack import Scene
from game.ui.style import style

LESSON_COMMANDS = (
    "lesson_set",
    "lesson_none",
    "step_add",
    "step_remove",
    "step_up",
    "step_down",
    "step_apply",
)
MAP_ACTIONS = ("pan_left", "pan_right", "pan_up", "pan_down", "zoom_in", "zoom_out")


class EditScene(Scene):
    """One scenario file in the editor (``path`` None: a new scenario)."""

    home = True
    bindings_screen = "edit"
    """The help (F1) shows the editor's keys and the map's."""

    def __init__(
        self, path: Path | None = None, text: str | None = None, prepared: Prepared | None = None
    ):
        """``prepared``: its document already made (:func:`.preparing.prepare`, off the
        window's thread behind a loading screen); else it is made here (ScenarioError: the
        file cannot be edited)."""
        self.path = path
        name = str(path) if path is not None else "new-scenario.toml"
        made = prepared if prepared is not None else prepare(path, text)
        self.doc: ScenarioDoc = made.doc
        self.sketch = made.sketch
        self.view = MapView(lambda: cast(Any, self.sketch), shows_all=True)
        self.view.tile_budget = TILE_BUDGET_S
        sides = self.doc.doc.get("sides")
        self.panel = EditPanel(list(sides) if isinstance(sides, dict) else [])
        self.placing = Placing(self)
        self.forms = Forms(self)
        self.lessons = LessonForm(self)
        self.balance = Balancer(self)
        self.worker: DocWorker | None = None
        self.errors: tuple[str, ...] = made.errors
        self.said = f"editing {name}" if path is not None else "a new scenario: paint its map"
        self.unsaved = self.doc.saved != text if text is not None else False
        self.waiting = False
        """An undo or redo is being made: the map takes no stroke until its map is back."""
        self.file_dialog: Any = None
        """The Save as dialog, while it is open."""
        self.brushwork = Brushwork(self)
        self.panel_due = False  # the panel's form to be read once the worker lets go
        self.shown = False  # entered and not left: only then has it widgets

    # --- the scene --------------------------------------------------------------------------

    def enter(self) -> None:
        self.shown = True
        w, h = self.app.size
        self.view.rect = pygame.Rect(0, 0, w - PANEL_WIDTH, h - STATUS_HEIGHT)
        self.view.fit()
        self.build_panel()
        if self.worker is None:
            draft = self.app.save_dir / "drafts" / draft_name(self.path)
            self.worker = DocWorker(self.doc, draft, self.path)
            offer_draft(self)

    def build_panel(self) -> None:
        """The panel built again; its form read once the worker lets go of the document
        (:func:`.forms.read_values`; until then :meth:`update` builds it again). Not while
        the screen is left (a change's result taken as it closes built a panel no screen would
        kill: two editors' 141 widgets left in the soak, issue 44): :meth:`enter` builds it."""
        if not self.shown:
            return
        lock = self.worker.doc_lock if self.worker is not None else None
        self.panel_due = not read_values(self.panel, self.doc, lock)
        board = self.sketch.board
        self.panel.build(self.app.ui, self.app.size, board.columns, board.rows)
        self.panel.show_errors(self.errors)
        self.balance.place_stop()

    def leave(self) -> None:
        self.shown = False
        self.panel.kill()
        self.balance.kill_stop()
        if self.file_dialog is not None:
            self.file_dialog.kill()
            self.file_dialog = None

    def resize(self, size: tuple[int, int]) -> None:
        self.view.fitted = False
        super().resize(size)

    def animating(self) -> bool:
        busy = self.worker is not None and self.worker.busy
        return busy or self.balance.run is not None or self.view.renderer.owed

    def frame_rate(self) -> int:
        return 30

    def wait_done(self, timeout: float = 60.0) -> bool:
        """Tests (:meth:`App.pump`): wait for the document's jobs; False when there were none."""
        return self.worker is not None and self.worker.wait(timeout)

    def may_close(self, then: Callable[[], None] | None = None) -> bool:
        """Whether the editor may close now; with unsaved changes it asks first (its question:
        Help may be over it), and ``then`` (default: the window closes) runs on yes."""
        if not self.unsaved:
            return True
        text = "This scenario has unsaved changes (a draft of them is kept). Close without saving?"
        self.app.ask(text, "Unsaved changes", "Close", lambda: self._closed(then), asker=self)
        return False

    def _closed(self, then: Callable[[], None] | None) -> None:
        self.unsaved = False
        if then is None:
            self.app.running = False
        else:
            then()

    def leave_editor(self) -> None:
        """Back to the screen it was opened from (the start screen when none), with any opened
        over it (Help: left alone on top, the closed editor's next key crashed; issue 44)."""
        self.close()
        while self in self.app.scenes and self.app.scene is not self:
            self.app.pop()
        self.app.go(Pop() if len(self.app.scenes) > 1 else Replace(Start()))

    # --- input ------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        if self._widget_event(event):
            return
        if event.type == pygame.KEYDOWN:
            if not self.typing():
                self._key(event)
            return
        if self.app.window_open() and event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            return  # a dialog is open: a click on it must not paint the map under it
        if not self.view.input.drag_and_wheel(event):
            self._mouse(event)

    def _widget_event(self, event: pygame.event.Event) -> bool:
        """A widget's event (a button, the file dialog, a text line, a list): True when it was
        one (or a key the dialog takes)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self.pressed(event.ui_element)
        elif event.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.file_dialog = None
            self.save_to(Path(event.text))
        elif event.type == pygame.KEYDOWN and self.file_dialog is not None:
            if self.file_dialog.alive():
                return True  # the dialog's keys
            self.file_dialog = None
            return False
        elif event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            self.panel.searched(event)
        elif event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION:
            error = self.panel.chosen_error(event)
            if error is not None:
                self.show(error)
            if self.panel.picked_type(event):
                self.placing.new_unit()
            if self.panel.picked_step(event):
                self.build_panel()  # the step's fields
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self.panel.picked_part(event)
        else:
            return False
        return True

    def _key(self, event: pygame.event.Event) -> None:
        """A key of the bindings table's editor rows (or the map's)."""
        action = action_for(event, "edit")
        if action in MAP_ACTIONS:
            self.view.input.do(action)
        elif action == "labels":
            self.view.renderer.show_labels = not self.view.renderer.show_labels
        elif action in ("brush_bigger", "brush_smaller"):
            i = BRUSH_SIZES.index(self.panel.brush) + (1 if action == "brush_bigger" else -1)
            self.panel.brush = BRUSH_SIZES[max(0, min(len(BRUSH_SIZES) - 1, i))]
            self.panel.mark()
        elif action is not None:
            self.do(action)

    def _mouse(self, event: pygame.event.Event) -> None:
        """The mouse on the map: the Units tab places, the Lesson tab sets the step's Point,
        the others paint."""
        units = self.panel.tab == "units"
        if self.panel.tab == "lesson" and event.type != pygame.MOUSEMOTION:
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                self.lessons.point_at(self.view.hex_at(event.pos))
            return
        if event.type == pygame.MOUSEMOTION:
            self.view.mouse_moved(event.pos)
            if self.brushwork.stroke is not None and self.panel.tool == "paint":
                self.brushwork.paint_at(self.view.state.hover_hex)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            at = self.view.hex_at(event.pos)
            if units and at is not None and not self.waiting:
                self.placing.press(at)
            elif not units:
                self.brushwork.press(at)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            at = self.view.hex_at(event.pos)
            if units:
                self.placing.release(at)
            else:
                self.brushwork.release(at)

    def typing(self) -> bool:
        """A text line of the panel has the keys (the search, a size, an area)."""
        focus = self.app.ui.get_focus_set() or set()
        return any(isinstance(e, pygame_gui.elements.UITextEntryLine) for e in focus)

    def pressed(self, element: object) -> None:
        """A panel button: a tab, a choice, or a command; or the Stop of a Balance run."""
        if self.balance.pressed(element):
            return
        what = self.panel.pressed(element)
        if what == "tab":
            self.build_panel()
        elif what == "nationality":
            self.panel.searched()
        elif what == "side":
            self.placing.new_unit()
        elif what in ("facing", "concealed"):
            self.placing.choice(what)
        elif what in ("moves_first", "defender", "to_kill"):
            self.forms.choice(what)
        elif what == "texts":
            self.forms.texts()
        elif what == "wait_kind":
            self.panel.show_kind()
        elif what in LESSON_COMMANDS:
            self.lessons.command(what)
        elif what in ("victory_add", "victory_remove"):
            (self.forms.add_victory if what == "victory_add" else self.forms.remove_victory)()
        elif what in ("remove", "area", "side_area", "bore_sight", "no_bore_sight"):
            self.placing.command(what)
        elif what == "resize":
            self.resize_map()
        elif what == "balance":
            self.balance.start()
        elif what in ("test", "test_ai"):
            test_play(self, against_computer=what == "test_ai")
        elif what in ("undo", "redo", "save", "save_as", "close"):
            self.do(what)

    def submit(self, edit: Edit, repaints: bool = False) -> None:
        """One edit of the document, written and validated off the frame."""
        assert self.worker is not None
        self.worker.apply(edit, repaints=repaints, on_done=self._wake)
        self.waiting = self.waiting or repaints
        self.said = f"{edit.title}: checking..."

    def resize_map(self) -> None:
        try:
            columns, rows = int(self.panel.text("columns")), int(self.panel.text("rows"))
        except ValueError:
            self.said = "the map's size: two whole numbers (columns, rows)"
            return
        self.submit(ResizeMap(columns, rows), repaints=True)

    def do(self, command: str) -> None:
        """A panel button or a key: undo, redo, save, save as, close."""
        assert self.worker is not None
        if command in ("undo", "redo"):
            self.waiting = True
            self.worker.undo(redo=command == "redo", on_done=self._wake)
        elif command == "save" and self.path is not None:
            self.save_to(self.path)
        elif command in ("save", "save_as"):
            folder = self.path.parent if self.path else self.app.scenario_dir
            self.file_dialog = save_dialog(self.app, folder / f"{self._stem()}.toml")
        elif command == "help":
            self.app.go(Push(Help(self)))
        elif command == "close" and self.may_close(self.leave_editor):
            self.leave_editor()

    def save_to(self, target: Path) -> None:
        """Save the document to ``target`` (the file it is edited as from then on)."""
        assert self.worker is not None
        if target.is_dir() or (target.exists() and not target.is_file()):
            self.said = f"cannot save to {target}: not a file; type a file name"
            return
        self.path = target
        self.worker.save(target, on_done=self._wake)

    def _stem(self) -> str:
        ident = str(self.doc.doc.get("id", "new-scenario"))
        return "".join(c for c in ident if c.isalnum() or c in "-_") or "new-scenario"

    def _wake(self) -> None:
        """From the worker: a result is ready (the window may be asleep in its event wait)."""
        with suppress(pygame.error):
            pygame.event.post(pygame.event.Event(pygame.USEREVENT, {"editor": True}))

    def show(self, error: str) -> None:
        """Bring what an error is about into view: its hex, or its unit."""
        self.said = error.split(": ", 1)[-1]  # the whole of it (the list's entry may be cut)
        at = located_hex(error)
        unit = located_unit(error)
        units = self.doc.doc.get("units", [])
        if at is None and unit is not None and unit < len(units):
            at = str(units[unit].get("hex", "")) or None
            self.view.state.selected = str(units[unit].get("id", "")) or None
        if at is not None:
            try:
                self.view.center_on(at)
            except ValueError:
                return
            self.view.state.hover_hex = at

    # --- results and drawing ----------------------------------------------------------------

    def update(self, dt: float) -> None:
        del dt
        self.balance.update()
        if self.worker is None:
            return
        self.take_all(self.worker.results())
        if self.panel_due and not self.worker.doc_lock.locked():
            self.build_panel()

    def take_all(self, results: list[Done]) -> None:
        """The jobs' results of one frame, in order: the map's renderer made and the panel
        built once for them all (a storm's frame took 4 results and built the panel 4 times,
        a tenth of a second each on the four-board map)."""
        rebuild = False
        board = None
        for done in results:
            rebuild = self._take(done) or rebuild
            board = done.board if done.board is not None else board
        if board is not None:
            self.view.redraw_map(board)
        if rebuild:
            self.build_panel()

    def _take(self, done: Done) -> bool:
        """One result taken (the renderer and the panel left to :meth:`take_all`): whether the
        panel is to be built again."""
        rebuild = False
        self.said = done.said
        if done.checked is not None:
            self.errors = done.checked.errors
            self.panel.show_errors(self.errors)
        if done.board is not None:
            self.sketch.board = done.board
            self.waiting = False
            rebuild = self.panel.tab == "map"  # the map's size shown
        if done.areas is not None:
            self.sketch.areas = done.areas
        if self.panel.tab in ("scenario", "lesson") and done.checked is not None:
            rebuild = True  # the fields and the lists as the document has them
        if done.units is not None:
            self.sketch.set_units(list(done.units))
        if done.said.startswith("saved "):
            self.unsaved = False
        elif done.changed:
            self.unsaved = True
        if done.board is None and done.said.startswith(("nothing to be", "not done")):
            self.waiting = False
        return rebuild

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        surface.fill(st.ui["background"])
        self.view.draw(surface)
        w, h = surface.get_size()
        panel = pygame.Rect(w - PANEL_WIDTH, 0, PANEL_WIDTH, h)
        pygame.draw.rect(surface, st.ui["panel"], panel)
        title = str(self.doc.name) + (" *" if self.unsaved else "")
        t = FONTS.text(Path(title).name, 18, st.ui["select"], True)
        surface.blit(t, (panel.left + 10, 12))
        draw_areas(surface, self.view, self.sketch.areas)
        draw_bore_sights(surface, self.view)
        box, headings = self.panel.heading_places()
        surface.set_clip(box)
        for x, y, text in headings:
            surface.blit(FONTS.text(text, 14, st.ui["dim"], True), (x, y + 2))
        surface.set_clip(None)
        count = len(self.errors)
        head = (
            f"{count} error{'s' if count != 1 else ''} (click one to see it)"
            if count
            else "Valid: it plays"
        )
        color = st.ui["bad"] if count else st.ui["good"]
        surface.blit(
            FONTS.text(head, 14, color, True), (panel.left + 10, self.panel.errors_top - 20)
        )
        bar = pygame.Rect(0, h - STATUS_HEIGHT, w - PANEL_WIDTH, STATUS_HEIGHT)
        pygame.draw.rect(surface, st.ui["panel"], bar)
        text = self.said
        hover = self.view.state.hover_hex
        if hover:  # what is there: its terrain and level
            board = self.sketch.board
            at = board.parse(hover)
            what = f"{board.terrain_at(at).name}, level {board.level_at(at)}"
            text = f"{hover} ({what})   {self.said}"
        surface.blit(FONTS.text(text, 15, st.ui["text"]), (bar.left + 10, bar.top + 5))
        self.balance.draw(surface, bar)

    def close(self) -> None:
        """The worker stopped, its jobs done, a Balance run stopped (the editor closes)."""
        self.balance.close()
        if self.worker is not None:
            self.worker.close()
            self.take_all(self.worker.results())

    def closed(self) -> None:
        """Replaced by another screen: its worker thread and checking process end too."""
        self.close()
