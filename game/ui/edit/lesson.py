"""The Lesson tab's form: the scenario's ``[lesson]`` table (its number; none: not a lesson)
and its steps, listed, added after the one picked, removed, moved up or down and set (what to
say, what to point at, the unit to select, what the step waits for, why), each one named edit
of :mod:`game.files.scenario_edits_lesson`, validated as every edit is (the step's unit
exists, its hex is on the map, it waits for one thing: docs/scenario-format.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from game.files.lesson import OVERLAYS, POINTS
from game.files.scenario_doc import ScenarioDoc
from game.files.scenario_edits import Edit
from game.files.scenario_edits_lesson import (
    AddStep,
    MoveStep,
    RemoveStep,
    SetLesson,
    SetStep,
    StepValue,
)
from game.ui.edit.waits import DO_FIELDS

if TYPE_CHECKING:
    from game.ui.edit.panel import EditPanel

WAITS = ("do", "look", "show", "phase", "side")
"""The step keys the Waits-for part writes (and ``select``, for the kinds that take it)."""
NEW_STEP = (("say", "What to do now, in plain words."),)


class Editor(Protocol):
    """What the lesson form reads of the editor screen."""

    panel: EditPanel
    doc: ScenarioDoc
    said: str

    def submit(self, edit: Edit, repaints: bool = False) -> None: ...


def _plain(value: Any) -> Any:
    return value.unwrap() if hasattr(value, "unwrap") else value


def lesson_values(doc: ScenarioDoc) -> dict[str, Any]:
    """What the Lesson tab shows of the document: the number ("" when not a lesson) and the
    steps (each a plain dict)."""
    lesson = doc.doc.get("lesson")
    if not isinstance(lesson, dict):
        return {"lesson_number": "", "steps": []}
    steps = _plain(lesson.get("steps", []))
    number = _plain(lesson.get("number", ""))
    return {
        "lesson_number": str(number),
        "steps": [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else [],
    }


def lesson_form_values(doc: ScenarioDoc, step: int | None) -> dict[str, Any]:
    """What the Lesson tab shows: the number, a line for each step, and the fields of the
    step picked (``step``; empty when none)."""
    values = lesson_values(doc)
    steps = values["steps"]
    picked = steps[step] if step is not None and step < len(steps) else {}
    return {
        "lesson_number": values["lesson_number"],
        "lesson": "lesson" in doc.doc,
        "step_lines": [f"{i + 1}. {summary(s)}" for i, s in enumerate(steps)],
        "step_fields": step_fields(picked),
    }


def summary(step: dict[str, Any]) -> str:
    """A step in a line of the list: what it says, and what it waits for."""
    said = " ".join(str(step.get("say", "")).split())
    wait = wait_text(step) or ("select " + str(step["select"]) if step.get("select") else "")
    return f"{said[:40]}{'...' if len(said) > 40 else ''}" + (f" [{wait}]" if wait else "")


def wait_text(step: dict[str, Any]) -> str:
    """The Waits-for line of a step: ``do type=move unit=ID to=B4``, ``look A1 B2``,
    ``show viewshed``, ``phase movement [side]`` ("" : Space, or only ``select``)."""
    if isinstance(step.get("do"), dict):
        return "do " + " ".join(f"{k}={_word(v)}" for k, v in step["do"].items())
    if isinstance(step.get("look"), list):
        return "look " + " ".join(map(str, step["look"]))
    if step.get("show"):
        return f"show {step['show']}"
    if step.get("phase"):
        return f"phase {step['phase']}" + (f" {step['side']}" if step.get("side") else "")
    return ""


def _word(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def wait_kind(step: dict[str, Any]) -> str:
    """What a step waits for, as the form's row of buttons names it (:data:`KINDS`)."""
    for kind in ("do", "look", "show", "phase"):
        if step.get(kind):
            return kind
    return "select" if step.get("select") else "space"


def step_fields(step: dict[str, Any]) -> dict[str, str]:
    """The form's fields of a step (each "" when the step has none): what it waits for
    (``kind``), ``do``'s type, unit, to and target, ``look``'s two hexes, the overlay ``show``,
    the phase and its side, and the say, point, select and why lines."""
    fields = {k: str(step.get(k, "")) for k in ("say", "point", "select", "why", "show")}
    do: dict[str, Any] = step["do"] if isinstance(step.get("do"), dict) else {}
    ends: list[Any] = step["look"] if isinstance(step.get("look"), list) else []
    look = [str(h) for h in ends] + ["", ""]
    fields |= {f"do_{k}": _word(do[k]) if k in do else "" for k in DO_FIELDS}
    fields |= {"look_from": look[0], "look_to": look[1], "kind": wait_kind(step)}
    fields |= {"phase": str(step.get("phase", "")), "side": str(step.get("side", ""))}
    return fields


