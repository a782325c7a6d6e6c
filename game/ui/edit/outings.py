"""The editor's ways out and back: Save as (a file dialog); Test play (a new game of the
scenario as it stands, on the play screen over the editor, which the game comes back to when
left); and the draft of unsaved work (kept after every change; offered back when the editor
opens on the file again, after a crash)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import pygame

from game.files.scenario import ScenarioError
from game.files.scenario_doc import ScenarioDoc
from game.files.session import new_game
from game.ui.edit.panel import EditPanel
from game.ui.edit.sketch import Sketch
from game.ui.edit.worker import DocWorker
from game.ui.map.view import MapView
from game.ui.scenes.filedialog import FileDialog
from game.ui.scenes.routes import Opening, Play, Progress, Push


class EditScene(Protocol):
    """What these read and set of the editor screen."""

    app: Any
    doc: ScenarioDoc
    sketch: Sketch
    view: MapView
    panel: EditPanel
    worker: DocWorker | None
    errors: tuple[str, ...]
    said: str
    unsaved: bool


def test_play(scene: EditScene, against_computer: bool) -> None:
    """A new game of the scenario as it stands (not saved, not autosaved) on the play
    screen over the editor; leaving it comes back here (:attr:`Scene.home`). The loading
    screen shows at once: the editor's queued changes are waited for and the scenario read
    behind it (the window waited 74 s on the four-board map after a storm of strokes)."""
    assert scene.worker is not None
    worker = scene.worker

    def work(progress: Progress) -> Callable[[], None]:
        progress.now("Waiting for the editor's last changes")
        worker.wait(timeout=600.0)
        with worker.doc_lock:
            scenario = worker.doc.check().scenario
        if scenario is None:
            return lambda: refused(scene)
        computer = None
        if against_computer:
            computer = {"side": scenario.setup.other(scenario.setup.first), "level": 2}
        progress.now("Building the map and its lines of sight (RD-9)")
        session = new_game(scenario, secrets.randbelow(2**31), None, computer)
        title = f"Test play: {scenario.title}"
        return lambda: scene.app.go(Push(Play(session, title)))

    scene.app.go(Push(Opening("Test play", work)))


def refused(scene: EditScene) -> None:
    """Back in the editor from a Test play of a scenario that does not validate."""
    scene.said = "Test play: fix the errors listed first (it must validate to play)"


def offer_draft(scene: EditScene) -> None:
    """Unsaved work kept from an editor that closed without saving (a crash): ask to bring
    it back."""
    assert scene.worker is not None and scene.worker.draft is not None
    try:
        text = scene.worker.draft.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if text == scene.doc.text:
        return
    scene.app.ask(
        f"Unsaved changes to {Path(scene.doc.name).name} were kept from an earlier session "
        "(the editor closed before they were saved). Bring them back?",
        "Resume the draft",
        "Resume",
        lambda: resume_draft(scene, text),
    )


def resume_draft(scene: EditScene, text: str) -> None:
    """The draft's text in the editor, unsaved (Save writes it to the file)."""
    assert scene.worker is not None
    try:
        doc = ScenarioDoc(text, scene.doc.name)
    except ScenarioError as e:
        scene.said = f"the draft could not be read: {e.errors[0]}"
        return
    doc.saved = scene.doc.saved
    scene.doc = scene.worker.doc = doc
    scene.sketch = Sketch(doc)
    scene.view.redraw_map(scene.sketch.board)
    scene.errors = doc.check().errors
    if scene.panel is not None:
        scene.panel.show_errors(scene.errors)
    scene.unsaved = True
    scene.said = "the draft brought back (not saved yet)"


def save_dialog(app: Any, initial: Path) -> FileDialog:
    """The Save as dialog, on ``initial`` (a scenario's ``.toml``; Enter saves)."""
    try:
        initial.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        initial = Path.home() / initial.name
    return FileDialog(
        pygame.Rect(app.size[0] // 2 - 260, 80, 520, 460),
        app.ui,
        "Save the scenario as (Enter saves)",
        initial,
        existing_only=False,
        suffixes=(".toml",),
    )


def draft_name(path: Path | None) -> str:
    """The draft's file name for the scenario file ``path`` (None: a new scenario): its name
    and a short digest of its full path, so that two files of one name keep two drafts."""
    if path is None:
        return "new-scenario.toml"
    digest = hashlib.sha1(str(path.resolve()).encode("utf-8")).hexdigest()[:8]
    return f"{path.stem}-{digest}.toml"
