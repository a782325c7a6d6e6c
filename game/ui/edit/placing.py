"""The Units tab's work on the map: a click on an empty hex adds a unit of the type picked
(its side, facing, concealed as chosen), a click on a counter selects it, a drag moves it;
the facing, concealed, Remove, set-up area and Bore Sight buttons change the unit selected
(Bore sight: the next click on the map names the hex, C6.41-C6.42). Each is one
named edit of the document (undoable), validated off the frame as every edit is."""

from __future__ import annotations

from typing import Protocol

from game.files.scenario_edits import AddUnit, Edit, MoveUnit, RemoveUnit, SetSetupArea, SetUnit
from game.ui.edit.panel import EditPanel
from game.ui.map.view import MapView


class Editor(Protocol):
    """What the placing reads of the editor screen."""

    view: MapView
    panel: EditPanel
    said: str

    def submit(self, edit: Edit, repaints: bool = False) -> None: ...


class Placing:
    """The units' clicks and buttons of one editor screen."""

    def __init__(self, editor: Editor):
        self.editor = editor
        self.issued: set[str] = set()
        """The ids given to units added (their tables may not be read back yet)."""
        self.aiming: str | None = None
        """The unit whose Bore Sighted Location the next click on the map sets (C6.42)."""

    @property
    def selected(self) -> str | None:
        return self.editor.view.state.selected

    def new_id(self, side: str, type_key: str) -> str:
        taken = {u["id"] for u in self.editor.view.units()} | self.issued
        n = 1
        while f"{side[:3]}-{type_key}-{n}" in taken:
            n += 1
        uid = f"{side[:3]}-{type_key}-{n}"
        self.issued.add(uid)
        return uid

    def press(self, at: str) -> None:
        """The left button down on hex ``at``."""
        view, panel = self.editor.view, self.editor.panel
        if self.aiming is not None:
            uid, self.aiming = self.aiming, None
            self.editor.submit(SetUnit(uid, "bore_sight", at))
            return
        here = view.units_at(at)
        if here:
            uid = here[-1]["id"]
            view.state.selected = view.state.dragging = uid
            self.editor.said = f"{uid} selected: drag it to move it; the buttons change it"
            return
        if panel.type is None:
            view.state.selected = None
            self.editor.said = "pick a unit type in the list first (type to search)"
            return
        uid = self.new_id(panel.side, panel.type)
        self.editor.submit(AddUnit(uid, panel.type, panel.side, at, panel.facing, panel.concealed))
        view.state.selected = uid

    def new_unit(self) -> None:
        """A type or a side chosen: the next unit is being made, so the facing and Concealed
        buttons are for it, not for the unit placed last (a newcomer turned the Panzer just
        placed when choosing the next T-34's facing)."""
        if self.editor.view.state.selected is not None:
            self.editor.view.state.selected = None
            self.editor.said = "the facing and Concealed buttons now set the next unit added"

    def release(self, at: str | None) -> None:
        """The left button up: a dragged unit moves to ``at``."""
        view = self.editor.view
        dragged, view.state.dragging = view.state.dragging, None
        unit = view.unit(dragged)
        if unit is not None and at is not None and unit["hex"] != at:
            self.editor.submit(MoveUnit(unit["id"], at))

    def choice(self, what: str) -> None:
        """A facing or concealed button: the unit selected changed to it (and the next one
        added made so)."""
        uid, panel = self.selected, self.editor.panel
        if uid is None or self.editor.view.unit(uid) is None:
            return
        if what == "facing":
            self.editor.submit(SetUnit(uid, "facing", panel.facing))
        elif what == "concealed":
            self.editor.submit(SetUnit(uid, "concealed", True if panel.concealed else None))

    def command(self, command: str) -> None:
        """Remove, set the set-up area of, or Bore Sight (the next click's hex) or not the
        unit selected; or set the set-up area of every unit of the side chosen
        (``side_area``)."""
        uid, panel = self.selected, self.editor.panel
        if command == "side_area":
            side = [u["id"] for u in self.editor.view.units() if u["side"] == panel.side]
            if not side:
                self.editor.said = f"no {panel.side} unit yet"
                return
            columns = panel.text("area_columns").upper() or None
            self.editor.submit(SetSetupArea(tuple(side), columns, panel.text("area_rows") or None))
            return
        if uid is None:
            self.editor.said = "select a unit first (a click on its counter)"
            return
        if command == "remove":
            self.editor.view.state.selected = None
            self.editor.submit(RemoveUnit(uid))
        elif command == "bore_sight":
            self.aiming = uid
            self.editor.said = (
                f"click the hex {uid} Bore Sights (C6.42: in its LOS, 16 hexes at most)"
            )
        elif command == "no_bore_sight":
            self.editor.submit(SetUnit(uid, "bore_sight", None))
        elif command == "area":
            columns = panel.text("area_columns").upper() or None
            rows = panel.text("area_rows") or None
            self.editor.submit(SetSetupArea((uid,), columns, rows))