def form_wait(
    kind: str, typed: dict[str, str], old_do: dict[str, Any] | None = None
) -> dict[str, StepValue | None] | str:
    """The step keys the form's Waits-for part sets (the others of :data:`WAITS` and
    ``select`` removed: None), or what is missing (a string). ``typed``: the fields as set
    (:func:`step_fields`' names); ``old_do``: the step's ``do`` table, whose keys the form has
    no field for (a turn's ``facing``, a shot's ``ammo``) stay as written while its type does."""
    keys: dict[str, StepValue | None] = dict.fromkeys((*WAITS, "select"))
    select = typed.get("select", "").strip() or None
    if kind == "select":
        if select is None:
            return "waits for: select: the unit's id"
        keys["select"] = select
    elif kind == "do":
        if not typed.get("do_type"):
            return "waits for: do: pick the action's type"
        pairs = {"type": typed["do_type"]}
        for k in DO_FIELDS[1:]:
            text = typed.get(f"do_{k}", "").strip()
            if text:
                pairs[k] = text.upper() if k == "to" and text != "off" else text
        old_do = old_do if old_do and old_do.get("type") == pairs["type"] else {}
        kept = {k: v for k, v in old_do.items() if k not in DO_FIELDS}
        keys["do"] = tuple({**pairs, **kept}.items())
    elif kind == "look":
        ends = (typed.get("look_from", "").strip(), typed.get("look_to", "").strip())
        if not all(ends):
            return "waits for: look: the two hexes the LOS thread joins"
        keys["look"] = (ends[0].upper(), ends[1].upper())
    elif kind == "show":
        if typed.get("show") not in OVERLAYS:
            return f"waits for: show: {', '.join(OVERLAYS)}"
        keys["show"], keys["select"] = typed["show"], select
    elif kind == "phase":
        if not typed.get("phase"):
            return "waits for: phase: pick the phase"
        keys["phase"], keys["side"] = typed["phase"], typed.get("side") or None
    return keys


class LessonForm:
    """The Lesson tab's buttons of one editor screen."""

    def __init__(self, editor: Editor):
        self.editor = editor

    def command(self, what: str) -> None:
        """A Lesson tab button: ``lesson_set``, ``lesson_none``, ``step_add``,
        ``step_remove``, ``step_up``, ``step_down`` or ``step_apply``."""
        panel, steps = self.editor.panel, lesson_values(self.editor.doc)["steps"]
        if what == "lesson_set":
            number = panel.text("lesson_number")
            if not number.isdigit():
                self.editor.said = "the lesson's number: a whole number (its place, 1-99)"
                return
            self.editor.submit(SetLesson(int(number)))
            return
        if what == "lesson_none":
            self.editor.submit(SetLesson(None))
            return
        if "lesson" not in self.editor.doc.doc:
            self.editor.said = "make the scenario a lesson first: type its number, press Set"
            return
        at = panel.step if panel.step is not None and panel.step < len(steps) else None
        if what == "step_add":
            index = None if at is None or at + 1 >= len(steps) else at + 1
            self.editor.submit(AddStep(NEW_STEP, index))
            panel.step = len(steps) if index is None else index
            return
        if at is None:
            self.editor.said = "pick a step in the list first"
            return
        if what == "step_remove":
            self.editor.submit(RemoveStep(at))
            panel.step = min(at, len(steps) - 2) if len(steps) > 1 else None
        elif what in ("step_up", "step_down"):
            to = at - 1 if what == "step_up" else at + 1
            if 0 <= to < len(steps):
                self.editor.submit(MoveStep(at, to))
                panel.step = to
        elif what == "step_apply":
            self.apply(at, steps[at])

    def apply(self, at: int, step: dict[str, Any]) -> None:
        """The form as set written to step ``at``: the keys that changed, one edit."""
        panel = self.editor.panel
        typed = panel.step_form()
        old_do = step.get("do") if isinstance(step.get("do"), dict) else None
        wait = form_wait(panel.wait_kind, typed, old_do)
        if isinstance(wait, str):
            self.editor.said = wait
            return
        keys_typed: dict[str, StepValue | None] = {
            "say": panel.step_say().strip() or None,
            "point": _point(typed.get("point", "")),
            "why": typed.get("why", "").strip() or None,
            **wait,
        }
        keys = tuple((k, v) for k, v in keys_typed.items() if _same(v) != _same(step.get(k)))
        if not keys:
            self.editor.said = f"step {at + 1}: nothing changed"
            return
        self.editor.submit(SetStep(at, keys))

    def point_at(self, at: str | None) -> None:
        """A click on the map while the Lesson tab is shown: the hex is the step's Point."""
        entry = self.editor.panel.entries.get("step_point")
        if at is not None and entry is not None:
            entry.set_text(at)
            self.editor.said = f"point: {at} (Apply to the step writes it)"


def _point(text: str) -> str | None:
    """Point as typed: a part of the screen as it is named, a hex in capitals."""
    text = text.strip()
    return (text if text in POINTS else text.upper()) or None


def _same(v: Any) -> Any:
    """A step value as compared (a ``do`` table and its pairs, a ``look`` list and tuple)."""
    if isinstance(v, dict):
        return tuple(v.items())
    if isinstance(v, list):
        return tuple(v)
    return v
