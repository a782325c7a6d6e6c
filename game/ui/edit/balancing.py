"""The editor's Balance: ``hexfire balance`` on the scenario as it stands, run on a thread of
its own (its games in worker processes, :func:`game.ai.balance.balance`) so the window keeps
drawing; its progress (games done, each side's wins) drawn as a bar under the map with a Stop
button, and its figures shown when it ends. Stop ends every worker at once."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

import pygame
import pygame_gui

from game.ai.balance import Cancelled, Progress, balance
from game.engine.setup import Setup
from game.files.scenario_doc import ScenarioDoc
from game.ui.edit.panel import PANEL_WIDTH, EditPanel
from game.ui.edit.worker import DocWorker
from game.ui.map.render import FONTS
from game.ui.style import style

MAX_GAMES = 1000
"""The most games one Balance press plays (``hexfire balance`` plays more)."""
STATUS_HEIGHT = 28
"""The status bar's height under the map (the editor screen's)."""


class Editor(Protocol):
    """What the Balance reads and sets of the editor screen."""

    app: Any
    panel: EditPanel
    doc: ScenarioDoc
    worker: DocWorker | None
    said: str

    def _wake(self) -> None: ...


class Balancer:
    """The Balance button's work on one editor screen: the run going on (:attr:`run`), its
    Stop button, the last run's figures (:attr:`last`, :attr:`result_box`)."""

    def __init__(self, editor: Editor):
        self.editor = editor
        self.run: BalanceRun | None = None
        """The run going on (None: none)."""
        self.last: BalanceRun | None = None
        """The last run that ended (its figures shown)."""
        self.stop_button: Any = None
        self.result_box: Any = None

    def start(self) -> None:
        """Balance: the computer against itself on the scenario as it stands, off the window's
        thread (a progress bar and a Stop button under the map), the figures shown at the end."""
        editor, panel = self.editor, self.editor.panel
        if self.run is not None:
            editor.said = "Balance is running: Stop it first"
            return
        games, level = panel.text("balance_games"), panel.text("balance_level")
        if not games.isdigit() or not 1 <= int(games) <= MAX_GAMES:
            editor.said = f"Balance: the games, a whole number 1-{MAX_GAMES}"
            return
        if level not in ("0", "1", "2", "3"):
            editor.said = "Balance: the computer's level, 0-3"
            return
        panel.balance_games, panel.balance_level = games, level
        assert editor.worker is not None
        editor.worker.wait()
        scenario = editor.doc.check().scenario
        if scenario is None:
            editor.said = "Balance: fix the errors listed first (it must validate to play)"
            return
        self.run = BalanceRun(scenario.setup, int(games), int(level), editor._wake)
        editor.said = self.run.said()
        self.place_stop()

    def place_stop(self) -> None:
        """The Stop button at the right of the status bar, while a run goes on."""
        self.kill_stop()
        if self.run is not None:
            w, h = self.editor.app.size
            rect = pygame.Rect(w - PANEL_WIDTH - 84, h - STATUS_HEIGHT + 2, 80, STATUS_HEIGHT - 4)
            self.stop_button = pygame_gui.elements.UIButton(rect, "Stop", self.editor.app.ui)

    def kill_stop(self) -> None:
        if self.stop_button is not None:
            self.stop_button.kill()
            self.stop_button = None

    def pressed(self, element: object) -> bool:
        """Stop pressed: the run told to stop (its workers ended); False: another button."""
        if element is not self.stop_button or self.run is None:
            return False
        self.run.stop.set()
        self.editor.said = "Balance: stopping (its workers ended)..."
        return True

    def update(self) -> None:
        """The run over: its figures in a window (a stopped one: where it stood)."""
        run = self.run
        if run is None or run.running:
            return
        self.run, self.last = None, run
        self.editor.said = run.said()
        self.kill_stop()
        if run.result is not None:
            self.result_box = result_window(self.editor.app.ui, self.editor.app.size, run)

    def draw(self, surface: pygame.Surface, bar: pygame.Rect) -> None:
        """The run's progress over the status bar ``bar``, Stop beside it."""
        if self.run is not None:
            inner = pygame.Rect(bar.left + 4, bar.top + 3, bar.w - 96, bar.h - 6)
            draw_progress(surface, inner, self.run)

    def close(self) -> None:
        """The editor closes: a run going on stopped, its workers ended."""
        if self.run is not None:
            self.run.end()
            self.run = None
        self.kill_stop()


