"""Where hexfire keeps a player's things: the saves folder (the platform's user data folder:
XDG on Linux, Application Support on macOS, AppData on Windows; ``--save-dir`` overrides) and
the preferences (``prefs.json`` beside it, written atomically)."""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import platformdirs

from game.files.savegame import SaveError, write_atomic
from game.files.text import printable, read_regular

MAX_PREFS_BYTES = 64 * 1024
"""The largest preferences file read (a real one is a few lines)."""
MAX_STEM = 100
"""The most of a scenario's file name an autosave's name keeps (file names stop at 255)."""
MAX_VIEWS = 20
"""The games whose map view (zoom, centre, selection) is kept for their Resume."""
MAX_CENTER = 100_000
"""The largest view centre coordinate read (world units: a hex's radius is 1, a 200 x 200 map
is some 300 across); a larger one is a damaged file (1e308 crashed every Resume)."""


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir("hexfire", appauthor=False))


def saves_dir(override: str | Path | None = None) -> Path:
    """The saves folder, made if need be; SaveError with the one-line reason when it cannot be
    used (a file in its place, a read-only parent)."""
    d = Path(override) if override else data_dir() / "saves"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveError(f"{d}: cannot use it as the saves folder: {e.strerror or e}") from None
    if not d.is_dir():
        raise SaveError(f"{d}: cannot use it as the saves folder: not a folder")
    return d


def scenarios_dir(override: str | Path | None = None) -> Path:
    """Where the editor offers to keep the player's scenarios: the data folder's
    ``scenarios`` beside its saves, or, with a saves folder of the player's own
    (``--save-dir DIR``), ``DIR/scenarios``: nothing written outside the folder chosen (a
    trial's Save as made ``/tmp/scenarios`` for ``--save-dir /tmp/trial-saves``). Not made here."""
    return Path(override) / "scenarios" if override else data_dir() / "scenarios"


def newest_save(folder: Path) -> Path | None:
    """The most recently written save in ``folder`` (what "Resume" offers); a name reserved
    by a window whose game is not written yet (an empty file) is not one."""
    saves = [p for p in folder.glob("*.json") if p.is_file() and p.stat().st_size > 0]
    return max(saves, key=lambda p: p.stat().st_mtime) if saves else None


def newest_draft(folder: Path) -> tuple[Path, Path | None] | None:
    """The scenario editor's most recent draft of unsaved work in ``folder``'s ``drafts``
    (what the start screen's "Resume draft" offers) and the file it is a draft of (None: a
    new scenario), from the ``.target`` file beside it."""
    drafts = [p for p in (folder / "drafts").glob("*.toml") if p.is_file()]
    if not drafts:
        return None
    draft = max(drafts, key=lambda p: p.stat().st_mtime)
    try:
        target = draft.with_suffix(".target").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        target = ""
    return draft, Path(target) if target else None


