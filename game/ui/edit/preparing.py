"""The editor's document made before its screen: the scenario read (tomlkit), its map drawn as a
board (:class:`~.sketch.Sketch`) and the document checked as ``hexfire validate`` checks a file.
No pygame here: the start screen has it made behind a loading screen, off the window's thread
(:func:`editor_opening`; issue 44: 1.4 s on the four-board map at load 3, the TOML 0.42 s, the
board 0.31, the check 0.17, and once 10.5 s without a frame in the 20-minute soak)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from game.board.board import MapError
from game.files.scenario import ScenarioError
from game.files.scenario_doc import ScenarioDoc
from game.ui.edit.sketch import Sketch, blank_text, setup_areas
from game.ui.scenes.routes import Edit, Opening, Progress, Push


@dataclass(frozen=True)
class Prepared:
    """What the editor's screen starts from: its document, its map's sketch (its set-up areas
    drawn) and the document's errors."""

    doc: ScenarioDoc
    sketch: Sketch
    errors: tuple[str, ...]


def read_target(path: Path | None) -> str:
    """The text of the file a copy or a draft will be saved to ("" when there is none yet)."""
    try:
        return path.read_text(encoding="utf-8") if path is not None else ""
    except (OSError, UnicodeDecodeError):
        return ""


def prepare(path: Path | None, text: str | None, progress: Progress | None = None) -> Prepared:
    """The editor's document of ``path`` (None: a new scenario; ``text``: a copy or a draft to
    be saved to ``path``), its sketch and its errors; ScenarioError when the file is not TOML or
    its map cannot be drawn. ``progress`` is told each stage (and stops the work once its
    screen has closed: :class:`~game.ui.scenes.routes.Cancelled`)."""
    name = str(path) if path is not None else "new-scenario.toml"
    if progress is not None:
        progress.now("Reading the scenario")
    if text is not None:  # a copy to be saved, or a draft brought back: not saved yet
        doc = ScenarioDoc(text, name)
        doc.saved = read_target(path)
    elif path is not None:
        doc = ScenarioDoc.load(path)
    else:
        doc = ScenarioDoc(blank_text(), name)
    if progress is not None:
        progress.now("Drawing its map")
    try:
        sketch = Sketch(doc)
    except MapError as e:  # nothing to draw: one line, as hexfire validate says it
        raise ScenarioError(
            [f"{name}: {e.path}: {e.message} (the editor draws the map: fix it first)"]
        ) from None
    if progress is not None:
        progress.now("Checking it")
    errors = doc.check().errors
    sketch.areas = setup_areas(doc, sketch.board)
    return Prepared(doc, sketch, errors)


def editor_opening(edit: Edit, failed: Any = None) -> Opening:
    """The loading screen's work for ``edit``: its document prepared off the window's thread,
    then the editor's screen pushed with it (``failed``: told why a file cannot be edited)."""

    def work(progress: Progress) -> Push:
        return Push(replace(edit, prepared=prepare(edit.path, edit.text, progress)))

    return Opening("Opening the editor", work, failed=failed)
