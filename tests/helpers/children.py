"""The child processes still running (for the tests that a stopped run leaves no worker)."""

from __future__ import annotations

import multiprocessing
from multiprocessing.process import BaseProcess
from pathlib import Path


def live_children() -> list[BaseProcess]:
    """``multiprocessing.active_children()`` less those already gone: a process pool's own
    thread reaps its workers as the run's thread joins them, and a worker the other thread
    reaped can stay in multiprocessing's books (no return code) after its process is gone."""
    if not Path("/proc/self").exists():  # no way to look: the books as they are
        return multiprocessing.active_children()
    out = []
    for child in multiprocessing.active_children():
        try:
            stat = Path(f"/proc/{child.pid}/stat").read_text()
        except OSError:
            continue  # gone
        if stat.rsplit(")", 1)[1].split()[0] != "Z":  # a zombie is gone, not yet reaped
            out.append(child)
    return out
