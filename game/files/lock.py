"""The lock of a save being played: one window plays a save at a time. The lock is the
operating system's (an exclusive ``flock`` on ``.NAME.lock`` beside the save, held as long
as the game is open), so taking it is atomic (two windows opening one save at the same
instant: one gets it, always) and a killed window's lock goes with its process (nothing
stale to take over). The file holds the holder's process id, for the message only."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .savegame import SaveError

try:
    import fcntl
except ImportError:  # Windows: a byte-range lock, also dropped with its process
    fcntl = None  # type: ignore[assignment]
    import msvcrt

TRIES = 5
"""How many times the lock is tried when its file is being removed and made anew (its
holder closing the game) under us."""


class SaveLocked(SaveError):
    """The save is the game another window is playing (its lock names the process)."""

    def __init__(self, message: str, holder: str = "") -> None:
        super().__init__(message)
        self.holder = holder
        """Where the game is open: "another window (process 1234)", or "" when unknown."""


def lock_path(path: Path) -> Path:
    """The lock beside a save being played: ``.NAME.lock``."""
    return path.parent / f".{path.name}.lock"


@dataclass(eq=False)
class SaveLock:
    """A lock this process holds (:func:`acquire_lock`): the lock file, its descriptor, and
    how many of this process's sessions share it (a save reopened in the same window)."""

    path: Path
    fd: int
    users: int = 1

    def release(self) -> None:
        """One user fewer; the last one removes the lock file (while still holding it, so
        a process waiting on the old file sees it is gone) and lets the lock go."""
        self.users -= 1
        if self.users > 0:
            return
        _HELD.pop(_key(self.path), None)
        try:
            if fcntl is not None and os.path.samestat(os.fstat(self.fd), os.stat(self.path)):
                self.path.unlink()
        except OSError:
            pass
        os.close(self.fd)


_HELD: dict[str, SaveLock] = {}
"""The locks this process holds, by their file's absolute path."""


def _key(lock: Path) -> str:
    return os.path.abspath(lock)


def _try(fd: int) -> bool:
    """Take the lock on ``fd`` without waiting: False when another process holds it."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _holder(fd: int) -> str:
    """The process id the lock file names ("" when it names none yet)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):
        return ""
    return text if text.isdigit() else ""


def acquire_lock(path: Path) -> SaveLock | None:
    """Lock the save at ``path`` for this process: SaveLocked when another process holds it
    (the window offers a copy, the command line says so). None when no lock can be made
    there (a read-only folder, a file system without locks): the game is played unlocked."""
    lock = lock_path(path)
    held = _HELD.get(_key(lock))
    if held is not None:  # this process plays it already (reopened in the same window)
        held.users += 1
        return held
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(TRIES):
        try:
            fd = os.open(lock, flags, 0o644)
        except OSError:
            return None  # a folder where no lock can be made: play on, unlocked
        try:
            taken = _try(fd)
        except OSError:  # no locks on this file system
            os.close(fd)
            return None
        if not taken:
            pid = _holder(fd)
            os.close(fd)
            holder = f"another window (process {pid})" if pid else "another window"
            raise SaveLocked(
                f"{path}: this game is open in {holder}; load a copy of it instead", holder
            )
        try:  # its holder may have closed the game and removed the file meanwhile
            same = fcntl is None or os.path.samestat(os.fstat(fd), os.stat(lock))
        except OSError:
            same = False
        if not same:
            os.close(fd)
            continue
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        except OSError:
            pass  # a full disk: the lock holds all the same (the message names no process)
        held = _HELD[_key(lock)] = SaveLock(lock, fd)
        return held
    raise SaveLocked(f"{path}: cannot lock this game (its lock keeps changing)")


def locked_by_another(path: Path) -> SaveLocked | None:
    """Whether another process plays the save at ``path`` (the command line asks before it
    opens a window): its SaveLocked, or None. The lock is not kept."""
    if _HELD.get(_key(lock_path(path))) is not None:
        return None
    try:
        lock = acquire_lock(path)
    except SaveLocked as e:
        return e
    if lock is not None:
        lock.release()
    return None
