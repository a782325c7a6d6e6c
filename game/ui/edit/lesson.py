"""The Lesson tab's form: the scenario's ``[lesson]`` table (its number; none: not a lesson)
and its steps, listed, added after the one picked, removed, moved up or down and set (what to
say, what to point at, the unit to select, what the step waits for, why), each one named edit
of :mod:`game.files.scenario_edits_lesson`, validated as every edit is (the step's unit
exists, its hex is on the map, it waits for one thing: docs/scenario-format.md)."""

from __future__ import annotations

from typing import Any, Protocol

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
from game.ui.edit.panel import EditPanel

WAITS = ("do", "look", "show", "phase", "side")
"""The step keys the Waits-for line writes (``select`` has its own line)."""
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
    fields = {k: str(picked.get(k, "")) for k in ("say", "point", "select", "why")}
    return {
        "lesson_number": values["lesson_number"],
        "lesson": "lesson" in doc.doc,
        "step_lines": [f"{i + 1}. {summary(s)}" for i, s in enumerate(steps)],
        "step_fields": {**fields, "wait": wait_text(picked)},
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


def _value(text: str) -> str | int | bool:
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isdigit() else text


def parse_wait(text: str) -> dict[str, StepValue | None] | str:
    """The step keys a Waits-for line sets (the others of :data:`WAITS` removed: None), or
    what is wrong with it (a string)."""
    words = text.split()
    keys: dict[str, StepValue | None] = dict.fromkeys(WAITS)
    if not words:
        return keys
    kind, rest = words[0].lower(), words[1:]
    if kind == "do":
        pairs = [w.partition("=") for w in rest]
        if not pairs or any(not k or not sep or not v for k, sep, v in pairs):
            return "waits for: do key=value ... (do type=move unit=ID to=B4)"
        keys["do"] = tuple((k, _value(v)) for k, _, v in pairs)
    elif kind == "look" and len(rest) == 2:
        keys["look"] = (rest[0].upper(), rest[1].upper())
    elif kind == "show" and len(rest) == 1:
        keys["show"] = rest[0]
    elif kind == "phase" and len(rest) in (1, 2):
        keys["phase"] = rest[0]
        keys["side"] = rest[1] if len(rest) == 2 else None
    else:
        return "waits for: do k=v ..., look A1 B2, show viewshed|threat|fire, phase NAME [SIDE]"
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
        """The fields typed written to step ``at``: the keys that changed, one edit."""
        panel = self.editor.panel
        wait = parse_wait(panel.text("step_wait"))
        if isinstance(wait, str):
            self.editor.said = wait
            return
        typed: dict[str, StepValue | None] = {
            "say": panel.step_say().strip() or None,
            "point": panel.text("step_point") or None,
            "select": panel.text("step_select") or None,
            "why": panel.text("step_why") or None,
            **wait,
        }
        keys = tuple((k, v) for k, v in typed.items() if _same(v) != _same(step.get(k)))
        if not keys:
            self.editor.said = f"step {at + 1}: nothing changed"
            return
        self.editor.submit(SetStep(at, keys))


def _same(v: Any) -> Any:
    """A step value as compared (a ``do`` table and its pairs, a ``look`` list and tuple)."""
    if isinstance(v, dict):
        return tuple(v.items())
    if isinstance(v, list):
        return tuple(v)
    return v
