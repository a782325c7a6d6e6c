"""The editor's document work off the window's thread: each edit, undo, redo or save is a job
for one worker thread, run in order: it writes a stroke into the TOML, and the result is
validated in a process of its own (:mod:`.checker`: the whole ``parse_scenario`` of a 200 x 200
file, some 0.1 s of Python, would otherwise hold the interpreter lock against the window's
strokes). The screen picks up each result when it is done and shows its errors. A job with
more queued behind it leaves the validation and the draft to the last of them: a storm of
strokes on the four-board map queued a hundred checks of half a second each, and Test play
waited 74 s for them (issue 44)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from game.board import Board
from game.board.board import MapError
from game.board.hexes import Hex
from game.engine.view import UnitView
from game.files.savegame import SaveError, write_atomic
from game.files.scenario_doc import Checked, EditError, ScenarioDoc
from game.files.scenario_edits import Edit
from game.ui.edit.checker import Checker
from game.ui.edit.sketch import board_of


@dataclass(frozen=True)
class Done:
    """One job's result: what to say, the document's errors now, and the map and units read
    from it again (``board`` None: the map on screen already is the document's)."""

    said: str
    checked: Checked | None
    units: tuple[UnitView, ...] | None = None
    board: Board | None = None
    changed: bool = True
    areas: dict[str, list[Hex]] | None = None
    """Each side's set-up area as the document gives it (None: its map cannot be read)."""


class DocWorker:
    """One thread doing the document's jobs in order; :meth:`results` hands back those done."""

    def __init__(self, doc: ScenarioDoc, draft: Path | None = None, target: Path | None = None):
        self.doc = doc
        self.draft = draft
        self.target = target
        """The file the document is saved to (None: a new scenario not saved yet), written
        beside the draft (``NAME.target``) for the start screen's Resume draft."""
        """Where a copy of unsaved work is kept after every change (None: nowhere)."""
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hexfire-edit")
        self._done: list[Done] = []
        self._lock = threading.Lock()
        self.doc_lock = threading.Lock()
        """Held while a job writes or reads the document: the window reads the forms' values
        under it (:meth:`reading`) instead of waiting for the jobs' checks."""
        self._pending: list[Future] = []
        self._queued = 0
        """Jobs given and not yet started (under ``_lock``)."""
        self._owed = False
        """A change's validation and draft left to the jobs queued behind it."""
        self.checker = Checker()
        """Validates the document in a process of its own."""

    def _run(self, job: Callable[[], Done], on_done: Callable[[], None] | None) -> None:
        def work() -> None:
            with self._lock:
                self._queued -= 1
            try:
                result = job()
            except (EditError, SaveError, MapError) as e:
                result = Done(f"not done: {e}", None, changed=False)
            with self._lock:
                last = self._queued == 0
            if last and self._owed and result.checked is None:
                result = self._checked(result)
            with self._lock:
                self._done.append(result)
            if on_done is not None:
                on_done()

        self._pending = [f for f in self._pending if not f.done()]
        with self._lock:
            self._queued += 1
        self._pending.append(self._pool.submit(work))

    @property
    def busy(self) -> bool:
        return any(not f.done() for f in self._pending)

    def wait(self, timeout: float = 60.0) -> bool:
        """Wait for every job given so far (tests, and Test play off the window's thread);
        False when there was none."""
        pending = [f for f in self._pending if not f.done()]
        for f in pending:
            f.result(timeout)
        return bool(pending)

    def results(self) -> list[Done]:
        with self._lock:
            done, self._done = self._done, []
        return done

    def _after(self, said: str, changed: bool, board: bool) -> Done:
        """The document changed: validate it (in the checker's process), read its units and
        areas there, keep the draft; ``board``: read its map again too (a resize, an undo)."""
        if not changed:
            return Done(said, None, changed=False)
        with self.doc_lock:
            new_board = board_of(self.doc) if board else None
        self._owed = True  # the last job queued validates and keeps the draft for them all
        with self._lock:
            later = self._queued > 0
        done = Done(said, None, None, new_board)
        return done if later else self._checked(done)

    def _checked(self, done: Done) -> Done:
        """``done`` with the document as it is now validated, its units and areas read, and
        its draft kept (none when it is the file as saved)."""
        self._owed = False
        with self.doc_lock:
            text, unsaved = self.doc.text, self.doc.text != self.doc.saved
        checked = self.checker.check(text, self.doc.name)
        said = done.said
        if self.draft is not None:
            try:
                self._keep_draft(text if unsaved else None)
            except (SaveError, OSError) as e:
                said += f" (the draft could not be kept: {e})"
        return replace(
            done,
            said=said,
            checked=Checked(checked.errors, None),
            units=checked.units,
            areas=checked.areas,
        )

    def _keep_draft(self, text: str | None) -> None:
        """The draft of unsaved work written (``text``), or removed (None: the file as saved)."""
        assert self.draft is not None
        if text is None:
            self.draft.unlink(missing_ok=True)
            self.draft.with_suffix(".target").unlink(missing_ok=True)
            return
        self.draft.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.draft, text)
        target = str(self.target) if self.target is not None else ""
        write_atomic(self.draft.with_suffix(".target"), target)

    # --- the jobs ---------------------------------------------------------------------------

    def apply(self, edit: Edit, repaints: bool, on_done: Callable[[], None] | None = None) -> None:
        """Make ``edit``; ``repaints``: its map change is not on screen yet (a resize)."""

        def job() -> Done:
            with self.doc_lock:
                self.doc.edit(edit)
            return self._after(edit.title, True, board=repaints)

        self._run(job, on_done)

    def undo(self, redo: bool = False, on_done: Callable[[], None] | None = None) -> None:
        def job() -> Done:
            with self.doc_lock:
                title = self.doc.redo_title if redo else self.doc.undo_title
                stepped = self.doc.step(redo)
            word = "redone" if redo else "undone"
            return self._after(
                f"{word}: {title}" if title else f"nothing to be {word}", stepped, True
            )

        self._run(job, on_done)

    def save(self, path: Path | None, on_done: Callable[[], None] | None = None) -> None:
        def job() -> Done:
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as e:
                    raise SaveError(
                        f"{path.parent}: cannot make the folder: {e.strerror}"
                    ) from None
            with self.doc_lock:
                target = self.doc.save(path)
            self.target = target
            if self.draft is not None:
                self._keep_draft(None)
            return Done(f"saved {target}", None, changed=False)

        self._run(job, on_done)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.checker.close()
