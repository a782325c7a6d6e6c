"""A scenario file as a person wrote it, for an editor: loaded with tomlkit (comments, key
order and spacing kept: loading and saving a file unchanged gives the same bytes), changed by
the named edits of :mod:`.scenario_edits`, each undoable, and validated after each through the
one code path of ``hexfire validate`` (:func:`.scenario.parse_scenario` on the document's text),
with the same located errors (``file:line: field.path: reason``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.toml_document import TOMLDocument

from .savegame import SaveError, write_atomic
from .scenario import Scenario, ScenarioError, parse_scenario
from .scenario_edits import Edit, EditError
from .scenario_read import parse_toml, read_toml

MAX_UNDO = 200
"""The most edits kept to undo (each keeps the document's text before it: on the 200 x 200
map, 100 KB)."""


@dataclass(frozen=True)
class Checked:
    """The document after an edit, undo or redo: its errors as ``hexfire validate`` prints
    them (none: it plays) and the scenario when it is valid."""

    errors: tuple[str, ...]
    scenario: Scenario | None


class ScenarioDoc:
    """One scenario file in an editor: its tomlkit document, the edits to undo and redo, and
    whether it differs from the file saved."""

    def __init__(self, text: str, name: str = "<scenario>"):
        """The document of ``text`` (TOML that ``hexfire validate`` can read, valid or not);
        ScenarioError (file:line: reason) when it is not TOML."""
        parse_toml(text, name)  # the size limit and the located syntax error, as a file's
        self.name = name
        self.doc = _parse(text, name)
        self.saved = text
        self._undo: list[tuple[Edit, str]] = []
        self._redo: list[tuple[Edit, str]] = []

    @classmethod
    def load(cls, path: str | Path) -> ScenarioDoc:
        """The document of a scenario file (read as ``hexfire validate`` reads one)."""
        _, text = read_toml(path)
        return cls(text, str(path))

    @property
    def text(self) -> str:
        """The document as TOML text: the file's bytes when nothing was edited."""
        return tomlkit.dumps(self.doc)

    @property
    def changed(self) -> bool:
        """Whether the document differs from the file as last loaded or saved."""
        return self.text != self.saved

    def check(self) -> Checked:
        """Validate the document as ``hexfire validate`` validates a file of its text."""
        try:
            return Checked((), parse_scenario(self.text, self.name))
        except ScenarioError as e:
            return Checked(tuple(e.errors), None)

    def apply(self, edit: Edit) -> Checked:
        """Make ``edit`` (the redo list cleared) and validate the result. An edit that cannot
        be written raises EditError with the document as it was."""
        self.edit(edit)
        return self.check()

    def edit(self, edit: Edit) -> None:
        """Make ``edit`` as :meth:`apply` does, without validating (an editor that validates
        elsewhere: another process)."""
        before = self.text
        try:
            edit.apply(self.doc)
        except BaseException:  # EditError, or anything half done: the document as it was
            self.doc = _parse(before, self.name)
            raise
        self._undo.append((edit, before))
        del self._undo[:-MAX_UNDO]
        self._redo.clear()

    def undo(self) -> Checked | None:
        """Take back the last edit (None when there is none)."""
        return self.check() if self.step() else None

    def redo(self) -> Checked | None:
        """Make again the last edit undone (None when there is none)."""
        return self.check() if self.step(redo=True) else None

    def step(self, redo: bool = False) -> bool:
        """Take back the last edit (``redo``: make again the last undone) without validating;
        False when there is none."""
        done, other = (self._redo, self._undo) if redo else (self._undo, self._redo)
        if not done:
            return False
        edit, text = done.pop()
        other.append((edit, self.text))
        self.doc = _parse(text, self.name)
        return True

    @property
    def undo_title(self) -> str | None:
        """What Undo would take back (``move ger-pz4-1 to D4``), or None."""
        return self._undo[-1][0].title if self._undo else None

    @property
    def redo_title(self) -> str | None:
        """What Redo would make again, or None."""
        return self._redo[-1][0].title if self._redo else None

    def save(self, path: str | Path | None = None) -> Path:
        """Write the document (to ``path``, or the file it came from) through a temporary file
        renamed over it: never half a file; SaveError (one line) when it cannot be written."""
        target = Path(path if path is not None else self.name)
        text = self.text
        write_atomic(target, text)
        self.name, self.saved = str(target), text
        return target


def _parse(text: str, name: str) -> TOMLDocument:
    try:
        return tomlkit.parse(text)
    except (TOMLKitError, RecursionError, ValueError) as e:  # tomllib read it: not expected
        raise ScenarioError([f"{name}: not valid TOML: {str(e).splitlines()[0][:120]}"]) from None


__all__ = ["Checked", "EditError", "SaveError", "ScenarioDoc"]
