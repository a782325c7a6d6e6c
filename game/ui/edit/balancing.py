"""The editor's Balance: ``hexfire balance`` on the scenario as it stands, run on a thread of
its own (its games in worker processes, :func:`game.ai.balance.balance`) so the window keeps
drawing; its progress (games done, each side's wins) drawn as a bar under the map with a Stop
button, and its figures shown when it ends. Stop ends every worker at once."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

import pygame
import pygame_gui

from game.ai.balance import Cancelled, Progress, balance
from game.engine.setup import Setup
from game.ui.map.render import FONTS
from game.ui.style import style

MAX_GAMES = 1000
"""The most games one Balance press plays (``hexfire balance`` plays more)."""


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
