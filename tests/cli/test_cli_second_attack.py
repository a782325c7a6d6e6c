"""The command line under the window's second attack (issue 44): a save named on the command
line that another window plays, and the computer-against-itself commands' workers."""

from __future__ import annotations

import os
import subprocess
import sys

from game.files.lock import acquire_lock
from game.files.scenario import load_scenario
from game.files.session import new_game
from game.files.shipped import scenarios_dir


def _env(tmp_path) -> dict[str, str]:
    return {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "disk",
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PYTHONPATH": os.pathsep.join(sys.path),
    }


# --- 4. hexfire play SAVE for a game open in another window ---------------------------------


def test_play_of_a_save_open_in_another_window_says_so_in_one_line(tmp_path):
    """``hexfire play SAVE.json`` for a game another window plays opened a window that closed
    at once, exit 0, no word. It says so in one line (the window holding it, and how to play
    a copy) and exits 2, before any window opens; the other window's file is untouched."""
    path = tmp_path / "duel.json"
    new_game(load_scenario(scenarios_dir() / "tutorial-duel.toml"), 1, path).close()
    before = path.read_bytes()
    lock = acquire_lock(path)  # this process is the other window
    assert lock is not None
    try:
        r = subprocess.run(
            [sys.executable, "-m", "game", "play", str(path)],
            capture_output=True,
            text=True,
            env=_env(tmp_path),
            timeout=120,
        )
    finally:
        lock.release()
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert f"open in another window (process {os.getpid()})" in lines[0]
    assert "Load on the start screen" in lines[0]
    assert path.read_bytes() == before
