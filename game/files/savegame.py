"""The saved-game format (JSON): the scenario (embedded, with its SHA-256), the seed and the
action list, each action with a check (the dice drawn so far and the state hash after it).
Replaying a save is :mod:`.replay`; playing with an autosave and resuming is :mod:`.session`.

Writing is atomic: a temporary file in the same folder, flushed and synced, then renamed over
the save, so a crash loses at most the action in flight and never the file. Loading refuses, with
a clear message, a file that is not a save, a newer format version, a scenario whose hash does
not match, and a truncated or edited file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from game import __version__
from game.engine import Game
from game.engine.actions import Action, ActionError, action_from_json

from .scenario import Scenario, ScenarioError, parse_scenario

FORMAT = "hexfire-save"
VERSION = 2
"""2: the set-up has two phases, the scenario defender's then the other side's (HX-12). A
format 1 save (one set-up phase) still loads: :func:`.replay.replay` migrates it."""


class SaveError(ValueError):
    """A saved game that cannot be loaded; the message says where and why."""


@dataclass
class SavedGame:
    """A save in memory: scenario text, seed, and actions with their checks."""

    scenario_name: str
    scenario_text: str
    seed: int
    actions: list[dict] = field(default_factory=list)
    """Each: {"action": <the action's JSON form>, "draws": int, "hash": str}."""
    game_version: str = __version__
    format_version: int = VERSION
    """The format the file was written in (1: migrated on replay, see :mod:`.replay`)."""

    @property
    def scenario_sha256(self) -> str:
        return hashlib.sha256(self.scenario_text.encode("utf-8")).hexdigest()

    def scenario(self) -> Scenario:
        return parse_scenario(self.scenario_text, self.scenario_name)

    def record(self, action: Action, game: Game) -> None:
        self.actions.append(
            {"action": action.to_json(), "draws": game.dice.draws, "hash": game.state_hash()}
        )

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game_version": self.game_version,
            "scenario": {
                "name": self.scenario_name,
                "sha256": self.scenario_sha256,
                "text": self.scenario_text,
            },
            "seed": self.seed,
            "actions": self.actions,
        }

    @classmethod
    def new(cls, scenario: Scenario, seed: int) -> SavedGame:
        return cls(Path(scenario.path).name, scenario.text, seed)


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half a file)."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save(saved: SavedGame, path: str | Path) -> None:
    """Write the save (stable key order, one action a line for a person to read)."""
    d = saved.to_json()
    actions = d.pop("actions")
    head = json.dumps(d, indent=2, ensure_ascii=False)
    lines = ",\n".join("    " + json.dumps(a, sort_keys=True, ensure_ascii=False) for a in actions)
    body = head[:-2] + ',\n  "actions": [\n' + lines + ("\n  ]\n}\n" if actions else "  ]\n}\n")
    write_atomic(path, body)


def parse_save(text: str, name: str = "<save>") -> SavedGame:
    """Check a save's JSON text; SaveError says what is wrong."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(
            f"{name}: not a hexfire save (not valid JSON, line {e.lineno}: {e.msg}; truncated?)"
        ) from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise SaveError(f'{name}: not a hexfire save (no "format": "{FORMAT}")')
    v = d.get("version")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise SaveError(f"{name}: version: expected an integer")
    if v > VERSION:
        raise SaveError(
            f"{name}: saved by a newer hexfire (save format {v}; this one reads up to {VERSION})"
        )
    sc = d.get("scenario")
    if not isinstance(sc, dict) or not all(
        isinstance(sc.get(k), str) for k in ("name", "sha256", "text")
    ):
        raise SaveError(f"{name}: scenario: expected name, sha256 and text")
    digest = hashlib.sha256(sc["text"].encode("utf-8")).hexdigest()
    if digest != sc["sha256"]:
        raise SaveError(
            f"{name}: scenario: the embedded scenario does not match its SHA-256 (edited?)"
        )
    seed = d.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SaveError(f"{name}: seed: expected an integer")
    actions = d.get("actions")
    if not isinstance(actions, list):
        raise SaveError(f"{name}: actions: expected a list")
    for i, a in enumerate(actions):
        if not isinstance(a, dict) or set(a) != {"action", "draws", "hash"}:
            raise SaveError(f"{name}: actions[{i}]: expected action, draws and hash")
        try:
            action_from_json(a["action"])
        except ActionError as e:
            raise SaveError(f"{name}: actions[{i}]: {e}") from None
    return SavedGame(sc["name"], sc["text"], seed, actions, str(d.get("game_version", "?")), v)


def read_save(path: str | Path) -> SavedGame:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise SaveError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{p}: not a hexfire save (not UTF-8 text)") from None
    return parse_save(text, str(p))


__all__ = [
    "SaveError",
    "SavedGame",
    "ScenarioError",
    "parse_save",
    "read_save",
    "save",
    "write_atomic",
]