def autosave_path(folder: Path, scenario_id: str) -> Path:
    """A new autosave's file: the scenario and the time it began, reserved at once (created
    empty, exclusively), so two windows started together never share one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    scenario_id = scenario_id[:MAX_STEM]  # a 225-character file name left no room for the rest
    for n in range(1, 10_000):
        path = folder / (
            f"{scenario_id}-{stamp}.json" if n == 1 else f"{scenario_id}-{stamp}-{n}.json"
        )
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        except OSError as e:
            raise SaveError(f"{path}: cannot save here: {e.strerror or e}") from None
        return path
    raise SaveError(f"{folder}: no free autosave name for {scenario_id} at {stamp}")


MAX_LESSONS = 100
"""The most lessons whose progress is kept."""


@dataclass
class Prefs:
    strict_hotseat: bool = False
    """Show the handover screen before every Defensive First Fire prompt too, so the moving
    player never sees the defender's concealed units."""
    show_labels: bool = True
    confirm_end_phase: bool = True
    """Ask before ending a phase while own units could still act (each time)."""
    auto_pass: bool = True
    """HX-15: a phase where the side to act can do nothing but end it passes by itself."""
    computer_level: int = 2
    """The computer's level last chosen on the start screen (0-3), offered again."""
    lessons: dict[str, int] = field(default_factory=dict)
    """Per lesson (its scenario id), the furthest step reached: all its steps, done."""
    views: dict[str, dict] = field(default_factory=dict)
    """Per save file (its absolute path), the map view its window last showed: ``zoom``,
    ``center`` (the world point in the middle of the map), ``viewer`` and ``selected``; a
    Resume opens there. The newest :data:`MAX_VIEWS` are kept."""

    def remember(self, save: Path, view: dict) -> None:
        """Keep ``view`` for ``save`` (the newest last; the oldest dropped past the limit)."""
        key = str(save.resolve())
        self.views.pop(key, None)
        self.views[key] = view
        while len(self.views) > MAX_VIEWS:
            del self.views[next(iter(self.views))]

    def view_of(self, save: Path) -> dict | None:
        return self.views.get(str(save.resolve()))

    @classmethod
    def load(cls, folder: Path | None = None) -> Prefs:
        """The preferences; anything wrong with the file (missing, not a regular file, larger
        than 64 KiB, not JSON, nested too deeply, not an object) means the defaults, with one
        line on stderr saying so (a missing file says nothing)."""
        path = (folder or data_dir()) / "prefs.json"
        try:
            data = read_regular(path, MAX_PREFS_BYTES)
            if len(data) > MAX_PREFS_BYTES:
                raise ValueError(f"larger than {MAX_PREFS_BYTES // 1024} KiB")
            raw = json.loads(data.decode("utf-8"))
            if not isinstance(raw, dict):
                raise ValueError("not a JSON object")
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError, RecursionError) as e:
            why = "nested too deeply" if isinstance(e, RecursionError) else str(e)[:120]
            print(
                printable(f"hexfire: {path}: ignored ({why}); the default preferences"),
                file=sys.stderr,
            )
            return cls()
        return cls(
            strict_hotseat=raw.get("strict_hotseat") is True,
            show_labels=raw.get("show_labels", True) is not False,
            confirm_end_phase=raw.get("confirm_end_phase", True) is not False,
            auto_pass=raw.get("auto_pass", True) is not False,
            computer_level=_level(raw.get("computer_level")),
            views=_views(raw.get("views")),
            lessons=_lessons(raw.get("lessons")),
        )

    def save(self, folder: Path | None = None) -> None:
        """Write the preferences (atomically). Whatever stops it (a full disk, a read-only
        data folder, a file where the folder should be) raises SaveError, one line: a caller
        catches that one type, reports it and plays on (:meth:`try_save`)."""
        d = folder or data_dir()
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SaveError(f"{d}: cannot save the preferences: {e.strerror or e}") from None
        write_atomic(d / "prefs.json", json.dumps(asdict(self), indent=2) + "\n")

    def try_save(self, folder: Path | None = None) -> str | None:
        """:meth:`save`; None when written, else the one-line reason (the window says it and
        goes on: this session keeps the preferences in memory)."""
        try:
            self.save(folder)
        except SaveError as e:
            return printable(str(e))
        return None


def _level(raw: object) -> int:
    """A computer level kept (0-3), else the default 2."""
    return raw if type(raw) is int and 0 <= raw <= 3 else 2


def _lessons(raw: object) -> dict[str, int]:
    """The lessons' progress that is well formed (anything else is dropped)."""
    if not isinstance(raw, dict):
        return {}
    return {
        k: v
        for k, v in list(raw.items())[:MAX_LESSONS]
        if isinstance(k, str) and len(k) <= 64 and type(v) is int and 0 <= v <= 1000
    }


def _views(raw: object) -> dict[str, dict]:
    """The remembered map views that are well formed (anything else is dropped)."""
    if not isinstance(raw, dict):
        return {}
    out: dict[str, dict] = {}
    for key, v in list(raw.items())[-MAX_VIEWS:]:
        if not (isinstance(key, str) and len(key) < 4096 and isinstance(v, dict)):
            continue
        zoom, center = v.get("zoom"), v.get("center")
        if type(zoom) is not int or not 5 <= zoom <= 200:
            continue
        if not (isinstance(center, list) and len(center) == 2):
            continue
        if not all(type(c) in (int, float) and -MAX_CENTER <= c <= MAX_CENTER for c in center):
            continue  # not a number, not finite (NaN fails both), or far off any map (1e308)
        names = [v.get("viewer"), v.get("selected")]
        if not all(n is None or (isinstance(n, str) and len(n) <= 64) for n in names):
            continue
        out[key] = {"zoom": zoom, "center": center, "viewer": names[0], "selected": names[1]}
    return out
