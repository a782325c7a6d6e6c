"""The widgets of the editor panel's tabs, laid out top to bottom: Map (the tools, the terrain
and ground level the brush puts down, its size, the map's size), Units (a type found in the
catalogue, its side, facing, concealed, Bore Sight, set-up areas), Scenario (the texts, who
moves first and defends, the rules, the victory conditions, Balance) and Lesson (the number,
the steps). The base of :class:`~.panel.EditPanel`, which holds the choices and reads them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pygame
import pygame_gui

from game.board.terrain import terrain_catalogue
from game.engine.catalogue import nationalities, search_units
from game.files.lesson import OVERLAYS, POINTS
from game.ui.edit.brush import BRUSH_SIZES
from game.ui.edit.waits import ACTION_TYPES, KINDS, PHASE_NAMES

TOOLS = ("paint", "fill", "line")
LEVELS = (0, 1, 2, 3, 4)
FACINGS = ("0", "1", "2", "3", "4", "5")
"""The facings, as the scenario file numbers them (the hexside the counter faces)."""
PART, DO_TYPE, PHASE, ANY_SIDE = "screen part...", "action type...", "phase...", "any side"
"""The drop-downs' first lines: nothing picked."""
_YEAR = re.compile(r"(19|20)[0-9]{2}(-[01][0-9])?")


def find_types(query: str, nationality: str | None = None, year: str = "") -> list[tuple[str, str]]:
    """(what the list shows, type key) of the catalogue's unit types for a search
    (:func:`game.engine.catalogue.search_units`): every word of ``query`` in the name or key,
    of ``nationality`` (None: any), in service by ``year`` (``1943`` or a date ``1943-06``;
    empty: any). A nationality or a year typed among the words counts as chosen so
    (``russian 1943``) when none is."""
    known = set(nationalities())
    words = []
    for word in query.split():
        if word.casefold() in known and nationality is None:
            nationality = word.casefold()
        elif _YEAR.fullmatch(word) and not year.strip():
            year = word
        else:
            words.append(word)
    year = year.strip()
    when: int | str | None = year if _YEAR.fullmatch(year) else None
    if year.isdigit():
        when = int(year)
    if year and when is None:
        return []  # not a year: nothing is in service by it
    out = []
    for t in search_units(" ".join(words), nationality, when):
        since = f", from {t.available}" if t.available else ""
        out.append((f"{t.name} ({t.nationality}{since})", t.key))
    return out


