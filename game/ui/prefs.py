"""Where hexfire keeps a player's things: the saves folder (the platform's user data folder:
XDG on Linux, Application Support on macOS, AppData on Windows; ``--save-dir`` overrides) and
the preferences (``prefs.json`` beside it, written atomically)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs

from game.files.savegame import write_atomic


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir("hexfire", appauthor=False))


def saves_dir(override: str | Path | None = None) -> Path:
    d = Path(override) if override else data_dir() / "saves"
    d.mkdir(parents=True, exist_ok=True)
    return d


def newest_save(folder: Path) -> Path | None:
    """The most recently written save in ``folder`` (what "Resume" offers)."""
    saves = [p for p in folder.glob("*.json") if p.is_file()]
    return max(saves, key=lambda p: p.stat().st_mtime) if saves else None


def autosave_path(folder: Path, scenario_id: str) -> Path:
    """A new autosave's file: the scenario and the time it began."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{scenario_id}-{stamp}.json"
    n = 2
    while path.exists():
        path = folder / f"{scenario_id}-{stamp}-{n}.json"
        n += 1
    return path


@dataclass
class Prefs:
    strict_hotseat: bool = False
    """Show the handover screen before every Defensive First Fire prompt too, so the moving
    player never sees the defender's concealed units."""
    show_labels: bool = True

    @classmethod
    def load(cls, folder: Path | None = None) -> Prefs:
        path = (folder or data_dir()) / "prefs.json"
        try:
            raw = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(raw, dict):
            return cls()
        return cls(
            strict_hotseat=raw.get("strict_hotseat") is True,
            show_labels=raw.get("show_labels", True) is not False,
        )

    def save(self, folder: Path | None = None) -> None:
        d = folder or data_dir()
        d.mkdir(parents=True, exist_ok=True)
        write_atomic(d / "prefs.json", json.dumps(asdict(self), indent=2) + "\n")