class BalanceRun:
    """One run: started at once; :attr:`progress` as the games end; :attr:`result` (the
    figures), :attr:`stopped` (where it stood) or :attr:`error` when it is over."""

    def __init__(self, setup: Setup, games: int, level: int, on_change: Callable[[], None]) -> None:
        self.setup, self.games, self.level = setup, games, level
        self.stop = threading.Event()
        self.progress = Progress(0, games, tuple((s, 0) for s in setup.sides), 0)
        self.result: dict | None = None
        self.stopped: Progress | None = None
        self.error: str | None = None
        self._on_change = on_change
        self.workers = max(1, min(games, os.cpu_count() or 1))
        self.thread = threading.Thread(target=self._run, name="hexfire-balance", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.result = balance(
                self.setup, self.games, self.level, self.workers, self._progress, self.stop
            )
        except Cancelled as e:
            self.stopped = e.progress
        except (BrokenProcessPool, OSError) as e:
            self.error = f"the balance run failed: {e or 'a worker process died'}"
        finally:
            self._on_change()

    def _progress(self, progress: Progress) -> None:
        self.progress = progress
        self._on_change()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def end(self, timeout: float = 30.0) -> None:
        """Stop it (its workers ended) and wait for its thread."""
        self.stop.set()
        self.thread.join(timeout)

    def said(self) -> str:
        """What the status line says of it now."""
        p = self.progress
        tally = ", ".join(f"{side} {n}" for side, n in p.wins)
        if self.error is not None:
            return self.error
        if self.stopped is not None:
            return f"Balance stopped after {self.stopped.done} of {self.games} games ({tally})"
        if self.result is not None:
            return f"Balance: {self.games} games at level {self.level}: {tally}"
        return f"Balance: {p.done} of {p.total} games, level {self.level} ({tally})"

    def report(self) -> str:
        """The figures, for the result window (HTML lines, as pygame-gui's text box reads)."""
        r = self.result or {}
        lines = [f"<b>{self.games} games</b>, the computer (level {self.level}) against itself"]
        for side, f in r.get("sides", {}).items():
            lo, hi = f["ci95"]
            lines.append(
                f"<b>{side}</b> wins {f['win_rate']:.0%} (95% interval {lo:.0%}-{hi:.0%}), "
                f"AFVs lost per game {f['afvs_lost_mean']:g}"
            )
        lines.append(f"the game ended on turn {r.get('mean_end_turn', '?')} on average")
        for reason, n in r.get("decided_by", {}).items():
            lines.append(f"{n} x {_escape(str(reason))}")
        return "<br>".join(lines)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw_progress(surface: pygame.Surface, bar: pygame.Rect, run: BalanceRun) -> None:
    """The run's progress across the status bar ``bar``: the games done filled in, the
    tally written over it."""
    st = style()
    p = run.progress
    pygame.draw.rect(surface, st.ui["background"], bar, border_radius=4)
    done = bar.copy()
    done.width = bar.width * p.done // max(1, p.total)
    pygame.draw.rect(surface, st.ui["good"], done, border_radius=4)
    pygame.draw.rect(surface, st.ui["dim"], bar, 1, border_radius=4)
    text = FONTS.text(run.said(), 14, st.ui["text"], True)
    surface.blit(text, text.get_rect(midleft=(bar.left + 8, bar.centery)))


def result_window(ui: pygame_gui.UIManager, size: tuple[int, int], run: BalanceRun) -> object:
    """The figures of a run that ended, in a window of their own (closed with its button)."""
    w, h = size
    rect = pygame.Rect(w // 2 - 240, max(20, h // 2 - 160), 480, 320)
    return pygame_gui.windows.UIMessageWindow(rect, run.report(), ui, window_title="Balance")
