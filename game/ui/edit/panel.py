"""The editor's side panel: the tools (paint, fill, line), the terrain and ground level the
brush puts down, the brush size, Undo / Redo / Save / Close, and the list of the document's
located errors (a click on one brings its hex into view). pygame-gui widgets, as the rest of
the screen's."""

from __future__ import annotations

import re

import pygame
import pygame_gui

from game.board.terrain import terrain_catalogue
from game.ui.edit.brush import BRUSH_SIZES

PANEL_WIDTH = 300
TOOLS = ("paint", "fill", "line")
LEVELS = (0, 1, 2, 3, 4)
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


class EditPanel:
    """The widgets at the right of the map; the scene reads what they are set to."""

    def __init__(self, ui: pygame_gui.UIManager, size: tuple[int, int]):
        w, h = size
        x0 = w - PANEL_WIDTH + 10
        inner = PANEL_WIDTH - 20
        self.tool = "paint"
        self.terrain: str | None = "w"
        self.level: int | None = None
        self.brush = 1
        self.buttons: dict[pygame_gui.elements.UIButton, tuple[str, object]] = {}
        y = 44

        names = {t.code: t.name for t in terrain_catalogue().terrains}

        def row(items: list[tuple[str, str, object]], height: int = 28) -> None:
            nonlocal y
            width = (inner - 4 * (len(items) - 1)) // len(items)
            for i, (text, what, value) in enumerate(items):
                rect = pygame.Rect(x0 + i * (width + 4), y, width, height)
                tip = names.get(text) if what == "terrain" else None
                button = pygame_gui.elements.UIButton(rect, text, ui, tool_tip_text=tip)
                self.buttons[button] = (what, value)
            y += height + 4

        row([(t.title(), "tool", t) for t in TOOLS])
        terrain_at = y
        y += 20  # "Terrain" heading
        codes = [(t.code, t.code) for t in terrain_catalogue().terrains]
        codes.insert(0, ("keep", None))  # type: ignore[arg-type]
        for i in range(0, len(codes), 5):
            row([(text, "terrain", value) for text, value in codes[i : i + 5]])
        level_at = y
        y += 20  # "Ground level" heading
        row([("keep", "level", None)] + [(f"L{n}", "level", n) for n in LEVELS])
        row([(f"Brush {n}", "brush", n) for n in BRUSH_SIZES])
        y += 6
        row([("Undo", "do", "undo"), ("Redo", "do", "redo"), ("Save", "do", "save")], 32)
        row([("Save as...", "do", "save_as"), ("Close", "do", "close")], 32)
        self.headings_at = (terrain_at, level_at)
        self.errors_top = y + 22
        self.errors = pygame_gui.elements.UISelectionList(
            pygame.Rect(x0, self.errors_top, inner, max(60, h - self.errors_top - 40)), [], ui
        )
        self._shown: list[str] | None = None
        self.mark()

    def mark(self) -> None:
        """Each button of the choice in force shown selected."""
        now = {"tool": self.tool, "terrain": self.terrain, "level": self.level, "brush": self.brush}
        for button, (what, value) in self.buttons.items():
            if what in now and now[what] == value:
                button.select()
            else:
                button.unselect()

    def pressed(self, element: object) -> str | None:
        """A button pressed: its choice taken (None back), or the command it is ("undo",
        "redo", "save", "save_as", "close")."""
        what, value = self.buttons.get(element, (None, None))  # type: ignore[call-overload]
        if what == "do":
            return str(value)
        if what is not None:
            setattr(self, str(what), value)
            self.mark()
        return None

    def show_errors(self, errors: tuple[str, ...]) -> None:
        """The document's located errors, one entry each (shortened to the panel's width)."""
        if list(errors) == self._shown:
            return
        self._shown = list(errors)
        items: list[str | tuple[str, str]] = [(_short(e), str(i)) for i, e in enumerate(errors)]
        items = items or [("no errors: it plays", "-")]
        self.errors.set_item_list(items)

    def chosen_error(self, event: pygame.event.Event) -> str | None:
        """The error an entry picked names (a UI_SELECTION_LIST_NEW_SELECTION)."""
        if getattr(event, "ui_element", None) is not self.errors:
            return None
        index = self.errors.get_single_selection(include_object_id=True)
        if not index or not isinstance(index, tuple) or not index[1].isdigit():
            return None
        return self._shown[int(index[1])] if self._shown else None

    def kill(self) -> None:
        for button in self.buttons:
            button.kill()
        self.errors.kill()


def _short(error: str) -> str:
    """An error without its file name (the panel is narrow): ``line 12: map.hexes[3]: ...``."""
    head, sep, rest = error.partition(": ")
    if not sep or not head.endswith((".toml", ".tmx", ".tmj")) and ".toml:" not in head:
        return error
    _, _, line = head.rpartition(":")
    return f"line {line}: {rest}" if line.isdigit() else rest
