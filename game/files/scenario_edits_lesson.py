"""The edits of a scenario's ``[lesson]`` table (docs/scenario-format.md): its own keys and its
``[[lesson.steps]]``, added, removed, reordered and set. Like the other edits
(:mod:`.scenario_edits`) each checks only what it needs to be written; the validator run by
:class:`~.scenario_doc.ScenarioDoc` checks the rest (the step's unit exists, its hex is on the
map, it waits for one thing). The steps' spacing is kept as written: a step moved or added
gets the blank line the others have, and the last keeps what the last had."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from .scenario_edits import Edit, EditError

STEP_KEYS = ("say", "point", "do", "select", "look", "show", "phase", "side", "why")
"""A step's keys, in the order a new step writes them (the shipped lessons' order)."""

StepValue = str | int | bool | tuple[str, str] | tuple[tuple[str, str | int | bool], ...]
"""A step key's value: text, a number, ``look``'s two hexes, ``do``'s (key, value) pairs."""


def _lesson(doc: TOMLDocument) -> Table:
    lesson = doc.get("lesson")
    if not isinstance(lesson, Table):
        raise EditError("lesson: missing (make the scenario a lesson first: its number)")
    return lesson


def _steps(doc: TOMLDocument, create: bool = False) -> AoT:
    lesson = _lesson(doc)
    if "steps" not in lesson and create:
        _strip(lesson)
        lesson.append(None, Whitespace("\n"))  # the blank line before the first step
        lesson.append("steps", tomlkit.aot())
    steps = lesson.get("steps")
    if not isinstance(steps, AoT):
        raise EditError("lesson.steps: not an array of [[lesson.steps]] tables")
    return steps


def _index(steps: AoT, index: int, at_end: bool = False) -> int:
    top = len(steps) + (1 if at_end else 0)
    if type(index) is not int or not 0 <= index < top:
        raise EditError(f"lesson.steps[{index}]: no such step (the lesson has {len(steps)})")
    return index


def _trailing(table: Table) -> str | None:
    body = table.value.body
    return body[-1][1].as_string() if body and isinstance(body[-1][1], Whitespace) else None


def _strip(table: Table) -> None:
    body = table.value.body
    while body and body[-1][0] is None and isinstance(body[-1][1], Whitespace):
        body.pop()


class _Spacing:
    """The blank line after each step but the last, and what follows the last, as written."""

    def __init__(self, steps: AoT):
        tables = list(steps.body)
        gaps = [_trailing(t) for t in tables[:-1]]
        self.gap = next((g for g in gaps if g), "\n")
        self.tail = _trailing(tables[-1]) if tables else None
        for t in tables:
            _strip(t)

    def restore(self, steps: AoT) -> None:
        tables = list(steps.body)
        for k, t in enumerate(tables):
            ws = self.gap if k < len(tables) - 1 else self.tail
            if ws:
                t.value.append(None, Whitespace(ws))


def _written(key: str, value: Any) -> Any:
    """A step key's value as TOML writes it; EditError when it cannot be written."""
    if key not in STEP_KEYS:
        raise EditError(
            f"lesson.steps: {key!r} is not a step's key (expected {', '.join(STEP_KEYS)})"
        )
    if key == "do":
        pairs = value.items() if isinstance(value, Mapping) else value
        table = tomlkit.inline_table()
        for k, v in pairs:
            if not isinstance(k, str) or not isinstance(v, str | int | bool):
                raise EditError(f"lesson.steps: do: {k!r}: expected text, a number or true/false")
            table[k] = v
        return table
    if key == "look":
        if isinstance(value, str) or not isinstance(value, Sequence) or len(value) != 2:
            raise EditError("lesson.steps: look: expected two hexes")
        return [str(v) for v in value]
    if not isinstance(value, str | int | bool):
        raise EditError(f"lesson.steps: {key}: expected text")
    return value


def _table(step: Sequence[tuple[str, Any]]) -> Table:
    given = dict(step)
    table = tomlkit.table()
    for key in sorted(given, key=lambda k: STEP_KEYS.index(k) if k in STEP_KEYS else -1):
        table[key] = _written(key, given[key])
    return table


@dataclass(frozen=True)
class SetLesson(Edit):
    """Make the scenario a lesson with ``number`` (its place in the series; the ``[lesson]``
    table added after the rest when there is none), or (``None``) no lesson: the table and
    its steps removed."""

    number: int | None

    @property
    def title(self) -> str:  # type: ignore[override]
        return "no lesson" if self.number is None else f"lesson number {self.number}"

    def apply(self, doc: TOMLDocument) -> None:
        if self.number is None:
            _lesson(doc)
            del doc["lesson"]
            return
        if type(self.number) is not int:
            raise EditError(f"lesson.number: {self.number!r}: expected a number 1-99")
        if "lesson" not in doc:
            doc.append("lesson", tomlkit.table())
        _lesson(doc)["number"] = self.number


@dataclass(frozen=True)
class AddStep(Edit):
    """Add a step (its keys and values, :data:`STEP_KEYS`) before the step at ``index``, or
    after the last (``index`` None)."""

    step: tuple[tuple[str, StepValue], ...]
    index: int | None = None

    @property
    def title(self) -> str:  # type: ignore[override]
        return "add a lesson step" if self.index is None else f"add lesson step {self.index + 1}"

    def apply(self, doc: TOMLDocument) -> None:
        steps = _steps(doc, create=True)
        at = len(steps) if self.index is None else _index(steps, self.index, at_end=True)
        table = _table(self.step)
        spacing = _Spacing(steps)
        steps.insert(at, table)
        steps.body[at].trivia.indent = ""  # the blank line before it is the step's before
        spacing.restore(steps)


@dataclass(frozen=True)
class RemoveStep(Edit):
    """Remove the step at ``index``."""

    index: int

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"remove lesson step {self.index + 1}"

    def apply(self, doc: TOMLDocument) -> None:
        steps = _steps(doc)
        at = _index(steps, self.index)
        spacing = _Spacing(steps)
        del steps[at]
        spacing.restore(steps)


@dataclass(frozen=True)
class MoveStep(Edit):
    """Move the step at ``index`` so that it stands at ``to`` (the others keep their order)."""

    index: int
    to: int

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"move lesson step {self.index + 1} to {self.to + 1}"

    def apply(self, doc: TOMLDocument) -> None:
        steps = _steps(doc)
        at, to = _index(steps, self.index), _index(steps, self.to)
        spacing = _Spacing(steps)
        table = steps.body[at]
        del steps[at]
        steps.insert(to, table)
        spacing.restore(steps)


@dataclass(frozen=True)
class SetStep(Edit):
    """Set keys of the step at ``index`` (a value ``None``: the key removed); the keys not
    given, and the comments, stay as written."""

    index: int
    keys: tuple[tuple[str, StepValue | None], ...]

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"lesson step {self.index + 1}: {', '.join(k for k, _ in self.keys)}"

    def apply(self, doc: TOMLDocument) -> None:
        steps = _steps(doc)
        table = steps.body[_index(steps, self.index)]
        spacing = _Spacing(steps)
        for key, value in self.keys:
            if value is None:
                if key not in STEP_KEYS:
                    raise EditError(f"lesson.steps: {key!r} is not a step's key")
                table.pop(key, None)
            else:
                table[key] = _written(key, value)
        spacing.restore(steps)
