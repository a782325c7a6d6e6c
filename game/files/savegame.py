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
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from game import __version__
from game.engine import Game
from game.engine.actions import Action, ActionError, action_from_json
from game.engine.rules_version import RULES_VERSION
from game.engine.schema import problems
from game.rules.dice import SEEDS

from .collector import collector_paused
from .computer_record import ComputerRecord
from .scenario import Scenario, ScenarioError, parse_scenario
from .text import read_regular

FORMAT = "hexfire-save"
MAX_ACTIONS = 200_000
VERSION = 4
"""2: the set-up has two phases, the scenario defender's then the other side's (HX-12).
3: the state hash binds the dice drawn (the seed and every face), so an edited seed does not
verify. 4: the save says which rules version it was recorded under (``rules_version``; formats
1-3 are rules version 1). Older saves still load: :func:`.replay.migrate` brings them to this
format and to today's rules, as far as their actions stay legal."""


class SaveError(ValueError):
    """A saved game that cannot be loaded; the message says where and why. ``unreadable``:
    not a save this hexfire can read (exit 2), as opposed to one that does not verify (1)."""

    unreadable = False


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
    rules_version: int = RULES_VERSION
    """The rules version its checks were recorded under (:mod:`game.engine.rules_version`);
    an earlier one is replayed under today's rules (:func:`.replay.migrate`)."""
    computer: dict | None = None
    """The side the computer plays and its level (``{"side": ..., "level": ...}``), or None:
    two players at one screen. Its choices are seeded from the game's seed (docs/ai.md)."""
    commitment: dict | None = None
    """A server's game: the seed's commitment revealed (``{"scheme", "sha256", "salt"}``,
    :mod:`.honest`), checked by ``hexfire replay --verify``."""
    chain: str | None = None
    """A server's game: the head of its hash chain from the scenario's SHA-256 (:mod:`.honest`)."""

    @property
    def current(self) -> bool:
        """Its format and rules are today's: its checks can be verified as they are."""
        return self.format_version == VERSION and self.rules_version == RULES_VERSION

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
            "rules_version": self.rules_version,
            "scenario": {
                "name": self.scenario_name,
                "sha256": self.scenario_sha256,
                "text": self.scenario_text,
            },
            "seed": self.seed,
            **({"computer": self.computer} if self.computer else {}),
            **({"commitment": self.commitment} if self.commitment else {}),
            **({"chain": self.chain} if self.chain else {}),
            "actions": self.actions,
        }

    @classmethod
    def new(cls, scenario: Scenario, seed: int) -> SavedGame:
        return cls(Path(scenario.path).name, scenario.text, seed)


def _umask() -> int:
    """The process's umask, read once (on import, before any thread writes files: setting it
    to read it is not thread-safe)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _umask()


def _mode(path: Path, private: bool) -> int:
    """The permissions a file written over ``path`` gets: the replaced file's, else what
    ``open`` would give a new file (0666 less the umask); ``private``: the owner's only."""
    if private:
        return 0o600
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~UMASK


