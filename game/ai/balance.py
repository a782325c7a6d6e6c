"""The balance run: self-play games of a scenario in parallel worker processes (``hexfire
balance``, ``hexfire bench ai``, the editor's Balance button), each game's result reported as
it ends (:class:`Progress`: games done of the total, the running tally of wins) to a callback,
and the run stoppable from another thread (a :class:`threading.Event`): the workers are ended
at once, none left running."""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass

from game.engine.setup import Setup

from .selfplay import play_game, wilson

PARENT_CHECK_S = 0.5
"""How often a worker checks that the process that started it still lives."""
POLL_S = 0.1
"""How often the run looks at its stop event while no game ends."""

Job = tuple[int, dict[str, int | str]]
"""One game: its seed and each side's computer level (0: random play) or "careful:PLAN"."""


@dataclass(frozen=True)
class Progress:
    """The run so far: ``done`` games of ``total``; ``wins`` each side's (in the scenario's
    order of sides), ``undecided`` the games no side won."""

    done: int
    total: int
    wins: tuple[tuple[str, int], ...]
    undecided: int


class Cancelled(Exception):
    """The run was stopped through its event: ``progress`` is where it stood."""

    def __init__(self, progress: Progress):
        super().__init__(f"stopped after {progress.done} of {progress.total} games")
        self.progress = progress


_SETUP: Setup | None = None
"""In a worker: the scenario its games start from (sent once, at the worker's start)."""


def _worker_start(parent: int, setup: Setup) -> None:
    """In each worker: keep the set-up; Ctrl+C is the parent's to handle (it stops the
    workers), SIGTERM ends the worker quietly, and a watch thread ends it when the process
    that started it is gone (killed with SIGKILL: no one else would)."""
    global _SETUP
    _SETUP = setup
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_S)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _one(job: Job) -> dict:
    """One self-play game in a worker: its result as plain values."""
    assert _SETUP is not None, "a worker starts with its set-up"
    seed, levels = job
    _, r = play_game(_SETUP, seed, levels)
    return {
        "seed": r.seed,
        "winner": r.winner,
        "turn": r.turn,
        "reason": r.reason,
        "afvs_lost": r.afvs_lost,
        "actions": len(r.actions),
    }


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End every worker now (the games they play are dropped) and wait for them."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.terminate()
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(5)
            if proc.is_alive():
                proc.kill()
                proc.join(5)


def play_games(
    setup: Setup,
    jobs: Sequence[Job],
    workers: int,
    progress: Callable[[Progress], None] | None = None,
    stop: threading.Event | None = None,
) -> list[dict]:
    """Every game of ``jobs`` on ``workers`` processes, the results in the jobs' order;
    ``progress`` called (on this thread) after each game; :class:`Cancelled` once ``stop``
    is set. Any exception here (Ctrl+C, a worker that died: BrokenProcessPool) ends every
    worker before it goes on."""
    results: list[dict | None] = [None] * len(jobs)
    wins = dict.fromkeys(setup.sides, 0)
    done = 0

    def now() -> Progress:
        undecided = done - sum(wins.values())
        return Progress(done, len(jobs), tuple(wins.items()), undecided)

    pool = ProcessPoolExecutor(
        max_workers=max(1, min(workers, len(jobs))),
        initializer=_worker_start,
        initargs=(os.getpid(), setup),
    )
    try:
        pending: dict[Future, int] = {pool.submit(_one, job): k for k, job in enumerate(jobs)}
        while pending:
            if stop is not None and stop.is_set():
                raise Cancelled(now())
            finished, _ = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in finished:
                r = future.result()
                results[pending.pop(future)] = r
                done += 1
                if r["winner"] in wins:
                    wins[r["winner"]] += 1
                if progress is not None:
                    progress(now())
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown()
    return [r for r in results if r is not None]


def balance(
    setup: Setup,
    games: int,
    level: int,
    workers: int,
    progress: Callable[[Progress], None] | None = None,
    stop: threading.Event | None = None,
) -> dict:
    """``games`` games of the computer at ``level`` against itself (seeds 1..games): each
    side's win rate with its 95% interval, the AFVs lost, the mean end turn, what decided
    them. ``progress`` and ``stop`` as :func:`play_games`."""
    levels: dict[str, int | str] = {s: level for s in setup.sides}
    jobs = [(1 + n, levels) for n in range(games)]
    return figures(setup, games, level, play_games(setup, jobs, workers, progress, stop))


def figures(setup: Setup, games: int, level: int, results: Sequence[dict]) -> dict:
    """The figures of a balance run's ``results`` (:func:`balance`)."""
    out: dict = {"games": games, "level": level, "sides": {}}
    for side in setup.sides:
        wins = sum(r["winner"] == side for r in results)
        lo, hi = wilson(wins, games)
        out["sides"][side] = {
            "win_rate": round(wins / games, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "afvs_lost_mean": round(statistics.mean(r["afvs_lost"][side] for r in results), 2),
        }
    out["mean_end_turn"] = round(statistics.mean(r["turn"] for r in results), 2)
    out["decided_by"] = dict(Counter(r["reason"] for r in results).most_common())
    return out
