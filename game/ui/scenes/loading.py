"""The screen shown while a file opens: the work (building a game, replaying a save) runs on a
worker thread, and the window draws its progress and keeps answering (it showed an 11 s black
window for a 200,000-action save, and froze 21 s on "Replay a save..."). Closing the window
meanwhile closes it at once."""

from __future__ import annotations

import threading

import pygame

from game.files.savegame import SaveError
from game.files.scenario import ScenarioError
from game.ui.map.render import FONTS
from game.ui.scenes.opening import error_dialog
from game.ui.scenes.routes import Cancelled, Opening, Pop, Progress, Replace, Start
from game.ui.scenes.stack import Scene
from game.ui.style import style


class LoadingScene(Scene):
    """The progress of one :class:`.routes.Opening`, then its transition (or its error)."""

    def __init__(self, opening: Opening) -> None:
        self.opening = opening
        self.progress = Progress("Opening")
        self.result: object = None
        self.error: Exception | None = None
        self.finished = threading.Event()
        self.worker: threading.Thread | None = None
        self.taken = False
        """Its result (or error) taken on the window's thread, which pops it first."""
        self._handover = threading.Lock()
        """Either the work's result is kept (for the window to take) or the screen has closed
        and what the work made is let go: never both, never neither."""

    def enter(self) -> None:
        if self.worker is None:
            self.worker = threading.Thread(target=self._run, name="hexfire-open", daemon=True)
            self.worker.start()

    def _run(self) -> None:
        try:
            result = self.opening.work(self.progress)
            with self._handover:
                kept = not self.progress.cancelled
                if kept:
                    self.result = result
            if not kept:  # (a closed screen's result is let go)
                self._drop()
        except Cancelled:
            self._drop()
        except (ScenarioError, SaveError, OSError, ValueError) as e:
            self.error = e
        finally:
            self.finished.set()

    def closed(self) -> None:
        """Taken off before its work was taken (the input went to another screen, the window
        to another game): the work stops at its next step and what it made is let go. A
        200 x 200 game built for a screen that had closed held some 300 MiB to its end, on a
        thread nothing waited for (issue 44, item 7)."""
        if not self.taken:
            with self._handover:
                self.progress.cancel()
                made, self.result = self.result, None
            if made is not None:  # done before it closed: its game is let go here
                self._drop()

    def _drop(self) -> None:
        """What the work made is let go (:attr:`.Opening.dropped`)."""
        if self.opening.dropped is not None:
            self.opening.dropped()

    def wait_done(self, timeout: float = 120.0) -> bool:
        """Tests (:meth:`App.pump`): wait for the work to finish."""
        self.finished.wait(timeout)
        return True

    def animating(self) -> bool:
        return True  # the progress moves with no input

    def frame_rate(self) -> int:
        """15 frames a second: enough for a progress bar, and each frame is time the worker
        does not have (one interpreter lock): at 60 the 200,000-action save took 8.2 s to
        replay behind the bar against 6 s with no window."""
        return 15

    def update(self, dt: float) -> None:
        if not self.finished.is_set():
            return
        app = self.app
        below = len(app.scenes) > 1
        self.taken = True
        app.pop()
        if self.error is not None:
            if self.opening.failed is not None:
                self.opening.failed(self.error)
            else:
                if not below:  # opened from the command line: the start screen, and why
                    app.go(Replace(Start()))
                error_dialog(app, self.error, "Cannot open this file")
            return
        if callable(self.result):  # work to finish on the window's thread (a lock, a scene)
            self.result()
        else:
            app.go(self.result if self.result is not None else Pop())  # type: ignore[arg-type]

    def draw(self, surface: pygame.Surface) -> None:
        st = style()
        surface.fill((18, 20, 24))
        w, h = surface.get_size()
        t = FONTS.text(self.opening.title, 34, st.ui["select"], bold=True)
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 - 60)))
        p = self.progress
        what = p.stage + (f": {p.done:,} of {p.total:,}" if p.total else "...")
        t = FONTS.text(what, 22, st.ui["text"])
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 - 10)))
        bar = pygame.Rect(w // 2 - 260, h // 2 + 20, 520, 18)
        pygame.draw.rect(surface, (55, 60, 66), bar, border_radius=4)
        if p.total:
            done = bar.copy()
            done.width = int(bar.width * min(1.0, p.done / p.total))
            pygame.draw.rect(surface, st.ui["select"], done, border_radius=4)
        t = FONTS.text("Closing the window stops it; nothing is lost.", 18, st.ui["dim"])
        surface.blit(t, t.get_rect(center=(w // 2, h // 2 + 62)))
