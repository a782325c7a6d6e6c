"""The editor's side panel: the tab buttons (Map, Units, Scenario, Lesson), the tab's widgets
(:mod:`.tabs`) in a box that scrolls when the window is too low for them, and under every tab
the commands (Undo / Redo / Save / Save as / Test play / vs computer / Close) and the list of
the document's located errors (a click on one brings its hex or unit into view), always in
view. pygame-gui widgets, as the rest of the screen's; the choices outlive the widgets (a tab
change or a resize builds them again)."""

from __future__ import annotations

import re

import pygame
import pygame_gui

from game.ui.edit.tabs import ANY_SIDE, DO_TYPE, PART, PHASE, Tabs, find_types

PANEL_WIDTH = 300
FOOT = 2 * 34 + 4 + 22 + 90 + 10
"""The panel's foot under the tab's widgets: the two rows of commands, the errors' heading
and at least 90 pixels of their list."""
ERRORS_LOW = 90
SCROLLBAR = 22
"""The width the tab's widgets leave for the scroll bar when they scroll."""
TABS = ("map", "units", "scenario", "lesson")
_HEX = re.compile(r"\bhex ([A-Z]{1,2}[0-9]{1,3})\b")
_UNIT = re.compile(r"\bunits\[(\d+)\]")


def located_hex(error: str) -> str | None:
    """The hex an error is about (``hex F6``), if it names one."""
    m = _HEX.search(error)
    return m.group(1) if m else None


def located_unit(error: str) -> int | None:
    """The index of the unit an error is about (``units[2].hex``), if it names one."""
    m = _UNIT.search(error)
    return int(m.group(1)) if m else None