def write_atomic(path: str | Path, text: str, private: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file that is flushed, synced and renamed
    over it, then sync the folder (the rename itself survives a crash): never half a file. A
    full disk or a read-only folder raises SaveError and leaves the previous file as it was.
    The file gets the permissions a plain write would (a scenario saved to share is readable
    by others as the umask allows), ``private`` ones for secrets (a server's links)."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        if hasattr(os, "fchmod"):
            os.fchmod(fd, _mode(p, private))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
        tmp = None
        _sync_folder(folder)
    except OSError as e:
        raise SaveError(f"{p}: cannot save: {e.strerror or e}; the previous save is kept") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def _sync_folder(folder: Path) -> None:
    """fsync a folder so a rename in it is on disk (where the platform allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(path: str | Path) -> int:
    """Remove the temporary files a killed writer of ``path`` left behind; how many."""
    p = Path(path)
    n = 0
    for tmp in p.parent.glob(f".{p.name}.*.tmp"):
        try:
            tmp.unlink()
            n += 1
        except OSError:
            pass
    return n


def save(saved: SavedGame, path: str | Path) -> None:
    """Write the save (stable key order, one action a line for a person to read)."""
    d = saved.to_json()
    actions = d.pop("actions")
    head = json.dumps(d, indent=2, ensure_ascii=False)
    lines = ",\n".join("    " + json.dumps(a, sort_keys=True, ensure_ascii=False) for a in actions)
    body = head[:-2] + ',\n  "actions": [\n' + lines + ("\n  ]\n}\n" if actions else "  ]\n}\n")
    write_atomic(path, body)


def _unicode(text: str) -> str:
    """A text that can be written back: no lone surrogate (JSON's ``"\\ud800"``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("not valid Unicode text (a lone surrogate)") from None
    return text


def _at_most_actions(v: object) -> object:
    if isinstance(v, list) and len(v) > MAX_ACTIONS:
        raise ValueError(f"more than {MAX_ACTIONS:,} (the limit)")
    return v


_RECORD = ConfigDict(strict=True, extra="forbid")


class ScenarioRecord(BaseModel):
    """The scenario a save was played on, embedded whole (its hash binds the text)."""

    model_config = _RECORD
    name: Annotated[str, AfterValidator(_unicode)]
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="64 hex digits")]
    text: Annotated[str, AfterValidator(_unicode)]


class ActionRecord(BaseModel):
    """One action as played, with its check: the dice drawn so far and the state hash."""

    model_config = _RECORD
    action: Annotated[dict[str, Any], Field(description="an action (a JSON object)")]
    draws: Annotated[int, Field(ge=0, lt=2**40, description="a count of dice")]
    hash: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="64 hex digits")]


class CommitmentRecord(BaseModel):
    """A server's commitment to the seed, revealed: the scheme, the SHA-256 it published before
    the game and the salt (:mod:`.honest`)."""

    model_config = _RECORD
    scheme: Annotated[str, Field(max_length=40, description="hexfire-seed-v1")]
    sha256: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="64 hex digits")]
    salt: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$", description="32 hex digits")]


class SaveDoc(BaseModel):
    """The schema of a saved game (the keys a later format adds are ignored by this one)."""

    model_config = ConfigDict(strict=True, extra="ignore")
    format: Literal["hexfire-save"]
    version: int
    game_version: Any = "?"
    rules_version: Annotated[
        int | None, Field(ge=1, description=f"an integer 1-{RULES_VERSION}")
    ] = None
    scenario: Annotated[ScenarioRecord, Field(description="name, sha256 and text")]
    seed: Annotated[int, Field(ge=0, le=SEEDS.stop - 1, description="an integer 0 to 2**63 - 1")]
    actions: Annotated[
        list[ActionRecord],
        BeforeValidator(_at_most_actions),
        Field(description="a list of actions"),
    ]
    computer: Annotated[ComputerRecord | None, Field(description='{"side": ..., "level": 0-3}')] = (
        None
    )
    commitment: Annotated[
        CommitmentRecord | None, Field(description='{"scheme", "sha256", "salt"}')
    ] = None
    chain: Annotated[str | None, Field(pattern=r"^[0-9a-f]{64}$", description="64 hex digits")] = (
        None
    )


class _Chunk(BaseModel):
    """Some of a save's actions, validated together (a whole 200,000-action list in one call
    held the window's thread for over a second while a replay opened off it)."""

    model_config = _RECORD
    actions: list[ActionRecord]


CHUNK = 2000


def _action_records(raw: list, name: str) -> list[ActionRecord]:
    """A save's actions checked a chunk at a time, each action by its type's schema; the first
    error located by its index in the whole list."""
    if len(raw) > MAX_ACTIONS:
        raise _unreadable(f"{name}: actions: more than {MAX_ACTIONS:,} (the limit)")
    out: list[ActionRecord] = []
    for start in range(0, len(raw), CHUNK):
        try:
            chunk = _Chunk.model_validate({"actions": raw[start : start + CHUNK]}).actions
        except ValidationError as e:
            first = problems(_Chunk, e)[0]
            at = re.match(r"^actions\[(\d+)\]", first.path)
            path = f"actions[{int(at[1]) + start}]{first.path[at.end() :]}" if at else first.path
            raise _unreadable(f"{name}: {path}: {first.reason}") from None
        for i, a in enumerate(chunk, start):
            try:
                action_from_json(a.action)
            except ActionError as e:
                raise _unreadable(f"{name}: actions[{i}]: {e}") from None
        out.extend(chunk)
    return out


MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest save read (64 MiB; a 2,000-action game is about 300 KiB)."""


def _unreadable(message: str) -> SaveError:
    e = SaveError(message)
    e.unreadable = True
    return e


def parse_save(text: str, name: str = "<save>") -> SavedGame:
    """Check a save's JSON text; SaveError says what is wrong (``unreadable`` when it is not a
    save this hexfire can read at all, as opposed to one that does not verify). For a long
    save the collector is paused meanwhile (:mod:`.collector`; a short one is read before the
    collection that starts the pause would be over)."""
    if len(text) < PAUSE_FROM:
        return _parse_save(text, name)
    with collector_paused():
        return _parse_save(text, name)


PAUSE_FROM = 1 << 20
"""A save of a mebibyte or more (about 7,000 actions) is read with the collector paused."""


def _parse_save(text: str, name: str) -> SavedGame:
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise _unreadable(
            f"{name}: not a hexfire save (not valid JSON, line {e.lineno}: {e.msg}; truncated?)"
        ) from None
    except (ValueError, RecursionError) as e:  # a 5,000-digit number, nesting too deep
        reason = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        raise _unreadable(f"{name}: not a hexfire save ({reason})") from None
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise _unreadable(f'{name}: not a hexfire save (no "format": "{FORMAT}")')
    v = d.get("version")
    if not isinstance(v, int) or isinstance(v, bool) or v < 1:
        raise _unreadable(f"{name}: version: expected an integer 1-{VERSION}, got {v!r:.40}")
    if v > VERSION:
        raise _unreadable(
            f"{name}: saved by a newer hexfire (save format {v}; this one reads up to {VERSION})"
        )
    raw = d.get("actions")
    try:  # the envelope first, then the actions a chunk at a time (below)
        doc = SaveDoc.model_validate({**d, "actions": []} if isinstance(raw, list) else d)
    except ValidationError as e:
        first = problems(SaveDoc, e)[0]
        raise _unreadable(f"{name}: {first.path}: {first.reason}") from None
    assert isinstance(raw, list)
    records = _action_records(raw, name)
    sc = doc.scenario
    if hashlib.sha256(sc.text.encode("utf-8")).hexdigest() != sc.sha256:
        raise SaveError(
            f"{name}: scenario: the embedded scenario does not match its SHA-256 (edited?)"
        )
    rules = doc.rules_version if v >= 4 else 1
    if rules is None:
        raise _unreadable(f"{name}: rules_version: missing (format {v} records it)")
    if rules > RULES_VERSION:
        raise _unreadable(
            f"{name}: recorded under newer rules (rules version {rules}; this hexfire plays "
            f"version {RULES_VERSION})"
        )
    actions = [{"action": a.action, "draws": a.draws, "hash": a.hash} for a in records]
    computer = doc.computer.model_dump(exclude_none=True) if doc.computer is not None else None
    return SavedGame(
        sc.name,
        sc.text,
        doc.seed,
        actions,
        str(doc.game_version)[:40],
        v,
        rules,
        computer,
        doc.commitment.model_dump() if doc.commitment is not None else None,
        doc.chain,
    )


def read_save(path: str | Path) -> SavedGame:
    """Read and check a save file (at most :data:`MAX_SAVE_BYTES`)."""
    p = Path(path)
    try:
        data = read_regular(p, MAX_SAVE_BYTES)
    except OSError as e:
        raise _unreadable(f"{p}: cannot read: {e.strerror or e}") from None
    if len(data) > MAX_SAVE_BYTES:
        raise _unreadable(f"{p}: larger than {MAX_SAVE_BYTES // 2**20} MiB (the limit)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise _unreadable(f"{p}: not a hexfire save (not UTF-8 text)") from None
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
