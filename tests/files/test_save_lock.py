"""The lock of a save being played (issue 44, item 2): two processes taking over one stale
lock at the same instant both got it in 18 of 40 rounds. The lock is the operating system's
now: one winner, always, however many try at once; a killed holder's lock goes with it."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from game.files.lock import SaveLocked, acquire_lock, lock_path, locked_by_another

PROCESSES = 8
ROUNDS = 100


def _dead_pid() -> int:
    """The id of a process that has ended (a stale lock names one)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _contender(saves: list[str], barrier, results) -> None:
    """In each round: wait for every contender, try the lock at once, wait again (the winner
    still holding it), report, let it go."""
    for i, save in enumerate(saves):
        try:
            barrier.wait(60)
        except threading.BrokenBarrierError:
            return
        try:
            lock = acquire_lock(Path(save))
            won = lock is not None
        except SaveLocked:
            lock, won = None, False
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(60)
        results.put((i, os.getpid(), won))
        if lock is not None:
            lock.release()


def test_many_processes_taking_over_one_stale_lock_at_once_one_wins(tmp_path):
    """PROCESSES processes, released together by a barrier, each try to take over a stale
    lock (it names a process that has ended), ROUNDS times: each round exactly one gets it."""
    dead = _dead_pid()
    saves = []
    for i in range(ROUNDS):
        save = tmp_path / f"game-{i}.json"
        save.write_text("{}")
        lock_path(save).write_text(f"{dead}\n")  # a window killed with SIGKILL left it
        saves.append(str(save))
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
    procs = [
        ctx.Process(target=_contender, args=(saves, barrier, results)) for _ in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    try:
        got = [results.get(timeout=180) for _ in range(PROCESSES * ROUNDS)]
    finally:
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()
    winners = [sum(won for r, _, won in got if r == i) for i in range(ROUNDS)]
    assert winners == [1] * ROUNDS, f"winners per round: {winners}"
    assert not any(lock_path(Path(s)).exists() for s in saves)  # the winners let go


HOLD = """
import sys, time
from pathlib import Path
from game.files.lock import acquire_lock
acquire_lock(Path(sys.argv[1]))
print("open", flush=True)
time.sleep(60)
"""


def test_a_killed_holders_lock_is_free_and_a_live_ones_is_refused(tmp_path):
    """A live holder's lock is refused with its process named; once it is killed (SIGKILL:
    it cleans nothing up) the lock is free at once, its file left behind or not."""
    save = tmp_path / "game.json"
    save.write_text("{}")
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(save)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "open"
        with pytest.raises(SaveLocked, match=f"open in another window \\(process {other.pid}\\)"):
            acquire_lock(save)
        assert locked_by_another(save) is not None
    finally:
        other.send_signal(signal.SIGKILL)
        other.wait()
    assert lock_path(save).exists()  # left behind by the killed window
    assert locked_by_another(save) is None
    lock = acquire_lock(save)
    assert lock is not None and lock_path(save).read_text() == f"{os.getpid()}\n"
    again = acquire_lock(save)  # this process reopens it (the same window): shared
    assert again is lock
    lock.release()
    assert lock_path(save).exists()  # one user left
    lock.release()
    assert not lock_path(save).exists()


def test_a_folder_where_no_lock_can_be_made_plays_unlocked(tmp_path):
    """A lock path that cannot be opened (here a folder in its place) leaves the game
    unlocked rather than unplayable."""
    save = tmp_path / "game.json"
    lock_path(save).mkdir()
    assert acquire_lock(save) is None