class Tabs:
    """Building a tab: rows of buttons, headings and text lines at the running height
    :attr:`_y`, in the tab's scrolling box :attr:`_box` (None: the window)."""

    _ui: pygame_gui.UIManager | None
    _box: pygame_gui.elements.UIScrollingContainer | None
    _x0: int
    _y: int
    _inner: int
    _room: int
    buttons: dict[pygame_gui.elements.UIButton, tuple[str, object]]
    entries: dict[str, pygame_gui.elements.UITextEntryLine]
    headings: list[tuple[int, str]]
    sides: list[str]
    values: dict[str, Any]
    search: str
    year: str
    nationality: str | None
    types: pygame_gui.elements.UISelectionList | None
    moves_first: str | None
    defender: str | None
    to_kill: str
    briefing: pygame_gui.elements.UITextEntryBox | None
    victories: pygame_gui.elements.UISelectionList | None
    balance_games: str
    balance_level: str
    step: int | None
    lesson: dict[str, pygame_gui.core.UIElement]
    wait_kind: str
    show_overlay: str | None
    kind_widgets: dict[str, list[Any]]

    def _row(
        self, items: Sequence[tuple[str, str, object]], height: int = 28, tip: str = ""
    ) -> None:
        assert self._ui is not None
        names = {t.code: t.name for t in terrain_catalogue().terrains}
        width = (self._inner - 4 * (len(items) - 1)) // len(items)
        for i, (text, what, value) in enumerate(items):
            rect = pygame.Rect(self._x0 + i * (width + 4), self._y, width, height)
            hint = names.get(text) if what == "terrain" else (tip or None)
            button = pygame_gui.elements.UIButton(
                rect, text, self._ui, container=self._box, tool_tip_text=hint
            )
            self.buttons[button] = (what, value)
        self._y += height + 4

    def _heading(self, text: str) -> None:
        self.headings.append((self._y, text))
        self._y += 20

    def _entry(self, name: str, text: str, x: int, width: int, hint: str | None = None) -> None:
        assert self._ui is not None
        rect = pygame.Rect(self._x0 + x, self._y, width, 30)
        entry = pygame_gui.elements.UITextEntryLine(
            rect, self._ui, container=self._box, initial_text=text, placeholder_text=hint
        )
        self.entries[name] = entry

    def _map_tab(self, columns: int, rows: int) -> None:
        self._row([(t.title(), "tool", t) for t in TOOLS])
        self._heading("Terrain")
        codes: list[tuple[str, str | None]] = [("keep", None)]
        codes += [(t.code, t.code) for t in terrain_catalogue().terrains]
        for i in range(0, len(codes), 5):
            self._row([(text, "terrain", value) for text, value in codes[i : i + 5]])
        self._heading("Ground level")
        self._row([("keep", "level", None)] + [(f"L{n}", "level", n) for n in LEVELS])
        self._row([(f"Brush {n}", "brush", n) for n in BRUSH_SIZES])
        self._heading("Map size: columns x rows")
        self._entry("columns", str(columns), 0, 80)
        self._entry("rows", str(rows), 88, 80)
        self._x0 += 176
        self._inner -= 176
        self._row([("Resize", "do", "resize")], 30)
        self._x0 -= 176
        self._inner += 176

    def _units_tab(self) -> None:
        assert self._ui is not None
        self._heading("Unit type: name; in service by year")
        self._entry("search", self.search, 0, self._inner - 84)
        self._entry("year", self.year, self._inner - 80, 80, "any year")
        self._y += 34
        self._row([(n.title(), "nationality", n) for n in nationalities()], 26)
        height = max(70, min(180, self._room - 288))  # the list; the rest takes 288
        rect = pygame.Rect(self._x0, self._y, self._inner, height)
        items: list[str | tuple[str, str]] = list(
            find_types(self.search, self.nationality, self.year)
        )
        self.types = pygame_gui.elements.UISelectionList(rect, items, self._ui, container=self._box)
        self._y += height + 4
        self._row([(s.title(), "side", s) for s in self.sides[:3]])
        self._heading("Facing 0-5 (a click on the map adds, a drag moves)")
        self._row([(f, "facing", i) for i, f in enumerate(FACINGS)], 26)
        self._row(
            [
                ("Concealed", "concealed", True),
                ("Open", "concealed", False),
                ("Remove", "do", "remove"),
            ]
        )
        self._row(
            [("Bore sight...", "do", "bore_sight"), ("No bore sight", "do", "no_bore_sight")],
            tip="The scenario defender's Gun or main armament Bore Sights a hex before play "
            "(C6.41): press, then click the hex (in its LOS, 16 hexes at most: C6.42)",
        )
        self._heading("Set-up area (A-E, 1-10): the unit's, the side's")
        self._entry("area_columns", "", 0, 80)
        self._entry("area_rows", "", 88, 80)
        self._x0 += 176
        self._inner -= 176
        self._row([("Unit", "do", "area"), ("Side", "do", "side_area")], 30)
        self._x0 -= 176
        self._inner += 176

    def _scenario_tab(self) -> None:
        assert self._ui is not None
        v = self.values
        self.moves_first, self.defender = v.get("moves_first"), v.get("defender")
        self.to_kill = v.get("to_kill", "asl")
        self._heading("Title")
        self._entry("title", v.get("title", ""), 0, self._inner)
        self._y += 34
        self._heading("Id, date (YYYY-MM), turns")
        third = (self._inner - 8) // 3
        for i, key in enumerate(("id", "date", "turns")):
            self._entry(key, v.get(key, ""), i * (third + 4), third)
        self._y += 34
        self._heading("Briefing")
        spare = self._room - 444  # what the briefing and the victory list may share
        height = max(44, min(110, spare // 2))
        rect = pygame.Rect(self._x0, self._y, self._inner, height)
        self.briefing = pygame_gui.elements.UITextEntryBox(
            rect, v.get("briefing", "").strip("\n"), self._ui, container=self._box
        )
        self._y += height + 4
        self._row([("Apply the texts", "do", "texts")], 26)
        self._heading("Moves first; defends (sets up first); To Kill")
        self._row([(f"{s.title()} first", "moves_first", s) for s in self.sides[:2]], 26)
        self._row([(f"{s.title()} defends", "defender", s) for s in self.sides[:2]], 26)
        self._row([("ASL C7 tables", "to_kill", "asl"), ("V&V chart", "to_kill", "chart")], 26)
        self._heading("Victory conditions")
        height = max(44, min(80, spare - height))  # two conditions in view at least
        rect = pygame.Rect(self._x0, self._y, self._inner, height)
        items: list[str | tuple[str, str]] = [
            (t, str(i)) for i, t in enumerate(v.get("victory", []))
        ]
        self.victories = pygame_gui.elements.UISelectionList(
            rect, items, self._ui, container=self._box
        )
        self._y += height + 4
        self._row([(s.title(), "victory_side", s) for s in self.sides[:2]], 26)
        self._row(
            [("eliminate N", "victory_kind", "eliminate"), ("hold hexes", "victory_kind", "hold")],
            26,
        )
        self._entry("victory_detail", "", 0, 96)
        self._x0 += 100
        self._inner -= 100
        self._row([("Add", "do", "victory_add"), ("Remove", "do", "victory_remove")], 30)
        self._x0 -= 100
        self._inner += 100
        self._heading("Balance: games; the computer's level 0-3")
        self._entry("balance_games", self.balance_games, 0, 80)
        self._entry("balance_level", self.balance_level, 88, 40)
        self._x0 += 136
        self._inner -= 136
        self._row(
            [("Balance", "do", "balance")],
            30,
            tip="The computer plays the scenario as it stands against itself (hexfire "
            "balance): each side's win rate; a bar under the map, Stop ends it",
        )
        self._x0 -= 136
        self._inner += 136

    def _lesson_tab(self) -> None:
        v = self.values
        fields = v.get("step_fields", {})
        self._heading("Lesson number (its place in the series)")
        self._entry("lesson_number", v.get("lesson_number", ""), 0, 80)
        self._x0 += 88
        self._inner -= 88
        self._row([("Set", "do", "lesson_set"), ("No lesson", "do", "lesson_none")], 30)
        self._x0 -= 88
        self._inner += 88
        self._heading("Steps (pick one to change it)")
        height = max(60, min(160, self._room - 470))  # the rest of the tab takes 470
        rect = pygame.Rect(self._x0, self._y, self._inner, height)
        items: list[str | tuple[str, str]] = [
            (t, str(i)) for i, t in enumerate(v.get("step_lines", []))
        ]
        picked = items[self.step] if self.step is not None and self.step < len(items) else None
        self.lesson["steps"] = pygame_gui.elements.UISelectionList(
            rect, items, self._ui, container=self._box, default_selection=picked
        )
        self._y += height + 4
        self._row(
            [
                ("Add", "do", "step_add"),
                ("Remove", "do", "step_remove"),
                ("Up", "do", "step_up"),
                ("Down", "do", "step_down"),
            ],
            26,
            tip="Add: a new step after the one picked (at the end when none is)",
        )
        self._heading("Say (what to do, in plain words)")
        rect = pygame.Rect(self._x0, self._y, self._inner, 44)
        self.lesson["say"] = pygame_gui.elements.UITextEntryBox(
            rect, fields.get("say", ""), self._ui, container=self._box
        )
        self._y += 48
        self._heading("Point: a hex (click the map) or a screen part")
        self._entry("step_point", fields.get("point", ""), 0, half := (self._inner - 4) // 2)
        self._drop("part", [PART, *POINTS], PART, half + 4, half)
        self._y += 34
        self._heading("Waits for")
        self.wait_kind = fields.get("kind", "space")
        self.show_overlay = fields.get("show") or None
        for i in (0, 3):
            self._row([(k.title(), "wait_kind", k) for k in KINDS[i : i + 3]], 22)
        self._wait_fields(fields)
        self._entry("step_why", fields.get("why", ""), 0, self._inner, "why: said once done")
        self._y += 34
        self._row([("Apply to the step", "do", "step_apply")], 26)
        self.show_kind()

    def _wait_fields(self, fields: dict[str, str]) -> None:
        """The fields of each kind of wait, in the same two lines (only the kind picked's
        shown: :meth:`show_kind`): do's type, unit, to and target; look's two hexes; show's
        overlay; phase's name and side; select's unit (select's and show's)."""
        top, third, half = self._y, (self._inner - 8) // 3, (self._inner - 4) // 2
        seen = self._widgets()
        self.kind_widgets = {k: [] for k in KINDS}

        def made(kind: str) -> None:
            now = self._widgets()
            self.kind_widgets[kind] = list(now - seen)
            seen.update(now)

        do_type = fields.get("do_type", "")
        self._drop("do_type", [DO_TYPE, *ACTION_TYPES], do_type or DO_TYPE, 0, self._inner)
        self._y += 34
        for i, key in enumerate(("unit", "to", "target")):
            self._entry(f"do_{key}", fields.get(f"do_{key}", ""), i * (third + 4), third, key)
        made("do")
        self._y = top
        self._entry("look_from", fields.get("look_from", ""), 0, half, "from hex")
        self._entry("look_to", fields.get("look_to", ""), half + 4, half, "to hex")
        made("look")
        self._row([(o.title(), "show_overlay", o) for o in OVERLAYS], 30)
        made("show")
        self._y = top
        self._drop("phase", [PHASE, *PHASE_NAMES], fields.get("phase") or PHASE, 0, half)
        side = fields.get("side") or ANY_SIDE
        self._drop("side", [ANY_SIDE, *self.sides], side, half + 4, half)
        made("phase")
        self._y = top + 34
        self._entry("step_select", fields.get("select", ""), 0, self._inner, "unit id")
        made("select")
        self.kind_widgets["show"] += self.kind_widgets["select"]
        self._y = top + 68

    def _widgets(self) -> set[Any]:
        return set(self.buttons) | set(self.entries.values()) | set(self.lesson.values())

    def _drop(
        self, name: str, options: list[str | tuple[str, str]], chosen: str, x: int, width: int
    ) -> None:
        assert self._ui is not None
        rect = pygame.Rect(self._x0 + x, self._y, width, 30)
        if chosen not in options:
            options = [*options, chosen]  # as written, though unknown: the validator says so
        self.lesson[name] = pygame_gui.elements.UIDropDownMenu(
            options, chosen, rect, self._ui, container=self._box, object_id="#drop_up"
        )  # up: the room is above it (the tab's foot is below)

    def show_kind(self) -> None:
        """Only the fields of what the step waits for (:attr:`wait_kind`) shown."""
        shown = set(self.kind_widgets.get(self.wait_kind, []))
        for widgets in self.kind_widgets.values():
            for w in widgets:
                if w not in shown:
                    w.hide()
        for w in shown:
            w.show()