class EditPanel(Tabs):
    """The widgets at the right of the map; the scene reads what they are set to."""

    def __init__(self, sides: list[str]):
        self.tab = "map"
        self.tool = "paint"
        self.terrain: str | None = "w"
        self.level: int | None = None
        self.brush = 1
        self.sides = sides or ["german", "russian"]
        self.side = self.sides[0]
        self.facing = 0
        self.concealed = False
        self.type: str | None = None
        self.search = ""
        self.nationality: str | None = None
        """The nationality the unit types are searched in (None: any)."""
        self.year = ""
        """The year (or ``YYYY-MM``) the unit types found are in service by ("": any)."""
        self.values: dict = {}
        """The Scenario tab's fields as the document has them (:func:`.forms.form_values`)."""
        self.moves_first: str | None = None
        self.defender: str | None = None
        self.to_kill = "asl"
        self.victory_side = self.sides[0]
        self.victory_kind = "eliminate"
        self.balance_games, self.balance_level = "20", "2"
        """The Balance run's games and computer level (0-3), as last typed."""
        self.step: int | None = None
        """The lesson step picked in the Lesson tab's list."""
        self.lesson: dict[str, pygame_gui.core.UIElement] = {}
        """The Lesson tab's list of steps, its step's Say box and its drop-downs."""
        self.wait_kind = "space"
        """What the step being set waits for (:data:`.lesson.KINDS`)."""
        self.show_overlay: str | None = None
        """The overlay a ``show`` step waits for."""
        self.kind_widgets: dict[str, list] = {}
        """The Lesson tab's fields of each kind of wait (only the kind picked's shown)."""
        self.briefing: pygame_gui.elements.UITextEntryBox | None = None
        self.victories: pygame_gui.elements.UISelectionList | None = None
        self.buttons: dict[pygame_gui.elements.UIButton, tuple[str, object]] = {}
        self.entries: dict[str, pygame_gui.elements.UITextEntryLine] = {}
        self.headings: list[tuple[int, str]] = []
        self.types: pygame_gui.elements.UISelectionList | None = None
        self.errors: pygame_gui.elements.UISelectionList | None = None
        self.errors_top = 0
        self._shown: list[str] | None = None
        self._listed = False
        self._ui: pygame_gui.UIManager | None = None
        self._x0 = self._y = 0
        self._inner = PANEL_WIDTH - 20
        self.box: pygame_gui.elements.UIScrollingContainer | None = None
        """The tab's own widgets, under the tab buttons: they scroll when the window is too
        low for them (the commands and the errors below stay in view)."""
        self._box: pygame_gui.elements.UIScrollingContainer | None = None
        """The container the widgets being made go in (None: the window)."""
        self._room = 0
        """The height the tab's widgets may take without scrolling."""
        self.content_height = 0
        """The height the tab's widgets take (more than the box's: they scroll)."""

    # --- building ---------------------------------------------------------------------------

    def build(
        self, ui: pygame_gui.UIManager, size: tuple[int, int], columns: int, rows: int
    ) -> None:
        """The widgets of the tab shown (``columns`` x ``rows``: the map's size now): the tab
        buttons, the tab's own widgets (scrolled when the window is too low for them), then
        the commands and the errors, always in view at the foot of the panel."""
        if not self._build(ui, size, columns, rows, 0):
            self._build(ui, size, columns, rows, SCROLLBAR)  # narrower, beside its scroll bar

    def _build(
        self, ui: pygame_gui.UIManager, size: tuple[int, int], columns: int, rows: int, bar: int
    ) -> bool:
        """Build it, the tab's widgets ``bar`` narrower than the panel; False (and nothing
        more built) when they overflow their room and no room was left for a scroll bar."""
        self.kill()
        w, h = size
        left, inner = w - PANEL_WIDTH + 10, PANEL_WIDTH - 20
        self._ui, self._box = ui, None
        self._x0, self._y, self._inner = left, 40, inner
        self._row([(t.title(), "tab", t) for t in TABS], 26)
        top = self._y + 4
        self._room = max(60, h - top - FOOT)
        self.box = pygame_gui.elements.UIScrollingContainer(
            pygame.Rect(left, top, inner + 4, self._room), ui, allow_scroll_x=False
        )
        self._box, self._x0, self._y, self._inner = self.box, 0, 0, inner - bar
        if self.tab == "map":
            self._map_tab(columns, rows)
        elif self.tab == "units":
            self._units_tab()
        elif self.tab == "lesson":
            self._lesson_tab()
        else:
            self._scenario_tab()
        used = min(self._y, self._room)
        self.content_height = self._y
        if self._y > self._room and not bar:
            return False
        self.box.set_scrollable_area_dimensions((inner - bar, self._y))
        self.box.set_dimensions((inner + 4, used))
        self._box, self._x0, self._y, self._inner = None, left, top + used + 4, inner
        self._row(
            [("Undo", "do", "undo"), ("Redo", "do", "redo"), ("Save", "do", "save")]
            + [("Save as", "do", "save_as")],
            30,
        )
        self._row(
            [
                ("Test play", "do", "test"),
                ("vs computer", "do", "test_ai"),
                ("Close", "do", "close"),
            ],
            30,
            tip="Test play: a new game of it at this screen, back here when you leave it; "
            "vs computer: you play the side that moves first",
        )
        self.errors_top = self._y + 22
        rect = pygame.Rect(
            self._x0, self.errors_top, self._inner, max(ERRORS_LOW, h - self.errors_top - 10)
        )
        self.errors = pygame_gui.elements.UISelectionList(rect, [], ui)
        self._listed = False
        self.show_errors(tuple(self._shown or ()))
        self.mark()
        return True

    def heading_places(self) -> tuple[pygame.Rect | None, list[tuple[int, int, str]]]:
        """Where the headings are drawn now: the tab's box (they are clipped to it) and each
        heading's screen position (the box scrolled) and text."""
        if self.box is None:
            return None, []
        inside = self.box.get_container().get_rect()
        return pygame.Rect(self.box.rect), [
            (inside.left, inside.top + y, t) for y, t in self.headings
        ]

    def step_say(self) -> str:
        box = self.lesson.get("say")
        return box.get_text() if isinstance(box, pygame_gui.elements.UITextEntryBox) else ""

    def picked_step(self, event: pygame.event.Event) -> bool:
        """A step picked in the Lesson tab's list (UI_SELECTION_LIST_NEW_SELECTION)."""
        steps = self.lesson.get("steps")
        if not isinstance(steps, pygame_gui.elements.UISelectionList):
            return False
        if id(getattr(event, "ui_element", None)) != id(steps):
            return False
        chosen = steps.get_single_selection(include_object_id=True)
        if isinstance(chosen, tuple) and chosen[1].isdigit():
            self.step = int(chosen[1])
        return True

    def step_form(self) -> dict[str, str]:
        """The Lesson tab's step fields as set (:func:`.lesson.step_fields`' names; "" for a
        drop-down with nothing picked)."""
        typed = {k: self.text(f"step_{k}") for k in ("point", "select", "why")}
        typed |= {k: self.text(k) for k in ("do_unit", "do_to", "do_target")}
        typed |= {k: self.text(k) for k in ("look_from", "look_to")}
        typed |= {k: self.dropped(k) for k in ("do_type", "phase", "side")}
        return typed | {"show": self.show_overlay or ""}

    def dropped(self, name: str) -> str:
        """The choice of a Lesson tab's drop-down ("" : its first line, nothing picked)."""
        menu = self.lesson.get(name)
        if not isinstance(menu, pygame_gui.elements.UIDropDownMenu):
            return ""
        chosen = menu.selected_option
        text = chosen[0] if isinstance(chosen, tuple) else str(chosen)
        return "" if text in (PART, DO_TYPE, PHASE, ANY_SIDE) else text

    def picked_part(self, event: pygame.event.Event) -> bool:
        """A screen part picked in Point's drop-down (UI_DROP_DOWN_MENU_CHANGED): Point is
        that part."""
        entry, part = self.entries.get("step_point"), self.lesson.get("part")
        if entry is None or id(getattr(event, "ui_element", None)) != id(part):
            return False
        if self.dropped("part"):
            entry.set_text(self.dropped("part"))
        return True

    def briefing_text(self) -> str:
        return self.briefing.get_text() if self.briefing is not None else ""

    def chosen_victory(self) -> int | None:
        victories = self.victories
        chosen = victories.get_single_selection(include_object_id=True) if victories else None
        return int(chosen[1]) if isinstance(chosen, tuple) and chosen[1].isdigit() else None

    # --- reading it -------------------------------------------------------------------------

    def mark(self) -> None:
        """Each button of the choice in force shown selected."""
        now = {
            "tab": self.tab,
            "tool": self.tool,
            "terrain": self.terrain,
            "level": self.level,
            "brush": self.brush,
            "side": self.side,
            "nationality": self.nationality,
            "facing": self.facing,
            "concealed": self.concealed,
            "moves_first": self.moves_first,
            "defender": self.defender,
            "to_kill": self.to_kill,
            "victory_side": self.victory_side,
            "victory_kind": self.victory_kind,
            "wait_kind": self.wait_kind,
            "show_overlay": self.show_overlay,
        }
        for button, (what, value) in self.buttons.items():
            if what in now and now[what] == value:
                button.select()
            else:
                button.unselect()

    def pressed(self, element: object) -> str | None:
        """A button pressed: its choice taken (back: "tab" for a new tab, or the choice's
        name), or the command it is ("undo", "redo", "save", "save_as", "close", "resize",
        "remove", "area")."""
        what, value = self.buttons.get(element, (None, None))  # type: ignore[call-overload]
        if what == "do":
            return str(value)
        if what is None:
            return None
        if what == "nationality" and value == self.nationality:
            value = None  # pressed again: any nationality
        setattr(self, str(what), value)
        self.mark()
        return str(what)

    def text(self, name: str) -> str:
        entry = self.entries.get(name)
        return entry.get_text().strip() if entry is not None else ""

    def found(self) -> list[tuple[str, str]]:
        """The unit types the search, nationality and year chosen find."""
        return find_types(self.search, self.nationality, self.year)

    def searched(self, event: pygame.event.Event | None = None) -> bool:
        """A UI_TEXT_ENTRY_CHANGED in the search or year line (None: a nationality chosen):
        the list of types follows them."""
        search, year, types = self.entries.get("search"), self.entries.get("year"), self.types
        if search is None or year is None or types is None:
            return False
        if event is not None and id(getattr(event, "ui_element", None)) not in (
            id(search),
            id(year),
        ):
            return False
        self.search, self.year = search.get_text(), year.get_text()
        types.set_item_list(list(self.found()))
        return True

    def picked_type(self, event: pygame.event.Event) -> bool:
        """A type picked in the list (UI_SELECTION_LIST_NEW_SELECTION)."""
        types = self.types
        if types is None or id(getattr(event, "ui_element", None)) != id(types):
            return False
        chosen = types.get_single_selection(include_object_id=True)
        if isinstance(chosen, tuple):
            self.type = chosen[1]
        return True

    def show_errors(self, errors: tuple[str, ...]) -> None:
        """The document's located errors, one entry each (shortened to the panel's width)."""
        if self.errors is not None and self._listed and list(errors) == self._shown:
            return
        self._shown = list(errors)
        if self.errors is None:
            return
        items: list[str | tuple[str, str]] = [(_short(e), str(i)) for i, e in enumerate(errors)]
        self.errors.set_item_list(items or [("no errors: it plays", "-")])
        self._listed = True

    def chosen_error(self, event: pygame.event.Event) -> str | None:
        """The error an entry picked names (a UI_SELECTION_LIST_NEW_SELECTION)."""
        errors = self.errors
        if errors is None or id(getattr(event, "ui_element", None)) != id(errors):
            return None
        index = errors.get_single_selection(include_object_id=True)
        if not index or not isinstance(index, tuple) or not index[1].isdigit():
            return None
        return self._shown[int(index[1])] if self._shown else None

    def kill(self) -> None:
        widgets = (*self.buttons, *self.entries.values(), self.types, self.errors)
        for widget in (*widgets, self.briefing, self.victories, *self.lesson.values(), self.box):
            if widget is not None:
                widget.kill()
        self.buttons, self.entries, self.headings, self.lesson = {}, {}, [], {}
        self.kind_widgets = {}
        self.types = self.errors = self.victories = None
        self.briefing = self.box = None


def _short(error: str) -> str:
    """An error without its file name (the panel is narrow): ``line 12: map.hexes[3]: ...``."""
    head, sep, rest = error.partition(": ")
    if not sep or not head.endswith((".toml", ".tmx", ".tmj")) and ".toml:" not in head:
        return error
    _, _, line = head.rpartition(":")
    return f"line {line}: {rest}" if line.isdigit() else rest
